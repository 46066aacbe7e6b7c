//! Reading results files into a [`ReportTally`], at the speed of the disk.
//!
//! Each file's format is told from its content ([`ResultsFormat::detect`]); a file
//! of no known format is an error, not an empty report. JSON lines are read
//! in blocks of whole lines: worker threads parse the blocks (only as far as
//! the report needs: [`GameSummary`], a few microseconds a line) while the
//! reading goes on, and the tally takes the games block by block in file
//! order, so the report is the same as if one thread had read it. Blocks in
//! flight are bounded (two per worker), so memory does not depend on the
//! file's size. CSV rows and PGN games ([`Rows`]) are read on one thread,
//! which already reads a million games in well under a second (README.md),
//! each handed to the tally as a summary borrowed from the reader's buffer.
//!
//! A malformed line becomes a located warning and is skipped; a truncated
//! last line (a power cut) too. A file where malformed lines outnumber the
//! games read is not a results file with a few bad lines but the wrong
//! file, or a broken one: that is an error ([`StreamError::MostlyMalformed`]).

use std::collections::VecDeque;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use aboure_records::{
    GameSummary, LineBlocks, Problem, ProblemKind, ReadError, ResultsFormat, ResultsFormatError,
    Row, Rows,
};

use crate::input::files_of;
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

/// A results file could not be read, or is not one.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The file could not be opened or read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The file is none of the formats, or could not be read to tell.
    #[error(transparent)]
    Format(#[from] ResultsFormatError),
    /// More lines (rows, games) were malformed than were read as games.
    #[error(
        "{}: {malformed} malformed line{} against {games} game{} read: not a results \
         file aboure can rate (the first: {first})",
        .path.display(),
        if *.malformed == 1 { "" } else { "s" },
        if *.games == 1 { "" } else { "s" }
    )]
    MostlyMalformed {
        /// The file.
        path: PathBuf,
        /// Lines, rows or games that could not be read.
        malformed: u64,
        /// Lines, rows or games read as games (duplicates included).
        games: u64,
        /// The first problem, located.
        first: Box<Problem>,
    },
}

/// Bytes per block: large enough that handing blocks around costs nothing,
/// small enough that a few per thread stay a few megabytes.
const BLOCK: usize = 1 << 20;

/// Rows read between two progress reports.
const ROWS_PER_PROGRESS: u64 = 1 << 16;

