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

use crate::reader::ReadError;

/// The formats of results files aboure reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `games.jsonl`, as `aboure run` writes it: one JSON object a line.
    /// Also an empty file (a run that has not finished a game yet).
    Jsonl,
    /// CSV with a header row naming its columns (see [`crate::CsvRows`]).
    Csv,
    /// PGN: games as tag pairs and move text (see [`crate::PgnGames`]).
    Pgn,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Jsonl => "JSON lines",
            Format::Csv => "CSV",
            Format::Pgn => "PGN",
        })
    }
}

/// Bytes looked at to tell the format: the first line with something on
/// it lies well within them in any real file.
pub const SAMPLE: usize = 64 * 1024;

impl Format {
    /// The format of a file starting with `start` (its first bytes, up to
    /// [`SAMPLE`]): `None` if it is none of them.
    ///
    /// Blank lines, `#` comments and PGN's `%` escape lines are skipped (and a
    /// UTF-8 byte order mark); the first other line decides: `{` starts JSON
    /// lines, `[` and a tag name starts PGN, a line with a comma is a CSV
    /// header. Nothing but blanks and comments is JSON lines without games.
    pub fn detect(start: &[u8]) -> Option<Format> {
        let start = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
        let Some(line) = first_line(start) else {
            return Some(Format::Jsonl);
        };
        match line {
            [b'{', ..] => Some(Format::Jsonl),
            [b'[', rest @ ..] if rest.first().is_some_and(u8::is_ascii_alphabetic) => {
                Some(Format::Pgn)
            }
            [b'[', ..] => None,
            _ if line.contains(&b',') => Some(Format::Csv),
            _ => None,
        }
    }

    /// The format of the file at `path`, from its first bytes.
    pub fn of_file(path: &Path) -> Result<Format, FormatError> {
        let read = |path: &Path| -> std::io::Result<Vec<u8>> {
            let mut start = Vec::with_capacity(SAMPLE);
            std::fs::File::open(path)?
                .take(SAMPLE as u64)
                .read_to_end(&mut start)?;
            Ok(start)
        };
        let start = read(path).map_err(|source| {
            FormatError::Read(ReadError {
                path: path.to_owned(),
                source,
            })
        })?;
        Format::detect(&start).ok_or_else(|| {
            let start = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&start);
            let (line, text) = numbered_first_line(start);
            FormatError::Unknown {
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
pub enum FormatError {
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

impl FormatError {
    /// The file.
    pub fn path(&self) -> &Path {
        match self {
            FormatError::Read(e) => &e.path,
            FormatError::Unknown { path, .. } => path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_with_something_decides() {
        let cases: [(&[u8], Option<Format>); 9] = [
            (b"", Some(Format::Jsonl)),
            (b"\n  \n# a comment\n", Some(Format::Jsonl)),
            (b"{\"id\":\"x\"}\n", Some(Format::Jsonl)),
            (b"\xEF\xBB\xBF[Event \"?\"]\n", Some(Format::Pgn)),
            (b"% escape\n\n[White \"A\"]\n", Some(Format::Pgn)),
            (b"# exported\nwhite,black,result\n", Some(Format::Csv)),
            (b"south;north;result\n", None),
            (b"[1, 2]\n", None),
            (b"hello world\n", None),
        ];
        for (start, expected) in cases {
            assert_eq!(
                Format::detect(start),
                expected,
                "{:?}",
                String::from_utf8_lossy(start)
            );
        }
    }
}
