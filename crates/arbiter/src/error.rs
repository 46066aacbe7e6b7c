//! The arbiter's errors. Failures of bots are not errors (they are results,
//! recorded as losses); these are the reasons a tournament cannot run.

use std::path::PathBuf;

use aboure_config::ConfigError;

/// Why a run could not start or continue.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The tournament file is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The output folder already holds results and `--resume` was not given.
    #[error("{path} already holds {games} finished games: pass --resume to continue that run, or choose another --out")]
    ResultsExist {
        /// The results file.
        path: PathBuf,
        /// Games in it.
        games: usize,
    },
    /// `--resume` with a tournament file that changes what the games are.
    #[error("cannot resume {dir}: the tournament file changed what the games would be (fingerprint {found} in run.json, {expected} now); changed: {what}. Use the original file, or another --out")]
    ConfigChanged {
        /// The output folder.
        dir: PathBuf,
        /// The fingerprint on disk.
        found: String,
        /// The fingerprint of the current file.
        expected: String,
        /// Which parts differ, as far as can be told.
        what: String,
    },
    /// `--resume` with sandbox settings other than those the run began
    /// with: its games were played under those.
    #[error("cannot resume {dir}: the sandbox settings changed since the run began ({keys}); its games were played under those run.json records (sandbox_settings), and a bot given other paths, network or limits plays other games. Use the original settings, or another --out")]
    SandboxChanged {
        /// The output folder.
        dir: PathBuf,
        /// The keys that differ, comma separated.
        keys: String,
    },
    /// A results line in the middle of the file is damaged.
    #[error("cannot resume: {0} (fix or remove that line)")]
    DamagedResults(String),
    /// Another run holds the results file.
    #[error("{path} is being written by another run ({holder}): only one run may write a results file; wait for it, stop it, or choose another --out or --shard")]
    Locked {
        /// The results file.
        path: PathBuf,
        /// Who holds it: host and process id.
        holder: String,
    },
    /// A bad `--shard`.
    #[error("bad --shard {0:?}: expected K/N with 1 <= K <= N, e.g. 2/8")]
    Shard(String),
    /// `--slice` of a format that decides from all the games so far.
    #[error("--slice cannot split {0}: it decides what to play next (and when to stop) from every game so far, which machines that share no folder cannot see; run its workers with --join on one shared folder instead")]
    SliceRefused(&'static str),
    /// `strict` sandbox mode on a machine that lacks a layer.
    #[error(transparent)]
    Sandbox(#[from] aboure_sandbox::SandboxError),
    /// The run folder's `run.json` cannot be read, understood or written.
    #[error(transparent)]
    Manifest(#[from] aboure_records::ManifestError),
    /// A task of the run (a game or a claim) panicked or was cancelled: a
    /// defect of aboure, not of the input.
    #[error("a {what} task failed: {source}")]
    TaskFailed {
        /// What the task did.
        what: &'static str,
        /// Why it ended.
        source: tokio::task::JoinError,
    },
    /// A task panicked while it held the run's state, which may be half
    /// updated: the run stops rather than go on from it.
    #[error("the run's state was left half updated by a task that panicked")]
    StatePoisoned,
    /// A game's result could not be written, even after retrying.
    #[error("game {game} could not be written to {} ({attempts} attempts over {waited:.1?}; {kept})", path.display())]
    ResultNotWritten {
        /// The game id.
        game: String,
        /// The results file.
        path: PathBuf,
        /// How often it was tried.
        attempts: u32,
        /// How long it was retried for.
        waited: std::time::Duration,
        /// What the results file holds now.
        kept: String,
        /// The last error.
        source: std::io::Error,
    },
    /// A league cannot go on as asked (a changed entrant, workers).
    #[error(transparent)]
    League(#[from] crate::league::error::LeagueRunError),
    /// The SPRT's decision cannot be written.
    #[error(transparent)]
    SprtFile(#[from] aboure_records::SprtFileError),
    /// The folder shared with other workers failed.
    #[error(transparent)]
    Workers(#[from] aboure_workers::Error),
    /// Reading or writing the output folder failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done, and to which file.
        context: String,
        /// The error.
        source: std::io::Error,
    },
}

impl RunError {
    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> RunError {
        let context = context.into();
        move |source| RunError::Io { context, source }
    }
}
