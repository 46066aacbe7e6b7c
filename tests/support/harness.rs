//! What the end-to-end tests of `aboure run` share: fresh folders, `[[bot]]`
//! tables for the test bot and the hostile scripts of `tests/hostile/`,
//! running the real binary (to its end, or in the background to kill it),
//! reading the games it recorded, and looking for processes a run left
//! behind.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

pub const ABOURE: &str = env!("CARGO_BIN_EXE_aboure");
pub const TESTBOT: &str = env!("CARGO_BIN_EXE_aboure-testbot");

/// A file of the report crate's test fixtures
/// (`crates/report/tests/fixtures/NAME`, `NAME` may hold a folder).
pub fn report_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/report/tests/fixtures")
        .join(name)
}

/// Checks that each worker `workers.json` lists has as many games as its
/// results file in `out` holds, and returns their sum.
pub fn workers_games(out: &Path, file: &aboure_records::workers::WorkersFile) -> u64 {
    let mut total = 0;
    for w in &file.workers {
        let text = std::fs::read_to_string(out.join(&w.results)).unwrap();
        assert_eq!(w.games, text.lines().count() as u64, "{w:?}");
        total += w.games;
    }
    total
}

/// A fresh folder for one test.
pub fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aboure-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The Python template (`bots/python`: `bot.py` and the modules it
/// imports) copied into `folder`, its entry point named `main`; returns the
/// entry point's path.
pub fn python_template(folder: &Path, main: &str) -> PathBuf {
    let template = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/python");
    std::fs::create_dir_all(folder).unwrap();
    for module in ["rules.py", "search.py"] {
        std::fs::copy(template.join(module), folder.join(module)).unwrap();
    }
    let entry = folder.join(main);
    std::fs::copy(template.join("bot.py"), &entry).unwrap();
    entry
}

/// A word unique to one test, carried by every process its bots start.
///
/// Each call gives a new marker, ended by a number and `q`, so that no
/// marker is part of another (`hold` of `holdtimers`, or one name used by
/// two tests that run at once): a test looking for its own survivors never
/// finds another's processes.
pub fn marker(test: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("hostile{}x{test}{n}q", std::process::id())
}

/// A hostile script from `tests/hostile/`, run as
/// `sh SCRIPT MARKER TESTBOT ARGS...`, with `ABOURE_HOSTILE=MARKER` in its
/// environment (inherited by everything it starts). The script is copied
/// into a folder of the bot's own, as the sandbox asks of bots that do not
/// run the same program.
pub fn hostile(name: &str, script: &str, marker: &str, args: &[&str]) -> String {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile")
        .join(script);
    let own: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
    let folder = std::env::temp_dir().join(format!("aboure-hostile-{marker}/{own}"));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(script);
    std::fs::copy(&source, &path).unwrap();
    let mut command = vec![
        format!("{:?}", "sh"),
        format!("{:?}", path.display().to_string()),
        format!("{marker:?}"),
        format!("{TESTBOT:?}"),
    ];
    command.extend(args.iter().map(|a| format!("{a:?}")));
    format!(
        "[[bot]]\nname = \"{name}\"\ncommand = [{}]\nenv = {{ ABOURE_HOSTILE = \"{marker}\" }}\n",
        command.join(", ")
    )
}

/// A `[[bot]]` table running the test bot with `args`.
pub fn testbot(name: &str, args: &str) -> String {
    let mut command = vec![format!("{TESTBOT:?}")];
    command.extend(args.split_whitespace().map(|a| format!("{a:?}")));
    format!(
        "[[bot]]\nname = \"{name}\"\ncommand = [{}]\n",
        command.join(", ")
    )
}

pub fn write_config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("tournament.toml");
    std::fs::write(&path, text).unwrap();
    path
}

pub fn aboure(args: &[&str]) -> Output {
    Command::new(ABOURE)
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

/// `aboure report --format json --no-accuracy PATH ARGS...`, which must
/// succeed: the report of a run folder or a results file, as JSON.
pub fn report_json(path: &Path, args: &[&str]) -> Value {
    let mut all = vec!["report", "--format", "json", "--no-accuracy"];
    all.extend_from_slice(args);
    all.push(path.to_str().unwrap());
    let output = aboure(&all);
    assert!(output.status.success(), "{}", show(&output));
    serde_json::from_slice(&output.stdout).unwrap()
}

pub fn run_args<'a>(config: &'a Path, out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ];
    args.extend_from_slice(extra);
    args
}

pub fn run(config: &Path, out: &Path, extra: &[&str]) -> Output {
    aboure(&run_args(config, out, extra))
}

/// `aboure run` as a command to start in the background (set its output,
/// then spawn it), for tests that interrupt a run.
pub fn run_command(config: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(ABOURE);
    command
        .args(run_args(config, out, extra))
        .env_remove("RUST_LOG");
    command
}

/// Lines in the results files of `out` (`games.jsonl`, or the shards'
/// `games-K-of-N.jsonl`), the last ones possibly cut (0 before a file
/// exists).
pub fn recorded(out: &Path) -> usize {
    aboure_records::results_files(out)
        .unwrap_or_default()
        .iter()
        .map(|f| std::fs::read_to_string(f).map_or(0, |t| t.lines().count()))
        .sum()
}

