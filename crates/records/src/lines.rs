//! Reading a results file one line at a time, in constant memory.
//!
//! [`read_games`](crate::read_games) holds a whole file and every record in
//! memory, which is what `aboure run --resume` needs and what a report of a
//! million games cannot afford. [`ResultsLines`] hands out one line at a
//! time from a reused buffer, with its number, and reports a truncated last
//! line as a [`Problem`] exactly as `read_games` does. It reads JSON lines
//! only: CSV and PGN results go through [`crate::Rows`], which hands out
//! their games without making JSON of them.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::problem::{Problem, ProblemKind, ReadError};

/// What the next line of a file is.
#[derive(Debug)]
pub enum Line<'a> {
    /// A complete line (whitespace around it trimmed, never empty) and its
    /// 1-based number.
    Record {
        /// 1-based line number.
        number: usize,
        /// The line, JSON text.
        text: &'a [u8],
    },
    /// A line that cannot hold a record: a truncated last line.
    Problem(Problem),
}

/// The lines of one results file, read in order.
#[derive(Debug)]
pub struct ResultsLines {
    path: PathBuf,
    reader: BufReader<File>,
    buf: Vec<u8>,
    number: usize,
    bytes_read: u64,
}

/// Read buffer: large reads keep the system calls few.
const BUFFER: usize = 1 << 20;

impl ResultsLines {
    /// Opens `path`, read as JSON lines (see [`crate::ResultsFormat`] for telling
    /// the formats apart).
    pub fn open(path: &Path) -> Result<ResultsLines, ReadError> {
        let file = File::open(path).map_err(|source| ReadError {
            path: path.to_owned(),
            source,
        })?;
        Ok(ResultsLines {
            path: path.to_owned(),
            reader: BufReader::with_capacity(BUFFER, file),
            buf: Vec::new(),
            number: 0,
            bytes_read: 0,
        })
    }

    /// The file read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes read so far (for progress).
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The next line, `None` at the end of the file.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, ReadError> {
        let reader = &mut self.reader;
        loop {
            self.buf.clear();
            let n = reader
                .read_until(b'\n', &mut self.buf)
                .map_err(|source| ReadError {
                    path: self.path.clone(),
                    source,
                })?;
            if n == 0 {
                return Ok(None);
            }
            self.number += 1;
            self.bytes_read += n as u64;
            if self.buf.last() != Some(&b'\n') {
                return Ok(Some(Line::Problem(Problem::truncated(
                    &self.path,
                    self.number,
                    n,
                ))));
            }
            let text = self.buf.trim_ascii();
            if !text.is_empty() {
                let (start, len) = (
                    text.as_ptr() as usize - self.buf.as_ptr() as usize,
                    text.len(),
                );
                return Ok(Some(Line::Record {
                    number: self.number,
                    text: &self.buf[start..start + len],
                }));
            }
        }
    }

    /// The problem a line that does not parse makes, located.
    pub fn malformed(&self, number: usize, error: &serde_json::Error) -> Problem {
        Problem {
            path: self.path.clone(),
            line: number,
            kind: ProblemKind::Malformed,
            message: error.to_string(),
        }
    }
}

/// A JSON results file in blocks of whole lines, for parsing on several
/// threads: each block ends with a newline, except a last one holding a
/// truncated last line.
#[derive(Debug)]
pub struct LineBlocks {
    path: PathBuf,
    file: File,
    carry: Vec<u8>,
    done: bool,
}

impl LineBlocks {
    /// Opens `path` (JSON lines; CSV and PGN go through [`crate::Rows`]).
    pub fn open(path: &Path) -> Result<LineBlocks, ReadError> {
        let file = File::open(path).map_err(|source| ReadError {
            path: path.to_owned(),
            source,
        })?;
        Ok(LineBlocks {
            path: path.to_owned(),
            file,
            carry: Vec::new(),
            done: false,
        })
    }

    /// The next block of about `size` bytes (more if one line is longer),
    /// `None` at the end.
    pub fn next_block(&mut self, size: usize) -> Result<Option<Vec<u8>>, ReadError> {
        use std::io::Read;
        if self.done {
            return Ok(None);
        }
        let mut block = std::mem::take(&mut self.carry);
        loop {
            let start = block.len();
            // Read into the spare capacity: a block is never zeroed first.
            block.reserve(size);
            let n = (&mut self.file)
                .take(size as u64)
                .read_to_end(&mut block)
                .map_err(|source| ReadError {
                    path: self.path.clone(),
                    source,
                })?;
            if n == 0 {
                self.done = true;
                return Ok((!block.is_empty()).then_some(block));
            }
            if let Some(last) = block[start..].iter().rposition(|&b| b == b'\n') {
                self.carry = block.split_off(start + last + 1);
                return Ok(Some(block));
            }
        }
    }
}
