//! The results-file reader: any bytes, read as JSON lines, CSV or PGN, give
//! games and located problems, never a panic; a game read from JSON lines
//! writes back to a line that reads as the same game.

use std::path::Path;

use aboure_records::{parse_games, GameRecord, Results, ResultsFormat};

/// Reads `data` under each kind of name and checks what comes out.
pub fn check(data: &[u8]) {
    let lines = data.split(|&b| b == b'\n').count();
    for name in ["games.jsonl", "results.csv", "games.pgn"] {
        let results = parse_games(data, Path::new(name));
        located(&results, name, data.len(), lines);
    }

    // The content decides the format, whatever the name; for JSON lines
    // the rules below hold.
    if ResultsFormat::detect(data).is_none_or(|f| f == ResultsFormat::Jsonl) {
        let jsonl = parse_games(data, Path::new("games.jsonl"));
        let complete = data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        assert_eq!(
            jsonl.complete_len, complete as u64,
            "complete_len of {data:?}"
        );
        for game in &jsonl.games {
            round_trip(game);
        }
    }
}

fn located(results: &Results, name: &str, len: usize, lines: usize) {
    assert!(
        results.complete_len <= len as u64,
        "{name}: complete_len {} past the end ({len})",
        results.complete_len
    );
    for p in &results.problems {
        assert!(
            p.line >= 1 && p.line <= lines,
            "{name}: problem on line {} of {lines}: {p}",
            p.line
        );
        assert!(!p.message.is_empty(), "{name}: problem without a message");
        assert_eq!(p.path, Path::new(name));
    }
}

fn round_trip(game: &GameRecord) {
    let mut line = serde_json::to_string(game).expect("a game record always serializes");
    assert!(!line.contains('\n'), "a record spans lines: {line}");
    line.push('\n');
    let back = parse_games(line.as_bytes(), Path::new("games.jsonl"));
    assert!(
        back.problems.is_empty(),
        "{line} reads back with {:?}",
        back.problems
    );
    assert_eq!(back.games.len(), 1, "{line}");
    assert_eq!(back.games[0], *game, "{line} reads back differently");
}
