//! Limits over the whole bot, whatever it hides: `cpu-limit` bounds all
//! its processes together, not each (a bot that does its work in
//! children, each under the per-process `RLIMIT_CPU`, is stopped once they
//! have spent the limit together), and `write-size` counts the files it
//! holds open in its `write` folders with no name left.

use std::os::unix::fs::PermissionsExt;

use super::*;

#[test]
fn a_bot_spending_its_cpu_limit_in_children_is_stopped() {
    let dir = folder("sandbox-cpu-children");
    let m = marker("cpuchildren");
    let bots = hostile("burner", "forkburn.sh", &m, &[]) + "cpu-limit = \"1s\"\n";
    let config = write_config(&dir, &gauntlet(&bots));
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    let games = games(&out);
    assert_eq!(games.len(), 2, "{games:#?}");
    for g in &games {
        assert_eq!(g["termination"], "resource_limit", "{g}");
        let detail = g["detail"].as_str().unwrap_or("");
        assert!(detail.contains("CPU time limit of 1 s reached"), "{g}");
        assert_eq!(loser(g), Some("burner"), "{g}");
    }
    // Three children of 1 s each: without the sum they all finish (3 s of
    // CPU under a 1 s limit); with it, never.
    let log = stderr_log(&out, "burner");
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
    let cache = dir.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cache_arg = cache.display().to_string();
    let bots = hostile("hider", "hiddenfill.sh", &m, &[&cache_arg, mode])
        + "sandbox = { write = [\"cache\"] }\n";
    let text =
        gauntlet(&bots).replace("[openings]", "[sandbox]\nwrite-size = \"8MiB\"\n[openings]");
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    // Little to see in the folder (a file stopped between its creation and
    // its deletion, at most one a game): far under the limit, so a walk of
    // the folder alone would not have stopped the bot.
    let visible: u64 = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(visible < 8 << 20, "{visible} bytes left in the folder");
    let games = games(&out);
    assert_eq!(games.len(), 2, "{games:#?}");
    for g in &games {
        assert_eq!(g["termination"], "resource_limit", "{g}");
        let detail = g["detail"].as_str().unwrap_or("");
        assert!(
            detail.contains("more than sandbox.write-size (8 MiB)"),
            "{g}"
        );
        assert_eq!(loser(g), Some("hider"), "{g}");
    }
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
