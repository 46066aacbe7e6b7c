//! Hostile bots against the real arbiter: each plays a gauntlet against an
//! honest bot, and the tournament must finish with every game recorded, the
//! right reason for each forfeit, the honest bot's games unaffected, the
//! arbiter's memory bounded, and no process of the hostile bots left
//! running afterwards. The scripts are in `tests/hostile/`.
//!
//! Cases covered elsewhere (tests/run_games.rs): a bot that hangs, crashes,
//! answers garbage, an illegal move or a move for the other side, answers
//! twice, never finishes the handshake, or cannot be started.

use crate::harness;

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use harness::*;

/// A gauntlet of `honest` (the test bot's random mover) against `bots`.
fn gauntlet(bots: &str, startup: &str) -> String {
    format!(
        "[tournament]\nformat = \"gauntlet\"\ngauntlet-bot = \"honest\"\npairs = 1\nconcurrency = 2\nstartup-timeout = \"{startup}\"\n\
         [openings]\nplies = 0\n\
         [time-control]\nbase = \"400ms\"\nincrement = \"10ms\"\nmargin = \"30ms\"\n{}{bots}",
        testbot("honest", "random --seed 7"),
    )
}

/// Checks every game against `expected` (opponent name -> termination and a
/// piece of the detail; `None` for bots that must play normal games).
#[track_caller]
fn check_games(games: &[serde_json::Value], expected: &[(&str, Option<(&str, &str)>)]) {
    let expected: HashMap<&str, Option<(&str, &str)>> = expected.iter().copied().collect();
    assert_eq!(games.len(), 2 * expected.len(), "{games:#?}");
    for g in games {
        let other = opponent(g, "honest");
        assert_ne!(loser(g), Some("honest"), "the honest bot forfeited: {g}");
        match expected.get(other) {
            Some(Some((kind, detail))) => {
                assert_eq!(g["termination"], *kind, "against {other}: {g}");
                assert_eq!(loser(g), Some(other), "{g}");
                let d = g["detail"].as_str().unwrap_or("");
                assert!(d.contains(detail), "against {other}: detail {d:?}");
            }
            Some(None) => {
                let t = g["termination"].as_str().unwrap();
                assert!(
                    ["natural", "max_plies", "repetition"].contains(&t),
                    "against {other}: {g}"
                );
            }
            None => panic!("unexpected bot {other}"),
        }
    }
}

