//! Reading results files into a [`ReportTally`], at the speed of the disk.
//!
//! Each file is read once, in blocks of whole lines. Worker threads parse
//! the blocks (only as far as the report needs: [`GameSummary`], a few
//! microseconds a line) while the reading goes on, and the tally takes the
//! games block by block in file order, so the report is the same as if one
//! thread had read it. Blocks in flight are bounded (two per worker), so
//! memory does not depend on the file's size. A malformed line becomes a
//! located warning and is skipped; a truncated last line (a power cut) too.
//! CSV files (small by nature) are read on one thread.

use std::collections::VecDeque;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use aboure_records::{
    GameSummary, Line, LineBlocks, Problem, ProblemKind, ReadError, ResultsLines,
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

/// A results file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The file could not be opened or read.
    #[error(transparent)]
    Read(#[from] ReadError),
}

/// Bytes per block: large enough that handing blocks around costs nothing,
/// small enough that a few per thread stay a few megabytes.
const BLOCK: usize = 1 << 20;

/// Reads every file of `paths` (a folder means its `games.jsonl`) into
/// `tally`, in order, parsing on `threads` threads (0: one per core),
/// calling `progress` after each block.
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
    for path in &files {
        let lines = ResultsLines::open(path)?;
        tally.begin_file(path);
        if lines.is_csv() {
            read_lines(tally, lines)?;
            state.bytes += std::fs::metadata(path).map_or(0, |m| m.len());
        } else {
            read_blocks(tally, path, threads, &mut state, progress)?;
        }
        state.games = tally.games();
        progress(&state);
    }
    Ok(())
}

/// One thread, line by line (CSV files).
fn read_lines(tally: &mut ReportTally, mut lines: ResultsLines) -> Result<(), StreamError> {
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
    }
    Ok(())
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
) -> Result<(), StreamError> {
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
                        tally.push_in_block(game, &block, text.clone());
                    }
                    Item::Malformed(message) => tally.problem(&problem(
                        path,
                        line,
                        ProblemKind::Malformed,
                        message.clone(),
                    )),
                    Item::Truncated(bytes) => tally.problem(&problem(
                        path,
                        line,
                        ProblemKind::TruncatedLastLine,
                        format!("{bytes} bytes without a newline"),
                    )),
                }
            }
            line_base += parsed.lines;
            state.games = tally.games();
            progress(state);
        }
        drop(jobs);
        result
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
