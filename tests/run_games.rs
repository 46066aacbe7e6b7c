//! End-to-end tests of `aboure run`: real tournaments between real processes
//! (the misbehaving test bot and the reference bots), real files, the real
//! binary. Time controls are short and games few, so this stays fast.

use crate::harness;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::Value;

use harness::*;

fn sleepers() -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) {
            if cmd == b"sleep\x0031415\x00" {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn every_misbehaviour_is_a_recorded_loss_and_the_tournament_finishes() {
    let dir = folder("misbehave");
    let mut text = String::from(
        "[tournament]\nformat = \"gauntlet\"\ngauntlet-bot = \"honest\"\npairs = 1\nconcurrency = 2\nstartup-timeout = \"5s\"\n\
         [time-control]\nbase = \"1s\"\nincrement = \"10ms\"\nmargin = \"30ms\"\n",
    );
    text += &testbot("honest", "random --seed 7");
    for mode in [
        "hang",
        "crash",
        "illegal",
        "badmove",
        "garbage",
        "nohandshake",
        "twice",
        "longline",
        "orphan",
    ] {
        text += &testbot(mode, &format!("{mode} --at 1"));
    }
    text += &testbot("overrun", "slow --at 1 --ms 60");
    text += "[bot.time-control]\nmovetime = \"20ms\"\nmargin = \"10ms\"\n";
    // A bot whose program is missing stops the run before any game
    // (hardening_input::a_bot_whose_program_is_missing_stops_the_run_before_any_game).
    // The orphan bot starts `sleep 31415`: it must die with its bot.
    let config = write_config(&dir, &text);
    let before = sleepers();
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let games = games(&out);
    assert_eq!(games.len(), 10 * 2, "{}", show(&output));

    let expected: HashMap<&str, &str> = [
        ("hang", "time_forfeit"),
        ("orphan", "time_forfeit"),
        ("overrun", "time_forfeit"),
        ("crash", "crash"),
        ("illegal", "illegal_move"),
        ("badmove", "illegal_move"),
        ("nohandshake", "startup_failure"),
        ("longline", "protocol_violation"),
    ]
    .into_iter()
    .collect();
    for g in &games {
        let other = if g["south"] == "honest" {
            &g["north"]
        } else {
            &g["south"]
        };
        let other = other.as_str().unwrap();
        let termination = g["termination"].as_str().unwrap();
        let loser = g["loser"].as_str().map(|side| g[side].as_str().unwrap());
        assert_ne!(loser, Some("honest"), "the honest bot never forfeits: {g}");
        match (other, expected.get(other)) {
            (_, Some(&kind)) => {
                assert_eq!(termination, kind, "game against {other}: {g}");
                assert_eq!(loser, Some(other), "{g}");
                assert!(g["detail"].as_str().is_some_and(|d| !d.is_empty()), "{g}");
                if other == "crash" {
                    let detail = g["detail"].as_str().unwrap();
                    assert!(
                        detail.contains(
                            "last words on stderr: \"testbot: crashing on purpose at go 1\""
                        ),
                        "{g}"
                    );
                }
                if other == "illegal" {
                    let detail = g["detail"].as_str().unwrap();
                    assert!(detail.contains("is not legal in"), "{g}");
                    assert!(detail.contains("; legal moves: "), "{g}");
                }
            }
            ("garbage", None) => {
                assert!(
                    ["natural", "max_plies", "repetition"].contains(&termination),
                    "{g}"
                );
            }
            ("twice", None) => {
                // Caught before its next go; a game may end before that.
                let its_moves = bot_moves_by(g, "twice");
                if its_moves >= 2 || termination != "natural" {
                    assert_eq!(termination, "protocol_violation", "{g}");
                }
            }
            _ => panic!("unexpected bot {other}"),
        }
    }
    // The time forfeit of the hanging bot came after its time plus margin.
    let hang = games.iter().find(|g| g["south"] == "hang").unwrap();
    assert!(
        hang["detail"]
            .as_str()
            .unwrap()
            .starts_with("no bestmove within"),
        "{hang}"
    );
    assert!(sleepers() <= before, "the orphan's child outlived its bot");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("WARNING: hang forfeited 2 of its 2 games"),
        "{stdout}"
    );
    let stderr_log =
        std::fs::read_to_string(out.join("logs/honest.stderr.log")).unwrap_or_default();
    assert!(stderr_log.is_empty(), "{stderr_log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn bot_moves_by(game: &Value, name: &str) -> usize {
    let side = if game["south"] == name { 0 } else { 1 };
    let start_side = 0; // every game here starts from startpos, South to move
    let mut pos_side = start_side;
    let mut count = 0;
    for ply in game["plies"].as_array().unwrap() {
        if ply["by"] == "bot" && pos_side == side {
            count += 1;
        }
        pos_side = 1 - pos_side;
    }
    // The forfeited move itself is not in the list.
    count + usize::from(game["loser"].is_string())
}

#[test]
fn games_record_everything_the_schema_promises() {
    let dir = folder("schema");
    let text = format!(
        "[tournament]\npairs = 2\nconcurrency = 2\n[openings]\nplies = 3\n[time-control]\nbase = \"2s\"\nincrement = \"20ms\"\n{}{}{}",
        testbot("a", "random --seed 1"),
        testbot("b", "random --seed 2"),
        testbot("c", "instant"),
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = run(&config, &out, &["--log-protocol"]);
    assert!(output.status.success(), "{}", show(&output));
    let games = games(&out);
    assert_eq!(games.len(), 3 * 2 * 2);
    let ids: HashSet<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), games.len());
    for g in &games {
        let moves = g["moves"].as_array().unwrap();
        let plies = g["plies"].as_array().unwrap();
        assert_eq!(moves.len(), plies.len(), "{g}");
        assert_eq!(
            &moves[..3],
            g["opening"]["moves"].as_array().unwrap().as_slice()
        );
        assert!(plies[..3].iter().all(|p| p["by"] == "opening"));
        // Replay the moves: the recorded score is the position's.
        let mut pos = aboure_engine::Position::startpos();
        for m in moves {
            pos.play(m.as_str().unwrap().parse().unwrap()).unwrap();
        }
        assert!(pos.is_game_over(), "{g}");
        let score = pos.score();
        assert_eq!(g["score"], serde_json::json!([score[0], score[1]]));
        let result = pos.outcome().unwrap().result_str();
        assert_eq!(g["result"], result);
        assert_eq!(g["termination"], "natural");
        for p in plies.iter().filter(|p| p["by"] == "bot") {
            assert!(p["time_ms"].as_f64().unwrap() >= 0.0);
            assert!(p["clock_ms"].as_f64().unwrap() > 0.0);
        }
        for p in plies.iter().filter(|p| p["by"] == "forced") {
            assert!(p["time_ms"].is_null());
        }
        // Both games of a pair share the opening, colours swapped.
        let partner = games
            .iter()
            .find(|o| {
                o["pairing"] == g["pairing"] && o["pair"] == g["pair"] && o["game"] != g["game"]
            })
            .unwrap();
        assert_eq!(partner["opening"], g["opening"]);
        assert_eq!(partner["south"], g["north"]);
    }
    let instant = games.iter().find(|g| g["south"] == "c").unwrap();
    let info = instant["plies"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|p| p.get("info"))
        .unwrap();
    assert_eq!(info["depth"], 1, "{instant}");
    assert!(info["string"].as_str().unwrap().starts_with("self_us"));
    let log = std::fs::read_to_string(out.join("logs/a.protocol.log")).unwrap();
    assert!(log.contains("> aboure 1") && log.contains("< aboureok") && log.contains("> go stime"));
    let run_json: Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run_json["fingerprint"].as_str().unwrap().len(), 64);
    // The same seed gives the same openings in another run.
    let again = dir.join("again");
    assert!(run(&config, &again, &["--concurrency", "1"])
        .status
        .success());
    let openings = |gs: &[Value]| {
        let mut v: Vec<String> = gs
            .iter()
            .map(|g| format!("{} {}", g["id"], g["opening"]))
            .collect();
        v.sort();
        v
    };
    assert_eq!(openings(&games), openings(&self::games(&again)));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reference_bots_play_a_round_robin() {
    let dir = folder("builtin");
    let text = "[tournament]\npairs = 1\nconcurrency = 2\n[time-control]\nmovetime = \"20ms\"\nmargin = \"1s\"\n\
                [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n[[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n\
                [[bot]]\nname = \"alphabeta\"\nbuiltin = \"alphabeta\"\n";
    let config = write_config(&dir, text);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let games = games(&out);
    assert_eq!(games.len(), 6);
    for g in &games {
        assert!(g["loser"].is_null(), "a reference bot forfeited: {g}");
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("alphabeta") && stdout.contains("6 games in"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn slow_match(dir: &Path, pairs: u32) -> PathBuf {
    let text = format!(
        "[tournament]\npairs = {pairs}\nconcurrency = 2\nrestart = \"never\"\n[time-control]\nbase = \"5s\"\n{}{}",
        testbot("x", "sleepy --ms 4 --seed 3"),
        testbot("y", "sleepy --ms 4 --seed 4"),
    );
    write_config(dir, &text)
}

fn ids_once(out: &Path, expected: usize) {
    let games = games(out);
    let ids: HashSet<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), games.len(), "a game was recorded twice");
    assert_eq!(games.len(), expected);
}

#[test]
fn a_killed_run_resumes_and_records_every_game_exactly_once() {
    let dir = folder("resume");
    let config = slow_match(&dir, 8);
    let out = dir.join("out");
    let mut child = run_command(&config, &out, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_games(&out, 3);
    let games_path = out.join("games.jsonl");
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let before = games(&out).len();
    assert!(before < 16, "the run finished before it was killed");
    // A power cut in the middle of a line.
    let mut bytes = std::fs::read(&games_path).unwrap();
    bytes.extend_from_slice(br#"{"id":"r0000-p07-g1","pairing":["x""#);
    std::fs::write(&games_path, bytes).unwrap();

    let refused = run(&config, &out, &[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--resume"),
        "{}",
        show(&refused)
    );

    // Not quiet: the repair is a warning.
    let resumed = aboure(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert!(resumed.status.success(), "{}", show(&resumed));
    assert!(
        String::from_utf8_lossy(&resumed.stderr).contains("truncated last line"),
        "{}",
        show(&resumed)
    );
    ids_once(&out, 16);
    // Nothing left to play: resuming again changes nothing.
    assert!(run(&config, &out, &["--resume"]).status.success());
    ids_once(&out, 16);

    // A changed tournament is refused.
    let changed = std::fs::read_to_string(&config)
        .unwrap()
        .replace("pairs = 8", "pairs = 9");
    std::fs::write(&config, changed).unwrap();
    let refused = run(&config, &out, &["--resume"]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("changed") && stderr.contains("pairs"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shard_is_a_worker_any_one_of_which_completes_the_run() {
    let dir = folder("shard");
    let config = slow_match(&dir, 3);
    let out = dir.join("out");
    // Worker 1 of 2 alone plays the whole schedule: its slice first, then
    // the units nobody holds.
    let first = run(&config, &out, &["--resume", "--shard", "1/2"]);
    assert!(first.status.success(), "{}", show(&first));
    let ids = |file: &str| -> Vec<String> {
        let text = std::fs::read_to_string(out.join(file)).unwrap_or_default();
        text.lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    let played = ids("games-1-of-2.jsonl");
    assert_eq!(played.len(), 6, "{played:?}");
    // Its two game tasks start with pairs 0 and 2, its slice.
    let slice = |id: &String| id.contains("-p00-") || id.contains("-p02-");
    assert!(played[..2].iter().all(slice), "its slice first: {played:?}");
    let unique: HashSet<&String> = played.iter().collect();
    assert_eq!(unique.len(), 6);
    // Worker 2 of 2, late, finds nothing left and ends at once.
    let second = run(&config, &out, &["--resume", "--shard", "2/2"]);
    assert!(second.status.success(), "{}", show(&second));
    assert!(ids("games-2-of-2.jsonl").is_empty());
    assert!(String::from_utf8_lossy(&second.stdout).contains("6 games in"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ctrl_c_keeps_finished_games_and_explains_how_to_resume() {
    let dir = folder("ctrlc");
    let config = slow_match(&dir, 20);
    let out = dir.join("out");
    let child = run_command(&config, &out, &[])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_games(&out, 2);
    // SAFETY: plain kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--resume"), "{stderr}");
    let n = games(&out).len();
    assert!((2..40).contains(&n));
    assert!(run(&config, &out, &["--resume"]).status.success());
    ids_once(&out, 40);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn config_errors_name_file_line_and_key() {
    let dir = folder("config");
    let config = write_config(
        &dir,
        "[tournament]\npairs = 0\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n",
    );
    let output = run(&config, &dir.join("out"), &[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("tournament.toml:2:9: tournament.pairs: 0 is out of range"),
        "{stderr}"
    );
    assert!(
        !dir.join("out").exists(),
        "nothing is written for a bad config"
    );
    // Where the live page listens means nothing without the live page.
    let config = write_config(
        &dir,
        "[tournament]\npairs = 1\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n",
    );
    let output = run(&config, &dir.join("out"), &["--port", "8080"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("add --serve"), "{stderr}");
    assert!(!dir.join("out").exists(), "nothing is played");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_sprt_stops_when_the_test_decides() {
    let dir = folder("sprt");
    let text = format!(
        "[tournament]\nformat = \"sprt\"\npairs = 300\nconcurrency = 2\n[sprt]\nelo0 = 0.0\nelo1 = 10.0\n{}{}",
        testbot("honest", "random"),
        testbot("weak", "illegal --at 2"),
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("H1 accepted: honest is stronger than weak"),
        "{stdout}"
    );
    assert!(stdout.contains("stopped early"), "{stdout}");
    let n = games(&out).len();
    assert!(
        n < 600,
        "the test should decide long before 300 pairs, played {n}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Exact adjudication: with `adjudication.solve-after`, a game ends as soon
/// as the solver proves its value, and is scored with the final seeds of
/// perfect play from there.
#[test]
fn the_solver_ends_games_with_the_score_of_perfect_play() {
    let dir = folder("solve");
    let config = write_config(
        &dir,
        r#"
[tournament]
pairs = 3
concurrency = 2
[time-control]
movetime = "20ms"
[adjudication]
solve-after = 6
solve-nodes = 2000000
[[bot]]
name = "random"
builtin = "random"
options = { seed = 5 }
[[bot]]
name = "greedy"
builtin = "greedy"
options = { seed = 6 }
"#,
    );
    let out = dir.join("out");
    let o = run(&config, &out, &[]);
    assert!(o.status.success(), "{}", show(&o));
    let games = games(&out);
    assert_eq!(games.len(), 6);
    let mut solver = aboure_solver::Solver::new(16);
    for g in &games {
        let moves: Vec<aboure_engine::Move> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().parse().unwrap())
            .collect();
        let mut pos: aboure_engine::Position = g["start"].as_str().unwrap().parse().unwrap();
        for &m in &moves {
            pos.play(m).unwrap();
        }
        let score: Vec<u64> = g["score"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        match g["termination"].as_str().unwrap() {
            "solved" => {
                // The solver is asked from ply 6 on (opening plies count).
                assert!(moves.len() >= 6, "{g}");
                let value = solver.value(&pos);
                let board: i32 = pos.pits().iter().map(|&n| n as i32).sum();
                let mover = pos.side_to_move();
                let mine = pos.captured(mover) as i32 + (board + value) / 2;
                assert_eq!(score[mover.index()] as i32, mine, "{g}");
                assert_eq!(score[0] + score[1], 48);
                let result = match score[0].cmp(&score[1]) {
                    std::cmp::Ordering::Greater => "1-0",
                    std::cmp::Ordering::Less => "0-1",
                    std::cmp::Ordering::Equal => "1/2-1/2",
                };
                assert_eq!(g["result"], result);
                assert!(g["detail"].as_str().unwrap().contains("solver"), "{g}");
            }
            // A game may also end by the rules before the solver is asked.
            "natural" => {
                assert!(pos.is_game_over());
                assert!(moves.len() <= 7, "{g}");
            }
            other => panic!("unexpected termination {other}: {g}"),
        }
    }
    assert!(
        games.iter().any(|g| g["termination"] == "solved"),
        "no game was solved"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_after_is_checked() {
    let dir = folder("solve-bad");
    let config = write_config(
        &dir,
        "[adjudication]\nsolve-after = -1\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n",
    );
    let o = run(&config, &dir.join("out"), &[]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("adjudication.solve-after"), "{err}");
    assert!(err.contains("tournament.toml:2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
