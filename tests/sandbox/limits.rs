//! Limits over the whole bot, whatever it hides: `cpu-limit` bounds all
//! its processes together, not each (a bot that does its work in
//! children, each under the per-process `RLIMIT_CPU`, is stopped once they
//! have spent the limit together), and `write-size` counts the files it
//! holds open in its `write` folders with no name left, and a tree of
//! folders deeper than the walk goes counts as past it.

use super::*;

#[test]
fn a_bot_spending_its_cpu_limit_in_children_is_stopped() {
    let dir = folder("sandbox-cpu-children");
    let m = marker("cpuchildren");
    let bots = hostile("burner", "forkburn.sh", &m, &[]) + "cpu-limit = \"1s\"\n";
    let games = run_two_games(&dir, &gauntlet(&bots));
    assert_lost_at_limit(&games, "burner", "CPU time limit of 1 s reached");
    // Three children of 1 s each: without the sum they all finish (3 s of
    // CPU under a 1 s limit); with it, never.
    let log = stderr_log(&dir.join("out"), "burner");
    assert!(!log.contains("forkburn: finished"), "{log}");
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_spending_its_cpu_limit_in_children_the_kernel_reaps_is_stopped() {
    // Attack b71 of the outside review: a bot that ignores SIGCHLD has its
    // children reaped by the kernel, whose times reach no process's; those
    // that lived between two of the helper's looks were missed (6 s of CPU
    // under a 2 s limit). As root, the bot's cpuacct group counts them.
    let dir = folder("sandbox-cpu-reaped");
    let m = marker("cpureaped");
    let bots = hostile("burner", "reapburn.sh", &m, &[]) + "cpu-limit = \"1s\"\n";
    let games = run_two_games(&dir, &gauntlet(&bots));
    let log = stderr_log(&dir.join("out"), "burner");
    println!("{log}");
    // Children of 3 s in all: without their count they all finish.
    assert!(!log.contains("reapburn: finished"), "{log}");
    assert_lost_at_limit(&games, "burner", "CPU time limit of 1 s reached");
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_spending_its_cpu_limit_in_children_waited_for_orphaned_or_ignored_is_stopped() {
    // Attack b71 unprivileged: without a cpuacct group the limit is summed
    // from /proc, where a child the kernel reaps (its parent ignores
    // SIGCHLD) leaves no time in any process's. Its clock, written by each
    // child, is read here: the bot's children stop near the limit.
    let dir = folder("sandbox-cpu-kinds");
    let m = marker("cpukinds");
    let (spent, spent_arg) = write_folder(&dir);
    let bots = hostile("burner", "childburn.sh", &m, &[&spent_arg])
        + "cpu-limit = \"2s\"\nsandbox = { write = [\"cache\"] }\n";
    let games = run_two_games(&dir, &gauntlet(&bots));
    let log = stderr_log(&dir.join("out"), "burner");
    // 6 s of children in all: without their count they all finish.
    assert!(!log.contains("childburn: finished"), "{log}");
    assert_lost_at_limit(&games, "burner", "CPU time limit of 2 s reached");
    let files: Vec<_> = std::fs::read_dir(&spent).unwrap().collect();
    assert_eq!(files.len(), 2, "one file a bot process: {files:?}");
    for file in files {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        let used: f64 = text.lines().map(|l| l.parse::<f64>().unwrap()).sum();
        // The children's own clocks, a lower bound of their time (one
        // stopped midway wrote nothing): near 2 s, far from 6.
        assert!(used < 3.0, "{used} s of CPU under cpu-limit 2s: {text}");
    }
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs a bot that holds 21 MiB in its `write` folder by `mode` (see
/// `hiddenfill.sh`) under a `write-size` of 8 MiB: each of its games is
/// lost at that limit (attack 78 of the outside review: 108 MiB held under
/// 20 MiB, both games played to the end).
fn hidden_files_count(mode: &str) {
    let dir = folder(&format!("sandbox-hidden-{mode}"));
    let m = marker(&format!("hidden{mode}"));
    let (cache, cache_arg) = write_folder(&dir);
    let bots = hostile("hider", "hiddenfill.sh", &m, &[&cache_arg, mode])
        + "sandbox = { write = [\"cache\"] }\n";
    if mode == "thread" {
        build_threadhold(&m);
    }
    let games = run_two_games(&dir, &gauntlet_with_write_size(&bots));
    // Little to see in the folder (a file stopped between its creation and
    // its deletion, at most one a game): far under the limit, so a walk of
    // the folder alone would not have stopped the bot.
    let visible: u64 = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(visible < 8 << 20, "{visible} bytes left in the folder");
    assert_lost_at_limit(&games, "hider", "more than sandbox.write-size (8 MiB)");
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_deleted_while_held_open_count_in_write_size() {
    hidden_files_count("unlink");
}

#[test]
fn files_made_without_a_name_count_in_write_size() {
    hidden_files_count("tmpfile");
}

#[test]
fn files_a_thread_holds_in_a_descriptor_table_of_its_own_count_in_write_size() {
    hidden_files_count("thread");
}

/// Compiles `tests/hostile/threadhold.c` beside the hostile bot `hider`'s
/// copy of `hiddenfill.sh` (see [`hostile`]), where the script runs it.
fn build_threadhold(m: &str) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/threadhold.c");
    let folder = std::env::temp_dir().join(format!("aboure-hostile-{m}/hider"));
    let built = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(folder.join("threadhold"))
        .arg(source)
        .output()
        .expect("cc, the C compiler (tests/run.sh installs it)");
    assert!(built.status.success(), "{}", show(&built));
}

/// Builds a chain of `depth` folders `d` in `folder` from outside, with
/// 100 MiB at the bottom (an earlier run's bot left it there).
fn plant_chain(folder: &Path, depth: usize) {
    let script = "import os, sys\nos.chdir(sys.argv[1])\nfor _ in range(int(sys.argv[2])):\n    \
                  os.makedirs('d', exist_ok=True)\n    os.chdir('d')\n\
                  open('big.bin', 'wb').write(b'x' * (100 << 20))\n";
    let made = Command::new("python3")
        .args(["-c", script])
        .arg(folder)
        .arg(depth.to_string())
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", show(&made));
}

/// The run in `dir` of the deep-chain bot: it ends normally, its two games
/// recorded, each lost by the bot at `write-size` for the depth of its
/// folders.
fn deep_chain_is_stopped(dir: &Path, config: &Path, out: &str, m: &str) {
    let out = dir.join(out);
    let output = run(config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    let games = games(&out);
    assert_eq!(games.len(), 2, "{games:#?}");
    for g in &games {
        assert_eq!(g["termination"], "resource_limit", "{g}");
        let detail = g["detail"].as_str().unwrap_or("");
        assert!(detail.contains("levels deep"), "{g}");
        assert!(
            detail.contains("more than sandbox.write-size (20 MiB)"),
            "{g}"
        );
        assert_eq!(loser(g), Some("deep"), "{g}");
    }
    assert_no_survivors(m, Duration::from_secs(5));
}

#[test]
fn a_deep_chain_of_folders_in_a_write_folder_is_stopped_now_and_in_a_later_run() {
    let dir = folder("sandbox-deep-chain");
    let m = marker("deepchain");
    let (cache, cache_arg) = write_folder(&dir);
    let bots = hostile("deep", "deepchain.sh", &m, &[&cache_arg, "3000"])
        + "sandbox = { write = [\"cache\"] }\n";
    let text = gauntlet(&bots).replace(
        "[openings]",
        "[sandbox]\nwrite-size = \"20MiB\"\n[openings]",
    );
    let config = write_config(&dir, &text);
    deep_chain_is_stopped(&dir, &config, "out", &m);
    // The tree left behind, whole (the bot may have been stopped before
    // its bottom): a later run does not crash on it (it once overflowed
    // the arbiter's stack). The bot made it, so the bot pays: the search
    // for hard links counts it as past `write-size`, as the watch does,
    // which stops the bot at each start, and the run goes on (it once
    // refused every later run and `--resume` before any game, attack b69
    // of the ninth outside round).
    plant_chain(&cache, 3000);
    deep_chain_is_stopped(&dir, &config, "out-later", &m);
    // `rm` walks by descriptor: the chain's paths are past PATH_MAX.
    let removed = Command::new("rm").arg("-rf").arg(&dir).output().unwrap();
    assert!(removed.status.success(), "{}", show(&removed));
}

#[test]
fn no_file_is_held_in_flight_in_a_socket_message() {
    // Attack b04 of the fifth outside round: a deleted file whose last
    // reference is a descriptor in an unread `SCM_RIGHTS` message, which
    // no descriptor table shows, held 200 MiB under a 20 MiB write-size.
    let dir = folder("sandbox-in-flight");
    let m = marker("inflight");
    let (cache, cache_arg) = write_folder(&dir);
    let bots =
        hostile("sender", "inflight.sh", &m, &[&cache_arg]) + "sandbox = { write = [\"cache\"] }\n";
    let games = run_two_games(&dir, &gauntlet_with_write_size(&bots));
    let log = stderr_log(&dir.join("out"), "sender");
    println!("{log}");
    // Sent, the file would stay held by the message, unseen, both games
    // played to the end (as the outside round saw): the message is
    // refused, and the file freed with its mapping.
    assert!(log.contains("inflight: sendmsg refused"), "{log}");
    assert!(!log.contains("held in flight"), "{log}");
    for g in &games {
        assert_ne!(g["termination"], "resource_limit", "{g}");
    }
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0);
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn many_empty_folders_in_a_write_folder_count_as_past_write_size() {
    // Attacks b07 and b15 of the fifth outside round: folders that hold
    // little but each cost the walk an open and a read slowed each look to
    // seconds, and the bot wrote far past write-size in between. A bot's
    // folders are bounded in number, as a filesystem's inodes by a quota.
    let dir = folder("sandbox-many-folders");
    let m = marker("manyfolders");
    let (_, cache_arg) = write_folder(&dir);
    let bots = hostile("maker", "manyfolders.sh", &m, &[&cache_arg, "3000"])
        + "sandbox = { write = [\"cache\"] }\n";
    let games = run_two_games(&dir, &gauntlet(&bots));
    println!("{}", stderr_log(&dir.join("out"), "maker"));
    assert_lost_at_limit(
        &games,
        "maker",
        "hold more than 1000 folders, more than sandbox.write-size (1 GiB)",
    );
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}
