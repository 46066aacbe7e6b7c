//! Figures of `aboure serve` following a large results file, each against
//! a baseline measured in the same run: its peak memory against that of
//! `aboure report --format json` on the same file, and the time from a game
//! appended to the browser's event carrying it against the time `aboure
//! report` takes to read the file. Prints; asserts only that the page did
//! catch up.
//!
//! cargo test --release --test tests serve_figures:: -- --ignored --nocapture
//! (ABOURE_SERVE_GAMES sets the file's size, 200,000 games by default)

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::served;

const ABOURE: &str = env!("CARGO_BIN_EXE_aboure");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/report/tests/fixtures/sprt")
        .join(name)
}

/// Game `i` of a long SPRT made of the fixture's games, renamed and renumbered.
fn game_line(template: &[serde_json::Value], i: usize) -> String {
    let mut g = template[i % template.len()].clone();
    let pair = i / 2;
    g["id"] = format!("big-p{pair}-g{}", i % 2).into();
    g["pair"] = pair.into();
    g.to_string()
}

/// Peak resident memory of a process that has ended, in KiB, and its wall
/// time. The child is reaped by `wait4`, which also gives its usage.
fn run_measured(command: &mut Command) -> (u64, Duration) {
    let start = Instant::now();
    let child = command.stdout(Stdio::null()).spawn().unwrap();
    let reaped = aboure_bench::cpu::wait_measured(child).unwrap();
    assert!(reaped.status.success(), "{command:?} failed");
    (reaped.peak_kib, start.elapsed())
}

fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Reads an event stream until `needle` appears.
fn wait_for(stream: &mut TcpStream, needle: &str) {
    let needle = needle.as_bytes();
    let mut window: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "the event stream ended");
        window.extend_from_slice(&buf[..n]);
        if window.windows(needle.len()).any(|w| w == needle) {
            return;
        }
        let keep = window.len().saturating_sub(needle.len());
        window.drain(..keep);
    }
}

#[test]
#[ignore]
fn memory_and_update_latency_on_a_large_file() {
    let games: usize = std::env::var("ABOURE_SERVE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-figures");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture("run.json"), dir.join("run.json")).unwrap();
    let template: Vec<serde_json::Value> = std::fs::read_to_string(fixture("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let path = dir.join("games.jsonl");
    {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for i in 0..games {
            writeln!(out, "{}", game_line(&template, i)).unwrap();
        }
    }
    let size = std::fs::metadata(&path).unwrap().len();

    let (report_kib, report_time) = run_measured(
        Command::new(ABOURE)
            .args(["report", "--format", "json"])
            .arg(&path),
    );

    let start = Instant::now();
    let (serve, url) = served::serve(&[&dir.display().to_string()]);
    let ready = start.elapsed();
    let at = url.trim_start_matches("http://").trim_end_matches('/');
    let mut events = TcpStream::connect(at).unwrap();
    write!(events, "GET /run/0/events HTTP/1.0\r\nHost: {at}\r\n\r\n").unwrap();
    wait_for(&mut events, &format!("\"games\":{games},"));

    let mut latencies = Vec::new();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    for k in 0..6 {
        // Past the least time between two snapshots: each append is news.
        std::thread::sleep(Duration::from_millis(1500));
        let sent = Instant::now();
        writeln!(file, "{}", game_line(&template, games + k)).unwrap();
        wait_for(&mut events, &format!("\"games\":{},", games + k + 1));
        latencies.push(sent.elapsed());
    }
    let serve_kib = peak_kib(serve.0.id());
    latencies.sort();
    println!(
        "{games} games ({:.0} MB): aboure report --format json {:.2} s, peak {} MiB; \
         aboure serve first page after {:.2} s, peak {} MiB ({:.2}x the report's); \
         append to event: median {} ms, max {} ms ({:.2}x and {:.2}x the report's time)",
        size as f64 / 1e6,
        report_time.as_secs_f64(),
        report_kib / 1024,
        ready.as_secs_f64(),
        serve_kib / 1024,
        serve_kib as f64 / report_kib as f64,
        latencies[latencies.len() / 2].as_millis(),
        latencies[latencies.len() - 1].as_millis(),
        latencies[latencies.len() / 2].as_secs_f64() / report_time.as_secs_f64(),
        latencies[latencies.len() - 1].as_secs_f64() / report_time.as_secs_f64(),
    );
}