/// Runs the tournament `config_text` in `dir`, checks every game against
/// `expected` (as [`check_games`]) and that no process carrying the marker
/// `m` is left, then removes `dir`.
#[track_caller]
fn run_and_check(
    dir: &Path,
    m: &str,
    config_text: &str,
    expected: &[(&str, Option<(&str, &str)>)],
) {
    let config = write_config(dir, config_text);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    check_games(&games(&out), expected);
    assert_no_survivors(m, Duration::from_secs(5));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn floods_on_stdout_and_stderr_cost_a_bounded_amount_of_memory() {
    let dir = folder("floods");
    let m = marker("floods");
    let bots = [
        hostile("hugeline", "hugeline.sh", &m, &[]),
        hostile("infoflood", "infoflood.sh", &m, &[]),
        hostile("stderrflood", "stderrflood.sh", &m, &[]),
    ]
    .concat();
    let config = write_config(&dir, &gauntlet(&bots, "5s"));
    let out = dir.join("out");
    let (output, max_rss_kib) = run_measured(&run_args(&config, &out, &[]), &dir);
    assert!(output.status.success(), "{}", show(&output));
    check_games(
        &games(&out),
        &[
            ("hugeline", Some(("protocol_violation", "line of"))),
            ("infoflood", Some(("time_forfeit", "no bestmove within"))),
            ("stderrflood", None),
        ],
    );
    // 400 MB on one line, endless 60 KB lines and an endless stderr: the
    // arbiter (and anything it reaped) stayed far below any of them.
    assert!(
        max_rss_kib < 100 * 1024,
        "peak resident memory {max_rss_kib} KiB"
    );
    let log = std::fs::metadata(out.join("logs/stderrflood.stderr.log"))
        .unwrap()
        .len();
    assert!(
        (2_000_000..=16 * 1024 * 1024 + 200).contains(&log),
        "stderr log of {log} bytes"
    );
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn closed_pipes_early_answers_exits_and_slow_starts_are_recorded() {
    let dir = folder("pipes");
    let m = marker("pipes");
    let bots = [
        hostile("closein", "closein.sh", &m, &[]),
        hostile("closeout", "closeout.sh", &m, &[]),
        hostile("exit0", "exit0.sh", &m, &[]),
        hostile("early", "early.sh", &m, &[]),
        hostile("slowok", "slowstart.sh", &m, &["0.2"]),
        hostile("slowfail", "slowstart.sh", &m, &["60"]),
    ]
    .concat();
    // The slow starter that fits sleeps 0.2 s of the 5 s allowed; the other
    // would sleep a minute, so the run finishing at all shows it was killed.
    run_and_check(
        &dir,
        &m,
        &gauntlet(&bots, "5s"),
        &[
            ("closein", Some(("crash", "closed its input"))),
            ("closeout", Some(("crash", "closed its output"))),
            ("exit0", Some(("crash", "exited with status 0"))),
            ("early", Some(("protocol_violation", "not asked for"))),
            ("slowok", None),
            ("slowfail", Some(("startup_failure", "no aboureok within"))),
        ],
    );
}

#[test]
fn a_bot_that_exits_or_is_killed_while_a_helper_holds_its_pipes_crashes() {
    let dir = folder("orphan");
    let m = marker("orphan");
    let bots = [
        hostile("exits", "orphan.sh", &m, &["exit"]),
        hostile("killed", "orphan.sh", &m, &["kill"]),
    ]
    .concat();
    run_and_check(
        &dir,
        &m,
        &gauntlet(&bots, "5s"),
        &[
            ("exits", Some(("crash", "exited with status 0"))),
            ("killed", Some(("crash", "killed by signal 9"))),
        ],
    );
}

#[test]
fn cpu_and_memory_limits_are_enforced_by_the_system_and_recorded() {
    let dir = folder("limits");
    let m = marker("limits");
    let bots = [
        hostile("spin", "spin.sh", &m, &[]),
        "cpu-limit = \"1s\"\n".to_owned(),
        testbot("hog", &format!("{m} hog --ms 2048")),
        format!("memory-limit = \"256MiB\"\nenv = {{ ABOURE_HOSTILE = \"{m}\" }}\n"),
        // Limits generous enough change nothing.
        testbot("limited", &format!("{m} random --seed 3")),
        format!(
            "memory-limit = \"1GiB\"\ncpu-limit = \"30s\"\nenv = {{ ABOURE_HOSTILE = \"{m}\" }}\n"
        ),
        // A program that may report the failed allocation itself.
        hostile("pyhog", "pyhog.sh", &m, &[]),
        "memory-limit = \"256MiB\"\n".to_owned(),
    ]
    .concat();
    // The clock is longer than the CPU limit, so the limit is what stops
    // the spinning bot.
    run_and_check(
        &dir,
        &m,
        &gauntlet(&bots, "5s").replace("base = \"400ms\"", "base = \"20s\""),
        &[
            ("spin", Some(("resource_limit", "CPU time limit of 1 s"))),
            ("hog", Some(("resource_limit", "memory limit of 256 MiB"))),
            // Under a memory cgroup (the sandbox, where the machine allows
            // it) the kernel's OOM killer stops it; under RLIMIT_DATA it
            // reports a MemoryError and exits with status 1.
            ("pyhog", Some(("resource_limit", "memory limit of 256 MiB"))),
            ("limited", None),
        ],
    );
}
