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
    gauntlet_against(&testbot("honest", "random --seed 7"), bots, startup)
}

/// The same, the honest bot with `env` marked `m`, as every test bot of
/// `bots` is: two bots of one program share its folder only with the
/// same `env`.
fn gauntlet_marked(bots: &str, startup: &str, m: &str) -> String {
    let honest =
        testbot("honest", "random --seed 7") + &format!("env = {{ ABOURE_HOSTILE = \"{m}\" }}\n");
    gauntlet_against(&honest, bots, startup)
}

fn gauntlet_against(honest: &str, bots: &str, startup: &str) -> String {
    format!(
        "[tournament]\nformat = \"gauntlet\"\ngauntlet-bot = \"honest\"\npairs = 1\nconcurrency = 2\nstartup-timeout = \"{startup}\"\n\
         [openings]\nplies = 0\n\
         [time-control]\nbase = \"400ms\"\nincrement = \"10ms\"\nmargin = \"30ms\"\n{honest}{bots}",
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
        hostile("blankflood", "blankflood.sh", &m, &[]),
        hostile("stderrflood", "stderrflood.sh", &m, &[]),
    ]
    .concat();
    // A clock long enough for the info flood to pass the bound on a move's
    // output however busy the machine (the other two never wait on it).
    let config = gauntlet(&bots, "5s").replace("base = \"400ms\"", "base = \"20s\"");
    let config = write_config(&dir, &config);
    let out = dir.join("out");
    let (output, max_rss_kib) = run_measured(&run_args(&config, &out, &[]), &dir);
    assert!(output.status.success(), "{}", show(&output));
    check_games(
        &games(&out),
        &[
            ("hugeline", Some(("protocol_violation", "line of"))),
            (
                "infoflood",
                Some(("protocol_violation", "bytes of output for one move")),
            ),
            // Blank lines are not handed over one by one, but still count.
            (
                "blankflood",
                Some(("protocol_violation", "bytes of output for one move")),
            ),
            ("stderrflood", None),
        ],
    );
    // 400 MB on one line, endless 60 KB lines and an endless stderr: the
    // arbiter stayed far below any of them.
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
        &gauntlet_marked(&bots, "5s", &m).replace("base = \"400ms\"", "base = \"20s\""),
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

/// `aboure run` that must end within `limit`: killed and failed otherwise.
#[track_caller]
fn run_within(config: &Path, out: &Path, limit: Duration) -> std::process::Output {
    let child = run_command(config, out, &[])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (done, waited) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(child.wait_with_output()));
    match waited.recv_timeout(limit) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            // SAFETY: kill has no memory effects; the pid is our child's,
            // not yet reaped (the waiting thread has not returned).
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            panic!("the run hung for {limit:?}");
        }
    }
}

