//! Why a step of the helper's setup failed (see [`crate::root`] and
//! [`crate::confine`]): the step, the path it was about, and the system's
//! reason. The helper prints it as its one line on stderr, which the
//! arbiter quotes in the bot's start-up failure.

use std::path::{Path, PathBuf};

/// A setup step that failed.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// A step on a path of the bot's world: making, binding, hiding or
    /// entering it.
    #[error("{what} {}: {source}", crate::error::shown(path))]
    Path {
        /// What was being done (`cannot bind`).
        what: &'static str,
        /// The path, as on the host.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A system call of a step on no path (a mount flag, a limit, a new
    /// identity).
    #[error("{what}: {source}")]
    Call {
        /// What was being done (`cannot make the mounts private`).
        what: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A Landlock ruleset that could not be made or enforced.
    #[error("landlock: {0}")]
    Landlock(String),
    /// A seccomp filter that could not be built or installed.
    #[error("seccomp: {0}")]
    Seccomp(String),
    /// A file of the bot that its identity cannot use as it must.
    #[error(
        "uid {uid} cannot {verb} {}: {source} (the bot runs as uid {uid}: its files \
         must be readable by others, its write paths writable by them)",
        crate::error::shown(path)
    )]
    Unusable {
        /// The bot's uid.
        uid: u32,
        /// What it must do with it (`read`).
        verb: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl SetupError {
    /// A step `what` on `path` that failed with `e`.
    pub fn at(what: &'static str, path: &Path, e: impl Into<std::io::Error>) -> SetupError {
        SetupError::Path {
            what,
            path: path.to_owned(),
            source: e.into(),
        }
    }

    /// A call `what` that failed with `e`.
    pub fn call(what: impl Into<String>, e: impl Into<std::io::Error>) -> SetupError {
        SetupError::Call {
            what: what.into(),
            source: e.into(),
        }
    }
}

/// The helper's own steps still speak in text (its one line of stderr).
impl From<SetupError> for String {
    fn from(e: SetupError) -> String {
        e.to_string()
    }
}
