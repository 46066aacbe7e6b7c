//! Find a bot's best parameter values by SPSA, the method fishtest and
//! OpenBench use to tune chess engines.
//!
//! SPSA (simultaneous perturbation stochastic approximation, Spall 1992)
//! nudges every parameter at once by `+/- c_k` in a random direction, scores
//! the two nudged bots against each other (game pairs) or against an oracle
//! (aboure's exact solver), and steps `theta` along the difference. Two
//! evaluations per iteration estimate the whole gradient, whatever the number
//! of parameters, and the noise of each estimate averages out over iterations.
//!
//! This crate is the arithmetic only: no I/O, no clocks, no games. A caller
//! asks [`Spsa::probe`] for the two points to score, scores them however it
//! likes, and hands the difference to [`Spsa::update`]. Everything needed to
//! continue is the [`SpsaState`] (serde), written after each iteration, so a
//! tune that is killed resumes on exactly the same path.
//!
//! ```
//! use aboure_spsa::{Parameter, Spsa, SpsaSettings};
//!
//! let params = vec![Parameter::integer("weight", -20.0, -100.0, 100.0, 4.0).unwrap()];
//! let mut spsa = Spsa::new(params, SpsaSettings::for_iterations(300), 7).unwrap();
//! while !spsa.finished() {
//!     let probe = spsa.probe();
//!     // The score to maximise: closer to 30 is better.
//!     let score = |v: &[f64]| -(v[0] - 30.0).powi(2);
//!     spsa.update(&probe, score(&probe.plus) - score(&probe.minus)).unwrap();
//! }
//! assert!((spsa.state().theta[0] - 30.0).abs() < 5.0);
//! ```
#![deny(missing_docs)]

mod parameter;
mod spsa;

pub use parameter::{Parameter, ParameterError};
pub use spsa::{Probe, Spsa, SpsaError, SpsaSettings, SpsaState};

#[cfg(test)]
mod tests;
