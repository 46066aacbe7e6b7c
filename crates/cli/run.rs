//! `aboure run CONFIG.toml`: plays a tournament with a progress bar, live
//! standings and failures, then prints the standings table. All the work is
//! in `aboure-arbiter`; this file parses arguments, wires progress and
//! Ctrl-C, and prints.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use aboure_arbiter::{Event, RunOptions, RunOutcome, Shard};
use aboure_config::opening::{OpeningSource, OpeningsName};
use aboure_config::{Config, Format};

use aboure_report::{run_report_tally, write_run_reports, Report};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget};

use crate::run_eta::RunEta;
use crate::run_progress::Progress;

/// Run a tournament from a TOML file.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 when the run is over; 130 when interrupted (Ctrl-C); \
4 when this worker lost its claims on a shared run folder (an NFS lease expired, the \
claims folder vanished: ESTALE, EBADF, EIO, ENOLCK, ENOENT) and stopped writing, so its \
pairs are free for the others (start it again with --join); 2 for any other error."
)]
pub struct Args {
    /// The tournament file (see docs/tournament-file.md).
    config: PathBuf,
    /// Output folder (default: out/<config file stem>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue an interrupted run in the output folder.
    #[arg(long)]
    resume: bool,
    /// Games played at once (default: from the file, else half the cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Work as worker K of N (e.g. 3/8): start with slice K of the
    /// schedule, then take whatever no live worker holds. Workers share
    /// one --out folder; any subset of them finishes the run. For a
    /// league, only the worker's name (its pairs are decided as it asks).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Join the run in --out as one more worker (any number may join, on
    /// any machine that sees the folder); implies --resume.
    #[arg(long, conflicts_with = "shard")]
    join: bool,
    /// Play exactly slice K of N of the schedule (the pairs i with
    /// i mod N = K - 1), alone in --out, with no other worker: for
    /// machines that share no folder. `aboure report DIR_1 ... DIR_N`
    /// reads the slices as one run. Not for an SPRT or a league.
    #[arg(long, value_name = "K/N", conflicts_with_all = ["shard", "join"])]
    slice: Option<String>,
    /// Log every protocol line of every bot to out/logs/NAME.protocol.log.
    #[arg(long)]
    log_protocol: bool,
    /// More log output (-v info, -vv debug, -vvv trace).
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Less output: no progress bar, errors only.
    #[arg(short, long)]
    quiet: bool,
    /// Serve the live page of this run while it plays (see `aboure serve`).
    #[arg(long)]
    serve: bool,
    /// Where the live page listens (with --serve).
    #[command(flatten)]
    listen: crate::serve::Listen,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.listen.is_set() && !args.serve {
        anyhow::bail!(
            "--port, --address and --allow-remote say where the live page listens: add --serve"
        );
    }
    let config = aboure_config::load(&args.config)?;
    let shard = (args.shard.as_deref().or(args.slice.as_deref()))
        .map(str::parse::<Shard>)
        .transpose()?;
    let out_dir = match &args.out {
        Some(dir) => dir.clone(),
        None => {
            let stem = args.config.file_stem().unwrap_or_default();
            PathBuf::from("out").join(stem)
        }
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr())
    };
    init_logging(&args, bar.clone());
    crate::run_build::build(&config, &out_dir, args.quiet)?;
    let aboure_exe = std::env::current_exe().context("cannot locate the aboure binary")?;
    aboure_arbiter::program::check(&config, &aboure_exe)?;
    crate::run_progress::above_bar(&bar, args.quiet, &openings_line(&config));
    let progress = Arc::new(progress_of(&config, &bar, args.quiet));
    let (summary, live, runtime) = play(&args, &config, shard, &out_dir, &bar, &progress)?;

    let report = end_of_run_report(&summary);
    let first_forfeits = progress
        .first_forfeits
        .lock()
        .map(|f| f.clone())
        .unwrap_or_default();
    let startups = progress
        .startups
        .lock()
        .map(|s| s.summary())
        .unwrap_or_default();
    print_table(&config, &summary, &report, &first_forfeits, &startups);
    if let Ok(report) = &report {
        write_reports(&summary, report);
    }
    if summary.interrupted {
        print_interrupted(&args, &config, &summary, &out_dir);
        return Ok(ExitCode::from(130));
    }
    if let (Some(live), Some(runtime)) = (live, runtime) {
        eprintln!(
            "the run is over; the live page stays up until Ctrl-C: {}",
            live.url
        );
        runtime.block_on(async {
            let _ = tokio::signal::ctrl_c().await;
        });
    }
    Ok(ExitCode::SUCCESS)
}