#[test]
fn a_bot_that_never_reads_its_input_loses_and_the_run_ends() {
    let dir = folder("deaf");
    let m = marker("deaf");
    // An option far larger than the one-page pipe the bot shrank its
    // input to: the arbiter's write of it can never complete.
    let book = "b".repeat(100_000);
    let bots = [
        hostile("deaf", "deaf.sh", &m, &[]),
        format!("options = {{ Book = \"{book}\" }}\n"),
    ]
    .concat();
    let text = gauntlet(&bots, "2s").replace("pairs = 1\n", "pairs = 1\nrestart = \"never\"\n");
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = run_within(&config, &out, Duration::from_secs(60));
    assert!(output.status.success(), "{}", show(&output));
    check_games(
        &games(&out),
        &[(
            "deaf",
            Some(("startup_failure", "did not read its input (setoption")),
        )],
    );
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn floods_of_options_and_info_are_refused_or_cut_and_stay_small() {
    let dir = folder("input-caps");
    let m = marker("input-caps");
    let env = format!("env = {{ ABOURE_HOSTILE = \"{m}\" }}\n");
    let bots = [
        // 300 options of 60 KB each, then 300 small ones.
        testbot("bulky", &format!("{m} options --at 300 --ms 60000")),
        env.clone(),
        testbot("many", &format!("{m} options --at 300 --ms 10")),
        env.clone(),
        // A 10,000-move pv and a 30 KB string before every answer.
        testbot("chatty", &format!("{m} chatty --seed 5")),
        env,
    ]
    .concat();
    let config = write_config(&dir, &gauntlet_marked(&bots, "5s", &m));
    let out = dir.join("out");
    let (output, max_rss_kib) = run_measured(&run_args(&config, &out, &[]), &dir);
    assert!(output.status.success(), "{}", show(&output));
    let games = games(&out);
    check_games(
        &games,
        &[
            (
                "bulky",
                Some(("protocol_violation", "handshake of more than 262144 bytes")),
            ),
            (
                "many",
                Some(("protocol_violation", "more than 128 options")),
            ),
            ("chatty", None),
        ],
    );
    assert!(
        max_rss_kib < 100 * 1024,
        "peak resident memory {max_rss_kib} KiB"
    );
    let mut cut = 0;
    for ply in games.iter().flat_map(|g| g["plies"].as_array().unwrap()) {
        let Some(info) = ply.get("info") else {
            continue;
        };
        if info["pv_sent"] == 10_000 {
            cut += 1;
            assert_eq!(info["pv"].as_array().unwrap().len(), 32, "{info}");
            let text = info["string"].as_str().unwrap();
            assert!(text.ends_with("(cut from 30000 bytes)"), "{text}");
            assert!(text.len() < 600, "{} bytes kept", text.len());
        }
    }
    assert!(cut > 4, "only {cut} plies had their info cut");
    // Two games of the chatty bot sent over 60 KB a ply; the results hold
    // about 1 KB a ply.
    let size = std::fs::metadata(out.join("games.jsonl")).unwrap().len();
    assert!(size < 300_000, "games.jsonl of {size} bytes");
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_that_floods_info_while_thinking_loses_at_the_output_bound() {
    let dir = folder("info-bound");
    let m = marker("info-bound");
    // Short `info` lines as fast as the pipe takes them, for longer than
    // its clock: only the bound on a move's output stops it before its time.
    let bots = [
        testbot("flooder", &format!("{m} flood --ms 60000")),
        format!("env = {{ ABOURE_HOSTILE = \"{m}\" }}\n"),
    ]
    .concat();
    let config = gauntlet_marked(&bots, "5s", &m).replace("base = \"400ms\"", "base = \"20s\"");
    let config = write_config(&dir, &config);
    let out = dir.join("out");
    let output = run(&config, &out, &["--log-protocol"]);
    assert!(output.status.success(), "{}", show(&output));
    let bound = aboure_process::MAX_MOVE_OUTPUT;
    check_games(
        &games(&out),
        &[(
            "flooder",
            Some((
                "protocol_violation",
                &format!("more than {bound} bytes of output for one move"),
            )),
        )],
    );
    // What the arbiter heard of the flooder (every line it read is in the
    // protocol log): past the bound in each of its two games, and not much
    // further.
    let log = std::fs::read_to_string(out.join("logs/flooder.protocol.log")).unwrap();
    let heard: usize = log
        .lines()
        .filter_map(|l| l.split_once(" < ").map(|(_, line)| line.len() + 1))
        .sum();
    assert!(
        (2 * bound..2 * bound + 64 * 1024).contains(&heard),
        "heard {heard} bytes of the flooder, bound {bound} a move"
    );
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_direction_override_in_a_bots_name_reaches_the_terminal_only_as_text() {
    let dir = folder("escapes");
    let m = marker("escapes");
    // (Control characters in a name are refused by the config; a direction
    // override, which reverses the rest of its line, is not.) The bot fails
    // every game, so its name is in the report, the forfeit warning and its
    // first forfeit.
    let bot = hostile("rev\\u202esed", "escapes.sh", &m, &[]);
    let config = write_config(&dir, &gauntlet(&bot, "5s"));
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    check_games(
        &games(&out),
        &[("rev\u{202e}sed", Some(("crash", "owned")))],
    );
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(printed.matches("rev\\u{202e}sed").count() >= 3, "{printed}");
    assert!(!printed.contains('\u{202e}'), "{printed:?}");
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}
