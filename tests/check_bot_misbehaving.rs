//! `aboure check-bot` fails misbehaving bots on the right checks, and only
//! those. Each bot in `tests/check_bot_fixtures/` is a small Python proxy
//! that runs a real reference bot and breaks one rule of the protocol on
//! the way. These tests need `python3` on the PATH.

use crate::support;

use support::{check_bot, fixture, Run, ABOURE, PATIENT};

/// Runs the misbehaving bot `script` in front of `aboure bot BOT`.
fn misbehaving(flags: &[&str], script: &str, bot: &str) -> Run {
    check_bot(flags, &["python3", &fixture(script), ABOURE, "bot", bot])
}

fn assert_fails(run: &Run, checks: &[&str], reason: &str) {
    for check in checks {
        let line = run.line(check);
        assert!(
            line.starts_with(&format!("FAIL {check}: ")) && line.contains(reason),
            "{check} should fail with `{reason}`:\n{}",
            run.dump()
        );
    }
    assert_eq!(run.code, Some(1), "{}", run.dump());
}

#[test]
fn a_bot_that_never_sends_aboureok_fails_the_handshake_and_nothing_else_runs() {
    let run = misbehaving(&["--timeout", "1500"], "no_aboureok.py", "random");
    assert_fails(&run, &["handshake"], "no aboureok within 1500 ms");
    assert_eq!(run.with_status("FAIL"), ["handshake"], "{}", run.dump());
    assert_eq!(
        run.with_status("PASS"),
        Vec::<&str>::new(),
        "{}",
        run.dump()
    );
    assert_eq!(run.summary(), "0 passed, 1 failed, 21 skipped");
    // The exchange is shown: what was sent, what came back, the time-out.
    for shown in [
        "> aboure 1",
        "< id name aboure random",
        "! no aboureok within 1500 ms",
    ] {
        assert!(run.stdout.contains(shown), "{shown}:\n{}", run.dump());
    }
}

#[test]
fn a_float_option_written_out_of_the_protocols_syntax_fails_the_handshake() {
    let run = misbehaving(&["--timeout", "5000"], "bad_float_option.py", "mcts");
    assert_fails(&run, &["handshake"], "default `.5` is not a decimal number");
    assert!(
        run.stdout
            .contains("option name exploration type float default .5 min 0 max 10"),
        "the line is quoted:\n{}",
        run.dump()
    );
}

#[test]
fn a_bot_that_answers_illegal_moves_fails_every_check_that_asks_for_one() {
    let run = misbehaving(&PATIENT, "illegal_move.py", "greedy");
    let asking = [
        "options",
        "bad-input",
        "newgame",
        "position-startpos",
        "position-set",
        "forced-pass",
        "one-legal-move",
        "go-clock",
        "go-movetime",
        "go-depth",
        "go-nodes",
        "single-bestmove",
        "full-game",
    ];
    assert_fails(&run, &asking, "illegal move `bestmove ");
    for check in ["handshake", "ping", "quit", "end-of-input"] {
        assert_eq!(run.status(check), "PASS", "{check}:\n{}", run.dump());
    }
    // The reason names the position and the legal moves.
    let line = run.line("position-startpos");
    assert!(
        line.contains("in 4,4,4,4,4,4/4,4,4,4,4,4 s 0 0 (South to move); legal moves: 0 1 2 3 4 5"),
        "{line}"
    );
}

#[test]
fn a_bot_that_ignores_endless_sowings_fails_the_endless_sowing_check_only() {
    let run = misbehaving(&PATIENT, "ignores_endless.py", "greedy");
    assert_fails(&run, &["endless-sowing"], "illegal move `bestmove 5`");
    assert_eq!(
        run.with_status("FAIL"),
        ["endless-sowing"],
        "{}",
        run.dump()
    );
    // The reason names RULES.md's position and its legal moves.
    let line = run.line("endless-sowing");
    assert!(
        line.contains("4,3,4,1,2,3/1,4,3,2,1,5 s 8 7") && line.contains("legal moves: 0 1 2 4"),
        "{line}"
    );
}

#[test]
fn a_slow_handshake_passes_with_a_warning_that_says_why_it_matters() {
    let run = misbehaving(&["--check", "handshake"], "slow_start.py", "random");
    assert_eq!(run.status("handshake"), "PASS", "{}", run.dump());
    assert!(
        run.stdout.contains("warning: the handshake took")
            && run.stdout.contains("(over 1000 ms)")
            && run
                .stdout
                .contains("every game of a tournament waits for it"),
        "{}",
        run.dump()
    );
    // The summary says how long the start-ups took.
    assert!(startup_ms(&run) >= 1500, "{}", run.dump());
    // A quick one does not warn, and says its start-up too.
    let quick = check_bot(&["--check", "handshake"], &[ABOURE, "bot", "random"]);
    assert_eq!(quick.status("handshake"), "PASS", "{}", quick.dump());
    assert!(!quick.stdout.contains("warning:"), "{}", quick.dump());
    assert!(startup_ms(&quick) < 1500, "{}", quick.dump());
}

