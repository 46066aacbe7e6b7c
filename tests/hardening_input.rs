//! Hostile input to the arbiter, end to end: broken tournament files, and
//! results files damaged by a power cut or belonging to another tournament.
//! Each is refused (or repaired) with a message that says what and where,
//! and nothing already recorded is lost.
//!
//! The library's own tests (crates/config/tests/config_errors.rs) check
//! every config error's line and key; these check what the user sees: the
//! exit status, the message on stderr, and that nothing is written.

use crate::harness;

use std::path::Path;

use harness::*;

const TWO: &str =
    "[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"greedy\"\n";

#[track_caller]
fn refused(dir: &Path, case: &str, text: &[u8], expected: &[&str]) {
    let config = dir.join(format!("{case}.toml"));
    std::fs::write(&config, text).unwrap();
    let out = dir.join(format!("out-{case}"));
    let output = run(&config, &out, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{case}: {}", show(&output));
    for e in expected {
        assert!(stderr.contains(e), "{case}: expected {e:?} in\n{stderr}");
    }
    assert!(!stderr.contains("panicked"), "{case}: {stderr}");
    assert!(
        !out.exists(),
        "{case}: a refused file wrote {}",
        out.display()
    );
}

#[test]
fn broken_tournament_files_are_refused_with_file_line_and_key() {
    let dir = folder("badconfig");
    let cases: Vec<(&str, Vec<u8>, Vec<&str>)> = vec![
        (
            "empty",
            b"".to_vec(),
            vec!["empty.toml", "at least two [[bot]]"],
        ),
        (
            "truncated",
            format!("{TWO}[tournament]\npairs = ").into_bytes(),
            vec!["truncated.toml:8:"],
        ),
        (
            "cutstring",
            b"[[bot]]\nname = \"ab".to_vec(),
            vec!["cutstring.toml:2:"],
        ),
        (
            "notutf8",
            b"[[bot]]\nname = \"\xff\xfe\"\n".to_vec(),
            vec!["notutf8.toml"],
        ),
        (
            "unknown",
            format!("[tournament]\nconcurency = 2\n{TWO}").into_bytes(),
            vec!["unknown.toml:2:1", "unknown field `concurency`"],
        ),
        (
            "type",
            format!("[time-control]\nbase = 2\n{TWO}").into_bytes(),
            vec!["type.toml:2:8", "time-control.base", "base = \"2ms\""],
        ),
        (
            "negative",
            format!("[time-control]\nbase = \"-2s\"\n{TWO}").into_bytes(),
            vec!["negative.toml:2:8", "time-control.base", "-2s"],
        ),
        (
            "zero",
            format!("[time-control]\nmovetime = \"0s\"\n{TWO}").into_bytes(),
            vec!["zero.toml:2:12", "time-control.movetime: must be positive"],
        ),
        (
            "negpairs",
            format!("[tournament]\npairs = -5\n{TWO}").into_bytes(),
            vec!["negpairs.toml:2:9", "tournament.pairs", "out of range"],
        ),
        (
            "duplicate",
            format!("{TWO}[[bot]]\nname = \"b\"\nbuiltin = \"mcts\"\n").into_bytes(),
            vec!["duplicate.toml:8:8", "bot[2].name", "already used"],
        ),
        (
            "escape",
            format!("[[bot]]\nname = \"../../escaped\"\nbuiltin = \"random\"\n{TWO}").into_bytes(),
            vec!["escape.toml:2:8", "bot[0].name", "file names"],
        ),
        (
            "absolute",
            format!("[[bot]]\nname = \"/tmp/escaped\"\nbuiltin = \"random\"\n{TWO}").into_bytes(),
            vec!["absolute.toml:2:8", "contains a slash"],
        ),
        (
            "nocommand",
            format!("[[bot]]\nname = \"c\"\nworkdir = \".\"\n{TWO}").into_bytes(),
            vec!["nocommand.toml:1:1", "bot[0]", "needs either builtin"],
        ),
    ];
    for (case, text, expected) in &cases {
        refused(&dir, case, text, expected);
    }
    // Nothing escaped into the folder above either.
    assert!(!dir.join("../escaped.stderr.log").exists());
    let missing = run(&dir.join("nothing-here.toml"), &dir.join("out"), &[]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nothing-here.toml"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn absurd_times_are_refused_not_a_panic() {
    let dir = folder("absurd");
    for (case, table, key) in [
        (
            "base",
            "[time-control]\nbase = \"18446744073709551615s\"\n",
            "time-control.base",
        ),
        (
            "startup",
            "[tournament]\nstartup-timeout = \"500000000years\"\n",
            "tournament.startup-timeout",
        ),
        (
            "margin",
            "[time-control]\nmovetime = \"1s\"\nmargin = \"18446744073709551615s\"\n",
            "time-control.margin",
        ),
    ] {
        refused(
            &dir,
            case,
            format!("{table}{TWO}").as_bytes(),
            &[key, "too long"],
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A quick tournament of two test bots: 2 pairs, 4 games.
fn quick(dir: &Path, seed: u32) -> std::path::PathBuf {
    let text = format!(
        "[tournament]\npairs = 2\nconcurrency = 2\nseed = {seed}\n{}{}",
        testbot("x", "random --seed 1"),
        testbot("y", "random --seed 2"),
    );
    write_config(dir, &text)
}

#[test]
fn a_power_cut_in_the_last_line_is_reported_by_report_and_repaired_by_resume() {
    let dir = folder("powercut");
    let config = quick(&dir, 1);
    let out = dir.join("out");
    assert!(run(&config, &out, &[]).status.success());
    let path = out.join("games.jsonl");
    let full = std::fs::read(&path).unwrap();
    // Cut the last line in half, as a power cut during its write would.
    let last_start = full[..full.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .unwrap()
        + 1;
    let cut = last_start + (full.len() - last_start) / 2;
    std::fs::write(&path, &full[..cut]).unwrap();

    let report = aboure(&[
        "report",
        "--format",
        "json",
        "--no-accuracy",
        path.to_str().unwrap(),
    ]);
    assert!(report.status.success(), "{}", show(&report));
    let stderr = String::from_utf8_lossy(&report.stderr);
    assert!(
        stderr.contains("games.jsonl:4") && stderr.contains("truncated"),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(json["games"], 3);

    let resumed = aboure(
        &run_args(&config, &out, &["--resume"])
            .iter()
            .filter(|a| **a != "-q")
            .copied()
            .collect::<Vec<_>>(),
    );
    assert!(resumed.status.success(), "{}", show(&resumed));
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        stderr.contains("games.jsonl:4") && stderr.contains("truncated"),
        "{stderr}"
    );
    let repaired = std::fs::read(&path).unwrap();
    assert_eq!(
        repaired[..last_start],
        full[..last_start],
        "earlier games changed"
    );
    assert_eq!(games(&out).len(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_line_in_the_middle_stops_the_resume_and_nothing_is_lost() {
    let dir = folder("damaged");
    let config = quick(&dir, 1);
    let out = dir.join("out");
    assert!(run(&config, &out, &[]).status.success());
    let path = out.join("games.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1] = "{\"id\": \"r0000-p00-g1\", \"pairing\": ";
    lines.truncate(3);
    let damaged = lines.join("\n") + "\n";
    std::fs::write(&path, &damaged).unwrap();
    let refused = run(&config, &out, &["--resume"]);
    assert_eq!(refused.status.code(), Some(2), "{}", show(&refused));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("games.jsonl:2") && stderr.contains("malformed"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn results_of_another_tournament_are_never_mixed_in() {
    let dir = folder("mixed");
    let config = quick(&dir, 1);
    let out = dir.join("out");
    assert!(run(&config, &out, &[]).status.success());
    let path = out.join("games.jsonl");
    let before = std::fs::read(&path).unwrap();
    // Same file name, other games: another seed, another bot command.
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    for (case, text, what) in [
        (
            "seed",
            std::fs::read_to_string(&config)
                .unwrap()
                .replace("seed = 1", "seed = 2"),
            "seed",
        ),
        (
            "command",
            std::fs::read_to_string(&config)
                .unwrap()
                .replace("--seed\", \"2", "--seed\", \"3"),
            "bots",
        ),
    ] {
        let changed = other.join(format!("{case}.toml"));
        std::fs::write(&changed, text).unwrap();
        let refused = run(&changed, &out, &["--resume"]);
        assert_eq!(refused.status.code(), Some(2), "{case}: {}", show(&refused));
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(
            stderr.contains("changed: ") && stderr.contains(what),
            "{case}: {stderr}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before, "{case}");
    }
    // Results without the run.json that says what they are.
    let orphaned = dir.join("orphaned");
    std::fs::create_dir_all(&orphaned).unwrap();
    std::fs::copy(&path, orphaned.join("games.jsonl")).unwrap();
    let refused = run(&config, &orphaned, &["--resume"]);
    assert_eq!(refused.status.code(), Some(2), "{}", show(&refused));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("run.json is missing"));
    // Without --resume, existing results are never overwritten.
    let refused = run(&config, &out, &[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("already holds 4 finished games"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_whose_program_is_missing_stops_the_run_before_any_game() {
    let dir = folder("missingprogram");
    let other = "[[bot]]\nname = \"b\"\nbuiltin = \"greedy\"\n";
    let bare =
        format!("[[bot]]\nname = \"a\"\ncommand = [\"aboure-no-such-program\", \"x\"]\n{other}");
    let path = std::env::var("PATH").unwrap();
    refused(
        &dir,
        "bare",
        bare.as_bytes(),
        &[
            "bot \"a\": its program \"aboure-no-such-program\" is not in any folder of PATH",
            &format!("({path})"),
        ],
    );
    let missing = format!("[[bot]]\nname = \"a\"\ncommand = [\"./bin/bot\"]\n{other}");
    let expected = format!(
        "bot \"a\": its program {} does not exist",
        dir.join("./bin/bot").display()
    );
    refused(&dir, "path", missing.as_bytes(), &[&expected]);

    // A bot's own `env` PATH is where its bare program name is looked for.
    let bin = dir.join("bin");
    let engine = python_template(&bin, "engine.py");
    // A python3 the sandbox shows (a system folder's, not a shim in HOME).
    let python = (std::env::split_paths(&path))
        .map(|d| d.join("python3"))
        .find(|p| p.is_file() && p.starts_with("/usr"))
        .expect("python3 in a folder of PATH under /usr");
    let script = bin.join("my-engine");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec {} {}\n",
            python.display(),
            engine.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let own_path = |p: &Path| {
        format!(
            "[tournament]\npairs = 1\n[time-control]\nbase = \"5s\"\nincrement = \"50ms\"\n\
             [[bot]]\nname = \"a\"\ncommand = [\"my-engine\"]\noptions = {{ depth = 1 }}\n\
             env = {{ PATH = {:?} }}\n{other}",
            p.display().to_string()
        )
    };
    let empty = dir.join("empty");
    refused(
        &dir,
        "own-path",
        own_path(&empty).as_bytes(),
        &[&format!(
            "bot \"a\": its program \"my-engine\" is not in any folder of PATH ({})",
            empty.display()
        )],
    );
    let config = write_config(&dir, &own_path(&bin));
    let out = dir.join("out-found");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    for g in games(&out) {
        assert_eq!(g["termination"], "natural", "{g}");
    }

    // check-bot refuses before its first check, in --env PATH if given.
    let check = |env: &[&str]| {
        let mut args = vec!["check-bot", "--check", "handshake"];
        args.extend_from_slice(env);
        args.extend(["--", "my-engine"]);
        aboure(&args)
    };
    let output = check(&[]);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("its program \"my-engine\" is not in any folder of PATH"),
        "{}",
        show(&output)
    );
    assert!(output.stdout.is_empty(), "{}", show(&output));
    let own = format!("PATH={}", bin.display());
    let output = check(&["--env", &own]);
    assert!(output.status.success(), "{}", show(&output));

    // And so does tune, before its first iteration.
    let tune = "[tournament]\npairs = 1\n\
         [[bot]]\nname = \"a\"\ncommand = [\"aboure-no-such-program\"]\n\
         [tune]\nbot = \"a\"\nparameters = { w = { start = 0, min = -10, max = 10, step = 1 } }\n\
         iterations = 1\nobjective = \"accuracy\"\npositions = 10\n";
    let config = dir.join("tune.toml");
    std::fs::write(&config, tune).unwrap();
    let out = dir.join("out-tune");
    let output = aboure(&[
        "tune",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains(
            "bot \"a\": its program \"aboure-no-such-program\" is not in any folder of PATH"
        ),
        "{}",
        show(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sixth outside round's c09: at `-vvv`, the trace of a line the
/// arbiter ignored printed the bot's bytes raw, so a bot set the
/// operator's terminal title and colours (and, where a terminal allows
/// it, its clipboard). Every trace of a bot's line is escaped now.
#[test]
fn a_bots_control_characters_reach_no_terminal_even_at_trace_level() {
    let dir = folder("input-controls");
    let code = format!(
        "printf '\\033]0;PWNED\\007 \\302\\233 \\033[31mred\\n'; exec {TESTBOT:?} random --seed 3"
    );
    let text = format!(
        "[tournament]\npairs = 1\n[time-control]\nmovetime = \"20ms\"\n\
         [[bot]]\nname = \"painter\"\ncommand = [\"sh\", \"-c\", {code:?}]\n\
         [[bot]]\nname = \"b\"\nbuiltin = \"random\"\n"
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = aboure(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-vvv",
    ]);
    assert!(output.status.success(), "{}", show(&output));
    let all = [&output.stdout[..], &output.stderr[..]].concat();
    let text = String::from_utf8_lossy(&all);
    assert!(text.contains("PWNED"), "the trace shows the line: {text}");
    // The log's own colours aside, no ESC of the bot's.
    let raw = |seq: &[u8]| all.windows(seq.len()).any(|w| w == seq);
    assert!(
        !raw(b"\x1b]0;PWNED"),
        "the bot's title sequence reached the terminal"
    );
    assert!(
        !raw(b"\x1b[31mred"),
        "the bot's colour reached the terminal"
    );
    assert!(
        !text.contains('\u{9b}'),
        "a raw C1 CSI reached the terminal"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
