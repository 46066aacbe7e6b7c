//! `aboure bench report`: the report's speed and peak memory on a synthetic
//! results file, against a Python loop that only parses each line, run on
//! the same file in the same run (so a busy machine slows both).
//!
//! Each measured command runs as a child process; its peak resident memory
//! comes from the kernel (`wait4`'s `ru_maxrss`), its time from the wall
//! clock around it.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context};

/// The baseline: what a one-line Python script does with the file.
const PYTHON: &str = "import json, sys\nfor line in open(sys.argv[1]):\n    json.loads(line)\n";

pub fn run(games: u64, file: Option<PathBuf>, accuracy: bool) -> anyhow::Result<()> {
    let exe = std::env::current_exe().context("cannot locate the aboure binary")?;
    let path = file
        .unwrap_or_else(|| std::env::temp_dir().join(format!("aboure-bench-report-{games}.jsonl")));
    if !path.exists() {
        let t = Instant::now();
        crate::synthetic::write(&path, games)?;
        eprintln!(
            "wrote {} ({games} games) in {:.1} s",
            path.display(),
            t.elapsed().as_secs_f64()
        );
    }
    let size = std::fs::metadata(&path)?.len();
    let file = path.display().to_string();
    println!("{} games, {:.1} MB: {file}", games, size as f64 / 1e6);
    let python = measure(
        Command::new("python3").args(["-c", PYTHON, &file]),
        "python3 (apt-get install python3)",
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
        let m = measure(&mut command, "aboure")?;
        println!(
            "{name:<34} {:>8.2} s {:>8.1} MB/s {:>8.0} MB peak   {:.1}x python's speed, {:.2}x its memory",
            m.seconds,
            size as f64 / 1e6 / m.seconds,
            m.peak_mb,
            python.seconds / m.seconds,
            m.peak_mb / python.peak_mb
        );
    }
    Ok(())
}

struct Measured {
    seconds: f64,
    peak_mb: f64,
}

/// Runs `command` to the end, output discarded, and measures it.
fn measure(command: &mut Command, what: &str) -> anyhow::Result<Measured> {
    let t = Instant::now();
    let child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {what}"))?;
    let (status, rusage) = wait4(child.id())?;
    let seconds = t.elapsed().as_secs_f64();
    if !status {
        bail!("{what} failed on the benchmark file");
    }
    // ru_maxrss is in kilobytes on Linux.
    Ok(Measured {
        seconds,
        peak_mb: rusage.ru_maxrss as f64 / 1024.0,
    })
}

/// Waits for the child `pid`; whether it succeeded, and its resource use.
fn wait4(pid: u32) -> anyhow::Result<(bool, libc::rusage)> {
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it and `status` through
    // valid pointers, for our own child.
    let mut rusage: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut rusage) };
    if rc < 0 {
        bail!("wait4: {}", std::io::Error::last_os_error());
    }
    Ok((
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        rusage,
    ))
}
