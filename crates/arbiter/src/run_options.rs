//! How to run (everything that is not the tournament itself): the output
//! folder, resuming or joining, the concurrency, where progress goes and
//! the bots kept between runs. Every format's run reads them, and so does
//! the one run loop (`seat.rs`).

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::watch;

use crate::config::Config;
use crate::event::Event;
use crate::schedule::Shard;
use crate::seat::kept::KeptBots;

/// Receives [`Event`]s.
pub type Observer = Arc<dyn Fn(&Event) + Send + Sync>;

/// How to run (everything that is not the tournament itself).
pub struct RunOptions {
    /// The output folder.
    pub out_dir: PathBuf,
    /// Continue an earlier run in `out_dir`.
    pub resume: bool,
    /// Games at once (overrides the config).
    pub concurrency: Option<usize>,
    /// This worker's name and the slice of the schedule it takes first
    /// (`--shard K/N`); it writes `games-K-of-N.jsonl`.
    pub shard: Option<Shard>,
    /// Join the run in `out_dir` as one more worker with a results file of
    /// its own (`games-w-HOST-PID.jsonl`); implies `resume`.
    pub join: bool,
    /// `shard` is a static slice (`--slice K/N`): play exactly its pairs
    /// (pair `i` is slice `i % N + 1`'s), alone in `out_dir`, and none of
    /// the others'.
    pub slice: bool,
    /// Log every protocol line.
    pub log_protocol: bool,
    /// The `aboure` binary, for built-in bots (`aboure bot NAME`).
    pub aboure_exe: PathBuf,
    /// Set to true to interrupt the run.
    pub interrupt: watch::Receiver<bool>,
    /// Progress events go here.
    pub observer: Observer,
    /// Keep the bot processes after the run, for the next one, and play
    /// with those kept by the last (`restart = "never"` across runs; a
    /// league ignores it).
    pub kept: Option<Arc<KeptBots>>,
}

/// Concurrency when neither the command line nor the file says: half the
/// cores rounded up (two bots per game).
pub fn default_concurrency() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.div_ceil(2)
}

impl RunOptions {
    /// True if other workers may share the output folder.
    pub fn shared(&self) -> bool {
        self.join || (self.shard.is_some() && !self.slice)
    }

    /// Games at once: the command line's, else the file's, else
    /// [`default_concurrency`]; at least one.
    pub fn concurrency_for(&self, config: &Config) -> usize {
        self.concurrency
            .or(config.concurrency())
            .unwrap_or_else(default_concurrency)
            .max(1)
    }
}
