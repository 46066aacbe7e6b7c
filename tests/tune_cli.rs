//! `aboure tune` end to end, through the real binary and the built-in
//! alphabeta's processes: the answer on stdout and in `tune.json`, the
//! games objective's iteration folders and its confirming SPRT, errors
//! that name the parameter and the bot, and a SIGKILLed tune that resumes
//! on exactly the path of an uninterrupted one.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use aboure_records::{read_tune_path, TuneFile};

use crate::harness::{aboure, show, write_config, ABOURE};

/// A tune of alphabeta's row weight from the wrong sign, at a node budget
/// (deterministic), with `table` added to `[tune]`.
fn config(dir: &Path, parameters: &str, table: &str) -> std::path::PathBuf {
    write_config(
        dir,
        &format!(
            "[tournament]\nseed = 3\npairs = 4\n[time-control]\nnodes = 300\n\
             [[bot]]\nname = \"alphabeta\"\nbuiltin = \"alphabeta\"\noptions = {{ hash = 1 }}\n\
             [tune]\nbot = \"alphabeta\"\nparameters = {{ {parameters} }}\n{table}"
        ),
    )
}

const ROW: &str = "row_weight = { start = -50, min = -1000, max = 1000, step = 10 }";

fn tune(config: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "tune",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    aboure(&args)
}

#[test]
fn an_accuracy_tune_moves_the_weight_up_and_writes_its_answer() {
    let dir = tempfile::tempdir().unwrap();
    let table =
        "objective = \"accuracy\"\npositions = 40\niterations = 4\nspsa = { A = 1, r-end = 4 }\n";
    let cfg = config(dir.path(), ROW, table);
    let out = dir.path().join("out");
    let output = tune(&cfg, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("iteration 4/4: row_weight "), "{stderr}");
    // Theta with its trend over the iterations so far.
    let last = stderr
        .lines()
        .find(|l| l.starts_with("iteration 4/4"))
        .unwrap();
    assert!(last.contains(" in 3) (gain "), "{last}");
    let file = TuneFile::read_in(&out).unwrap().unwrap();
    assert_eq!(file.objective, "accuracy");
    assert_eq!(file.bot, "alphabeta");
    assert_eq!(file.path.len(), 4);
    assert!(file.path.iter().all(|s| s.loss.is_some() && s.games == 0));
    let value = file.values["row_weight"];
    assert_eq!(stdout.trim(), format!("row_weight = {value}"));
    // The wrong sign loses seeds: every step so far moved theta up.
    assert!(value > -50.0, "{stdout}");
    // The report plots the path and the objective.
    let report = aboure(&["report", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&report.stdout);
    assert!(
        text.starts_with("tune of alphabeta by accuracy: 4 iterations"),
        "{}",
        show(&report)
    );
    assert!(text.contains(&format!("row_weight = {value}")), "{text}");
    let page = aboure(&["report", out.to_str().unwrap(), "--format", "html"]);
    let page = String::from_utf8_lossy(&page.stdout);
    assert!(page.contains("id=\"path-row_weight\"") && page.contains("id=\"objective-plot\""));
    // Rerunning into the same folder without --resume is refused.
    let again = tune(&cfg, &out, &[]);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("already holds a tune"),
        "{}",
        show(&again)
    );
}

