//! Exact adjudication: with `adjudication.solve-after`, a game ends as soon
//! as the solver proves its value, and is scored with the final seeds of
//! perfect play from there.

use std::path::PathBuf;
use std::process::Command;

use aboure_engine::{Move, Position};
use aboure_solver::Solver;
use serde_json::Value;

const ABOURE: &str = env!("CARGO_BIN_EXE_aboure");

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aboure-solved-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_solver_ends_games_with_the_score_of_perfect_play() {
    let dir = folder("solve");
    let config = dir.join("tournament.toml");
    std::fs::write(
        &config,
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
    )
    .unwrap();
    let out = dir.join("out");
    let o = Command::new(ABOURE)
        .args([
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 6);
    let mut solver = Solver::new(16);
    for g in &games {
        let moves: Vec<Move> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().parse().unwrap())
            .collect();
        let mut pos: Position = g["start"].as_str().unwrap().parse().unwrap();
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
    let dir = folder("bad");
    let config = dir.join("t.toml");
    std::fs::write(
        &config,
        "[adjudication]\nsolve-after = -1\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    let o = Command::new(ABOURE)
        .args([
            "run",
            config.to_str().unwrap(),
            "--out",
            dir.join("out").to_str().unwrap(),
            "-q",
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("adjudication.solve-after"), "{err}");
    assert!(err.contains("t.toml:2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
