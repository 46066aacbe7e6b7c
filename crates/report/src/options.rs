//! What a report is asked to do, validated once: anchors, the prior, the
//! SPRT of the run, and how much exact analysis to spend on accuracy.

use aboure_records::{FormatIdentity, LeagueRecord, RunManifest, SandboxLayers};
use aboure_stats::bradley_terry::BootstrapOptions;
use aboure_stats::{Sprt, BAYESELO_PRIOR};

/// How to build a [`crate::Report`].
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Pin bots' ratings (`--anchor NAME=ELO`, repeatable: several fixed
    /// anchors, the others fitted around them); by default ratings are
    /// centred on 0.
    pub anchors: Vec<(String, f64)>,
    /// Loose anchors (`--anchor NAME=ELO+-SD`): a normal prior on a bot's
    /// rating, its mean and standard deviation; with no fixed anchor they
    /// set the scale.
    pub loose_anchors: Vec<(String, f64, f64)>,
    /// Virtual draws per bot (`--prior N`, BayesElo's `prior` command),
    /// spread over its opponents; `None` for pure maximum likelihood. A
    /// run's default is [`default_prior`] of its format.
    pub prior: Option<f64>,
    /// The SPRT the run was playing, if any (see [`crate::sprt_of`]).
    pub sprt: Option<SprtSettings>,
    /// How the ratings' 95% intervals are computed.
    pub intervals: IntervalKind,
    /// Resamples, seed and threads of [`IntervalKind::Bootstrap`].
    pub bootstrap: BootstrapOptions,
    /// The sandbox layers the run was played under, if its `run.json`
    /// says (see [`crate::sandbox_of`]).
    pub sandbox: Option<SandboxLayers>,
    /// A league's entrants and verdict, from its `run.json` (see
    /// [`crate::league_of`]): the report adds the league's leaderboard
    /// and each entrant's rating over time.
    pub league: Option<LeagueRecord>,
    /// The openings book the run played from, from its `run.json` (see
    /// [`crate::openings_of`]): the report adds each opening's pairs.
    pub openings: Option<crate::OpeningsBook>,
    /// Per-move accuracy from the exact solver; `None` to skip it.
    pub accuracy: Option<AccuracyOptions>,
    /// Most games the HTML page embeds for its game list and viewer; `None`
    /// for [`DEFAULT_VIEWER_GAMES`]. Beyond it the page keeps every forfeit,
    /// then the most recent games, and says how many it left out.
    pub viewer_games: Option<usize>,
}

/// How the ratings' 95% intervals are computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IntervalKind {
    /// `rating +/- 1.96 sd` from the covariance, as BayesElo's
    /// `covariance` command: the default, since it agrees with BayesElo,
    /// costs nothing, and covered the truth as well as the likelihood in
    /// the coverage simulation (`aboure-stats`'s `coverage::` tests, figures
    /// in the README).
    #[default]
    Covariance,
    /// From the profile likelihood: asymmetric, an end unbounded when the
    /// evidence does not bound it (a bot that never lost), at the cost of
    /// about a hundred refits per bot.
    Likelihood,
    /// Percentiles of a bootstrap over game pairs (pairs resampled whole,
    /// the full fit redone on each resample): the only kind that does not
    /// take the two games of a pair as independent; an end unbounded when
    /// more than 2.5% of the resamples put the rating at infinity.
    Bootstrap,
}

/// The prior a run's report uses unless told otherwise, decided by the
/// run's format (`None` when no `run.json` says it).
///
/// A league gets [`BAYESELO_PRIOR`]: its adaptive pairing has the strongest
/// entrants play many near-certain wins against the tail, and the
/// maximum-likelihood fit of so thin and lopsided a pairing overshoots, so
/// its 95% intervals of the top entrants covered the truth too rarely in
/// simulation (`aboure bench league`, the true top 8 of 64 entrants: 78.1%
/// at the league's stop, 62.5% at a fixed budget), where the same fit with
/// BayesElo's prior covered 96.9% at both. Every other
/// format keeps pure maximum likelihood, which agrees with BayesElo's `mm`
/// without prior.
pub fn default_prior(format: Option<&FormatIdentity>) -> Option<f64> {
    match format {
        Some(FormatIdentity::League) => Some(BAYESELO_PRIOR),
        Some(FormatIdentity::RoundRobin | FormatIdentity::Gauntlet(_) | FormatIdentity::Sprt)
        | None => None,
    }
}

/// Games the HTML page embeds by default: about 45 MB of page, which a
/// browser opens in seconds. The ratings always count every game.
pub const DEFAULT_VIEWER_GAMES: usize = 10_000;

/// An SPRT between two bots: the test and its hypotheses.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtSettings {
    /// The configured test.
    pub sprt: Sprt,
    /// The tested bot and its baseline, in that order: the run's first two
    /// bots in the tournament file's order (see
    /// [`aboure_records::TournamentIdentity::sprt_pairing`]), whichever
    /// pair comes first in the files.
    pub pairing: [String; 2],
}

impl SprtSettings {
    /// The SPRT a run manifest describes: its bounds and its two bots,
    /// when the run is an SPRT.
    pub fn of_manifest(manifest: &RunManifest) -> Option<SprtSettings> {
        Some(SprtSettings {
            sprt: manifest.sprt?,
            pairing: manifest.identity.sprt_pairing()?,
        })
    }
}

/// Bounds on the exact analysis behind accuracy figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccuracyOptions {
    /// Solver nodes the whole analysis may spend; games not analysed when it
    /// runs out are counted as skipped.
    pub node_budget: u64,
    /// Transposition table size in megabytes, shared out between the
    /// worker threads (each keeps one table for all its positions).
    pub table_mb: usize,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// Most games whose per-move analysis the report holds (every forfeit,
    /// then the most recent, as the page's games); the figures per bot
    /// count every game. The HTML page holds at least its own games'.
    pub games: usize,
}

/// Games whose per-move analysis a report holds by default: about 6 MB of
/// JSON. The per-bot figures always count every game.
pub const DEFAULT_ACCURACY_GAMES: usize = 1_000;

impl Default for AccuracyOptions {
    fn default() -> Self {
        AccuracyOptions {
            node_budget: 100_000_000,
            table_mb: 64,
            threads: 0,
            games: DEFAULT_ACCURACY_GAMES,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_league_defaults_to_bayeselos_prior_and_other_formats_to_none() {
        assert_eq!(default_prior(Some(&FormatIdentity::League)), Some(2.0));
        for other in [
            FormatIdentity::RoundRobin,
            FormatIdentity::Gauntlet("a".to_owned()),
            FormatIdentity::Sprt,
        ] {
            assert_eq!(default_prior(Some(&other)), None, "{other:?}");
        }
        assert_eq!(default_prior(None), None);
        assert_eq!(ReportOptions::default().prior, None);
    }
}
