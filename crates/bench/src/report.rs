//! `aboure bench report`: the report's speed and peak memory on a synthetic
//! results file, against a Python loop that only parses each line, run on
//! the same file in the same run (so a busy machine slows both).
//!
//! Then the rating comparison of issue 25: the same games among 8 players
//! of known strength (see [`ratings`]) as JSON lines, CSV and PGN, each
//! rated by `aboure report --no-accuracy --format json`, beside the figures
//! Ordo and BayesElo were measured at on this machine for the same set
//! (they are not installed here: their published figures are printed, and
//! labelled so), and the first-move advantage and draw parameter each fit
//! finds against the true ones.
//!
//! Each measured command runs as a child process; its peak resident memory
//! comes from the kernel (`wait4`'s `ru_maxrss`), its time from the wall
//! clock around it.

mod ratings;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use aboure_stats::bradley_terry::DEFAULT_BOOTSTRAP_SAMPLES;

/// Why the report's benchmark could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum ReportBenchError {
    /// A file could not be read or written, or a program not started.
    #[error("{context}")]
    Io {
        /// What was being done.
        context: String,
        /// Why.
        source: std::io::Error,
    },
    /// A measured program failed.
    #[error("{what} failed on the benchmark file")]
    Failed {
        /// The program.
        what: String,
    },
    /// A report is not JSON.
    #[error("{} is not JSON", path.display())]
    Json {
        /// The report.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// A report lacks a figure the benchmark reads.
    #[error("{}: {what}", path.display())]
    Missing {
        /// The report.
        path: PathBuf,
        /// What it lacks.
        what: &'static str,
    },
}

/// Wraps an I/O error with what was being done.
fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> ReportBenchError {
    let context = context.into();
    move |source| ReportBenchError::Io { context, source }
}

/// The baseline: what a one-line Python script does with the file.
const PYTHON: &str = "import json, sys\nfor line in open(sys.argv[1]):\n    json.loads(line)\n";

