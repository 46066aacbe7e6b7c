//! A worker that loses its claims stops cleanly: the claims folder of a
//! shared run removed under a running worker (as an NFS client cut from
//! its server past its lease finds its locks and files gone) makes it stop
//! writing, say so in one line naming the run folder, and exit with
//! status 4, not a raw OS error with status 2.

use crate::harness::*;

use std::process::Stdio;
use std::time::{Duration, Instant};

#[test]
fn a_worker_whose_claims_folder_vanishes_stops_with_status_4_in_one_line() {
    let dir = folder("claims-lost");
    let text = format!(
        "[tournament]\npairs = 40\nconcurrency = 1\n[time-control]\nbase = \"30s\"\n{}{}",
        testbot("a", "sleepy --ms 5 --seed 1"),
        testbot("b", "sleepy --ms 5 --seed 2"),
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let mut worker = run_command(&config, &out, &["--concurrency", "1", "--shard", "1/2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_games(&out, 2);
    // The worker may create a file in it (a game's mark) while it goes:
    // removed again until it is gone.
    let mut left = 0;
    while let Err(e) = std::fs::remove_dir_all(out.join("claims")) {
        left += 1;
        assert!(left < 50, "claims/ cannot be removed: {e}");
    }
    let t0 = Instant::now();
    while worker.try_wait().unwrap().is_none() {
        assert!(t0.elapsed() < Duration::from_secs(60), "the worker went on");
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = worker.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(4), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one line:\n{stderr}");
    assert!(lines[0].contains("lost its claims"), "{stderr}");
    assert!(lines[0].contains(out.to_str().unwrap()), "{stderr}");
    assert!(lines[0].contains("os error"), "names the error: {stderr}");
    assert!(recorded(&out) < 80, "it stopped before the end");
    std::fs::remove_dir_all(&dir).unwrap();
}
