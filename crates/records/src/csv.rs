//! Plain CSV results (`south,north,result`), so games played elsewhere can be
//! rated. Each row becomes a [`GameRecord`] with no moves, no score and
//! termination `unknown`; rows are unpaired (`pair` is the row number, `game`
//! 0, no partner).

use std::path::Path;

use crate::reader::{Problem, ProblemKind, Results};
use crate::record::{GameRecord, GameResult, OpeningRecord, Termination};

/// The one rule for telling CSV results from JSON lines: a name ending in
/// `.csv`, or a first line (of `start`, the file's first bytes) that is a
/// CSV header starting with `south,north`.
pub(crate) fn is_csv(path: &Path, start: &[u8]) -> bool {
    let named = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    let first = start.split(|&b| b == b'\n').next().unwrap_or_default();
    named || first.trim_ascii().starts_with(b"south,north")
}

pub(crate) fn parse(bytes: &[u8], path: &Path) -> Results {
    let mut results = Results::default();
    let text = String::from_utf8_lossy(bytes);
    let mut columns: Option<[usize; 3]> = None;
    let problem = |line: usize, message: String| Problem {
        path: path.to_owned(),
        line,
        kind: ProblemKind::Malformed,
        message,
    };
    for (index, raw) in text.split('\n').enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let Some([s, n, r]) = columns else {
            let find = |name: &str| fields.iter().position(|f| f.eq_ignore_ascii_case(name));
            match (find("south"), find("north"), find("result")) {
                (Some(s), Some(n), Some(r)) => columns = Some([s, n, r]),
                _ => {
                    results.problems.push(problem(
                        line_no,
                        format!("expected a header with south,north,result, found {line:?}"),
                    ));
                    return results;
                }
            }
            continue;
        };
        let (Some(south), Some(north), Some(result)) =
            (fields.get(s), fields.get(n), fields.get(r))
        else {
            results
                .problems
                .push(problem(line_no, format!("too few fields in {line:?}")));
            continue;
        };
        let Some(result) = GameResult::parse(result) else {
            results.problems.push(problem(
                line_no,
                format!("result {result:?} is not 1-0, 0-1 or 1/2-1/2"),
            ));
            continue;
        };
        if south.is_empty() || north.is_empty() {
            results
                .problems
                .push(problem(line_no, "empty bot name".to_owned()));
            continue;
        }
        results.games.push(GameRecord {
            id: format!("csv-{line_no}"),
            pairing: [south.to_string(), north.to_string()],
            pair: line_no as u32,
            game: 0,
            opening: OpeningRecord::default(),
            south: south.to_string(),
            north: north.to_string(),
            start: "startpos".to_owned(),
            moves: Vec::new(),
            plies: Vec::new(),
            score: None,
            result,
            termination: Termination::Unknown,
            loser: None,
            detail: None,
            time_control: Default::default(),
            started: String::new(),
            duration_ms: 0.0,
        });
    }
    results.complete_len = bytes.len() as u64;
    results
}
