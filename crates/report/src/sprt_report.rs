//! The state of an SPRT run: where the log-likelihood ratio stands and the
//! path it took, one point per counted game pair, as fishtest draws it.
//!
//! The verdict is `aboure_stats::OrderedSprt`'s, the one `aboure run` stops
//! on: pairs counted in pair order up to the first gap, the first crossing
//! of a bound deciding; pairs past it are the overrun. So the report of the
//! shards' files of a distributed SPRT gives the verdict one process would.

use aboure_stats::sprt_elo::{stopped_elo, StoppedElo, DEFAULT_RUNS};
use aboure_stats::{EloModel, OrderedSprt, Pentanomial, SprtDecision};
use serde::Serialize;

use crate::open_pairs::FilePair;
use crate::options::SprtSettings;

/// An SPRT between two bots.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    /// The bot under test (the first of [`SprtSettings::pairing`]).
    pub test: String,
    /// Its opponent.
    pub baseline: String,
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// `normalized` or `logistic`.
    pub model: &'static str,
    /// Game pairs counted: complete and unbroken from pair 0, up to the
    /// decision if there is one.
    pub pairs: u64,
    /// Complete pairs played past the deciding pair, never counted (0
    /// without a decision).
    pub overrun: u64,
    /// Without a decision, complete pairs waiting beyond a missing one.
    pub waiting: u64,
    /// Pair counts from the test bot's view.
    pub pentanomial: Pentanomial,
    /// The log-likelihood ratio now.
    pub llr: f64,
    /// Below it, H0 is accepted.
    pub lower: f64,
    /// Above it, H1 is accepted.
    pub upper: f64,
    /// `accept_h0`, `accept_h1` or `continue`.
    pub decision: &'static str,
    /// The cap of a truncated test, in pairs (`None`: no cap).
    pub max_pairs: Option<u64>,
    /// True when the cap decided, by the sign of the LLR, not a bound.
    pub truncated: bool,
    /// Once decided, the Elo of the counted pairs in the test's model, as
    /// counted (`naive`) and corrected for the stopping rule (see
    /// `aboure_stats::sprt_elo`); `None` before a decision or when the
    /// counts have no finite Elo.
    pub elo: Option<StoppedElo>,
    /// The LLR after each counted pair, in pair order.
    pub path: Vec<f64>,
}

pub(crate) fn sprt_report(
    settings: &SprtSettings,
    names: &[String],
    pairs: &[FilePair],
) -> Option<SprtReport> {
    if pairs.is_empty() {
        return None;
    }
    let index = |name: &String| names.iter().position(|n| n == name);
    let [test, baseline] = [index(&settings.pairing[0])?, index(&settings.pairing[1])?];
    let sprt = settings.sprt;
    let mut ordered = OrderedSprt::new(sprt, 1);
    let mut path = Vec::new();
    for (_, p) in pairs {
        let [a, b] = p.results;
        let outcome = if p.pairing == [test, baseline] {
            [a, b]
        } else if p.pairing == [baseline, test] {
            [!a, !b]
        } else {
            continue;
        };
        ordered.add_with(u64::from(p.pair), outcome, |s| path.push(s.status.llr));
    }
    let verdict = ordered.status();
    let (status, counts) = (verdict.status, verdict.counts);
    let (overrun, waiting) = if verdict.decided() {
        (verdict.beyond, 0)
    } else {
        (0, verdict.beyond)
    };
    Some(SprtReport {
        test: names[test].clone(),
        baseline: names[baseline].clone(),
        elo0: sprt.elo0(),
        elo1: sprt.elo1(),
        alpha: sprt.alpha(),
        beta: sprt.beta(),
        model: match sprt.model() {
            EloModel::Normalized => "normalized",
            EloModel::Logistic => "logistic",
        },
        pairs: verdict.counted,
        overrun,
        waiting,
        pentanomial: counts,
        llr: status.llr,
        lower: status.lower,
        upper: status.upper,
        decision: match status.decision {
            SprtDecision::AcceptH0 => "accept_h0",
            SprtDecision::AcceptH1 => "accept_h1",
            SprtDecision::Continue => "continue",
        },
        max_pairs: sprt.max_pairs(),
        truncated: status.truncated,
        elo: verdict
            .decided()
            .then(|| stopped_elo(&sprt, &counts, correction_runs(verdict.counted), 1))
            .flatten(),
        path,
    })
}

/// Simulated pairs the stopping-rule correction may spend: about a second.
const CORRECTION_PAIRS: u64 = 100_000_000;

/// Simulated tests per step of the correction: [`DEFAULT_RUNS`], fewer for
/// long tests (each step simulates about as many pairs per test as were
/// counted; the correction takes about 12 steps), at least 200.
fn correction_runs(pairs: u64) -> usize {
    let fit = CORRECTION_PAIRS / 12 / pairs.max(1);
    (fit as usize).clamp(200, DEFAULT_RUNS)
}
