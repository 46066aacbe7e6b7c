//! CSV results, so games played elsewhere can be rated.
//!
//! The first row that is not blank or a `#` comment is a header naming the
//! columns, in any order and any case: the first mover's as `south` or
//! `white` (South moves first in Djenon-aboure, White in chess), the other
//! side's as `north` or `black`, `result` (`1-0`, `0-1` or `1/2-1/2` from the
//! first mover's view), and optionally `games` or `count`: the number of
//! identical games the row stands for. Other columns are ignored. Fields
//! follow RFC 4180 as the `csv` crate reads them: `"Engine, B"` is one name,
//! `"Engine A"` is named without its quotes, spaces around fields are
//! trimmed. Every row that cannot be counted is a [`Problem`] with its line.
//!
//! The reader reuses one record buffer and hands out summaries borrowed
//! from it, so a file of any size is read in constant memory. Parsing is
//! cheap next to counting (README.md gives the figures), so one thread
//! reads a CSV file.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::problem::{Problem, ProblemKind, ReadError};
use crate::record::GameResult;
use crate::row::{row_summary, Row};

/// Most games one row may stand for: a count beyond it is a typo more
/// likely than a result, and counting it would take minutes.
pub const MAX_COUNT: u32 = 10_000_000;

/// The rows of a CSV results file, read in order.
#[derive(Debug)]
pub struct CsvRows<R> {
    path: PathBuf,
    reader: ::csv::Reader<std::io::Chain<R, &'static [u8]>>,
    record: ::csv::ByteRecord,
    columns: Option<Columns>,
    /// The header was missing: nothing more is read.
    done: bool,
}

/// Where the header put each column.
#[derive(Clone, Copy, Debug)]
struct Columns {
    south: usize,
    north: usize,
    result: usize,
    count: Option<usize>,
    len: usize,
}

impl<R: Read> CsvRows<R> {
    /// Reads CSV from `reader`; `path` names the file in problems.
    pub fn new(reader: R, path: &Path) -> CsvRows<R> {
        let reader = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .comment(Some(b'#'))
            // Fields are trimmed where they are read: the crate's own
            // trimming copies every record, a third of the reading time.
            // A row ends at its `\n` (a `\r` before it is trimmed away), and
            // the last row gets one if it had none: see `start_line`.
            .terminator(::csv::Terminator::Any(b'\n'))
            .from_reader(reader.chain(&b"\n"[..]));
        CsvRows {
            path: path.to_owned(),
            reader,
            record: ::csv::ByteRecord::new(),
            columns: None,
            done: false,
        }
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.reader.position().byte()
    }

    /// The next row, `None` at the end.
    pub fn next_row(&mut self) -> Result<Option<Row<'_>>, ReadError> {
        loop {
            if self.done {
                return Ok(None);
            }
            match self.reader.read_byte_record(&mut self.record) {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(e) => return self.error(e).map(|p| Some(Row::Problem(p))),
            }
            let line = self.start_line();
            if self.record.iter().all(|f| f.trim_ascii().is_empty()) {
                continue;
            }
            let Some(columns) = self.columns else {
                match header(&self.record) {
                    Ok(columns) => {
                        self.columns = Some(columns);
                        continue;
                    }
                    Err(message) => {
                        self.done = true;
                        return Ok(Some(Row::Problem(self.problem(line, message))));
                    }
                }
            };
            return Ok(Some(match row(&self.record, columns) {
                Ok((game, count)) => Row::Games { line, game, count },
                Err(message) => Row::Problem(problem(&self.path, line, message)),
            }));
        }
    }

    /// The line where the record just read starts. The `csv` crate's own
    /// record position is where the reading began, before the blank lines
    /// it skipped; the reader's position after the record (and its `\n`,
    /// which every row has) is exact, so count back from it: the record's
    /// own newlines (inside quotes), and its end of line.
    fn start_line(&self) -> usize {
        let end = self.reader.position().line() as usize;
        let inside = self
            .record
            .iter()
            .map(|f| memchr::memchr_iter(b'\n', f).count())
            .sum::<usize>();
        end.saturating_sub(inside + 1).max(1)
    }

    fn problem(&self, line: usize, message: String) -> Problem {
        problem(&self.path, line, message)
    }

    /// A read error: the file's (an error), or a row's (a problem).
    fn error(&self, e: ::csv::Error) -> Result<Problem, ReadError> {
        let line = e.position().map_or(0, |p| p.line() as usize);
        let message = e.to_string();
        match e.into_kind() {
            ::csv::ErrorKind::Io(source) => Err(ReadError {
                path: self.path.clone(),
                source,
            }),
            _ => Ok(self.problem(line, message)),
        }
    }
}

fn problem(path: &Path, line: usize, message: String) -> Problem {
    Problem {
        path: path.to_owned(),
        line,
        kind: ProblemKind::Malformed,
        message,
    }
}