/// Waits until a run in the background has recorded `n` games.
#[track_caller]
pub fn wait_for_games(out: &Path, n: usize) {
    let t0 = Instant::now();
    while recorded(out) < n {
        assert!(t0.elapsed() < Duration::from_secs(60), "no games recorded");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `aboure` to its end and returns its exit status, its output and its
/// own peak resident memory in KiB, the `VmHWM` of its `/proc/PID/status`
/// read every 5 ms while it runs. Not `wait4`'s `ru_maxrss`: Linux keeps
/// across `execve` the high-water mark of the memory the child was forked
/// with, which is this whole test process's (over 100 MiB when many tests
/// run at once), so it measured the tests, not the arbiter.
pub fn run_measured(args: &[&str], dir: &Path) -> (Output, u64) {
    let stdout = dir.join("arbiter.stdout");
    let stderr = dir.join("arbiter.stderr");
    let child = Command::new(ABOURE)
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let done = Arc::new(AtomicBool::new(false));
    let watcher = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut peak = 0;
            while !done.load(Ordering::Relaxed) {
                peak = peak.max(high_water_kib(&status_file).unwrap_or(0));
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        })
    };
    let reaped = aboure_bench::cpu::wait_measured(child).unwrap();
    done.store(true, Ordering::Relaxed);
    let peak_kib = watcher.join().unwrap();
    assert!(peak_kib > 0, "the arbiter's VmHWM was never read");
    let output = Output {
        status: reaped.status,
        stdout: std::fs::read(&stdout).unwrap(),
        stderr: std::fs::read(&stderr).unwrap(),
    };
    (output, peak_kib)
}

/// The `VmHWM` line of a `/proc/PID/status`, in KiB; none once the process
/// has exited (a zombie has no memory and no such line).
fn high_water_kib(status_file: &str) -> Option<u64> {
    let text = std::fs::read_to_string(status_file).ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub fn games(out: &Path) -> Vec<Value> {
    let files = aboure_records::results_files(out).unwrap();
    assert!(!files.is_empty(), "no results file in {}", out.display());
    // A live run may be appending: a file's last line without its newline
    // is a record still being written, not a bad one.
    let mut games = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let complete = text.split_inclusive('\n').filter(|l| l.ends_with('\n'));
        games.extend(complete.map(|l| serde_json::from_str::<Value>(l).unwrap()));
    }
    games
}

pub fn show(output: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Processes carrying `marker` in their command line (`pgrep -f`) or in
/// their environment (what a helper inherits even when it execs a program
/// without the marker in its arguments).
pub fn survivors(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    let pgrep = Command::new("pgrep").args(["-a", "-f", marker]).output();
    if let Ok(out) = pgrep {
        found.extend(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| format!("pgrep: {l}")),
        );
    }
    let needle = format!("ABOURE_HOSTILE={marker}");
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if env.split(|&b| b == 0).any(|var| var == needle.as_bytes()) {
            let cmd = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let state = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            // A zombie waiting for its parent to reap it runs nothing.
            if state
                .rsplit(')')
                .next()
                .is_some_and(|s| s.trim_start().starts_with('Z'))
            {
                continue;
            }
            found.push(format!(
                "environ: {} {}",
                entry.file_name().to_string_lossy(),
                String::from_utf8_lossy(&cmd).replace('\0', " ")
            ));
        }
    }
    found
}

/// Waits up to `limit` for every process carrying `marker` to be gone (a
/// killed process can take a moment to be reaped), then asserts none is.
pub fn assert_no_survivors(marker: &str, limit: Duration) {
    let t0 = Instant::now();
    loop {
        let left = survivors(marker);
        if left.is_empty() {
            return;
        }
        assert!(
            t0.elapsed() < limit,
            "processes left running:\n{}",
            left.join("\n")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The name of the bot that is not `name` in game `g`.
pub fn opponent<'a>(g: &'a Value, name: &str) -> &'a str {
    if g["south"] == name {
        g["north"].as_str().unwrap()
    } else {
        g["south"].as_str().unwrap()
    }
}

/// The name of the bot that lost by forfeit, if one did.
pub fn loser(g: &Value) -> Option<&str> {
    g["loser"].as_str().map(|side| g[side].as_str().unwrap())
}

/// Waits until worker `name` of the shared run in `out` has recorded a game
/// (in `games-NAME.jsonl`) and holds a unit again (a claim file signed by
/// it): it is in the middle of a game. Fails at `deadline`.
pub fn wait_mid_game(out: &Path, name: &str, deadline: Instant) {
    let own = out.join(format!("games-{name}.jsonl"));
    let signed = format!("worker {name} ");
    loop {
        let recorded = std::fs::read_to_string(&own).map_or(0, |t| t.lines().count());
        let holds = std::fs::read_dir(out.join("claims")).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                aboure_workers::unit_of_file_name(&e.file_name().to_string_lossy()).is_some()
                    && std::fs::read_to_string(e.path()).is_ok_and(|t| t.starts_with(&signed))
            })
        });
        if recorded >= 1 && holds {
            return;
        }
        assert!(Instant::now() < deadline, "worker {name} never got going");
        std::thread::sleep(Duration::from_millis(5));
    }
}