#[test]
fn a_games_tune_plays_each_iteration_as_a_tournament_and_confirms_by_an_sprt() {
    let dir = tempfile::tempdir().unwrap();
    let table =
        "objective = \"games\"\ngames = 4\nconfirm = { elo0 = 0, elo1 = 50, max-pairs = 3 }\n";
    let cfg = config(dir.path(), ROW, table);
    let out = dir.path().join("out");
    let output = tune(&cfg, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let file = TuneFile::read_in(&out).unwrap().unwrap();
    // 4 games: one pair between the two points an iteration.
    assert_eq!(file.path.len(), 2);
    for step in &file.path {
        assert_eq!(step.games, 2);
        assert!(
            step.gain.abs() <= 2.0 && step.gain.fract() == 0.0,
            "{step:?}"
        );
        let games = out.join(format!("iterations/{:05}/games.jsonl", step.iteration));
        let text = std::fs::read_to_string(&games).unwrap();
        assert_eq!(text.lines().count(), 2, "{}", games.display());
        assert!(text.contains("alphabeta-plus") && text.contains("alphabeta-minus"));
    }
    let confirm = file.confirm.expect("the confirming SPRT");
    assert!(confirm.games >= 2 && confirm.games <= 6, "{confirm:?}");
    // A file without [openings]: the confirming SPRT plays an SPRT's
    // default, the balanced book; the iterations the file's random ones.
    let manifest = |dir: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(out.join(dir).join("run.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    assert_eq!(manifest("confirm")["builtin_openings"], "balanced");
    let first = manifest(&format!("iterations/{:05}", file.path[0].iteration));
    assert!(first.get("builtin_openings").is_none(), "{first}");
    assert!(confirm.description.contains("SPRT [0, 50]"), "{confirm:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("confirm: "), "{stderr}");
}

/// A tune of mcts's exploration constant, a float option, from 3.0.
fn mcts_config(dir: &Path, parameter: &str) -> std::path::PathBuf {
    write_config(
        dir,
        &format!(
            "[tournament]\nseed = 5\n[time-control]\nnodes = 200\n\
             [[bot]]\nname = \"mcts\"\nbuiltin = \"mcts\"\noptions = {{ seed = 1 }}\n\
             [tune]\nbot = \"mcts\"\nparameters = {{ exploration = {parameter} }}\n\
             objective = \"accuracy\"\npositions = 20\niterations = 3\nspsa = {{ A = 1, r-end = 4 }}\n"
        ),
    )
}

#[test]
fn a_float_option_is_tuned_and_sent_without_rounding() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = mcts_config(
        dir.path(),
        "{ start = 3.0, min = 0.05, max = 10, step = 0.35 }",
    );
    let out = dir.path().join("out");
    let output = tune(&cfg, &out, &["-q"]);
    assert!(output.status.success(), "{}", show(&output));
    let file = TuneFile::read_in(&out).unwrap().unwrap();
    assert_eq!(file.path.len(), 3);
    for step in &file.path {
        // c_k = 0.35 (3 / k)^0.101: never whole, and sent as it is.
        for (plus, minus) in step.plus.iter().zip(&step.minus) {
            assert!(plus.fract() != 0.0 && minus.fract() != 0.0, "{step:?}");
            let width = 2.0 * step.c[0] * step.delta[0];
            assert!((plus - minus - width).abs() < 1e-12, "{step:?}");
        }
    }
    let last = file.path.last().unwrap().exact_theta()[0];
    let value = file.values["exploration"];
    assert_eq!(value.to_bits(), last.to_bits(), "theta is not rounded");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.trim(), format!("exploration = {value}"));
    let written: f64 = stdout.trim()["exploration = ".len()..].parse().unwrap();
    assert_eq!(written.to_bits(), value.to_bits(), "printed exactly");

    // A range wider than the bot's declared 0..=10 is refused by name.
    let cfg = mcts_config(dir.path(), "{ start = 3.0, min = 0, max = 20, step = 0.5 }");
    let output = tune(&cfg, &dir.path().join("wide"), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    let expected =
        "bot mcts: parameter exploration: the range 0..=20 exceeds the bot's min 0 and max 10";
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(expected),
        "\nexpected: {expected}\nactual:   {stderr}"
    );
}

#[test]
fn parameters_are_checked_against_the_options_the_bot_declares() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "nosuch = { start = 0, min = -5, max = 5, step = 1 }",
            "bot alphabeta: parameter nosuch: the bot declares no such option (its int and float options: depth, hash, quiescence_plies, row_weight, mobility_weight, targets_weight, empty_weight)",
        ),
        (
            "row_weight = { start = 0, min = -2000, max = 5, step = 1 }",
            "bot alphabeta: parameter row_weight: the range -2000..=5 exceeds the bot's min -1000 and max 1000",
        ),
        (
            "quiescence = { start = 0, min = 0, max = 1, step = 1 }",
            "bot alphabeta: parameter quiescence: the bot declares it as `option name quiescence type bool default true`, not as an int or float option",
        ),
    ];
    for (i, (parameter, expected)) in cases.into_iter().enumerate() {
        let cfg = config(dir.path(), parameter, "iterations = 2\n");
        let output = tune(&cfg, &dir.path().join(format!("out{i}")), &[]);
        assert_eq!(output.status.code(), Some(2), "{}", show(&output));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(expected),
            "\nexpected: {expected}\nactual:   {stderr}"
        );
    }
}

#[test]
fn a_sigkilled_tune_resumes_on_exactly_the_uninterrupted_path() {
    let table =
        "objective = \"accuracy\"\npositions = 30\niterations = 8\nspsa = { A = 1, r-end = 4 }\n";
    killed_and_resumed(table, 8);
}