/// The columns a header row names, or what is wrong with it.
fn header(record: &::csv::ByteRecord) -> Result<Columns, String> {
    let names: Vec<String> = record
        .iter()
        .map(|f| {
            let f = f.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(f).trim_ascii();
            String::from_utf8_lossy(f).to_ascii_lowercase()
        })
        .collect();
    let find = |wanted: &[&str]| -> Result<Option<usize>, String> {
        let mut found = names
            .iter()
            .enumerate()
            .filter(|(_, n)| wanted.contains(&n.as_str()));
        let first = found.next().map(|(i, _)| i);
        match found.next() {
            Some(_) => Err(format!(
                "the header names the {} column twice",
                wanted.join(" or ")
            )),
            None => Ok(first),
        }
    };
    let (south, north, result) = (
        find(&["south", "white"])?,
        find(&["north", "black"])?,
        find(&["result"])?,
    );
    let count = find(&["games", "count"])?;
    match (south, north, result) {
        (Some(south), Some(north), Some(result)) => Ok(Columns {
            south,
            north,
            result,
            count,
            len: names.len(),
        }),
        _ => Err(format!(
            "expected a header row naming the columns south (or white), north (or black) \
             and result, found {:?}",
            names.join(",")
        )),
    }
}

/// A data row's game and count, or what is wrong with it.
fn row(
    record: &::csv::ByteRecord,
    columns: Columns,
) -> Result<(crate::summary::GameSummary<'_>, u32), String> {
    let field = |i: usize, name: &str| -> Result<&str, String> {
        let bytes = record.get(i).map(<[u8]>::trim_ascii).ok_or_else(|| {
            format!(
                "{} fields where the header names {} (no {name})",
                record.len(),
                columns.len
            )
        })?;
        std::str::from_utf8(bytes).map_err(|_| format!("the {name} is not UTF-8 text"))
    };
    let south = field(columns.south, "first mover (south or white)")?;
    let north = field(columns.north, "second mover (north or black)")?;
    let result = field(columns.result, "result")?;
    if south.is_empty() || north.is_empty() {
        return Err("empty bot name".to_owned());
    }
    let result = GameResult::parse(result)
        .ok_or_else(|| format!("result {result:?} is not 1-0, 0-1 or 1/2-1/2"))?;
    let count = match columns.count {
        None => 1,
        Some(i) => {
            let text = field(i, "count")?;
            match text.parse::<u32>() {
                Ok(n) if (1..=MAX_COUNT).contains(&n) => n,
                _ => {
                    return Err(format!(
                        "count {text:?} is not a whole number from 1 to {MAX_COUNT}"
                    ))
                }
            }
        }
    };
    Ok((row_summary(south, north, result), count))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row's line, first mover, second mover, result and count.
    type RowRead = (usize, String, String, GameResult, u32);

    fn rows(text: &str) -> Vec<Result<RowRead, String>> {
        let mut rows = CsvRows::new(text.as_bytes(), Path::new("r.csv"));
        let mut out = Vec::new();
        while let Some(row) = rows.next_row().unwrap() {
            out.push(match row {
                Row::Games { line, game, count } => Ok((
                    line,
                    game.south.to_string(),
                    game.north.to_string(),
                    game.result,
                    count,
                )),
                Row::Problem(p) => Err(p.to_string()),
                Row::Unfinished { .. } => unreachable!("CSV has no unfinished games"),
            });
        }
        out
    }

    #[test]
    fn quoted_names_any_column_order_and_counts() {
        let text = "# from elsewhere\n\nResult,Black,White,games\n\
                    1-0,\"Engine, B\",\"Engine A\",3\n\n  0-1 , x , y , 1\n# done\n";
        assert_eq!(
            rows(text),
            vec![
                Ok((
                    4,
                    "Engine A".into(),
                    "Engine, B".into(),
                    GameResult::SouthWins,
                    3
                )),
                Ok((6, "y".into(), "x".into(), GameResult::NorthWins, 1)),
            ]
        );
    }

    #[test]
    fn bad_rows_are_located_problems() {
        let text = "south,north,result,count\na,b,2-0,1\na,,1-0,1\na,b\na,b,1-0,0\na,b,1-0,x\n";
        let got = rows(text);
        let expected = [
            "r.csv:2: malformed line: result \"2-0\" is not 1-0, 0-1 or 1/2-1/2",
            "r.csv:3: malformed line: empty bot name",
            "r.csv:4: malformed line: 2 fields where the header names 4 (no result)",
            "r.csv:5: malformed line: count \"0\" is not a whole number from 1 to 10000000",
            "r.csv:6: malformed line: count \"x\" is not a whole number from 1 to 10000000",
        ];
        assert_eq!(got.len(), expected.len(), "{got:?}");
        for (got, expected) in got.iter().zip(expected) {
            assert_eq!(got.as_ref().unwrap_err(), expected);
        }
    }

    #[test]
    fn lines_are_counted_with_any_line_ends_and_quoted_newlines() {
        let text = "south,north,result\r\n\r\na,\"b\nc\",1-0\r\n\r\n\r\nd,e,0-1";
        let lines: Vec<usize> = rows(text).into_iter().map(|r| r.unwrap().0).collect();
        assert_eq!(lines, [3, 7]);
    }

    #[test]
    fn a_missing_header_stops_the_file() {
        let got = rows("a,b,1-0\nc,d,0-1\n");
        assert_eq!(got.len(), 1);
        let message = got[0].as_ref().unwrap_err();
        assert!(
            message.starts_with("r.csv:1: malformed line: expected a header row"),
            "{message}"
        );
    }
}
