//! The run's memory group: every bot process's memory group lies in one
//! group of the run, limited to what the run's processes may hold together
//! and outliving them, so that pages a process leaves charged behind (a
//! tmpfs another still holds) stay under a limit. Read from outside, in
//! `/sys/fs/cgroup/memory/aboure`, while the run plays.

use std::time::Instant;

use super::*;

#[test]
fn every_bot_process_is_charged_to_the_runs_memory_group() {
    let dir = folder("sandbox-run-memory");
    let m = marker("runmemory");
    let bots = [
        // Both with the marker: two bots of one program share its folder
        // only with the same `env`.
        testbot("honest", "sleepy --ms 200 --seed 7"),
        format!("memory-limit = \"256MiB\"\nenv = {{ ABOURE_HOSTILE = \"{m}\" }}\n"),
        testbot("other", &format!("{m} sleepy --ms 200 --seed 8")),
        format!("memory-limit = \"128MiB\"\nenv = {{ ABOURE_HOSTILE = \"{m}\" }}\n"),
    ]
    .concat();
    let text = gauntlet_against("", &bots)
        .replace("[openings]", "[adjudication]\nmax-plies = 20\n[openings]");
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let mut child = run_command(&config, &out, &[]).spawn().unwrap();
    let run_group = Path::new("/sys/fs/cgroup/memory/aboure").join(format!("{}-run", child.id()));
    let t0 = Instant::now();
    let mut seen = None;
    while seen.is_none() && t0.elapsed() < Duration::from_secs(30) {
        let inner: Vec<PathBuf> = std::fs::read_dir(&run_group)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        if !inner.is_empty() {
            let limit = std::fs::read_to_string(run_group.join("memory.limit_in_bytes")).unwrap();
            seen = Some((inner.len(), limit.trim().to_owned()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(child.wait().unwrap().success());
    let (groups, limit) = seen.expect("no bot process's group in the run's group");
    // Concurrency 2: four processes at most, each under 256 MiB.
    assert_eq!(limit, (4u64 * 256 * 1024 * 1024).to_string());
    assert!((1..=4).contains(&groups), "{groups}");
    // Gone with the run.
    assert!(!run_group.exists());
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bot's private `/tmp` is a tmpfs, whose pages are memory that a
/// per-process `RLIMIT_DATA` does not count: it is never larger than the
/// bot's memory limit. Without a memory cgroup (an unprivileged arbiter)
/// the bot's writes stop there, and it plays on; with one, the cgroup
/// counts them too, and the bot stops at the limit either way.
#[test]
fn a_bots_tmp_is_no_larger_than_its_memory_limit() {
    let dir = folder("sandbox-tmp-memory");
    let m = marker("tmpmemory");
    // Up to 128 MiB in its /tmp, under a limit of 64 MiB and the default
    // disk of 256 MiB.
    let bots = hostile("filler", "disk.sh", &m, &[]) + "memory-limit = \"64MiB\"\n";
    let games = run_two_games(&dir, &gauntlet(&bots));
    let out = dir.join("out");
    let log = stderr_log(&out, "filler");
    let wrote: Vec<u64> = (log.lines())
        .filter_map(|l| l.strip_prefix("disk: wrote "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(wrote.iter().all(|&mib| mib <= 64), "{log}");
    let run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    let cgroup = (run["sandbox"]["layers"].as_array().unwrap().iter())
        .any(|l| l["name"] == "cgroup-memory" && l["active"] == true);
    if !cgroup {
        // Stopped by a full /tmp at 64 MiB, in both games, which it then
        // played to their end.
        assert_eq!(wrote.len(), 2, "{log}");
        assert!(wrote.iter().all(|&mib| mib >= 60), "{log}");
        for g in &games {
            assert_eq!(g["termination"], "natural", "{g}");
        }
    }
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bot without a `memory-limit` is not unbounded: every bot process of
/// the run lies in the run's memory group, limited to `run-memory` (75% of
/// the machine's memory unless set), so a bot that takes more is stopped
/// by the kernel inside the run's group, and loses at a resource limit,
/// rather than taking the machine's memory from the arbiter and the host.
#[test]
fn a_bot_without_a_memory_limit_is_held_to_the_runs_memory() {
    let dir = folder("sandbox-run-memory-default");
    let m = marker("runmemorydefault");
    let bots = testbot("hog", &format!("{m} hog --ms 1024"))
        + &format!("env = {{ ABOURE_HOSTILE = \"{m}\" }}\n");
    let env = format!("env = {{ ABOURE_HOSTILE = \"{m}\" }}\n");
    let honest = testbot("honest", "random --seed 7") + &env;
    let text = format!(
        "[sandbox]\nrun-memory = \"128MiB\"\n{}",
        gauntlet_against(&honest, &bots)
    );
    let games = run_two_games(&dir, &text);
    assert_lost_at_limit(&games, "hog", "the run's memory bound (`run-memory`");
    assert_lost_at_limit(&games, "hog", "of 128 MiB");
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}