#[test]
fn a_sigkilled_games_tune_resumes_its_iteration_and_the_path() {
    // Iterations of two pairs, so a kill often lands between the games of one.
    let table = "objective = \"games\"\npairs = 2\niterations = 6\nspsa = { A = 1, r-end = 0.5 }\n";
    killed_and_resumed(table, 6);
}

/// Runs the tune of `table` (`iterations` long) to its end, and again
/// killed after its second iteration and resumed: the two paths and
/// answers must be the same.
fn killed_and_resumed(table: &str, iterations: usize) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), ROW, table);
    let whole = dir.path().join("whole");
    let output = tune(&cfg, &whole, &["-q"]);
    assert!(output.status.success(), "{}", show(&output));

    let killed = dir.path().join("killed");
    let mut child = Command::new(ABOURE)
        .args([
            "tune",
            cfg.to_str().unwrap(),
            "--out",
            killed.to_str().unwrap(),
            "-q",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while read_tune_path(&killed).map_or(0, |p| p.len()) < 2 {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "no iterations written"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the tune ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: mid-iteration, no chance to clean up
    child.wait().unwrap();
    let before = read_tune_path(&killed).unwrap().len();
    assert!(before < iterations, "the kill came after the end");
    let resumed = tune(&cfg, &killed, &["--resume"]);
    assert!(resumed.status.success(), "{}", show(&resumed));
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    let said = format!("resuming after iteration {before} of {iterations}");
    assert!(stderr.contains(&said), "{stderr}");

    let path = |out: &Path| -> Vec<(u32, Vec<u64>, Vec<f64>, f64)> {
        read_tune_path(out)
            .unwrap()
            .into_iter()
            .map(|s| (s.iteration, s.theta_bits, s.plus, s.gain))
            .collect()
    };
    assert_eq!(path(&killed), path(&whole));
    assert_eq!(path(&whole).len(), iterations);
    let values = |out: &Path| TuneFile::read_in(out).unwrap().unwrap().values;
    assert_eq!(values(&killed), values(&whole));
    assert_eq!(resumed.stdout, output.stdout);
}

/// A bot that declares one int option and answers every `go` with pit 0
/// (legal or not: an illegal move only counts as the worst), but its
/// `twice`-th `go` twice, in one write.
const TWICE_BOT: &str = r#"import sys
twice = int(sys.argv[1])
gos = 0
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "aboure":
        print("id name twice\nid author aboure\noption name w type int default 0 min -10 max 10\naboureok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        gos += 1
        print("bestmove 0\nbestmove 0" if gos == twice else "bestmove 0", flush=True)
    elif word == "quit":
        break
"#;

#[test]
fn a_probe_that_answers_a_go_twice_fails_the_tune_wherever_it_is_in_the_sample() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("twice.py"), TWICE_BOT).unwrap();
    // The third position, caught by the fence written with the fourth go;
    // the tenth (the last), caught by the fence after the sample.
    for twice in [3, 10] {
        let cfg = write_config(
            dir.path(),
            &format!(
                "[tournament]\nseed = 3\n[time-control]\nnodes = 300\n\
                 [[bot]]\nname = \"probe\"\ncommand = [\"python3\", \"-u\", \"twice.py\", \"{twice}\"]\n\
                 sandbox = false\n\
                 [tune]\nbot = \"probe\"\nparameters = {{ w = {{ start = 0, min = -10, max = 10, step = 1 }} }}\n\
                 objective = \"accuracy\"\npositions = 10\niterations = 1\n"
            ),
        );
        let output = tune(&cfg, &dir.path().join(format!("out{twice}")), &[]);
        assert_eq!(output.status.code(), Some(2), "{}", show(&output));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("bot probe-plus (iteration 1): ")
                && stderr.contains("bestmove that was not asked for: \"bestmove 0\""),
            "{twice}: {stderr}"
        );
    }
    // Answering each go once, the same bot finishes the tune.
    let cfg = write_config(
        dir.path(),
        "[tournament]\nseed = 3\n[time-control]\nnodes = 300\n\
         [[bot]]\nname = \"probe\"\ncommand = [\"python3\", \"-u\", \"twice.py\", \"0\"]\n\
         sandbox = false\n\
         [tune]\nbot = \"probe\"\nparameters = { w = { start = 0, min = -10, max = 10, step = 1 } }\n\
         objective = \"accuracy\"\npositions = 10\niterations = 1\n",
    );
    let output = tune(&cfg, &dir.path().join("once"), &[]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "w = 0");
}
