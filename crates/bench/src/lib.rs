//! The measurements behind the figures aboure publishes (`aboure bench
//! ...`), in one crate of their own so that none of them ships as a module
//! of the product's libraries.
//!
//! Every measurement here is a benchmark, never an assertion: it prints
//! figures, each next to a baseline measured in the same run where one
//! exists (a bare pipe round trip for the arbiter, the fairness layers off
//! for fairness), so a loaded machine shows in both numbers rather than
//! in a failed test. The bots the arbiter benchmarks play against are
//! built into the `aboure` binary ([`responder`]), so they need nothing
//! but the product.
#![deny(missing_docs)]

pub mod accuracy;
pub mod arbiter;
pub mod coverage;
pub mod cpu;
pub mod duel;
pub mod engine;
pub mod fairness;
mod figures;
pub mod league;
pub mod openings;
pub mod report;
pub mod responder;
pub mod search;
pub mod serve;
pub mod synthetic;
pub mod tune;
pub mod tune_cpu;
pub mod tune_knobs;
pub mod workers;
