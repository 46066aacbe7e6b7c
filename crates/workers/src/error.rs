//! What can go wrong in a shared run folder: the filesystem refused
//! something, and the error says what was being done to which file.

use std::io;

/// A shared run folder's error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A filesystem operation failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done, and to which file.
        context: String,
        /// The error.
        source: io::Error,
    },
    /// `workers.json` could not be read or written.
    #[error(transparent)]
    Workers(#[from] aboure_records::workers::WorkersError),
    /// The roster's brief is not what a worker wrote.
    #[error("cannot read {path}: {source}")]
    Brief {
        /// The brief's path.
        path: std::path::PathBuf,
        /// What is wrong with it.
        source: serde_json::Error,
    },
    /// Another live worker already has this worker's name in the folder.
    #[error("a live worker named {name} already works on {}", dir.display())]
    NameTaken {
        /// The worker's name (`K-of-N` or host and pid).
        name: String,
        /// The run folder.
        dir: std::path::PathBuf,
    },
    /// The run folder's mount keeps locks on this machine: claims would
    /// not exclude workers on other machines.
    #[error("{} is on a mount with {option}: its locks do not reach the other machines, so workers there would play the same pairs; mount it without {option} (NFSv4 with local_lock=none), or set ABOURE_LOCAL_LOCKS=1 if every worker of this run folder runs on this machine", dir.display())]
    LocalLocks {
        /// The run folder.
        dir: std::path::PathBuf,
        /// The mount option that keeps locks local.
        option: String,
    },
    /// The worker lost its claims (an NFS lease expired, the claims
    /// folder was removed): it stops writing ([`crate::EXIT_CLAIMS_LOST`]).
    #[error("this worker lost its claims on the run in {}: {context}: {error}; it stopped writing (its pairs are free for the other workers; start it again with --join)", dir.display())]
    ClaimsLost {
        /// The run folder.
        dir: std::path::PathBuf,
        /// What was being done, and to which file.
        context: String,
        /// The error that said so.
        error: io::Error,
    },
    /// The state a worker shares between its tasks was lost (a task
    /// panicked while holding it).
    #[error("the state of this worker was lost")]
    Poisoned,
}

impl Error {
    /// A function that wraps an I/O error with `context`.
    pub fn io(context: impl Into<String>) -> impl FnOnce(io::Error) -> Error {
        let context = context.into();
        move |source| Error::Io { context, source }
    }
}
