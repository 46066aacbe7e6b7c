//! Reading results files whole: `games.jsonl`, CSV and PGN, never panicking
//! on any bytes.
//!
//! A results file may end in a partial line after a crash or a power cut; that
//! is a [`Problem`] (the game is simply not there), not an error, so a report
//! can still be made and `aboure run --resume` can cut the line away and
//! replay the game.

use std::path::Path;

use crate::csv::CsvRows;
use crate::detect::ResultsFormat;
use crate::lines::{Line, ResultsLines};
use crate::pgn::PgnGames;
use crate::problem::{Problem, ProblemKind, ReadError};
use crate::record::GameRecord;
use crate::row::Row;
use crate::rows::RowSource;
use crate::summary::GameSummary;

/// The games read from a file, and what was wrong with it.
#[derive(Clone, Debug, Default)]
pub struct Results {
    /// The games, in file order.
    pub games: Vec<GameRecord>,
    /// Lines that could not be read, with their location.
    pub problems: Vec<Problem>,
    /// Length in bytes of the part of the file made of complete lines (a
    /// truncated last line starts here).
    pub complete_len: u64,
}

/// Reads a results file whole, in the format its content shows
/// ([`crate::ResultsFormat::detect`]; a file of no format is read as JSON lines,
/// each line a problem). Reports stream instead: see [`crate::Rows`] and
/// [`crate::LineBlocks`].
pub fn read_games(path: &Path) -> Result<Results, ReadError> {
    let bytes = std::fs::read(path).map_err(|source| ReadError {
        path: path.to_owned(),
        source,
    })?;
    Ok(parse_games(&bytes, path))
}

/// The games of a results file as [`GameSummary::to_record`] has them
/// (without moves): what resuming a run needs. The file is read line by
/// line, each line through [`GameSummary`], so memory holds the summaries
/// and never the file: a few hundred bytes a game instead of the 8 KB or so
/// of a whole record. Problems and `complete_len` are as [`read_games`]
/// gives them, except that damage in a value the summary does not read
/// (the moves) is not one, as in a report.
pub fn read_summaries(path: &Path) -> Result<Results, ReadError> {
    if ResultsFormat::of_file(path).is_ok_and(|f| f != ResultsFormat::Jsonl) {
        // CSV and PGN results hold no moves to leave out.
        return read_games(path);
    }
    let mut lines = ResultsLines::open(path)?;
    let mut results = Results::default();
    let mut truncated = false;
    loop {
        let malformed = match lines.next_line()? {
            None => break,
            Some(Line::Record { number, text }) => match GameSummary::from_line(text) {
                Ok(summary) => {
                    results.games.push(summary.to_record());
                    None
                }
                Err(e) => Some((number, e)),
            },
            Some(Line::Problem(p)) => {
                truncated |= p.kind == ProblemKind::TruncatedLastLine;
                results.problems.push(p);
                None
            }
        };
        if let Some((number, e)) = malformed {
            results.problems.push(lines.malformed(number, &e));
        }
        if !truncated {
            results.complete_len = lines.bytes_read();
        }
    }
    Ok(results)
}

/// Parses the bytes of a results file, in the format their content shows;
/// `path` is only used in problems. CSV rows and PGN games become records
/// without moves, ids `csv-LINE` and `pgn-LINE` (`csv-LINE-K` for the K-th
/// game of a row with a count), the line as their pair number.
pub fn parse_games(bytes: &[u8], path: &Path) -> Results {
    let format = ResultsFormat::detect(&bytes[..bytes.len().min(crate::detect::SAMPLE)]);
    let mut results = match format {
        Some(ResultsFormat::Csv) => parse_rows(CsvRows::new(bytes, path), path, "csv"),
        Some(ResultsFormat::Pgn) => parse_rows(PgnGames::new(bytes, path), path, "pgn"),
        Some(ResultsFormat::Jsonl) | None => return parse_jsonl(bytes, path),
    };
    results.complete_len = bytes.len() as u64;
    results
}

/// The records of CSV rows or PGN games held in memory.
/// PGN's unfinished games are left out.
fn parse_rows(mut rows: impl RowSource, path: &Path, kind: &str) -> Results {
    let mut results = Results::default();
    loop {
        let row = match rows.next_row() {
            Ok(Some(row)) => row,
            Ok(None) => break,
            Err(e) => {
                // In memory, reading cannot fail; say so if it somehow did.
                results.problems.push(Problem {
                    path: path.to_owned(),
                    line: 0,
                    kind: ProblemKind::Malformed,
                    message: e.to_string(),
                });
                break;
            }
        };
        match row {
            Row::Games { line, game, count } => {
                for k in 0..count {
                    let mut record = game.to_record();
                    record.id = match count {
                        1 => format!("{kind}-{line}"),
                        _ => format!("{kind}-{line}-{}", k + 1),
                    };
                    record.pair = line as u32;
                    results.games.push(record);
                }
            }
            Row::Unfinished { .. } => {}
            Row::Problem(p) => results.problems.push(p),
        }
    }
    results
}

fn parse_jsonl(bytes: &[u8], path: &Path) -> Results {
    let mut results = Results::default();
    let mut offset = 0usize;
    for (index, chunk) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let line_no = index + 1;
        let complete = chunk.last() == Some(&b'\n');
        if !complete {
            results
                .problems
                .push(Problem::truncated(path, line_no, chunk.len()));
            break;
        }
        offset += chunk.len();
        let line = chunk.trim_ascii();
        if line.is_empty() {
            continue;
        }
        match serde_json::from_slice::<GameRecord>(line) {
            Ok(game) => results.games.push(game),
            Err(err) => results.problems.push(Problem {
                path: path.to_owned(),
                line: line_no,
                kind: ProblemKind::Malformed,
                message: err.to_string(),
            }),
        }
    }
    results.complete_len = offset as u64;
    results
}
