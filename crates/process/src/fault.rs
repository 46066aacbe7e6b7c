//! What can go wrong in an exchange with a bot, before anyone asks why:
//! the bottom of the crate, so the exchange and the pure turn rule both
//! name it without depending on each other.

use std::time::Duration;

use crate::lines::MAX_LINE;

/// What went wrong in an exchange, before anyone asks why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// Nothing wanted came by the deadline.
    #[error("no {what} within {limit:?}")]
    NoReply {
        /// What was waited for (`readyok`, `bestmove`).
        what: &'static str,
        /// The limit.
        limit: Duration,
        /// How long it was waited for.
        waited: Duration,
    },
    /// A line over [`MAX_LINE`] bytes.
    #[error("line of {len} bytes (limit {MAX_LINE}) starting {start:?}")]
    TooLong {
        /// Its length when the limit was passed.
        len: usize,
        /// Its start.
        start: String,
    },
    /// The output ended (or could not be read: the error).
    #[error("{}", match .0 { Some(e) => format!("output unreadable: {e}"), None => "closed its output".to_owned() })]
    Closed(Option<String>),
    /// The bot did not read its input: what was written to it was still
    /// not taken when the write's deadline passed.
    #[error("did not read its input ({what} still unread after {waited:.0?})")]
    Unread {
        /// The message that was being written (`aboure`, `go`, ...).
        what: &'static str,
        /// How long the write waited.
        waited: Duration,
    },
    /// Writing to the bot failed.
    #[error("closed its input ({0})")]
    WriteFailed(String),
    /// More than the protocol's bounds allow (the handshake's size, the
    /// number of options).
    #[error("sent {0}")]
    TooMuch(String),
    /// A `bestmove` that answers no `go`.
    #[error("bestmove that was not asked for: {0:?}")]
    Unasked(String),
    /// A `bestmove` line that does not parse.
    #[error("unreadable answer {0:?}")]
    Unreadable(String),
}
