//! Every default of a tournament file in one place: what a key that is left
//! out means. `configs/README.md` documents the same values.

use std::time::Duration;

/// `tournament.pairs`.
pub(super) const PAIRS: u32 = 10;
/// `tournament.seed`.
pub(super) const SEED: u64 = 1;
/// `tournament.startup-timeout`.
pub(super) const STARTUP_TIMEOUT: Duration = Duration::from_secs(10);
/// `openings.plies` (random openings of this many plies).
pub(super) const OPENING_PLIES: u32 = 4;
/// `adjudication.solve-nodes`.
pub(super) const SOLVE_NODES: u64 = 1_000_000;
/// `time-control.base` when no limit is given.
pub(super) const BASE: Duration = Duration::from_secs(2);
/// `time-control.increment` when neither base nor increment is given.
pub(super) const INCREMENT: Duration = Duration::from_millis(20);
/// `time-control.margin`.
pub(super) const MARGIN: Duration = Duration::from_millis(50);
/// `time-control.timeout` for `depth` and `nodes` limits.
pub(super) const SEARCH_TIMEOUT: Duration = Duration::from_secs(60);
/// `sprt.elo0`.
pub(super) const ELO0: f64 = 0.0;
/// `sprt.elo1`.
pub(super) const ELO1: f64 = 10.0;
/// `sprt.alpha`.
pub(super) const ALPHA: f64 = 0.05;
/// `sprt.beta`.
pub(super) const BETA: f64 = 0.05;
