//! `aboure report`: rate the games of one or more results files and print
//! the standings as text, JSON or a self-contained HTML page.

use std::path::PathBuf;
use std::process::ExitCode;

use aboure_report::{load, AccuracyOptions, Report, ReportOptions, DEFAULT_VIEWER_GAMES};
use anyhow::{bail, Context};

/// Rate the games of `games.jsonl` files (from a run, its shards, or several
/// runs) and CSV files with the header `south,north,result`.
#[derive(clap::Args)]
pub struct Args {
    /// Results files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Pin a bot's rating, e.g. `--anchor random=0` (default: centred on 0).
    #[arg(long, value_name = "NAME=ELO", value_parser = parse_anchor)]
    anchor: Option<(String, f64)>,
    /// Skip the per-move accuracy analysis with the exact solver.
    #[arg(long)]
    no_accuracy: bool,
    /// Most solver nodes the accuracy analysis may spend; games beyond it
    /// are left out of the accuracy figures.
    #[arg(long, value_name = "NODES", default_value_t = AccuracyOptions::default().node_budget)]
    accuracy_budget: u64,
    /// Transposition table of the accuracy analysis, in megabytes.
    #[arg(long, value_name = "MB", default_value_t = AccuracyOptions::default().table_mb)]
    accuracy_table_mb: usize,
    /// Most games the HTML page embeds for its game list and viewer (every
    /// forfeit first, then the most recent); the ratings count them all.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_VIEWER_GAMES)]
    viewer_games: usize,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
}

fn parse_anchor(text: &str) -> Result<(String, f64), String> {
    let Some((name, elo)) = text.rsplit_once('=') else {
        return Err(format!("{text:?} is not NAME=ELO"));
    };
    let elo: f64 = elo
        .trim()
        .parse()
        .map_err(|_| format!("{elo:?} in {text:?} is not a number"))?;
    if name.is_empty() || !elo.is_finite() {
        return Err(format!("{text:?} is not NAME=ELO"));
    }
    Ok((name.to_owned(), elo))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (input, sprt) = load(&args.files).context("cannot read the results")?;
    for warning in &input.warnings {
        eprintln!("aboure: warning: {warning}");
    }
    if let Some((name, _)) = &args.anchor {
        if !input
            .games
            .iter()
            .any(|g| &g.south == name || &g.north == name)
        {
            bail!("--anchor {name}: no bot of that name played in these files");
        }
    }
    let options = ReportOptions {
        anchor: args.anchor,
        sprt,
        accuracy: (!args.no_accuracy).then_some(AccuracyOptions {
            node_budget: args.accuracy_budget,
            table_mb: args.accuracy_table_mb,
            progress: true,
        }),
        // Only the page shows games: text and JSON need no copy of them.
        viewer_games: Some(match args.format {
            Format::Html => args.viewer_games,
            Format::Text | Format::Json => 0,
        }),
    };
    let report = Report::from_input(&input, &options);
    let text = match args.format {
        Format::Text => report.text(),
        Format::Json => report.json_text(),
        Format::Html => report.html(),
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}