/// The openings the run plays, said before its first game: the built-in
/// book is a default the tournament file does not show.
fn openings_line(config: &Config) -> String {
    let name = config.openings_name();
    match (name, config.openings()) {
        (OpeningsName::BalancedBook, OpeningSource::File(book)) => format!(
            "openings: {name} ({} openings), the default of an SPRT and a league; \
             [openings] plies = 4 plays random openings instead",
            book.len()
        ),
        (_, OpeningSource::File(book)) => format!("openings: {name} ({} openings)", book.len()),
        (_, OpeningSource::Random { .. }) => {
            format!("openings: {name}, from seed {}", config.seed())
        }
    }
}

/// The progress shown while `config` plays, on `bar`.
fn progress_of(config: &Config, bar: &ProgressBar, quiet: bool) -> Progress {
    let sprt_pairs = match config.format() {
        Format::Sprt => Some(u64::from(config.pairs())),
        _ => None,
    };
    Progress {
        bar: bar.clone(),
        standings: Mutex::new(Vec::new()),
        sprt: Mutex::new(None),
        eta: Mutex::new(RunEta::new(sprt_pairs)),
        workers: Mutex::new(None),
        first_forfeits: Mutex::new(BTreeMap::new()),
        league: Mutex::new(None),
        startups: Mutex::default(),
        league_bar: config
            .league()
            .is_some_and(|rule| rule.games.is_none() && rule.until.is_some()),
        quiet,
    }
}

/// Plays the run on a runtime of its own, Ctrl-C wired to stop it; gives
/// back the runtime while the live page (`--serve`) still serves on it.
fn play(
    args: &Args,
    config: &Config,
    shard: Option<Shard>,
    out_dir: &std::path::Path,
    bar: &ProgressBar,
    progress: &Arc<Progress>,
) -> anyhow::Result<(
    RunOutcome,
    Option<aboure_serve::Running>,
    Option<tokio::runtime::Runtime>,
)> {
    let observer = {
        let progress = progress.clone();
        Arc::new(move |event: &Event| progress.on(event))
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let (interrupt_tx, interrupt) = tokio::sync::watch::channel(false);
    let options = RunOptions {
        out_dir: out_dir.to_owned(),
        resume: args.resume,
        concurrency: args.concurrency,
        shard,
        join: args.join,
        slice: args.slice.is_some(),
        log_protocol: args.log_protocol,
        aboure_exe: std::env::current_exe().context("cannot locate the aboure binary")?,
        interrupt,
        observer,
        kept: None,
    };
    let summary = runtime.block_on(async {
        let bar = bar.clone();
        let live = match args.serve {
            true => Some(serve_run(args, out_dir, &bar).await?),
            false => None,
        };
        let quiet = args.quiet;
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                let line = "interrupted: stopping the bots (Ctrl-C again to quit at once)";
                crate::run_progress::above_bar(&bar, quiet, line);
                let _ = interrupt_tx.send(true);
                if tokio::signal::ctrl_c().await.is_ok() {
                    std::process::exit(130);
                }
            }
        });
        let summary = aboure_arbiter::run(config, options).await?;
        anyhow::Ok((summary, live))
    });
    bar.finish_and_clear();
    let (summary, live) = summary?;
    // The live page keeps the runtime serving after the run.
    let runtime = match live {
        Some(_) => Some(runtime),
        None => {
            runtime.shutdown_timeout(std::time::Duration::from_secs(1));
            None
        }
    };
    Ok((summary, live, runtime))
}

