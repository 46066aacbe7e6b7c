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
        testbot("honest", "sleepy --ms 200 --seed 7"),
        "memory-limit = \"256MiB\"\n".to_owned(),
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
