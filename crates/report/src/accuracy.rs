//! Per-move accuracy against the exact solver (being written).

use aboure_records::GameRecord;
use serde::Serialize;

use crate::options::AccuracyOptions;

/// Accuracy of every bot's moves.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AccuracyReport {}

pub(crate) fn analyse(_games: &[GameRecord], _options: &AccuracyOptions) -> AccuracyReport {
    AccuracyReport {}
}
