//! The state of an SPRT run: where the log-likelihood ratio stands and the
//! path it took, one point per complete game pair, as fishtest draws it.

use aboure_stats::{EloModel, Pentanomial, SprtDecision};
use serde::Serialize;

use crate::options::SprtSettings;
use crate::pairings::GamePair;

/// An SPRT between two bots.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    /// The bot under test (first in the run's pairing).
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
    /// Complete game pairs counted.
    pub pairs: u64,
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
    /// The LLR after each complete pair, in pair order.
    pub path: Vec<f64>,
}

pub(crate) fn sprt_report(
    settings: &SprtSettings,
    names: &[String],
    pairs: &[GamePair],
) -> Option<SprtReport> {
    let first = pairs.first()?;
    let [test, baseline] = first.players;
    let sprt = settings.sprt;
    let mut counts = Pentanomial::default();
    let mut path = Vec::new();
    for p in pairs {
        let [a, b] = p.results;
        if p.players == [test, baseline] {
            counts.add_pair(a, b);
        } else if p.players == [baseline, test] {
            counts.add_pair(!a, !b);
        } else {
            continue;
        }
        path.push(sprt.llr_pentanomial(&counts));
    }
    let status = sprt.status_pentanomial(&counts);
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
        pairs: counts.pairs(),
        pentanomial: counts,
        llr: status.llr,
        lower: status.lower,
        upper: status.upper,
        decision: match status.decision {
            SprtDecision::AcceptH0 => "accept_h0",
            SprtDecision::AcceptH1 => "accept_h1",
            SprtDecision::Continue => "continue",
        },
        path,
    })
}
