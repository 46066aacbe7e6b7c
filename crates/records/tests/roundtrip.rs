//! Writing and reading back results files, including damaged ones.

use aboure_records::*;
use proptest::prelude::*;

fn sample(id: &str) -> GameRecord {
    GameRecord {
        id: id.to_owned(),
        pairing: ["alpha".into(), "beta".into()],
        pair: 3,
        game: 1,
        opening: OpeningRecord {
            index: 3,
            moves: vec!["2".into(), "7".into()],
            position: None,
        },
        south: "beta".into(),
        north: "alpha".into(),
        start: "startpos".into(),
        moves: vec!["2".into(), "7".into(), "pass".into()],
        plies: vec![
            PlyRecord {
                by: Mover::Opening,
                time_ms: None,
                clock_ms: None,
                info: None,
            },
            PlyRecord {
                by: Mover::Opening,
                time_ms: None,
                clock_ms: None,
                info: None,
            },
            PlyRecord {
                by: Mover::Bot,
                time_ms: Some(1.25),
                clock_ms: Some(998.75),
                info: Some(InfoRecord {
                    depth: Some(3),
                    pv: vec!["1".into()],
                    ..Default::default()
                }),
            },
        ],
        score: Some([20, 28]),
        result: GameResult::NorthWins,
        termination: Termination::TimeForfeit,
        loser: Some(SideName::South),
        detail: Some("took 12 ms".into()),
        time_control: ["1s+10ms".into(), "1s+10ms".into()],
        started: "2026-01-01T00:00:00.000Z".into(),
        duration_ms: 10.5,
    }
}

