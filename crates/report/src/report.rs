//! The report model: every figure the outputs show, computed once from the
//! counts a [`crate::ReportTally`] keeps (see [`crate::compute`]). Text, JSON
//! and HTML only format it.

use aboure_records::{GameRecord, SandboxLayers};
use aboure_stats::bradley_terry::BootstrapOptions;
use aboure_stats::Pentanomial;
use serde::Serialize;

use crate::accuracy::AccuracyReport;
use crate::failure::Failure;
use crate::options::IntervalKind;
use crate::pairings::Pairing;
use crate::player_line::PlayerLine;
use crate::ratings::{CycleLine, FitSummary, RatingStatus};
use crate::sprt_report::SprtReport;

/// Version of the JSON schema (see the crate docs); bumped when a field
/// changes meaning or disappears.
pub const SCHEMA_VERSION: u32 = 1;

/// A tournament's results, rated and summarised.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Games counted (duplicates once).
    pub games: u64,
    /// Complete game pairs.
    pub pairs: u64,
    /// The results files read.
    pub files: Vec<String>,
    /// Problems in the files and duplicate ids, and notes about the ratings.
    pub warnings: Vec<String>,
    /// The bots, best first.
    pub players: Vec<PlayerLine>,
    /// How the ratings came out.
    pub ratings: RatingsSummary,
    /// Likelihood of superiority between rated bots.
    pub los: LosMatrix,
    /// Results of each bot against each other.
    pub crosstable: Crosstable,
    /// Every pair of bots that met, with head-to-head statistics.
    pub pairings: Vec<Pairing>,
    /// The games lost by forfeit, the first [`crate::FAILURES_LISTED`] of them.
    pub failures: Vec<Failure>,
    /// Games lost by forfeit beyond those listed in `failures` (in the JSON
    /// only when there are some; the counts per bot include them).
    #[serde(skip_serializing_if = "is_zero")]
    pub failures_left_out: u64,
    /// The SPRT, for a run with `format = "sprt"`.
    pub sprt: Option<SprtReport>,
    /// The sandbox layers the run was played under, when its `run.json`
    /// records them (absent from the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxLayers>,
    /// The openings book and each opening's pairs, for a run played from
    /// an openings file (absent from the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<crate::OpeningsReport>,
    /// A league's leaderboard, verdict and ratings over time (absent from
    /// the JSON for other runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub league: Option<crate::league_report::LeagueReport>,
    /// Per-move accuracy against the exact solver, when analysed.
    pub accuracy: Option<AccuracyReport>,
    /// The games the HTML game list and viewer show (see
    /// [`ReportOptions::viewer_games`]), as their lines of `games.jsonl`:
    /// the page reads them one at a time.
    #[serde(skip)]
    pub records: Vec<Box<[u8]>>,
    /// Games left out of `records`.
    #[serde(skip)]
    pub records_left_out: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The fit as a whole.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingsSummary {
    /// `ok`, `too_few_players`, `disconnected`, `unbounded` or `failed`.
    pub status: RatingStatus,
    /// What the reader should know, in words.
    pub messages: Vec<String>,
    /// Groups of bots linked by games.
    pub groups: Vec<Vec<String>>,
    /// BayesElo's first-move advantage (South's edge, raw model scale).
    pub first_move_advantage: Option<f64>,
    /// BayesElo's draw parameter (raw model scale).
    pub draw_elo: Option<f64>,
    /// The first anchored bot and its rating, if any.
    pub anchor: Option<(String, f64)>,
    /// Every anchored bot and its rating (fixed anchors).
    pub anchors: Vec<(String, f64)>,
    /// Every loosely anchored bot, its prior's mean and standard deviation.
    pub loose_anchors: Vec<(String, f64, f64)>,
    /// `covariance`, `likelihood` or `bootstrap`: how the 95% intervals
    /// were computed.
    pub intervals: IntervalKind,
    /// Virtual draws per bot of the fit (BayesElo's `prior`); 0 for none
    /// (pure maximum likelihood).
    pub prior: f64,
    /// The bootstrap's resamples and seed, when the intervals are one's.
    pub bootstrap: Option<BootstrapSettings>,
    /// How well the model fits the results, when one fit covers every bot.
    pub fit: Option<FitSummary>,
    /// Results that go round in a circle beyond noise (no ratings can
    /// express them).
    pub cycles: Vec<CycleLine>,
}

/// How a bootstrap was drawn, so that it can be drawn again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BootstrapSettings {
    /// Resamples of the game pairs.
    pub samples: usize,
    /// Their seed.
    pub seed: u64,
}

impl BootstrapSettings {
    pub(crate) fn of(options: &BootstrapOptions) -> BootstrapSettings {
        BootstrapSettings {
            samples: options.samples,
            seed: options.seed,
        }
    }
}

/// `matrix[i][j]`: likelihood that `players[i]` is stronger than
/// `players[j]` (`null` when not both rated in one group).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LosMatrix {
    /// The bots, in standings order.
    pub players: Vec<String>,
    /// The likelihoods.
    pub matrix: Vec<Vec<Option<f64>>>,
}

/// Results of each bot (row) against each other (column).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Crosstable {
    /// The bots, in standings order.
    pub players: Vec<String>,
    /// `cells[i][j]`: row bot's results against the column bot, `null`
    /// when they did not meet (and on the diagonal).
    pub cells: Vec<Vec<Option<Cell>>>,
}

/// One crosstable cell.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// Games played.
    pub games: u64,
    /// Points of the row bot.
    pub points: f64,
    /// Wins of the row bot.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of the row bot.
    pub losses: u64,
    /// Complete pairs from the row bot's view.
    pub pentanomial: Pentanomial,
}

impl Report {
    /// The games the page shows (`records`), read back.
    pub fn shown_games(&self) -> impl Iterator<Item = GameRecord> + '_ {
        self.records
            .iter()
            .filter_map(|line| serde_json::from_slice(line).ok())
    }
}