/// Reads every file of `paths` (a folder means its `games.jsonl`) into
/// `tally`, in order, parsing JSON lines on `threads` threads (0: one per
/// core), calling `progress` now and then.
pub fn read_files(
    tally: &mut ReportTally,
    paths: &[PathBuf],
    threads: usize,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(), StreamError> {
    let files: Vec<PathBuf> = paths.iter().flat_map(|p| files_of(p)).collect();
    let mut state = Progress {
        total_bytes: files
            .iter()
            .filter_map(|f| std::fs::metadata(f).ok())
            .map(|m| m.len())
            .sum(),
        ..Progress::default()
    };
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    // A record counted that another of its id replaces (the one its mark
    // names, read later) cannot be taken back: the files are read again,
    // the choice kept. Rare: it takes a worker that died between writing
    // and cutting back a record of a game another worker then recorded.
    for pass in 1..=READINGS {
        read_pass(tally, &files, threads, &mut state, progress)?;
        if !tally.needs_restart() || pass == READINGS {
            break;
        }
        tally.restart();
        state.bytes = 0;
    }
    Ok(())
}

/// Readings of the files at most, should records keep replacing others
/// (files that change while they are read).
const READINGS: usize = 3;

/// One reading of every file into `tally`.
fn read_pass(
    tally: &mut ReportTally,
    files: &[PathBuf],
    threads: usize,
    state: &mut Progress,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(), StreamError> {
    for path in files {
        let format = ResultsFormat::of_file(path)?;
        tally.begin_file(path);
        let counts = match Rows::open(path, format)? {
            Some(rows) => read_rows(tally, path, rows, state, progress)?,
            None => read_blocks(tally, path, threads, state, progress)?,
        };
        counts.check(path)?;
        state.games = tally.games();
        progress(state);
    }
    Ok(())
}

/// What one file held: the rule for a file that is mostly malformed.
#[derive(Debug, Default)]
struct Counts {
    games: u64,
    malformed: u64,
    first: Option<Problem>,
}

impl Counts {
    fn problem(&mut self, tally: &mut ReportTally, problem: Problem) {
        if problem.kind == ProblemKind::Malformed {
            self.malformed += 1;
        }
        tally.problem(&problem);
        self.first.get_or_insert(problem);
    }

    fn check(self, path: &Path) -> Result<(), StreamError> {
        match self.first {
            Some(first) if self.malformed > self.games => Err(StreamError::MostlyMalformed {
                path: path.to_owned(),
                malformed: self.malformed,
                games: self.games,
                first: Box::new(first),
            }),
            _ => Ok(()),
        }
    }
}

/// One thread, row by row (CSV and PGN files).
fn read_rows(
    tally: &mut ReportTally,
    path: &Path,
    mut rows: Rows,
    state: &mut Progress,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Counts, StreamError> {
    let mut counts = Counts::default();
    let mut unfinished = 0u64;
    let start = state.bytes;
    loop {
        match rows.next_row()? {
            None => break,
            Some(Row::Games { line, game, count }) => {
                tally.push_row(&game, line, count);
                counts.games += 1;
            }
            Some(Row::Unfinished { .. }) => unfinished += 1,
            Some(Row::Problem(p)) => counts.problem(tally, p),
        }
        if (counts.games + counts.malformed).is_multiple_of(ROWS_PER_PROGRESS) {
            state.bytes = start + rows.bytes_read();
            state.games = tally.games();
            progress(state);
        }
    }
    state.bytes = start + rows.bytes_read();
    if unfinished > 0 {
        tally.warn(format!(
            "{}: {unfinished} unfinished game{} (result *) not counted",
            path.display(),
            if unfinished == 1 { "" } else { "s" },
        ));
    }
    Ok(counts)
}

/// A block's lines, parsed: each game with its text's place in the block,
/// or what is wrong with the line, by line number within the block.
struct Parsed {
    block: Vec<u8>,
    lines: usize,
    items: Vec<(usize, Item)>,
}

enum Item {
    Game(GameSummary<'static>, Range<usize>),
    Malformed(String),
    Truncated(usize),
}

type Job = (Vec<u8>, SyncSender<Parsed>);

/// Parsing on `threads` workers, the tally fed in file order.
fn read_blocks(
    tally: &mut ReportTally,
    path: &Path,
    threads: usize,
    state: &mut Progress,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Counts, StreamError> {
    let mut counts = Counts::default();
    let mut blocks = LineBlocks::open(path)?;
    let (jobs, queue) = sync_channel::<Job>(threads * 2);
    let queue = Mutex::new(queue);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| parse_blocks(&queue));
        }
        let mut in_flight: VecDeque<Receiver<Parsed>> = VecDeque::new();
        let mut line_base = 0usize;
        let mut ended = false;
        let mut result = Ok(());
        loop {
            while !ended && in_flight.len() < threads * 2 {
                match blocks.next_block(BLOCK) {
                    Ok(Some(block)) => {
                        state.bytes += block.len() as u64;
                        let (done, parsed) = sync_channel(1);
                        // Workers live until `jobs` is dropped: a send cannot fail.
                        let _ = jobs.send((block, done));
                        in_flight.push_back(parsed);
                    }
                    Ok(None) => ended = true,
                    Err(e) => {
                        result = Err(e.into());
                        ended = true;
                    }
                }
            }
            let Some(next) = in_flight.pop_front() else {
                break;
            };
            let Ok(parsed) = next.recv() else { break };
            let block = Arc::new(parsed.block);
            for (line, item) in &parsed.items {
                let line = line_base + line;
                match item {
                    Item::Game(game, text) => {
                        counts.games += 1;
                        tally.push_in_block(game, &block, text.clone());
                    }
                    Item::Malformed(message) => counts.problem(
                        tally,
                        problem(path, line, ProblemKind::Malformed, message.clone()),
                    ),
                    Item::Truncated(bytes) => counts.problem(
                        tally,
                        problem(
                            path,
                            line,
                            ProblemKind::TruncatedLastLine,
                            format!("{bytes} bytes without a newline"),
                        ),
                    ),
                }
            }
            line_base += parsed.lines;
            state.games = tally.games();
            progress(state);
        }
        drop(jobs);
        result.map(|()| counts)
    })
}

fn problem(path: &Path, line: usize, kind: ProblemKind, message: String) -> Problem {
    Problem {
        path: path.to_owned(),
        line,
        kind,
        message,
    }
}

/// A worker: parses blocks until the queue closes.
fn parse_blocks(queue: &Mutex<std::sync::mpsc::Receiver<Job>>) {
    loop {
        let job = queue.lock().map(|q| q.recv());
        let Ok(Ok((block, done))) = job else {
            return;
        };
        let _ = done.send(parse_block(block));
    }
}

fn parse_block(block: Vec<u8>) -> Parsed {
    let mut items = Vec::new();
    let mut lines = 0;
    let mut start = 0;
    while start < block.len() {
        lines += 1;
        let Some(newline) = memchr::memchr(b'\n', &block[start..]) else {
            // Written lines always end in a newline: this one was cut short.
            items.push((lines, Item::Truncated(block.len() - start)));
            break;
        };
        let chunk = &block[start..start + newline + 1];
        let line_start = start;
        start += chunk.len();
        let text = chunk.trim_ascii();
        if text.is_empty() {
            continue;
        }
        let lead = chunk.len() - chunk.trim_ascii_start().len();
        let range = line_start + lead..line_start + lead + text.len();
        items.push((
            lines,
            match GameSummary::from_line(text) {
                Ok(game) => Item::Game(game.into_owned(), range),
                Err(e) => Item::Malformed(e.to_string()),
            },
        ));
    }
    Parsed {
        block,
        lines,
        items,
    }
}