/// Measures the report on `games` synthetic games (in `file`, written if
/// it is absent), with the per-move accuracy too if `accuracy`, then
/// compares the rating of the three formats.
pub fn run(games: u64, file: Option<PathBuf>, accuracy: bool) -> Result<(), ReportBenchError> {
    let exe = std::env::current_exe().map_err(io("cannot locate the aboure binary"))?;
    let path = file
        .unwrap_or_else(|| std::env::temp_dir().join(format!("aboure-bench-report-{games}.jsonl")));
    if !path.exists() {
        let t = Instant::now();
        crate::synthetic::write(&path, games)
            .map_err(io(format!("cannot write {}", path.display())))?;
        eprintln!(
            "wrote {} ({games} games) in {:.1} s",
            path.display(),
            t.elapsed().as_secs_f64()
        );
    }
    let size = std::fs::metadata(&path)
        .map_err(io(format!("cannot read {}", path.display())))?
        .len();
    let file = path.display().to_string();
    println!("{} games, {:.1} MB: {file}", games, size as f64 / 1e6);
    let python = measure(
        Command::new("python3").args(["-c", PYTHON, &file]),
        "python3 (apt-get install python3)",
        None,
    )?;
    println!(
        "{:<34} {:>8.2} s {:>8.1} MB/s {:>8.0} MB peak",
        "python3 json.loads loop",
        python.seconds,
        size as f64 / 1e6 / python.seconds,
        python.peak_mb
    );
    let mut cases: Vec<(&str, Vec<&str>)> = vec![
        ("report --no-accuracy (text)", vec!["--no-accuracy"]),
        (
            "report --no-accuracy --format json",
            vec!["--no-accuracy", "--format", "json"],
        ),
        (
            "report --no-accuracy --format html",
            vec!["--no-accuracy", "--format", "html"],
        ),
    ];
    if accuracy {
        cases.push(("report (text, with accuracy)", vec![]));
    }
    for (name, extra) in cases {
        let mut command = Command::new(&exe);
        command.arg("report").arg(&path).args(extra);
        let m = measure(&mut command, "aboure", None)?;
        println!(
            "{name:<34} {:>8.2} s {:>8.1} MB/s {:>8.0} MB peak   {:.1}x python's speed, {:.2}x its memory",
            m.seconds,
            size as f64 / 1e6 / m.seconds,
            m.peak_mb,
            python.seconds / m.seconds,
            m.peak_mb / python.peak_mb
        );
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    compare_formats(&exe, dir, games)
}

/// Ordo's and BayesElo's figures on the 1M-game set, from issue 25 (built
/// from their published source, same machine, alternating runs).
const PUBLISHED: [(&str, f64, f64); 2] = [
    ("Ordo (default settings)", 1.6, 100.0),
    ("BayesElo (mm 1 1)", 5.1, 16.0),
];

/// The rating comparison: each format of the same games, timed, with its
/// peak memory and its largest miss of a true strength.
fn compare_formats(exe: &Path, dir: &Path, games: u64) -> Result<(), ReportBenchError> {
    let files = ratings::Files::in_dir(dir, games);
    let t = Instant::now();
    files.write(games).map_err(io(format!(
        "cannot write the rating files in {}",
        dir.display()
    )))?;
    println!(
        "\nrating {games} games of {} players of known strength ({:.0}% draws, first move +{} Elo); \
         files ready in {:.1} s",
        ratings::PLAYERS.len(),
        ratings::DRAWS * 100.0,
        ratings::FIRST_MOVE,
        t.elapsed().as_secs_f64()
    );
    println!(
        "{:<46} {:>9} {:>8} {:>10}   fitted first move / draw Elo (true {:+.0} / {:.1})",
        "aboure report --no-accuracy --format json",
        "size",
        "time",
        "peak",
        ratings::FIRST_MOVE,
        ratings::DRAW_ELO,
    );
    let out = dir.join(format!("aboure-bench-ratings-{games}.report.json"));
    for (name, file) in files.each() {
        let mut command = Command::new(exe);
        command
            .args(["report", "--no-accuracy", "--format", "json"])
            .arg(file);
        let m = measure(&mut command, "aboure", Some(&out))?;
        let (first, draw) = fitted(&out)?;
        println!(
            "{name:<46} {:>6.0} MB {:>6.2} s {:>7.1} MB   {first:+.1} / {draw:.1}",
            size_mb(file)?,
            m.seconds,
            m.peak_mb,
        );
    }
    // The bootstrap over game pairs: the JSON lines hold the pairs, CSV
    // and PGN rows are singletons.
    for (name, file) in files.each() {
        let mut command = Command::new(exe);
        command
            .args(["report", "--no-accuracy", "--format", "json"])
            .args(["--intervals", "bootstrap"])
            .arg(file);
        let m = measure(&mut command, "aboure", Some(&out))?;
        let widest = widest_interval(&out)?;
        println!(
            "{:<46} {:>6.0} MB {:>6.2} s {:>7.1} MB   widest 95% interval {widest:.1} Elo",
            format!("{name}, --intervals bootstrap ({DEFAULT_BOOTSTRAP_SAMPLES})"),
            size_mb(file)?,
            m.seconds,
            m.peak_mb,
        );
    }
    std::fs::remove_file(&out).ok();
    for (name, seconds, mb) in PUBLISHED {
        println!(
            "{name:<46} {:>9} {seconds:>6.2} s {mb:>7.1} MB   (published figures for 1,000,000 games, not run here)",
            "PGN"
        );
    }
    println!("goal for CSV and PGN: at most Ordo's 1.6 s and twice BayesElo's memory (32 MB)");
    Ok(())
}

/// A file's size in MB.
fn size_mb(file: &Path) -> Result<f64, ReportBenchError> {
    let meta = std::fs::metadata(file).map_err(io(format!("cannot read {}", file.display())))?;
    Ok(meta.len() as f64 / 1e6)
}

/// A JSON report.
fn json_of(report: &Path) -> Result<serde_json::Value, ReportBenchError> {
    let bytes = std::fs::read(report).map_err(io(format!("cannot read {}", report.display())))?;
    serde_json::from_slice(&bytes).map_err(|source| ReportBenchError::Json {
        path: report.to_owned(),
        source,
    })
}

/// The widest 95% interval of a JSON report's players.
fn widest_interval(report: &Path) -> Result<f64, ReportBenchError> {
    let json = json_of(report)?;
    let missing = |what| ReportBenchError::Missing {
        path: report.to_owned(),
        what,
    };
    let players = json["players"]
        .as_array()
        .ok_or_else(|| missing("no players in the report"))?;
    players
        .iter()
        .map(|p| Some(p["elo_high"].as_f64()? - p["elo_low"].as_f64()?))
        .try_fold(0f64, |w, x| x.map(|x| w.max(x)))
        .ok_or_else(|| missing("an interval without an end"))
}

/// The fitted first-move advantage and draw parameter, BayesElo's model
/// scale (the one the results were drawn from).
fn fitted(report: &Path) -> Result<(f64, f64), ReportBenchError> {
    let json = json_of(report)?;
    let fit = &json["ratings"];
    match (
        fit["first_move_advantage"].as_f64(),
        fit["draw_elo"].as_f64(),
    ) {
        (Some(first), Some(draw)) => Ok((first, draw)),
        _ => Err(ReportBenchError::Missing {
            path: report.to_owned(),
            what: "the report fitted no first-move advantage or draw parameter",
        }),
    }
}

struct Measured {
    seconds: f64,
    peak_mb: f64,
}

/// Runs `command` to the end, its output discarded (or written to
/// `stdout`), and measures it.
fn measure(
    command: &mut Command,
    what: &str,
    stdout: Option<&Path>,
) -> Result<Measured, ReportBenchError> {
    let out = match stdout {
        Some(path) => Stdio::from(
            std::fs::File::create(path).map_err(io(format!("cannot create {}", path.display())))?,
        ),
        None => Stdio::null(),
    };
    let t = Instant::now();
    let child = command
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .map_err(io(format!("cannot start {what}")))?;
    let reaped = crate::cpu::wait_measured(child).map_err(io(format!("cannot wait for {what}")))?;
    let seconds = t.elapsed().as_secs_f64();
    if !reaped.status.success() {
        return Err(ReportBenchError::Failed {
            what: what.to_owned(),
        });
    }
    Ok(Measured {
        seconds,
        peak_mb: reaped.peak_kib as f64 / 1024.0,
    })
}
