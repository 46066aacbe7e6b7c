//! The suite against tiny bots written as shell scripts, each wrong in one
//! way: what fails, with which reason, and what the transcript shows.

use std::time::Duration;

use crate::{run, Check, CheckConfig, CheckOutcome, Direction, Status, SuiteReport};

/// The margin on timed answers (a tournament's default).
const MARGIN: Duration = Duration::from_millis(50);

/// A well-behaved bot for the checks that need no moves.
const PINGER: &str = r#"while read -r line; do
  case "$line" in
    "aboure 1") echo "id name pinger"; echo "id author shell"; echo aboureok ;;
    isready) echo readyok ;;
    quit) exit 0 ;;
  esac
done"#;

fn suite(script: &str, checks: &[Check]) -> SuiteReport {
    let mut config = CheckConfig::new(["sh", "-c", script], MARGIN).unwrap();
    config.timeout = Duration::from_millis(2000);
    config.checks = checks.to_vec();
    run(&config, |_| {}).unwrap()
}

fn handshake(script: &str) -> CheckOutcome {
    let report = suite(script, &[Check::Handshake]);
    report.outcomes[0].clone()
}

fn reason(outcome: &CheckOutcome) -> &str {
    match &outcome.status {
        Status::Fail { reason, .. } => reason,
        other => panic!("expected a failure, got {other:?}: {outcome:#?}"),
    }
}

/// The answer to `aboure 1` (after reading it), then `readyok` to each
/// `isready`.
fn answering(lines: &[&str]) -> String {
    let echoes: Vec<String> = lines.iter().map(|l| format!("echo '{l}'")).collect();
    format!(
        "read -r line; {}; while read -r line; do [ \"$line\" = isready ] && echo readyok; done",
        echoes.join("; ")
    )
}

#[test]
fn a_well_behaved_shell_bot_passes_what_it_implements() {
    let checks = [
        Check::Handshake,
        Check::Ping,
        Check::Quit,
        Check::EndOfInput,
    ];
    let report = suite(PINGER, &checks);
    assert!(report.all_passed(), "{report:#?}");
    assert_eq!(report.passed(), 4);
    let quit = report.outcome("quit").unwrap();
    let headline = quit.headline.as_deref().unwrap_or_default();
    assert!(headline.starts_with("exited with status 0 "), "{quit:#?}");
    let handshake = report.outcome("handshake").unwrap();
    assert_eq!(
        handshake.headline.as_deref(),
        Some("`pinger` by `shell`, 0 options")
    );
}

#[test]
fn a_bot_that_exits_at_once_fails_with_its_exit_status() {
    let outcome = handshake("exit 7");
    assert!(
        reason(&outcome).contains("exited with status 7"),
        "{outcome:#?}"
    );
}

#[test]
fn an_overlong_line_fails() {
    let outcome =
        handshake("read -r line; head -c 100000 /dev/zero | tr '\\0' x; echo; cat > /dev/null");
    // Reported as soon as the limit is passed, as the arbiter does: the
    // length is what was read by then, not the whole line.
    let reason = reason(&outcome);
    let len: usize = reason
        .strip_prefix("a line of ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        len > 65536 && reason.contains(" bytes (the limit is 65536)"),
        "{outcome:#?}"
    );
}

#[test]
fn a_bestmove_during_the_handshake_was_not_asked_for() {
    let outcome = handshake(&answering(&[
        "id name a",
        "id author b",
        "bestmove 3",
        "aboureok",
    ]));
    assert!(
        reason(&outcome).starts_with("`bestmove 3` was not asked for"),
        "{outcome:#?}"
    );
}

#[test]
fn a_malformed_option_fails_and_quotes_the_line() {
    let outcome = handshake(&answering(&[
        "id name a",
        "id author b",
        "option name x type int default 5 min 9 max 1",
        "aboureok",
    ]));
    let reason = reason(&outcome);
    assert!(
        reason.starts_with(
            "a line that does not parse: `option name x type int default 5 min 9 max 1`"
        ),
        "{reason}"
    );
}

#[test]
fn ids_must_come_once_each() {
    let no_author = handshake(&answering(&["id name a", "aboureok"]));
    assert_eq!(reason(&no_author), "no `id author` before `aboureok`");
    let twice = handshake(&answering(&[
        "id name a",
        "id name b",
        "id author c",
        "aboureok",
    ]));
    assert_eq!(reason(&twice), "`id name` sent twice");
    let options = handshake(&answering(&[
        "id name a",
        "id author c",
        "option name x type bool default true",
        "option name x type bool default false",
        "aboureok",
    ]));
    assert_eq!(reason(&options), "option `x` declared twice");
}

#[test]
fn unknown_lines_and_bad_info_only_warn() {
    let outcome = handshake(&answering(&[
        "hello there",
        "id name a",
        "info depth lots",
        "id author b",
        "aboureok",
    ]));
    assert!(outcome.passed(), "{outcome:#?}");
    assert_eq!(
        outcome.warnings,
        [
            "unknown line `hello there` (ignored)",
            "info line that does not parse: `info depth lots`: depth `lots` is not an unsigned number",
        ]
    );
}

#[test]
fn a_silent_bot_times_out_and_the_transcript_shows_the_exchange() {
    let outcome = handshake("cat > /dev/null");
    assert_eq!(reason(&outcome), "no aboureok within 2000 ms");
    let exchange = outcome.failing_exchange();
    let shown: Vec<(Direction, &str)> = exchange
        .iter()
        .map(|e| (e.direction, e.text.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            (Direction::Sent, "aboure 1"),
            (Direction::Event, "no aboureok within 2000 ms"),
        ]
    );
    let waited = exchange[1].at - exchange[0].at;
    assert!(waited >= Duration::from_millis(2000), "{waited:?}");
}

#[test]
fn after_a_failed_handshake_the_other_checks_are_skipped() {
    let report = suite("exit 0", &[Check::Handshake, Check::Ping]);
    assert_eq!(report.failed(), 1);
    assert_eq!(report.skipped(), 1);
    assert!(!report.all_passed());
    assert!(matches!(report.outcomes[1].status, Status::Skip { .. }));
}

#[test]
fn a_bot_that_ignores_quit_is_reported_and_killed() {
    let stubborn = PINGER.replace("quit) exit 0 ;;", "quit) ;;");
    let report = suite(&stubborn, &[Check::Quit]);
    let outcome = &report.outcomes[0];
    assert_eq!(
        reason(outcome),
        "the bot was still running 2000 ms after quit"
    );
}

#[test]
fn the_arbiters_cpu_limit_is_enforced_and_named() {
    // Spins after its handshake, where the arbiter's limit would stop it.
    let spin = format!(
        "{}; while :; do :; done",
        answering(&["id name s", "id author t", "aboureok"]).replace(
            "while read -r line; do [ \"$line\" = isready ] && echo readyok; done",
            "read -r line; echo readyok",
        )
    );
    let mut config = CheckConfig::new(["sh", "-c", &spin], MARGIN).unwrap();
    config.timeout = Duration::from_secs(30);
    config.checks = vec![Check::Handshake, Check::Ping];
    config.limits.cpu = Some(Duration::from_secs(1));
    let report = run(&config, |_| {}).unwrap();
    let ping = report.outcome("ping").unwrap();
    assert!(
        reason(ping).contains("CPU time limit of 1 s reached"),
        "{ping:#?}"
    );
}