/// The slowest start-up the line above the summary reports, in ms.
fn startup_ms(run: &Run) -> u64 {
    let prefix = "start-up, from `aboure 1` to `aboureok`: ";
    let line = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no start-up line:\n{}", run.dump()));
    // "37 ms over 1 start" or "31 to 52 ms over 12 starts".
    let slowest = line
        .split(" ms")
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap();
    slowest.parse().unwrap_or_else(|_| panic!("{line}"))
}

#[test]
fn a_bot_that_ignores_stop_fails_the_checks_that_stop_it() {
    let run = misbehaving(
        &["--margin", "2000", "--timeout", "4000"],
        "ignores_stop.py",
        "mcts",
    );
    assert_fails(
        &run,
        &["go-infinite", "isready-while-thinking", "stop"],
        "no bestmove within the time-out of 4000 ms after stop",
    );
    assert_eq!(
        run.with_status("FAIL"),
        ["go-infinite", "isready-while-thinking", "stop"],
        "{}",
        run.dump()
    );
}

#[test]
fn a_bot_that_crashes_on_position_set_fails_where_set_up_positions_are_sent() {
    let run = misbehaving(&PATIENT, "crashes_on_set.py", "random");
    let set_up = [
        "newgame",
        "position-set",
        "forced-pass",
        "one-legal-move",
        "endless-sowing",
    ];
    assert_fails(&run, &set_up, "exited with status 3");
    assert_eq!(run.with_status("FAIL"), set_up, "{}", run.dump());
    // Its last words on stderr are shown with the failure.
    assert!(
        run.stdout
            .contains("crashes_on_set: cannot read 'position set"),
        "{}",
        run.dump()
    );
}

#[test]
fn a_bot_that_answers_twice_fails_the_single_bestmove_check() {
    let run = misbehaving(&PATIENT, "answers_twice.py", "random");
    assert_fails(&run, &["single-bestmove"], "was not asked for");
    assert_eq!(run.status("handshake"), "PASS", "{}", run.dump());
    assert_eq!(run.status("ping"), "PASS", "{}", run.dump());
}

#[test]
fn a_bot_that_ignores_quit_fails_the_quit_checks_only() {
    let run = misbehaving(
        &["--margin", "2000", "--timeout", "3000"],
        "ignores_quit.py",
        "random",
    );
    assert_fails(
        &run,
        &["quit", "quit-while-thinking"],
        "still running 3000 ms after quit",
    );
    assert_eq!(
        run.with_status("FAIL"),
        ["quit", "quit-while-thinking"],
        "{}",
        run.dump()
    );
}

#[test]
fn unknown_lines_and_bad_info_are_warnings_not_failures() {
    let run = misbehaving(&PATIENT, "chatty.py", "random");
    assert_eq!(
        run.with_status("FAIL"),
        Vec::<&str>::new(),
        "{}",
        run.dump()
    );
    assert_eq!(run.code, Some(0), "{}", run.dump());
    for warning in [
        "warning: unknown line `thinking hard` (ignored)",
        "warning: info line that does not parse: `info depth many`",
    ] {
        assert!(run.stdout.contains(warning), "{warning}:\n{}", run.dump());
    }
}

#[test]
fn a_command_that_does_not_exist_is_refused_before_any_check() {
    let run = check_bot(&[], &["/nonexistent/aboure-bot"]);
    assert_eq!(run.code, Some(2), "{}", run.dump());
    assert!(
        run.stderr
            .contains("its program /nonexistent/aboure-bot does not exist"),
        "{}",
        run.dump()
    );
    assert!(run.with_status("FAIL").is_empty(), "{}", run.dump());
}

#[test]
fn an_unknown_check_name_is_refused_with_the_names() {
    let run = check_bot(&["--check", "pong"], &[ABOURE, "bot", "random"]);
    assert_eq!(run.code, Some(2), "{}", run.dump());
    assert!(
        run.stderr
            .contains("there is no check `pong`; the checks are: handshake,"),
        "{}",
        run.dump()
    );
}

#[test]
fn chosen_checks_run_alone() {
    let run = check_bot(
        &["--check", "ping", "--check", "quit"],
        &[ABOURE, "bot", "random"],
    );
    assert_eq!(run.with_status("PASS"), ["ping", "quit"], "{}", run.dump());
    assert_eq!(run.summary(), "2 passed, 0 failed");
    assert_eq!(run.code, Some(0));
}