/// How many games an interrupted run saved, and the command that goes on.
fn print_interrupted(
    args: &Args,
    config: &Config,
    summary: &RunOutcome,
    out_dir: &std::path::Path,
) {
    // A league stopped only by its verdict has no number of games.
    let open_ended = config.league().is_some_and(|rule| rule.games.is_none());
    let of = match open_ended {
        true => String::new(),
        false => format!(" of {}", summary.scheduled),
    };
    eprintln!(
        "interrupted after {}{of} games; they are saved in {}",
        summary.finished,
        summary.games_path.display()
    );
    let mut resume = format!(
        "aboure run {} --out {} --resume",
        args.config.display(),
        out_dir.display()
    );
    if let Some(s) = &args.shard {
        resume += &format!(" --shard {s}");
    }
    if args.join {
        resume += " --join";
    }
    eprintln!("to continue: {resume}");
}

/// Starts the live page of the run's output folder (which the run may be
/// about to create) and prints its URL above the progress bar.
async fn serve_run(
    args: &Args,
    out_dir: &std::path::Path,
    bar: &ProgressBar,
) -> anyhow::Result<aboure_serve::Running> {
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let live = aboure_serve::start(args.listen.options(vec![out_dir.to_owned()])).await?;
    // Shown even with --quiet: the page cannot be found without it.
    crate::run_progress::above_bar(bar, false, &format!("live page: {}", live.url));
    Ok(live)
}

/// The end-of-run summary: the ratings report of every game in the output
/// folder (this run's and earlier ones'), then how the run ended, as the
/// arbiter words it ([`RunOutcome::ending`]), and the slow start-ups.
fn print_table(
    config: &Config,
    summary: &RunOutcome,
    report: &anyhow::Result<Report>,
    first_forfeits: &BTreeMap<String, String>,
    startups: &str,
) {
    // Written whole, then printed safe for a terminal: names and details
    // come from the bots and the results files.
    let mut out = match report {
        Ok(report) => report.text(),
        // The run's own tally still stands.
        Err(e) => format!("no ratings: {e:#}\n{}", summary.standings_table()),
    };
    out += &summary.ending(config, first_forfeits);
    out += startups;
    print!("{}", aboure_report::printable(&out));
}

fn init_logging(args: &Args, bar: ProgressBar) {
    use tracing_subscriber::EnvFilter;
    let level = match (args.quiet, args.verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "info",
        (false, 2) => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(move || BarWriter {
            bar: bar.clone(),
            buf: Vec::new(),
        })
        .try_init();
}

/// Writes log lines to stderr without tearing the progress bar.
struct BarWriter {
    bar: ProgressBar,
    buf: Vec<u8>,
}

impl Write for BarWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for BarWriter {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        self.bar.suspend(|| {
            let _ = std::io::stderr().write_all(&buf);
        });
    }
}

/// The report of everything in the run's folder (every shard's results
/// file in it), read as a stream on every core: a run of any length fits
/// in memory. Which report that is and where it goes is the report
/// crate's ([`aboure_report::run_report_tally`]); here it gets a progress
/// bar on a terminal.
fn end_of_run_report(summary: &RunOutcome) -> anyhow::Result<Report> {
    let tally = run_report_tally(&summary.out_dir).context("cannot read the results back")?;
    let files = std::slice::from_ref(&summary.out_dir);
    let streamed =
        crate::report::stream(tally, files, 0).context("cannot read the results back")?;
    Ok(streamed.report)
}

/// Writes the end-of-run reports next to `games.jsonl`, so a run leaves
/// its summary behind as well as its games.
fn write_reports(summary: &RunOutcome, report: &Report) {
    let dir = summary
        .games_path
        .parent()
        .unwrap_or(std::path::Path::new("."));
    for (path, e) in write_run_reports(dir, report) {
        eprintln!("aboure: warning: cannot write {}: {e}", path.display());
    }
    let folder = aboure_records::RunFolder::new(dir);
    eprintln!("reports: {}", folder.html_report().display());
}
