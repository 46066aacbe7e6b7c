//! `aboure tune CONFIG.toml`: tunes a bot's int and float options by SPSA (the
//! `[tune]` table), printing each iteration's theta on stderr and the final
//! values as `NAME = VALUE` lines on stdout. All the work is in
//! `aboure_tuning`; this file parses arguments, wires Ctrl-C and
//! prints.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use aboure_config::Config;
use aboure_tuning::{TuneError, TuneOptions, TuneProgress};
use anyhow::Context;

/// What prints a tune's progress.
type Progress = Arc<dyn Fn(&TuneProgress) + Send + Sync>;

/// Tune a bot's parameters from a TOML file with a [tune] table.
#[derive(clap::Args)]
pub struct Args {
    /// The tournament file with its [tune] table (see docs/tuning.md).
    config: PathBuf,
    /// Output folder (default: out/<config file stem>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue an interrupted tune in the output folder, on the same path.
    #[arg(long, conflicts_with = "join")]
    resume: bool,
    /// Play the games of the tune in DIR as a worker beside its owner
    /// (objective = "games"): until the tune is finished.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    join: Option<PathBuf>,
    /// No progress lines.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = aboure_config::load(&args.config)?;
    let Some(tune) = config.tune() else {
        anyhow::bail!(
            "{}: no [tune] table: `aboure tune` needs one (see docs/tuning.md)",
            args.config.display()
        );
    };
    let out_dir = match (&args.join, &args.out) {
        (Some(dir), _) | (None, Some(dir)) => dir.clone(),
        (None, None) => PathBuf::from("out").join(args.config.file_stem().unwrap_or_default()),
    };
    crate::run_build::build(&config, &out_dir, args.quiet)?;
    let aboure_exe = std::env::current_exe().context("cannot locate the aboure binary")?;
    aboure_arbiter::program::check(&config, &aboure_exe)?;
    let names: Vec<String> = tune.parameters().iter().map(|p| p.name.clone()).collect();
    let total = tune.spsa().iterations;
    let progress = progress_printer(names, total, args.quiet);
    let joining = args.join.is_some();
    let outcome = match play(&args, &config, &out_dir, progress)? {
        Ok(Joined::Owned(o)) => *o,
        Ok(Joined::Helped(n)) => {
            eprintln!(
                "the tune in {} is finished; this worker played in {n} of its iterations",
                out_dir.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        Err(TuneError::Interrupted(done)) => {
            let again = if joining { "--join" } else { "--resume --out" };
            eprintln!(
                "interrupted after {done} of {total} iterations; continue with {again} {}",
                out_dir.display()
            );
            return Ok(ExitCode::from(130));
        }
        Err(e) => return Err(e.into()),
    };
    if let Some(c) = &outcome.file.confirm {
        eprintln!(
            "confirm: {} after {} games ({} points for the tuned values): {}",
            c.verdict, c.games, c.points, c.description
        );
    }
    eprintln!(
        "tune written to {}",
        out_dir.join(aboure_records::TUNE_FILE).display()
    );
    for (name, value) in &outcome.values {
        println!("{name} = {value}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints each step of a tune of the parameters `names` over `total`
/// iterations, with the trend of the last [`TREND`] (nothing with `quiet`).
fn progress_printer(names: Vec<String>, total: u32, quiet: bool) -> Progress {
    // The thetas of the last TREND iterations, for the trend.
    let recent = std::sync::Mutex::new(std::collections::VecDeque::new());
    Arc::new(move |p: &TuneProgress| {
        let Ok(mut recent) = recent.lock() else {
            return;
        };
        if let TuneProgress::Step(s) = p {
            recent.push_back(s.theta.clone());
            if recent.len() > TREND + 1 {
                recent.pop_front();
            }
        }
        if !quiet {
            eprintln!("{}", describe(p, &names, total, &recent));
        }
    })
}

/// Tunes (or joins the tune in `out_dir`) on a runtime of its own, Ctrl-C
/// wired to stop it.
fn play(
    args: &Args,
    config: &Config,
    out_dir: &std::path::Path,
    progress: Progress,
) -> anyhow::Result<Result<Joined, TuneError>> {
    let joining = args.join.is_some();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let (interrupt_tx, interrupt) = tokio::sync::watch::channel(false);
    let options = TuneOptions {
        out_dir: out_dir.to_owned(),
        resume: args.resume,
        join: joining,
        aboure_exe: std::env::current_exe().context("cannot locate the aboure binary")?,
        interrupt,
        progress,
    };
    let outcome = runtime.block_on(async {
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("interrupted: stopping the bots (Ctrl-C again to quit at once)");
                let _ = interrupt_tx.send(true);
                if tokio::signal::ctrl_c().await.is_ok() {
                    std::process::exit(130);
                }
            }
        });
        match joining {
            true => aboure_tuning::join(config, options)
                .await
                .map(Joined::Helped),
            false => aboure_tuning::tune(config, options)
                .await
                .map(|o| Joined::Owned(Box::new(o))),
        }
    });
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    Ok(outcome)
}

/// What a tune's process did: owned the tune, or helped it as a worker.
enum Joined {
    Owned(Box<aboure_tuning::TuneOutcome>),
    Helped(u32),
}

/// Iterations the trend of a progress line spans.
const TREND: usize = 10;

/// A progress line: the iteration, each parameter's theta and its change
/// over the last iterations (`recent`, oldest first, ending with this
/// one's), and the gain.
fn describe(
    p: &TuneProgress,
    names: &[String],
    total: u32,
    recent: &std::collections::VecDeque<Vec<f64>>,
) -> String {
    match p {
        TuneProgress::Resumed(done, total) => {
            format!("resuming after iteration {done} of {total}")
        }
        TuneProgress::Confirming => {
            "confirming the tuned values against the start ones by an SPRT".to_owned()
        }
        TuneProgress::Joining(k) => format!("joining the games of iteration {k}/{total}"),
        TuneProgress::Waiting(k) => {
            format!("waiting for the tune's owner to write iteration {k}/{total}")
        }
        TuneProgress::Step(s) => {
            let span = recent.len().saturating_sub(1);
            let theta: Vec<String> = names
                .iter()
                .zip(&s.theta)
                .enumerate()
                .map(|(i, (n, t))| match recent.front().and_then(|f| f.get(i)) {
                    Some(old) if span > 0 => format!("{n} {t:.2} ({:+.2} in {span})", t - old),
                    _ => format!("{n} {t:.2}"),
                })
                .collect();
            let loss = s
                .loss
                .map_or(String::new(), |l| format!(", {l:.3} seeds lost a move"));
            format!(
                "iteration {}/{total}: {} (gain {:+.3}{loss}, {:.1} s)",
                s.iteration,
                theta.join(", "),
                s.gain,
                s.seconds
            )
        }
    }
}
