//! The Djenon-aboure bot protocol (`PROTOCOL.md` is the specification).
//!
//! A line-based text protocol on a bot's stdin and stdout, modelled on UCI.
//! This crate holds both directions as Rust values, so the arbiter and the
//! bots share one parser and one printer:
//!
//! - [`ArbiterMessage`]: what the arbiter sends (`aboure 1`, `position ...`,
//!   `go ...`, ...), and [`BotMessage`]: what a bot answers (`id ...`,
//!   `option ...`, `info ...`, `bestmove ...`). `Display` writes the exact
//!   line, `FromStr` reads it back; known messages with a malformed rest are
//!   a [`ParseMessageError`] quoting the line, anything else is `Unknown`.
//! - [`Player`]: what a bot implements, and [`serve`]: the loop that speaks
//!   the protocol for it (handshake, options, pings while thinking, `stop`).
//! - [`duel::play`]: one game between two players in-process, without the
//!   protocol, as the tuning's sample and the bench play them.
//! - [`SearchLimits::allot`]: time management, how long a move may take (a soft
//!   and a hard deadline, safety margins included), as the reference bots
//!   use it.
//!
//! ```
//! use aboure_protocol::{ArbiterMessage, BotMessage, Start};
//! use aboure_engine::Move;
//!
//! let msg: ArbiterMessage = "position startpos moves 2 8\r".parse().unwrap();
//! let ArbiterMessage::Position(game) = &msg else { panic!() };
//! assert_eq!(game.start, Start::StartPos);
//! assert_eq!(msg.to_string(), "position startpos moves 2 8");
//!
//! let answer = BotMessage::BestMove(Move::sow(3).unwrap());
//! assert_eq!(answer.to_string(), "bestmove 3");
//! assert!("bestmove 12".parse::<BotMessage>().is_err());
//! ```
#![deny(missing_docs)]

mod arbiter_message;
mod bot_message;
pub mod duel;
mod error;
mod option_spec;
mod player;
mod serve;
mod time;
mod tokens;

pub use arbiter_message::{
    ArbiterMessage, Clocks, GameSoFar, Go, IllegalMoveAt, Start, PROTOCOL_VERSION,
};
pub use bot_message::{BotMessage, MAX_CHOICES};
pub use error::ParseMessageError;
pub use option_spec::{OptionSpecError, OptionValueError, ValueProblem};
pub use player::{
    ClockState, OptionKind, OptionSpec, Player, Search, SearchInfo, SearchLimits, SetOptionError,
    ERROR_REPORT_MAX,
};
pub use serve::{serve, serve_stdio};
pub use time::{overhead, Allotment, MAX_OVERHEAD, MAX_SHARE, MIN_OVERHEAD, MOVES_TO_GO};
