//! Results from other harnesses (CSV and PGN), read as a stream of rows.
//!
//! A CSV row or a PGN game says who played which side and the result, and
//! nothing else: no game id, no pair, no moves. Such a game is handed out as
//! a [`GameSummary`] borrowed from the reader's buffer (what a report
//! counts), never as a [`crate::GameRecord`] or as JSON, so reading a
//! million of them takes the memory of one. [`Rows`] opens either format
//! behind one interface, for callers that take whatever a file holds.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use crate::csv::CsvRows;
use crate::detect::ResultsFormat;
use crate::pgn::PgnGames;
use crate::problem::ReadError;
use crate::row::Row;

/// A CSV or PGN results file, row by row.
#[derive(Debug)]
pub enum Rows {
    /// CSV rows.
    Csv(CsvRows<BufReader<File>>),
    /// PGN games.
    Pgn(PgnGames<BufReader<File>>),
}

/// Read buffer: large reads keep the system calls few.
const BUFFER: usize = 1 << 20;

impl Rows {
    /// Opens `path`, of `format` (CSV or PGN; `None` for JSON lines, which
    /// [`crate::ResultsLines`] and [`crate::LineBlocks`] read).
    pub fn open(path: &Path, format: ResultsFormat) -> Result<Option<Rows>, ReadError> {
        let open = || {
            File::open(path)
                .map(|f| BufReader::with_capacity(BUFFER, f))
                .map_err(|source| ReadError {
                    path: path.to_owned(),
                    source,
                })
        };
        Ok(match format {
            ResultsFormat::Jsonl => None,
            ResultsFormat::Csv => Some(Rows::Csv(CsvRows::new(open()?, path))),
            ResultsFormat::Pgn => Some(Rows::Pgn(PgnGames::new(open()?, path))),
        })
    }

    /// The next row, `None` at the end of the file.
    pub fn next_row(&mut self) -> Result<Option<Row<'_>>, ReadError> {
        match self {
            Rows::Csv(rows) => rows.next_row(),
            Rows::Pgn(games) => games.next_row(),
        }
    }

    /// Bytes read so far (for progress).
    pub fn bytes_read(&self) -> u64 {
        match self {
            Rows::Csv(rows) => rows.bytes_read(),
            Rows::Pgn(games) => games.bytes_read(),
        }
    }
}

/// A reader of rows, whatever it reads from.
pub(crate) trait RowSource {
    /// The next row, `None` at the end.
    fn next_row(&mut self) -> Result<Option<Row<'_>>, ReadError>;
}

impl<R: std::io::Read> RowSource for CsvRows<R> {
    fn next_row(&mut self) -> Result<Option<Row<'_>>, ReadError> {
        CsvRows::next_row(self)
    }
}

impl<R: std::io::BufRead> RowSource for PgnGames<R> {
    fn next_row(&mut self) -> Result<Option<Row<'_>>, ReadError> {
        PgnGames::next_row(self)
    }
}