#[test]
fn written_games_read_back_equal() {
    let dir = std::env::temp_dir().join(format!("aboure-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.jsonl");
    let _ = std::fs::remove_file(&path);
    let mut writer = GamesWriter::append(&path).unwrap();
    writer.write(&sample("a")).unwrap();
    writer.write(&sample("b")).unwrap();
    let results = read_games(&path).unwrap();
    assert_eq!(results.games, vec![sample("a"), sample("b")]);
    assert!(results.problems.is_empty());
    assert_eq!(
        results.complete_len,
        std::fs::metadata(&path).unwrap().len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn field_names_are_the_documented_ones() {
    let json = serde_json::to_value(sample("a")).unwrap();
    assert_eq!(json["result"], "0-1");
    assert_eq!(json["termination"], "time_forfeit");
    assert_eq!(json["loser"], "south");
    assert_eq!(json["plies"][2]["by"], "bot");
    assert_eq!(json["plies"][2]["time_ms"], 1.25);
    assert_eq!(json["score"][1], 28);
}

#[test]
fn truncated_last_line_is_a_problem_not_an_error() {
    let mut bytes = serde_json::to_vec(&sample("a")).unwrap();
    bytes.push(b'\n');
    let good = bytes.len() as u64;
    let second = serde_json::to_vec(&sample("b")).unwrap();
    bytes.extend_from_slice(&second[..second.len() / 2]);
    let results = parse_games(&bytes, "g.jsonl".as_ref());
    assert_eq!(results.games.len(), 1);
    assert_eq!(results.complete_len, good);
    assert_eq!(results.problems.len(), 1);
    assert_eq!(results.problems[0].kind, ProblemKind::TruncatedLastLine);
    assert_eq!(results.problems[0].line, 2);
}

#[test]
fn malformed_line_reports_its_line_number() {
    let mut bytes = serde_json::to_vec(&sample("a")).unwrap();
    bytes.extend_from_slice(b"\n{\"id\": 3}\n");
    bytes.extend_from_slice(&serde_json::to_vec(&sample("c")).unwrap());
    bytes.push(b'\n');
    let results = parse_games(&bytes, "g.jsonl".as_ref());
    assert_eq!(results.games.len(), 2);
    assert_eq!(results.problems[0].line, 2);
    assert_eq!(results.problems[0].kind, ProblemKind::Malformed);
    assert!(results.problems[0]
        .to_string()
        .starts_with("g.jsonl:2: malformed line"));
}

#[test]
fn unknown_termination_and_extra_keys_are_accepted() {
    let line = r#"{"id":"x","pairing":["a","b"],"pair":0,"game":0,"south":"a","north":"b","result":"1/2-1/2","termination":"meteor","extra":1}"#;
    let results = parse_games(format!("{line}\n").as_bytes(), "g.jsonl".as_ref());
    assert_eq!(results.games[0].termination, Termination::Unknown);
    assert_eq!(results.games[0].result, GameResult::Draw);
}

#[test]
fn csv_results_are_read() {
    let text = "south,north,result\nalpha,beta,1-0\nbeta, alpha ,1/2-1/2\nx,y,2-0\n";
    let results = parse_games(text.as_bytes(), "r.csv".as_ref());
    assert_eq!(results.games.len(), 2);
    assert_eq!(results.games[1].north, "alpha");
    assert_eq!(results.games[1].result, GameResult::Draw);
    assert_eq!(results.games[0].points_of("beta"), Some(0.0));
    assert_eq!(results.problems.len(), 1);
    assert_eq!(results.problems[0].line, 4);
}

#[test]
fn csv_is_recognised_by_header_without_extension() {
    let results = parse_games(b"south,north,result\na,b,0-1\n", "results.txt".as_ref());
    assert_eq!(results.games[0].result, GameResult::NorthWins);
}

proptest! {
    #[test]
    fn any_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let r = parse_games(&bytes, "x.jsonl".as_ref());
        prop_assert!(r.complete_len as usize <= bytes.len());
        let _ = parse_games(&bytes, "x.csv".as_ref());
    }

    /// CSV and PGN readers, given a start that selects them and then any
    /// bytes (quotes, braces, brackets and newlines made likely), never
    /// panic and locate every problem on a line of the input.
    #[test]
    fn csv_and_pgn_after_any_start_never_panic(
        start in prop::sample::select(vec!["white,black,result,count\n", "[White \"a\"]\n"]),
        tail in proptest::collection::vec(
            prop::sample::select(b"\"{}[]();,\\\n\r *1-0/2ab%#".to_vec()),
            0..300,
        ),
    ) {
        let mut bytes = start.as_bytes().to_vec();
        bytes.extend(tail);
        let lines = bytes.split(|&b| b == b'\n').count();
        let results = parse_games(&bytes, "x".as_ref());
        for p in &results.problems {
            prop_assert!((1..=lines).contains(&p.line), "{p} of {lines} lines");
        }
        prop_assert_eq!(results.complete_len, bytes.len() as u64);
    }
}

#[test]
fn summaries_read_as_whole_records_do_without_their_moves() {
    let dir = std::env::temp_dir().join(format!("aboure-summaries-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.jsonl");
    let mut bytes = Vec::new();
    for id in ["a", "b"] {
        bytes.extend_from_slice(&serde_json::to_vec(&sample(id)).unwrap());
        bytes.extend_from_slice(b"\n\n");
    }
    bytes.extend_from_slice(b"{\"id\": 3}\n");
    bytes.extend_from_slice(&serde_json::to_vec(&sample("c")).unwrap());
    bytes.push(b'\n');
    let second = serde_json::to_vec(&sample("d")).unwrap();
    bytes.extend_from_slice(&second[..second.len() / 2]);
    std::fs::write(&path, &bytes).unwrap();

    let whole = read_games(&path).unwrap();
    let summaries = read_summaries(&path).unwrap();
    let stripped: Vec<GameRecord> = whole
        .games
        .iter()
        .map(|g| GameSummary::of(g).to_record())
        .collect();
    assert_eq!(summaries.games, stripped);
    assert_eq!(summaries.games.len(), 3);
    assert!(summaries.games.iter().all(|g| g.moves.is_empty()));
    assert_eq!(summaries.problems, whole.problems);
    assert_eq!(summaries.problems.len(), 2);
    assert_eq!(summaries.complete_len, whole.complete_len);
    std::fs::remove_dir_all(&dir).unwrap();
}
