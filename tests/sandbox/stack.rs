//! Stack memory under a memory limit that is each process's
//! `RLIMIT_DATA` (an unprivileged arbiter, no memory cgroup), which does
//! not count mappings that grow down: a bot must hold no more there than
//! its limit allows. As root the memory cgroup counts them.

use super::world::reported;
use super::*;

/// This process's uid.
fn this_uid() -> u32 {
    std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m))
        .unwrap()
}

#[test]
fn a_bot_holds_no_stack_memory_past_its_memory_limit() {
    // Attacks b55 and b56 of the ninth outside review, unprivileged: one
    // `mmap(MAP_GROWSDOWN)` of 1 GiB, and a child that raised its
    // `RLIMIT_STACK` and recursed, each held about 1 GiB under 64 MiB.
    let dir = folder("sandbox-stack");
    let m = marker("stack");
    let bots = hostile("stacker", "stack.sh", &m, &[]) + "memory-limit = \"64MiB\"\n";
    let config = write_config(&dir, &gauntlet(&bots));
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    let log = stderr_log(&out, "stacker");
    println!("{log}");
    assert!(
        reported(&log, "stack: growsdown touched").is_empty(),
        "{log}"
    );
    assert!(reported(&log, "stack: mremap touched").is_empty(), "{log}");
    assert!(reported(&log, "stack: raised").is_empty(), "{log}");
    if this_uid() != 0 {
        let refused = reported(&log, "stack: growsdown refused ");
        assert_eq!(refused, ["(ENOMEM)", "(ENOMEM)"], "{log}");
        let refused = reported(&log, "stack: mremap refused ");
        assert_eq!(refused, ["(ENOMEM)", "(ENOMEM)"], "{log}");
        assert_eq!(reported(&log, "stack: hard limit "), ["64", "64"], "{log}");
        assert_eq!(reported(&log, "stack: raise refused ").len(), 2, "{log}");
        for g in games(&out) {
            let t = g["termination"].as_str().unwrap_or("");
            assert!(["natural", "max_plies", "repetition"].contains(&t), "{g}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
