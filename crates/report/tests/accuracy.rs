//! Per-move accuracy against the exact solver: a position checked by hand,
//! and totals that agree between the analysis, the text and the JSON.

use std::path::Path;

use aboure_engine::{Move, Position};
use aboure_records::{read_games, GameRecord, Mover};
use aboure_report::{AccuracyOptions, Report, ReportOptions};

fn with_accuracy() -> ReportOptions {
    ReportOptions {
        accuracy: Some(AccuracyOptions::default()),
        ..Default::default()
    }
}

/// A two-ply game from `start`, both plies played by bots.
fn game(start: &str, moves: &[&str]) -> GameRecord {
    let mut pos: Position = start.parse().unwrap();
    for m in moves {
        pos.play(m.parse::<Move>().unwrap()).unwrap();
    }
    let plies: Vec<String> = moves.iter().map(|_| r#"{"by":"bot"}"#.to_owned()).collect();
    let score = pos.score();
    let result = aboure_records::GameResult::from_score(score);
    let line = format!(
        r#"{{"id":"hand","pairing":["a","b"],"pair":0,"game":0,"south":"a","north":"b","start":"{start}","moves":{:?},"plies":[{}],"score":[{},{}],"result":"{}","termination":"natural"}}"#,
        moves,
        plies.join(","),
        score[0],
        score[1],
        result
    );
    serde_json::from_str(&line).unwrap()
}

// South to move, 6 seeds on the board:
//
//     North  11 10  9  8  7  6
//            [1][0][0][0][0][1]
//            [0][0][0][0][2][2]
//     South   0  1  2  3  4  5
//
// Move 5 drops a seed back into 5 and one into 6, which held 1: South
// captures those 2. North (two singletons) must pass; South sows 4, the
// last seed makes 5 hold 2: captures 2 more. Nobody can sow: South takes
// the 1 left in pit 4, North the 1 in pit 11. Future seeds 5 to 1: value +4.
//
// Move 4 makes pit 5 hold 3: relay, one seed back into 5, then 6 (now 2)
// and 7 (now 1): the turn ends. North sows 6 and the last seed makes 7 hold
// 2: North captures 2. Nobody can sow: each row holds 2. Future seeds 2 to
// 4: value -2. The move loses 6 seeds.
const HAND: &str = "0,0,0,0,2,2/1,0,0,0,0,1 s";

#[test]
fn a_move_that_throws_a_win_away_is_a_blunder() {
    // Level on captures: move 5 wins 26-22, move 4 loses 23-25.
    let g = game(&format!("{HAND} 21 21"), &["4", "6"]);
    assert_eq!(g.score, Some([23, 25]));
    let report = Report::build(&[g], &with_accuracy());
    let a = report.accuracy.as_ref().unwrap();
    let moves = &a.games[0].moves;
    let m = moves[0].as_ref().expect("South had two moves");
    assert_eq!((m.played.as_str(), m.value), ("4", -2));
    assert_eq!(
        (m.best.clone(), m.best_value, m.loss),
        (vec!["5".to_owned()], 4, 6)
    );
    assert_eq!((m.could_reach, m.reaches, m.blunder), ("win", "loss", true));
    // North's reply was its only move: not counted.
    assert!(moves[1].is_none());
    assert_eq!(a.games[0].first_decisive_mistake.as_ref(), Some(m));
    let south = a.players.iter().find(|p| p.name == "a").unwrap();
    assert_eq!(
        (south.moves, south.total_loss, south.blunders, south.perfect),
        (1, 6, 1, 0)
    );
    assert_eq!(
        m.mistake(),
        "a played 4, losing 6 seeds (win -> loss); 5 keeps the win"
    );
    assert!(report
        .text()
        .contains("hand ply 1: a played 4, losing 6 seeds (win -> loss); 5 keeps the win"));
    assert!(report.html().contains(
        "hand ply 1</a>: a played 4, losing 6 seeds (win -&gt; loss); 5 keeps the win</li>"
    ));
}

#[test]
fn the_result_counts_seeds_captured_before() {
    // Four seeds ahead: move 4 still wins (by 2), so it loses seeds but is
    // no blunder.
    let ahead = Report::build(
        &[game(&format!("{HAND} 23 19"), &["4", "6"])],
        &with_accuracy(),
    );
    let m = ahead.accuracy.unwrap().games[0].moves[0].clone().unwrap();
    assert_eq!(
        (m.loss, m.could_reach, m.reaches, m.blunder),
        (6, "win", "win", false)
    );
    // Four behind: move 5 draws, move 4 loses: a blunder.
    let behind = Report::build(
        &[game(&format!("{HAND} 19 23"), &["4", "6"])],
        &with_accuracy(),
    );
    let m = behind.accuracy.unwrap().games[0].moves[0].clone().unwrap();
    assert_eq!(
        (m.loss, m.could_reach, m.reaches, m.blunder),
        (6, "draw", "loss", true)
    );
    // The best move is perfect.
    let best = Report::build(&[game(&format!("{HAND} 21 21"), &["5"])], &with_accuracy());
    let a = best.accuracy.unwrap();
    let m = a.games[0].moves[0].clone().unwrap();
    assert_eq!((m.loss, m.blunder), (0, false));
    assert_eq!(a.players[0].perfect, 1);
    assert!(a.games[0].first_decisive_mistake.is_none());
}

#[test]
fn totals_agree_across_games_text_and_json() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/round-robin/games.jsonl");
    let games = read_games(&path).unwrap().games;
    let report = Report::build(&games, &with_accuracy());
    let a = report.accuracy.as_ref().unwrap();
    assert_eq!(a.analysed_games, games.len() as u64);
    assert!(!a.budget_exhausted);

    // Counted: bot moves (no opening plies, no forced passes) with a choice.
    let mut expected_moves = 0u64;
    for g in &games {
        let mut pos: Position = g.start.parse().unwrap();
        for (m, ply) in g.moves.iter().zip(&g.plies) {
            if ply.by == Mover::Bot && pos.legal_moves().len() > 1 {
                expected_moves += 1;
            }
            pos.play(m.parse().unwrap()).unwrap();
        }
    }
    let total: u64 = a.players.iter().map(|p| p.moves).sum();
    assert_eq!(total, expected_moves);

    // Per-bot totals are the sums of the per-move figures.
    for p in &a.players {
        let mine: Vec<_> = a
            .games
            .iter()
            .flat_map(|g| g.moves.iter().flatten())
            .filter(|m| m.bot == p.name)
            .collect();
        assert_eq!(p.moves, mine.len() as u64);
        assert_eq!(
            p.total_loss,
            mine.iter().map(|m| m.loss as u64).sum::<u64>()
        );
        assert_eq!(p.blunders, mine.iter().filter(|m| m.blunder).count() as u64);
        assert!(mine.iter().all(|m| m.loss >= 0 && m.best_value >= m.value));
    }

    // The JSON holds the same numbers, and the text prints them.
    let json = report.json();
    let text = report.text();
    for (i, p) in a.players.iter().enumerate() {
        let j = &json["accuracy"]["players"][i];
        assert_eq!(j["name"], p.name.as_str());
        assert_eq!(j["moves"], p.moves);
        assert_eq!(j["blunders"], p.blunders);
        assert_eq!(j["average_loss"].as_f64().unwrap(), p.average_loss);
        let line = format!(
            "{:>5}  {:>9.2}  {:>6.1}%  {:>8}",
            p.moves,
            p.average_loss,
            100.0 * p.perfect_ratio,
            p.blunders
        );
        assert!(text.contains(&line), "{line:?} not in\n{text}");
    }
    let decisive = a
        .games
        .iter()
        .filter(|g| g.first_decisive_mistake.is_some())
        .count();
    assert!(text.contains(&format!(
        "First decisive mistakes: {decisive} of {}",
        games.len()
    )));
}

#[test]
fn a_spent_budget_skips_games_and_says_so() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/round-robin/games.jsonl");
    let games = read_games(&path).unwrap().games;
    let options = ReportOptions {
        accuracy: Some(AccuracyOptions {
            node_budget: 0,
            ..Default::default()
        }),
        ..Default::default()
    };
    let report = Report::build(&games, &options);
    let a = report.accuracy.as_ref().unwrap();
    assert!(a.budget_exhausted);
    assert_eq!((a.analysed_games, a.skipped_games), (0, 24));
    assert!(report.text().contains("the analysis budget ran out"));
}

#[test]
fn a_mistake_says_what_the_move_lost_and_what_the_best_keeps() {
    let m = aboure_report::MoveAccuracy {
        ply: 3,
        bot: "random".into(),
        played: "2".into(),
        value: -1,
        best: vec!["1".into(), "4".into()],
        best_value: 0,
        loss: 1,
        could_reach: "draw",
        reaches: "loss",
        blunder: true,
    };
    assert_eq!(
        m.mistake(),
        "random played 2, losing 1 seed (draw -> loss); 1 or 4 keep the draw"
    );
}
