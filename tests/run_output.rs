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