#[test]
fn the_tournament_limits_apply_through_check_bot() {
    // Generous limits change nothing, as in a tournament.
    let flags = [
        "--memory-limit",
        "2GiB",
        "--cpu-limit",
        "60s",
        "--check",
        "ping",
    ];
    let run = check_bot(&flags, &[ABOURE, "bot", "random"]);
    assert_eq!(run.with_status("PASS"), ["ping"], "{}", run.dump());
    // A bot that fills 64 MiB before it answers, under a limit of 16 MiB:
    // whichever layer enforces it (a memory cgroup in the sandbox, the
    // address-space limit without one), the handshake fails. (A bot that
    // needs less than the limit's worth of its own pages may start under a
    // cgroup: its binary's pages are charged elsewhere.)
    let hog = "x = b'x' * (64 << 20)\nimport sys\nfor line in sys.stdin:\n    if line.startswith('aboure'):\n        print('id name hog\\nid author nobody\\naboureok', flush=True)\n    elif line.startswith('isready'):\n        print('readyok', flush=True)\n";
    let flags = ["--memory-limit", "16MiB", "--check", "handshake"];
    let run = check_bot(&flags, &["python3", "-c", hog]);
    assert_eq!(run.with_status("FAIL"), ["handshake"], "{}", run.dump());
    assert_eq!(run.code, Some(1), "{}", run.dump());
    // A memory cgroup counts its kills, and check-bot says so, as a
    // tournament would.
    if run.stderr.contains("cgroup-memory") {
        assert!(
            run.stdout
                .contains("OOM killer at the memory limit of 16 MiB"),
            "{}",
            run.dump()
        );
    }
    // The same bot passes without the limit: the limit made the difference.
    let run = check_bot(&["--check", "handshake"], &["python3", "-c", hog]);
    assert_eq!(run.with_status("PASS"), ["handshake"], "{}", run.dump());
    // A limit that does not parse is refused, with the tournament's words.
    let run = check_bot(
        &["--memory-limit", "12 parsecs"],
        &[ABOURE, "bot", "random"],
    );
    assert_eq!(run.code, Some(2), "{}", run.dump());
    assert!(
        run.stderr
            .contains("--memory-limit: unknown unit \"parsecs\""),
        "{}",
        run.dump()
    );
    // And the tournament's bounds: at least 1 MiB, at most 7 days.
    for (flag, value, message) in [
        (
            "--memory-limit",
            "64KiB",
            "--memory-limit: must be at least 1MiB",
        ),
        (
            "--cpu-limit",
            "8days",
            "--cpu-limit: \"8days\" is too long: at most 7 days",
        ),
        ("--cpu-limit", "0s", "--cpu-limit: must be positive"),
    ] {
        let run = check_bot(&[flag, value], &[ABOURE, "bot", "random"]);
        assert_eq!(run.code, Some(2), "{}", run.dump());
        assert!(run.stderr.contains(message), "{}", run.dump());
    }
}

#[test]
fn a_bot_whose_own_folder_is_shared_is_refused_before_any_check() {
    // `/etc/hosts` as the script: its folder is the system's `/etc`.
    let run = check_bot(&[], &["sh", "/etc/hosts"]);
    assert_ne!(run.code, Some(0), "{}", run.dump());
    assert!(!run.stdout.contains("PASS") && !run.stdout.contains("FAIL"));
    for part in [
        "the bot's command (sh /etc/hosts): /etc is the folder of /etc/hosts",
        "sandbox = { read = [...] }",
        "(here: --read PATH)",
    ] {
        assert!(run.stderr.contains(part), "{part:?}:\n{}", run.dump());
    }
    // Allowed by name, the checks run (and fail: it is no bot).
    let run = check_bot(
        &["--read", "/etc/hosts", "--check", "handshake"],
        &["sh", "/etc/hosts"],
    );
    assert_eq!(run.status("handshake"), "FAIL", "{}", run.dump());
}

/// A shell bot that shakes hands, then reports a fatal problem with the
/// first position it is told and exits.
pub(crate) const REPORTING_BOT: &str = "while read -r line; do\n  case \"$line\" in\n    \
     \"aboure 1\") printf 'id name reporter\\nid author t\\naboureok\\n' ;;\n    \
     isready) echo readyok ;;\n    \
     position*) echo \"info string error my rules disagree with: $line\"; exit 3 ;;\n  \
     esac\ndone\n";

#[test]
fn a_bot_that_reports_a_fatal_problem_fails_the_check_with_its_message() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bot.sh");
    std::fs::write(&script, REPORTING_BOT).unwrap();
    let run = check_bot(
        &["--check", "handshake", "--check", "position-startpos"],
        &["sh", script.to_str().unwrap()],
    );
    assert_eq!(run.status("handshake"), "PASS", "{}", run.dump());
    assert_fails(
        &run,
        &["position-startpos"],
        "the bot reported a fatal problem: \"my rules disagree with: position startpos\" \
         (`info string error`; every position check-bot sends is legal)",
    );
}

#[test]
fn escape_sequences_a_bot_sends_never_reach_the_terminal_raw() {
    // Attack 45 of the outside review: `id name` and `info string` with a
    // window title and a screen clear, shown by `check-bot -v`.
    let run = misbehaving(&["-v", "--check", "handshake"], "escapes.py", "random");
    assert!(!run.stdout.contains('\u{1b}'), "{}", run.dump());
    assert!(!run.stdout.contains('\u{7}'), "{}", run.dump());
    assert!(run.stdout.contains("\\u{1b}]0;OWNED"), "{}", run.dump());
}
