//! End-to-end tests of what `aboure run` prints: each forfeit as it
//! happens, on a stderr that is a pipe (no terminal, so no progress bar),
//! and the failures at the end, one line per bot and kind.

use crate::harness::*;

#[test]
fn forfeits_are_printed_as_they_happen_on_a_piped_stderr_and_grouped_at_the_end() {
    let dir = folder("run-output");
    let mut text = String::from(
        "[tournament]\nformat = \"gauntlet\"\ngauntlet-bot = \"honest\"\npairs = 2\nconcurrency = 1\nstartup-timeout = \"5s\"\n\
         [time-control]\nbase = \"1s\"\nincrement = \"10ms\"\nmargin = \"30ms\"\n",
    );
    text += &testbot("honest", "random --seed 7");
    text += &testbot("crasher", "crash --at 1");
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    // Not the harness's `run`, which is quiet; `output()` pipes stderr.
    let output = aboure(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", show(&output));
    let games = games(&out);
    assert_eq!(games.len(), 4, "{}", show(&output));

    // One line per forfeit: the bot's first in full, later ones cut to
    // their detail's first line.
    let stderr = String::from_utf8_lossy(&output.stderr);
    let forfeits: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(": crasher loses by crash: "))
        .collect();
    assert_eq!(forfeits.len(), games.len(), "{}", show(&output));
    for g in &games {
        let id = g["id"].as_str().unwrap();
        let here = forfeits
            .iter()
            .filter(|l| l.starts_with(&format!("game {id} (")));
        assert_eq!(here.count(), 1, "game {id}: {}", show(&output));
    }
    let first_id = forfeits[0]
        .strip_prefix("game ")
        .and_then(|l| l.split(' ').next())
        .unwrap();
    let first = games.iter().find(|g| g["id"] == first_id).unwrap();
    let detail = first["detail"].as_str().unwrap();
    assert!(detail.contains("testbot: crashing on purpose"), "{first}");
    assert!(stderr.contains(detail), "{}", show(&output));
    if detail.contains('\n') {
        assert!(
            forfeits[1..]
                .iter()
                .all(|l| l.ends_with("(more in games.jsonl)")),
            "{}",
            show(&output)
        );
    }

    // At the end: the crashes are one line, with their count and an example.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let grouped: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  crasher  crash "))
        .collect();
    assert_eq!(grouped.len(), 1, "{}", show(&output));
    assert!(
        grouped[0].contains(" 4 games  e.g. ") && grouped[0].contains(" crash: "),
        "{}",
        show(&output)
    );
}

#[test]
fn the_lines_a_terminal_shows_above_the_bar_are_printed_on_a_piped_stderr() {
    let dir = folder("run-output-above");
    let text = "[tournament]\npairs = 1\n[openings]\nplies = 2\n\
         [time-control]\nnodes = 200\n\
         [[bot]]\nname = \"a\"\nbuiltin = \"greedy\"\n\
         [[bot]]\nname = \"b\"\nbuiltin = \"random\"\n";
    let config = write_config(&dir, text);
    let out = dir.join("out");
    let args = [
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    // `output()` pipes stderr: no terminal, no bar.
    let output = aboure(&args);
    assert!(output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    let mode = manifest["sandbox"]["mode"].as_str().unwrap();
    let layers = match mode {
        "off" => "sandbox off: bots run as plain processes".to_owned(),
        _ => format!("sandbox {mode}: "),
    };
    assert!(
        stderr.lines().any(|l| l.starts_with(&layers)),
        "{layers:?} in\n{}",
        show(&output)
    );
    // Resumed, it says how much was played before.
    let output = aboure(&[&args[..], &["--resume"]].concat());
    assert!(output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("resuming: 2 of 2 games already played"),
        "{}",
        show(&output)
    );
    // Quiet, it says neither.
    let output = aboure(&[&args[..], &["--resume", "-q"]].concat());
    assert!(output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("resuming:"), "{}", show(&output));
    assert!(!stderr.contains(&layers), "{}", show(&output));
    // With --serve, the live page's address.
    let mut child = std::process::Command::new(ABOURE)
        .args(&args[..])
        .args(["--resume", "--serve"])
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    // Read on a thread of its own: the page stays up until killed, so a
    // missing line must not hang the test.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(stderr).map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let mut seen = Vec::new();
    while let Ok(line) =
        rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
    {
        let done = line.starts_with("live page: http://127.0.0.1:");
        seen.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        seen.iter()
            .any(|l| l.starts_with("live page: http://127.0.0.1:")),
        "no live page address on the piped stderr:\n{}",
        seen.join("\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_slow_start_up_is_said_as_it_happens_and_at_the_end() {
    let dir = folder("run-output-slow-start");
    let mut text = String::from(
        "[tournament]\npairs = 1\nconcurrency = 1\n[openings]\nplies = 2\n\
         [time-control]\nnodes = 200\n",
    );
    text += &testbot("sluggish", "slowstart --ms 1300");
    text += "[[bot]]\nname = \"quick\"\nbuiltin = \"random\"\n";
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = aboure(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(games(&out).len(), 2, "{}", show(&output));
    // As it happens, once: the bot restarts for each game.
    let stderr = String::from_utf8_lossy(&output.stderr);
    let live: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("sluggish: its start-up took "))
        .collect();
    assert_eq!(live.len(), 1, "{}", show(&output));
    assert!(
        live[0].contains("(over 1000 ms)") && live[0].contains("aboure check-bot"),
        "{}",
        show(&output)
    );
    // At the end: how many of its starts were slow, and what they cost.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let end: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  sluggish: 2 of 2 starts over 1000 ms"))
        .collect();
    assert_eq!(end.len(), 1, "{}", show(&output));
    // (That a quick start-up is not said is `run_startups`'s unit test: a
    // busy machine can make any start-up slow.)
}
