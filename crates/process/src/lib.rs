//! A bot as a subprocess, in one place for the arbiter and `check-bot`, so
//! that a bot that passes the checks behaves the same in a tournament.
//!
//! - [`launch`]: how a bot is launched, one pluggable step ([`Launcher`]:
//!   plain, through a wrapper command, or a sandbox), and what every launch
//!   gets (own process group, death with the parent, resource [`Limits`]).
//! - [`lines`]: bounded line reading on a task of its own, each line
//!   stamped with the instant it was read.
//! - [`exchange`]: the protocol exchange (handshake, `isready` fence, `go`
//!   and `bestmove`), generic over the streams and tested on in-memory ones.
//! - [`turn`]: the rule that a `bestmove` answers the one outstanding `go`,
//!   and how an answer is timed; `check-bot` hears every line through it.
//! - [`process`]: the running bot, its stderr, its exit and the failure it
//!   means; kill and reap.
//! - [`hold`]: a bot held still (frozen, or stopped) while its opponent
//!   thinks.
//! - [`hint`]: what to tell the author of a bot that ended at once.
//! - [`exit`]: one wording of an exit status, and the CPU time used.
//! - [`logs`]: the stderr and protocol logs, written off the async workers.
//! - [`escaped`]: a stranger's bytes as a log safe for a terminal, capped
//!   (a bot's stderr, a build's output).
//! - [`memory`]: a scripted bot on in-memory streams, for tests of the
//!   exchange and of what is built on it.
#![deny(missing_docs)]

pub mod escaped;
pub mod exchange;
pub mod exit;
mod fault;
mod flood;
pub mod hint;
pub mod hold;
pub mod launch;
pub mod limits;
pub mod lines;
pub mod logs;
pub mod memory;
pub mod process;
mod stderr;
pub mod turn;
// Real processes, in the library's unit-test binary: a separate
// integration-test binary would link the crate again.
#[cfg(test)]
mod spawn_tests;

pub use escaped::{printable_bytes, printable_path, EscapedLog, STDERR_CAP};
pub use exchange::{Answer, Channel, Fault, MAX_HANDSHAKE, MAX_MOVE_OUTPUT, MAX_OPTIONS};
pub use exit::{describe, Exit};
pub use hint::Hint;
pub use hold::HoldMethod;
pub use launch::{Guard, Launched, Launcher, Plain, Program, Wrapper};
pub use limits::{
    parse_cpu_limit, parse_duration, parse_memory_limit, parse_size, size_text, LimitError, Limits,
    MemoryRlimit, SizeError, MAX_DURATION, MIN_MEMORY,
};
pub use lines::{Arrival, Output, MAX_LINE};
pub use logs::{BotLogs, PROTOCOL_CAP};
pub use process::{BotFailure, BotProcess, FailureKind, Launch, SLOW_STARTUP};
pub use stderr::QUOTE_PREFIX;
pub use turn::{Heard, Turn};
