//! Which format a results file is in, told from its content alone.
//!
//! Users bring results from other harnesses under any name (`results.txt`,
//! `games.pgn`, a cutechess-cli `out.pgn`), so the name decides nothing: the
//! first line that holds something does. This is the one place that rule
//! lives; every reader of results files asks it. A file that is none of the
//! formats is an error naming the formats expected, never an empty report.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::problem::ReadError;

/// The formats of results files aboure reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultsFormat {
    /// `games.jsonl`, as `aboure run` writes it: one JSON object a line.
    /// Also an empty file (a run that has not finished a game yet).
    Jsonl,
    /// CSV with a header row naming its columns (see [`crate::CsvRows`]).
    Csv,
    /// PGN: games as tag pairs and move text (see [`crate::PgnGames`]).
    Pgn,
}

impl fmt::Display for ResultsFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ResultsFormat::Jsonl => "JSON lines",
            ResultsFormat::Csv => "CSV",
            ResultsFormat::Pgn => "PGN",
        })
    }
}

/// Bytes looked at to tell the format: the first line with something on
/// it lies well within them in any real file.
pub const SAMPLE: usize = 64 * 1024;

impl ResultsFormat {
    /// The format of a file starting with `start` (its first bytes, up to
    /// [`SAMPLE`]): `None` if it is none of them.
    ///
    /// Blank lines, `#` comments and PGN's `%` escape lines are skipped (and a
    /// UTF-8 byte order mark); the first other line decides: `{` starts JSON
    /// lines, `[` and a tag name starts PGN, a line with a comma is a CSV
    /// header. Nothing but blanks and comments is JSON lines without games.
    pub fn detect(start: &[u8]) -> Option<ResultsFormat> {
        let start = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
        let Some(line) = first_line(start) else {
            return Some(ResultsFormat::Jsonl);
        };
        match line {
            [b'{', ..] => Some(ResultsFormat::Jsonl),
            [b'[', rest @ ..] if rest.first().is_some_and(u8::is_ascii_alphabetic) => {
                Some(ResultsFormat::Pgn)
            }
            [b'[', ..] => None,
            _ if line.contains(&b',') => Some(ResultsFormat::Csv),
            _ => None,
        }
    }

    /// The format of the file at `path`, from its first bytes.
    pub fn of_file(path: &Path) -> Result<ResultsFormat, ResultsFormatError> {
        let read = |path: &Path| -> std::io::Result<Vec<u8>> {
            let mut start = Vec::with_capacity(SAMPLE);
            std::fs::File::open(path)?
                .take(SAMPLE as u64)
                .read_to_end(&mut start)?;
            Ok(start)
        };
        let start = read(path).map_err(|source| {
            ResultsFormatError::Read(ReadError {
                path: path.to_owned(),
                source,
            })
        })?;
        ResultsFormat::detect(&start).ok_or_else(|| {
            let start = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&start);
            let (line, text) = numbered_first_line(start);
            ResultsFormatError::Unknown {
                path: path.to_owned(),
                line,
                text: String::from_utf8_lossy(&text[..text.len().min(80)]).into_owned(),
            }
        })
    }
}

/// The first line that holds something, trimmed.
fn first_line(start: &[u8]) -> Option<&[u8]> {
    let (line, text) = numbered_first_line(start);
    (line > 0).then_some(text)
}

/// The first line that holds something and its 1-based number (0 and an
/// empty line if there is none).
fn numbered_first_line(start: &[u8]) -> (usize, &[u8]) {
    for (i, line) in start.split(|&b| b == b'\n').enumerate() {
        let line = line.trim_ascii();
        if !line.is_empty() && !matches!(line[0], b'#' | b'%') {
            return (i + 1, line);
        }
    }
    (0, &[])
}

/// A results file whose format could not be told.
#[derive(Debug, thiserror::Error)]
pub enum ResultsFormatError {
    /// The file could not be read.
    #[error(transparent)]
    Read(ReadError),
    /// The file is none of the formats.
    #[error(
        "{}:{line}: not a results file: expected JSON lines (games.jsonl, a line \
         starting with {{), CSV with a header row (south,north,result or \
         white,black,result) or PGN (tag pairs such as [White \"A\"]), found {text:?}",
        .path.display()
    )]
    Unknown {
        /// The file.
        path: PathBuf,
        /// The line that decided, 1-based.
        line: usize,
        /// Its first 80 bytes.
        text: String,
    },
}

impl ResultsFormatError {
    /// The file.
    pub fn path(&self) -> &Path {
        match self {
            ResultsFormatError::Read(e) => &e.path,
            ResultsFormatError::Unknown { path, .. } => path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_with_something_decides() {
        let cases: [(&[u8], Option<ResultsFormat>); 9] = [
            (b"", Some(ResultsFormat::Jsonl)),
            (b"\n  \n# a comment\n", Some(ResultsFormat::Jsonl)),
            (b"{\"id\":\"x\"}\n", Some(ResultsFormat::Jsonl)),
            (b"\xEF\xBB\xBF[Event \"?\"]\n", Some(ResultsFormat::Pgn)),
            (b"% escape\n\n[White \"A\"]\n", Some(ResultsFormat::Pgn)),
            (
                b"# exported\nwhite,black,result\n",
                Some(ResultsFormat::Csv),
            ),
            (b"south;north;result\n", None),
            (b"[1, 2]\n", None),
            (b"hello world\n", None),
        ];
        for (start, expected) in cases {
            assert_eq!(
                ResultsFormat::detect(start),
                expected,
                "{:?}",
                String::from_utf8_lossy(start)
            );
        }
    }
}
