//! A league: entrants join and retire at any time, ratings are refitted
//! from every game, and each next game pair goes where the ranking is
//! still uncertain.
//!
//! This crate is the league's pure logic, apart from any process or file:
//! given the entrants, every game pair recorded so far and a seed,
//! [`Rule::next`] says which pair to play next (or why to stop), the same
//! answer every time, so a resumed league continues exactly as an
//! uninterrupted one. The rule and why it was chosen are in [`schedule`];
//! the stopping verdicts in [`stopping`]; the Swiss system and round
//! robin it is measured against in [`swiss`] and [`round_robin`]; the
//! `[tournament]` keys that configure it in [`rule_from_table`].
//!
//! ```
//! use aboure_league::{Decision, Entrant, Field, Reason, Rule};
//!
//! let entrants = [Entrant::active(0); 4];
//! let field = Field::new(&entrants, &[]).unwrap();
//! let Decision::Play(pair) = Rule::default().next(&field, 7) else { panic!() };
//! assert_eq!(pair.reason, Reason::Placement);
//! assert_ne!(pair.south_first, pair.north_first);
//! ```
#![deny(missing_docs)]

mod config;
mod error;
mod field;
mod focus;
pub mod in_flight;
pub mod intervals;
pub mod round_robin;
pub mod schedule;
mod seed;
pub mod stopping;
pub mod swiss;
mod table;

pub use config::{rule_from_table, LeagueConfigError};
pub use error::LeagueError;
pub use field::{Entrant, Field, PlayedPair};
pub use focus::Focus;
pub use intervals::Intervals;
pub use schedule::{Decision, NextPair, Reason, Rule};
pub use stopping::{settled, Neighbours, Separation, Verdict};
pub use table::{game_information, options, Table};
