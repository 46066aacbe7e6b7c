//! `aboure report`: rate the games of one or more results files and print
//! the standings as text, JSON or a self-contained HTML page.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use aboure_report::{
    league_of, openings_of, prior_of, read_files, sandbox_of, seed_of, sprt_of, AccuracyOptions,
    IntervalKind, Progress, Report, ReportOptions, ReportTally, DEFAULT_ACCURACY_GAMES,
    DEFAULT_VIEWER_GAMES,
};
use aboure_stats::bradley_terry::{BootstrapOptions, DEFAULT_BOOTSTRAP_SAMPLES};
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Rate the games of `games.jsonl` files (from a run, its shards, or several
/// runs), and of CSV and PGN results from elsewhere (told from the content).
#[derive(clap::Args)]
pub struct Args {
    /// Results files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Pin a bot's rating, e.g. `--anchor random=0` (default: centred on
    /// 0); repeat it for several fixed anchors (the others are fitted
    /// around them, as Ordo's), for a rating list kept across runs. A
    /// loose anchor, `--anchor greedy=150+-30` (or `150±30`), is Ordo's
    /// anchor with an uncertainty: a normal prior on that bot's rating with
    /// that standard deviation (the ratings are then the posterior mode);
    /// it combines with fixed anchors, and without one the loose anchors
    /// set the scale. Not with `--intervals likelihood`.
    #[arg(long, value_name = "NAME=ELO[+-SD]", value_parser = parse_anchor)]
    anchor: Vec<AnchorArg>,
    /// How the ratings' 95% intervals are computed: `covariance` (BayesElo's,
    /// symmetric), `likelihood` (profile likelihood: asymmetric, honest for
    /// a bot that almost never loses or has few games; about a hundred refits
    /// per bot) or `bootstrap` (percentiles over resamples of the game
    /// pairs, each pair resampled whole since its two games are correlated;
    /// the full fit redone on each; open at the top for a bot that concedes
    /// no point in more than 2.5% of the resamples).
    #[arg(long, value_enum, default_value_t = Intervals::Covariance)]
    intervals: Intervals,
    /// Virtual draws per bot, spread over its opponents (BayesElo's `prior`
    /// command): they keep a bot that won or lost every game finite and
    /// pull thinly sampled ratings in. `0` for none (pure maximum
    /// likelihood). Default: 2 (BayesElo's) for a league's run folder,
    /// none otherwise.
    #[arg(long, value_name = "N", value_parser = parse_prior, allow_negative_numbers = true)]
    prior: Option<f64>,
    /// Resamples of `--intervals bootstrap`.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BOOTSTRAP_SAMPLES as u64, value_parser = clap::value_parser!(u64).range(1..))]
    bootstrap_samples: u64,
    /// Seed of `--intervals bootstrap` (default: the run's seed from its
    /// `run.json`, else 0); the same seed gives the same intervals.
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,
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
    /// Most games whose per-move accuracy the JSON report holds (every
    /// forfeit first, then the most recent); the per-bot figures count them all.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ACCURACY_GAMES)]
    accuracy_games: usize,
    /// Also write every analysed game's per-move accuracy to FILE, one JSON
    /// object a line (as in the JSON report's `accuracy.games`).
    #[arg(long, value_name = "FILE")]
    accuracy_games_out: Option<PathBuf>,
    /// Threads parsing the files and analysing accuracy (default: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Intervals {
    Covariance,
    Likelihood,
    Bootstrap,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
}

/// `--anchor NAME=ELO` (fixed) or `NAME=ELO+-SD` / `NAME=ELO±SD` (loose).
#[derive(Clone, Debug, PartialEq)]
struct AnchorArg {
    name: String,
    elo: f64,
    sd: Option<f64>,
}

fn parse_anchor(text: &str) -> anyhow::Result<AnchorArg> {
    let Some((name, value)) = text.rsplit_once('=') else {
        anyhow::bail!("{text:?} is not NAME=ELO or NAME=ELO+-SD");
    };
    let number = |s: &str| -> anyhow::Result<f64> {
        let x: f64 =
            (s.trim().parse()).map_err(|_| anyhow::anyhow!("{s:?} in {text:?} is not a number"))?;
        if !x.is_finite() {
            anyhow::bail!("{s:?} in {text:?} is not a finite number");
        }
        Ok(x)
    };
    let (elo, sd) = match value.split_once("+-").or_else(|| value.split_once('±')) {
        Some((elo, sd)) => (number(elo)?, Some(number(sd)?)),
        None => (number(value)?, None),
    };
    if name.is_empty() {
        anyhow::bail!("{text:?} names no bot");
    }
    if sd.is_some_and(|sd| sd <= 0.0) {
        anyhow::bail!("{text:?}: the standard deviation must be positive");
    }
    Ok(AnchorArg {
        name: name.to_owned(),
        elo,
        sd,
    })
}

/// `--prior N`: a non-negative finite number of virtual draws.
fn parse_prior(text: &str) -> anyhow::Result<f64> {
    let prior: f64 = (text.trim().parse())
        .map_err(|_| anyhow::anyhow!("{text:?} is not a number of virtual draws"))?;
    if !prior.is_finite() || prior < 0.0 {
        anyhow::bail!(
            "{text:?}: the prior must be a finite number of virtual draws, 0 or more (0 for none)"
        );
    }
    Ok(prior)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let [dir] = args.files.as_slice() {
        if aboure_report::is_tune_folder(dir) {
            return tune(dir, args.format);
        }
    }
    let options = report_options(&args)?;
    let mut tally = ReportTally::new(options);
    if let Some(path) = &args.accuracy_games_out {
        let file = std::fs::File::create(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        tally.write_all_analyses_to(file);
    }
    let Streamed {
        report,
        stream_error,
        read,
        elapsed,
        games,
    } = stream(tally, &args.files, args.threads)?;
    if let Some(e) = stream_error {
        bail!(
            "cannot write {}: {e}",
            args.accuracy_games_out.unwrap_or_default().display()
        );
    }
    if let Some(a) = &report.accuracy {
        let secs = elapsed.as_secs_f64().max(1e-9);
        eprintln!(
            "read {games} games in {:.1} s; accuracy: {} games, {} positions solved in {secs:.1} s ({:.0} games/s, {:.0} positions/s)",
            read.as_secs_f64(),
            a.analysed_games,
            a.positions,
            a.analysed_games as f64 / secs,
            a.positions as f64 / secs,
        );
    }
    for warning in &report.warnings {
        eprintln!("aboure: warning: {}", aboure_report::printable(warning));
    }
    for AnchorArg { name, .. } in &args.anchor {
        if !report.players.iter().any(|p| &p.name == name) {
            let name = aboure_report::printable(name);
            bail!("--anchor {name}: no bot of that name played in these files");
        }
    }
    let text = match args.format {
        Format::Text => report.text(),
        Format::Json => report.json_text(),
        Format::Html => report.html(),
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// The report's options from the arguments, and from what the run folders
/// say (the SPRT, the sandbox, the league, the openings book, the prior and
/// seed of the run).
fn report_options(args: &Args) -> anyhow::Result<ReportOptions> {
    let sprt = sprt_of(&args.files).context("cannot read the results")?;
    let sandbox = sandbox_of(&args.files).context("cannot read the results")?;
    let league = league_of(&args.files).context("cannot read the results")?;
    let openings = openings_of(&args.files).context("cannot read the results")?;
    let accuracy = (!args.no_accuracy).then_some(AccuracyOptions {
        node_budget: args.accuracy_budget,
        table_mb: args.accuracy_table_mb,
        threads: args.threads,
        games: match args.format {
            Format::Json => args.accuracy_games,
            // Text shows no game's moves; the page, only its own games'.
            Format::Text | Format::Html => 0,
        },
    });
    let loose = args.anchor.iter().any(|a| a.sd.is_some());
    if loose && matches!(args.intervals, Intervals::Likelihood) {
        bail!("--intervals likelihood does not take loose anchors (NAME=ELO+-SD): their prior is no likelihood; use covariance or bootstrap");
    }
    Ok(ReportOptions {
        anchors: (args.anchor.iter())
            .filter(|a| a.sd.is_none())
            .map(|a| (a.name.clone(), a.elo))
            .collect(),
        loose_anchors: (args.anchor.iter())
            .filter_map(|a| Some((a.name.clone(), a.elo, a.sd?)))
            .collect(),
        prior: match args.prior {
            Some(prior) => (prior > 0.0).then_some(prior),
            None => prior_of(&args.files).context("cannot read the results")?,
        },
        sprt,
        intervals: match args.intervals {
            Intervals::Covariance => IntervalKind::Covariance,
            Intervals::Likelihood => IntervalKind::Likelihood,
            Intervals::Bootstrap => IntervalKind::Bootstrap,
        },
        bootstrap: BootstrapOptions {
            samples: usize::try_from(args.bootstrap_samples).unwrap_or(usize::MAX),
            seed: match args.seed {
                Some(seed) => seed,
                None => seed_of(&args.files)
                    .context("cannot read the results")?
                    .unwrap_or(0),
            },
            threads: args.threads,
        },
        sandbox,
        league,
        openings,
        accuracy,
        // Only the page shows games: text and JSON need no copy of them.
        viewer_games: Some(match args.format {
            Format::Html => args.viewer_games,
            Format::Text | Format::Json => 0,
        }),
    })
}

/// A report made by [`stream`].
pub(crate) struct Streamed {
    pub report: Report,
    /// Why the per-game accuracy stream could not be written, if it could not.
    pub stream_error: Option<std::io::Error>,
    /// Time spent reading the files.
    pub read: Duration,
    /// Time spent in all, the accuracy analysis included.
    pub elapsed: Duration,
    /// Games counted.
    pub games: u64,
}

/// Reads `files` into `tally` (on `threads` threads, 0: every core) and
/// makes the report, with a progress bar on a terminal: the bytes read,
/// then the accuracy analysis as it catches up with the reading.
pub(crate) fn stream(
    mut tally: ReportTally,
    files: &[PathBuf],
    threads: usize,
) -> anyhow::Result<Streamed> {
    let bar = progress_bar();
    let started = Instant::now();
    read_files(&mut tally, files, threads, &mut |p: &Progress| {
        bar.set_length(p.total_bytes);
        bar.set_position(p.bytes);
        bar.set_message(format!("{} games", p.games));
    })
    .context("cannot read the results")?;
    let read = started.elapsed();
    let games = tally.games();
    if tally.analysed().is_some() {
        // The analysis runs behind the reading: follow it to the end.
        bar.set_length(games);
        bar.set_position(tally.analysed().unwrap_or(0));
        bar.set_style(style(
            "accuracy {bar:30} {pos}/{len} games analysed {per_sec} {eta}",
        ));
        while tally.analysed().unwrap_or(games) < games {
            std::thread::sleep(Duration::from_millis(100));
            bar.set_position(tally.analysed().unwrap_or(games));
        }
    }
    let (report, stream_error) = tally.finish_with_stream();
    bar.finish_and_clear();
    Ok(Streamed {
        report,
        stream_error,
        read,
        elapsed: started.elapsed(),
        games,
    })
}

/// A progress bar on a terminal, nothing otherwise.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    bar.set_style(style(
        "reading {bar:30} {bytes}/{total_bytes} {msg} {bytes_per_sec} {eta}",
    ));
    bar
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// The report of a tune's folder: each parameter's path and the objective.
fn tune(dir: &std::path::Path, format: Format) -> anyhow::Result<ExitCode> {
    let report = aboure_report::TuneReport::load(dir)?;
    let text = match format {
        Format::Text => aboure_report::printable(&report.text()).into_owned(),
        Format::Json => report.json(),
        Format::Html => report.html(),
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}
