//! The Djenon-aboure bot protocol (`PROTOCOL.md` is the specification).
//!
//! (The message types and the bot-side loop are being written; the `Player`
//! trait below is the contract between the loop and the bots.)
#![deny(missing_docs)]

mod player;

pub use player::{Clock, Limits, OptionKind, OptionSpec, Player, Search, SearchInfo};
