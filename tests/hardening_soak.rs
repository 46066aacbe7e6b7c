//! A long run: tens of thousands of fast games with concurrency, sampling
//! the arbiter's open file descriptors (/proc/PID/fd), child processes and
//! resident memory (VmRSS) as it goes. None of them may grow: a leak of one
//! descriptor, zombie or kilobyte per game shows within minutes.
//!
//! Ignored by default (it takes minutes). Run it with
//!
//! ```text
//! cargo test --test tests hardening_soak:: -- --ignored --nocapture
//! ```
//!
//! `SOAK_PAIRS` game pairs per pairing (4 bots, 6 pairings; default 2500,
//! so 30000 games); `SOAK_CONCURRENCY` games at once (default 4). Only the
//! samples taken while games are played count: `aboure run` ends with a
//! report whose analysis has its own, bounded, memory.

use crate::harness;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use harness::*;

#[derive(Clone, Copy, Debug)]
struct Sample {
    secs: f64,
    games: usize,
    fds: usize,
    children: usize,
    rss_kib: u64,
}

fn sample(pid: u32, t0: Instant, games_path: &std::path::Path) -> Option<Sample> {
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())?;
    let mut children = 0;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // Field 4, after the parenthesised command name, is the parent.
        let ppid = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid) {
            children += 1;
        }
    }
    let games = std::fs::read(games_path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
    Some(Sample {
        secs: t0.elapsed().as_secs_f64(),
        games,
        fds,
        children,
        rss_kib,
    })
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore]
fn a_long_run_leaks_no_descriptors_processes_or_memory() {
    let pairs = env_or("SOAK_PAIRS", 2500);
    let concurrency = env_or("SOAK_CONCURRENCY", 4);
    let dir = folder("soak");
    let m = marker("soak");
    let bot = |name: &str, args: &str| {
        testbot(name, args) + &format!("env = {{ ABOURE_HOSTILE = \"{m}\" }}\n")
    };
    // A mix: instant movers, a random mover, and one that crashes in every
    // game (so the kill-and-restart path runs thousands of times too).
    let text = format!(
        "[tournament]\npairs = {pairs}\nconcurrency = {concurrency}\n[openings]\nplies = 2\n\
         [time-control]\nbase = \"10s\"\n{}{}{}{}",
        bot("instant", "instant"),
        bot("random", "random --seed 5"),
        bot("random2", "random --seed 9"),
        bot("crasher", "crash --at 3"),
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let games_path = out.join("games.jsonl");
    let mut child = Command::new(ABOURE)
        .args(run_args(&config, &out, &[]))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let t0 = Instant::now();
    let mut samples = Vec::new();
    while child.try_wait().unwrap().is_none() {
        if let Some(s) = sample(pid, t0, &games_path) {
            samples.push(s);
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    let total = 6 * pairs * 2;
    assert_eq!(games(&out).len(), total);
    let elapsed = t0.elapsed().as_secs_f64();
    println!(
        "{total} games in {elapsed:.1} s ({:.0} games/s), concurrency {concurrency}",
        total as f64 / elapsed
    );
    println!(
        "{:>8} {:>7} {:>5} {:>9} {:>10}",
        "secs", "games", "fds", "children", "VmRSS KiB"
    );
    let step = (samples.len() / 20).max(1);
    for s in samples.iter().step_by(step).chain(samples.last()) {
        println!(
            "{:>8.1} {:>7} {:>5} {:>9} {:>10}",
            s.secs, s.games, s.fds, s.children, s.rss_kib
        );
    }
    let samples: Vec<Sample> = samples.into_iter().filter(|s| s.games < total).collect();
    assert!(samples.len() >= 8, "too few samples: {}", samples.len());
    // Compare the last quarter of the run with the first quarter (after a
    // warm-up sample): equal bounds for descriptors and processes (each game
    // holds at most 2 bots, 3 pipes and a log file each, plus the arbiter's
    // own files), and
    // memory within 25% (allocator noise) of its early peak.
    let quarter = samples.len() / 4;
    let early = &samples[1..=quarter];
    let late = &samples[samples.len() - quarter..];
    let max = |v: &[Sample], f: fn(&Sample) -> u64| v.iter().map(f).max().unwrap();
    let bound_fds = 32 + 10 * concurrency as u64;
    assert!(
        max(late, |s| s.fds as u64) <= bound_fds,
        "descriptors grew: {samples:?}"
    );
    assert!(
        max(late, |s| s.children as u64) <= 2 * concurrency as u64,
        "children: {samples:?}"
    );
    let early_rss = max(early, |s| s.rss_kib);
    let late_rss = max(late, |s| s.rss_kib);
    assert!(
        late_rss <= early_rss + early_rss / 4,
        "memory grew from {early_rss} KiB to {late_rss} KiB"
    );
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}
