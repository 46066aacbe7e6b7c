//! The accuracy analysis on every core, fed one game at a time.
//!
//! Games are independent, so each worker thread owns a solver (the table
//! size is split between them) and takes games from a bounded queue; a full
//! queue makes the reader wait, so games in memory are at most the queue
//! plus one per worker, whatever the file's length. Results come back out
//! of order with their place in the file and are folded into an
//! [`AccuracyTally`] as they arrive. The node budget is shared: every
//! worker stops taking on games once the solvers together have spent it.

use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use aboure_solver::Solver;

use crate::accuracy::{analyse_line, AccuracyReport, AccuracyTally, Analysed};
use crate::options::AccuracyOptions;

/// A game to analyse: its place in reading order, whether it is a
/// forfeit (for the selection of games shown), and its line.
type Job = (u64, bool, Box<[u8]>);

/// Games waiting per worker: enough to keep every worker busy.
const QUEUE_PER_WORKER: usize = 16;

/// Worker threads analysing games, and what they found so far.
pub(crate) struct Analysis {
    jobs: Option<SyncSender<Job>>,
    results: Receiver<(u64, bool, Analysed)>,
    workers: Vec<JoinHandle<()>>,
    nodes: Arc<AtomicU64>,
    tally: AccuracyTally,
    /// Every game's analysis as a JSON line, when asked for.
    sink: Option<BufWriter<File>>,
    sink_error: Option<std::io::Error>,
}

impl std::fmt::Debug for Analysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analysis")
            .field("workers", &self.workers.len())
            .field("tally", &self.tally)
            .finish()
    }
}

impl Analysis {
    /// Starts the workers; the report keeps the per-move detail of `keep` games.
    pub fn start(options: &AccuracyOptions, keep: usize) -> Analysis {
        let threads = match options.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let (jobs, queue) = sync_channel::<Job>(threads * QUEUE_PER_WORKER);
        let queue = Arc::new(Mutex::new(queue));
        let (done, results) = channel();
        let nodes = Arc::new(AtomicU64::new(0));
        let exhausted = Arc::new(AtomicBool::new(false));
        let table_mb = (options.table_mb / threads).max(1);
        let workers = (0..threads)
            .map(|_| {
                let (queue, done, nodes, exhausted) = (
                    queue.clone(),
                    done.clone(),
                    nodes.clone(),
                    exhausted.clone(),
                );
                let budget = options.node_budget;
                std::thread::spawn(move || {
                    work(&queue, &done, &nodes, &exhausted, budget, table_mb)
                })
            })
            .collect();
        Analysis {
            jobs: Some(jobs),
            results,
            workers,
            nodes,
            tally: AccuracyTally::new(options.games, keep),
            sink: None,
            sink_error: None,
        }
    }

    /// Writes every game's analysis to `file`, one JSON object a line.
    pub fn write_all_games_to(&mut self, file: File) {
        self.sink = Some(BufWriter::new(file));
    }

    /// The stream of analyses, taken away: what is analysed from now on
    /// is not written.
    pub fn take_sink(&mut self) -> Option<BufWriter<File>> {
        self.sink.take()
    }

    /// Writes the analyses to `sink` (taken from an analysis started over)
    /// from its start, what it held cut away.
    pub fn rewind_sink(&mut self, sink: BufWriter<File>) {
        let rewound = sink
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|mut file| {
                file.set_len(0)?;
                file.rewind()?;
                Ok(file)
            });
        match rewound {
            Ok(file) => self.sink = Some(BufWriter::new(file)),
            Err(e) => self.sink_error = Some(e),
        }
    }

    /// Queues game `seq`; waits while the queue is full.
    pub fn submit(&mut self, seq: u64, forfeit: bool, line: &[u8]) {
        if let Some(jobs) = &self.jobs {
            // Workers only stop when the queue closes: a send cannot fail.
            let _ = jobs.send((seq, forfeit, line.into()));
        }
        self.collect(false);
    }

    /// Folds in the results ready now, or (`wait`) all of them once the
    /// queue is closed.
    fn collect(&mut self, wait: bool) {
        loop {
            let next = if wait {
                self.results.recv().ok()
            } else {
                self.results.try_recv().ok()
            };
            let Some((seq, forfeit, analysed)) = next else {
                return;
            };
            if let (Some(sink), Analysed::Game(g, _)) = (&mut self.sink, &analysed) {
                let written = serde_json::to_writer(&mut *sink, g)
                    .map_err(std::io::Error::from)
                    .and_then(|()| sink.write_all(b"\n"));
                if let Err(e) = written {
                    self.sink_error.get_or_insert(e);
                }
            }
            self.tally.add(seq, forfeit, analysed);
        }
    }

    /// Games analysed or skipped so far.
    pub fn done(&mut self) -> u64 {
        self.collect(false);
        self.tally.done()
    }

    /// The figures of the games analysed so far.
    pub fn report(&mut self) -> AccuracyReport {
        self.collect(false);
        self.tally.report(self.nodes.load(Ordering::Relaxed))
    }

    /// Waits for every queued game, then gives the figures; a failure to
    /// write the stream of games, if any.
    pub fn finish(&mut self) -> (AccuracyReport, Option<std::io::Error>) {
        self.jobs = None;
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
        self.collect(true);
        if let Some(sink) = &mut self.sink {
            if let Err(e) = sink.flush() {
                self.sink_error.get_or_insert(e);
            }
        }
        let report = self.tally.report(self.nodes.load(Ordering::Relaxed));
        (report, self.sink_error.take())
    }
}

fn work(
    queue: &Mutex<Receiver<Job>>,
    done: &Sender<(u64, bool, Analysed)>,
    nodes: &AtomicU64,
    exhausted: &AtomicBool,
    budget: u64,
    table_mb: usize,
) {
    let mut solver = Solver::new(table_mb);
    loop {
        // The lock is held only to take one job.
        let job = queue.lock().map(|q| q.recv());
        let Ok(Ok((seq, forfeit, line))) = job else {
            return;
        };
        let left = budget.saturating_sub(nodes.load(Ordering::Relaxed));
        let analysed = if exhausted.load(Ordering::Relaxed) || left == 0 {
            Analysed::OutOfBudget
        } else {
            let before = solver.nodes();
            let a = analyse_line(&mut solver, &line, before + left);
            nodes.fetch_add(solver.nodes() - before, Ordering::Relaxed);
            a
        };
        if matches!(analysed, Analysed::OutOfBudget) {
            exhausted.store(true, Ordering::Relaxed);
        }
        if done.send((seq, forfeit, analysed)).is_err() {
            return;
        }
    }
}
