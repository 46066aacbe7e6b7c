//! Reading results files into a [`ReportTally`], line by line.
//!
//! Each file is read once, in order, through a reused buffer; a line is
//! parsed only as far as the report needs ([`GameSummary`]), and its text
//! is copied only for the games the page embeds or the accuracy analysis
//! reads. A malformed line becomes a located warning and is skipped; a
//! truncated last line (a power cut) too.

use std::path::PathBuf;

use aboure_records::{GameSummary, Line, ReadError, ResultsLines};

use crate::input::results_file;
use crate::tally::ReportTally;

/// How far the reading has come, for a progress bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Bytes read, over all files.
    pub bytes: u64,
    /// Bytes of all the files together.
    pub total_bytes: u64,
    /// Games counted.
    pub games: u64,
}

/// A results file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The file could not be opened or read.
    #[error(transparent)]
    Read(#[from] ReadError),
}

/// Lines between two progress calls.
const PROGRESS_EVERY: usize = 4096;

/// Reads every file of `paths` (a folder means its `games.jsonl`) into
/// `tally`, in order, calling `progress` every few thousand lines.
pub fn read_files(
    tally: &mut ReportTally,
    paths: &[PathBuf],
    progress: &mut dyn FnMut(&Progress),
) -> Result<(), StreamError> {
    let files: Vec<PathBuf> = paths.iter().map(|p| results_file(p)).collect();
    let mut state = Progress {
        total_bytes: files
            .iter()
            .filter_map(|f| std::fs::metadata(f).ok())
            .map(|m| m.len())
            .sum(),
        ..Progress::default()
    };
    for path in &files {
        let mut lines = ResultsLines::open(path)?;
        tally.begin_file(path);
        let done_before = state.bytes;
        let mut count = 0usize;
        while let Some(line) = lines.next_line()? {
            match line {
                Line::Record { number, text } => match GameSummary::from_line(text) {
                    Ok(game) => {
                        tally.push(&game, text);
                    }
                    Err(e) => {
                        let problem = lines.malformed(number, &e);
                        tally.problem(&problem);
                    }
                },
                Line::Problem(p) => tally.problem(&p),
            }
            count += 1;
            if count.is_multiple_of(PROGRESS_EVERY) {
                state.bytes = done_before + lines.bytes_read();
                state.games = tally.games();
                progress(&state);
            }
        }
        state.bytes = done_before + lines.bytes_read();
    }
    state.games = tally.games();
    progress(&state);
    Ok(())
}
