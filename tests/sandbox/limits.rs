//! Limits over the whole bot, whatever it hides: `cpu-limit` bounds all
//! its processes together, not each (a bot that does its work in
//! children, each under the per-process `RLIMIT_CPU`, is stopped once they
//! have spent the limit together), and `write-size` counts the files it
//! holds open in its `write` folders with no name left.

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
