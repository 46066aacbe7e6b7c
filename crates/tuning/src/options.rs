//! How to run a tune (everything that is not in the file), and what it
//! tells its progress observer.

use std::path::PathBuf;
use std::sync::Arc;

use aboure_records::TuneStep;
use tokio::sync::watch;

/// How to run a tune (everything that is not in the file).
pub struct TuneOptions {
    /// The output folder.
    pub out_dir: PathBuf,
    /// Continue the tune in `out_dir`.
    pub resume: bool,
    /// Help the tune in `out_dir` as a worker ([`join`](crate::join())) rather than own it.
    pub join: bool,
    /// The `aboure` binary, for built-in bots.
    pub aboure_exe: PathBuf,
    /// Set to true to stop: a `games` iteration's tournament is interrupted
    /// (its games are kept, and `--resume` finishes it), an `accuracy`
    /// iteration finishes and is written first.
    pub interrupt: watch::Receiver<bool>,
    /// Told of every iteration as it is written.
    pub progress: Arc<dyn Fn(&TuneProgress) + Send + Sync>,
}

/// What a tune tells its progress observer.
#[derive(Clone, Debug)]
pub enum TuneProgress {
    /// Resuming after this many written iterations, of this many.
    Resumed(u32, u32),
    /// An iteration was written.
    Step(TuneStep),
    /// The confirming SPRT started.
    Confirming,
    /// A worker ([`join`](crate::join())) starts on the games of this iteration.
    Joining(u32),
    /// A worker waits for the tune's owner to write this iteration.
    Waiting(u32),
}
