//! Which bot is stronger, and how sure are we?
//!
//! The answers the chess-engine world settled on, reproduced to the printed
//! digit so that figures can be compared with the tools people know:
//!
//! - [`Wdl`] and [`Pentanomial`]: a pairing's score, logistic Elo and
//!   normalized Elo with 95% intervals, and likelihood of superiority,
//!   exactly as fastchess computes them. Numbers that do not exist (no
//!   games, a perfect score) are [`Estimate`] variants, never `inf` or `nan`.
//! - [`bradley_terry::fit`]: ratings of many players from all their games,
//!   BayesElo's model and MM algorithm with fitted draw and first-move
//!   parameters, intervals and LOS matrix from the covariance (or the
//!   profile likelihood, or [`bradley_terry::bootstrap`]: percentiles over
//!   resamples of whole game pairs).
//! - [`Sprt`]: fishtest's generalized SPRT on game pairs or W/D/L, in
//!   normalized or logistic Elo.
//! - [`OrderedSprt`]: the same test over numbered game pairs that finish in
//!   any order (shards of a cluster), counting only the in-order prefix, so
//!   its verdict does not depend on timing.
//! - [`characteristic`]: what an SPRT (truncated or not) will do at each
//!   true Elo, its pass probability and length, before it is run.
//! - [`sprt_elo`]: the Elo of a finished SPRT, corrected for the rule that
//!   stopped it.
//! - [`confidence_sequence`]: intervals that hold at every look at once,
//!   for a league that stops on its own verdict.
//! - [`simulate`]: results drawn from known strengths, to check all of the
//!   above (the tests do: interval coverage, SPRT error rates); and
//!   [`coverage`]: how often each kind of rating interval holds the truth.
//!
//! The crate is pure: no I/O, no clocks, no global state.
//!
//! ```
//! use aboure_stats::{Estimate, EloModel, Pentanomial, Sprt, SprtDecision, Wdl};
//!
//! let h2h = Wdl::new(136, 111, 96).head_to_head();
//! let elo = h2h.elo.interval().unwrap();
//! assert_eq!(format!("{:.2} +/- {:.2}", elo.value, elo.error().unwrap()), "40.70 +/- 30.43");
//! assert_eq!(format!("{:.2}%", 100.0 * h2h.los.unwrap()), "99.60%");
//! assert_eq!(Wdl::new(5, 0, 0).head_to_head().elo, Estimate::PlusInfinity);
//!
//! let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized).unwrap();
//! let status = sprt.status_pentanomial(&Pentanomial::from_fishtest([365, 16618, 36229, 16974, 390]));
//! assert_eq!(format!("{:.3}", status.llr), "2.250");
//! assert_eq!(status.decision, SprtDecision::Continue);
//! ```
#![deny(missing_docs)]

pub mod binomial;
pub mod bradley_terry;
pub mod characteristic;
pub mod confidence_sequence;
pub mod coverage;
pub mod elo;
mod estimate;
pub mod eta;
mod graph;
mod linalg;
mod llr;
mod mm;
mod ordered_sprt;
mod pentanomial;
mod result;
pub mod simulate;
mod splitmix;
mod sprt;
pub mod sprt_elo;
mod wdl;

pub use bradley_terry::{
    fit, fit_counts, fit_counts_anchored, fit_counts_loosely_anchored, Anchor, BradleyTerryOptions,
    Game, LooseAnchor, RatingError, RatingScale, Ratings, BAYESELO_PRIOR, BAYESELO_TOLERANCE,
};
pub use estimate::{Estimate, HeadToHead, Interval};
pub use ordered_sprt::{OrderedSprt, OrderedStatus, PairOutcome};
pub use pentanomial::Pentanomial;
pub use result::PlayerResult;
pub use splitmix::splitmix;
pub use sprt::{EloModel, Sprt, SprtDecision, SprtError, SprtStatus};
pub use wdl::Wdl;
