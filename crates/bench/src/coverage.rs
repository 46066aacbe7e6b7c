//! `aboure bench coverage`: how often each kind of rating interval holds
//! the truth, on the three simulated fields of issue 25 (an ordinary
//! field, a nearly perfect bot, a newcomer with 20 games; see
//! [`aboure_stats::coverage`]), for the covariance, the profile likelihood
//! and the bootstrap over game pairs, each on the same tournaments.
//!
//! Every (field, kind) runs on its own thread; the figures depend only on
//! the seed. A 95% interval should hold the truth about 95% of the time;
//! the standard error of the share over `t` tournaments is about
//! `sqrt(0.95 * 0.05 / t)` (0.5% at 2,000).

use std::fmt;

use aboure_stats::coverage::{coverage, Coverage, IntervalMethod, SimulatedField};

/// One field's coverage by each kind of interval.
pub struct FieldCoverage {
    /// The field.
    pub field: SimulatedField,
    /// Each kind and its coverage.
    pub kinds: Vec<(IntervalMethod, Coverage)>,
}

/// The coverage of every kind on every field, over `tournaments`
/// tournaments each, the bootstrap with `samples` resamples.
pub fn measure(tournaments: usize, samples: usize, seed: u64) -> Vec<FieldCoverage> {
    let methods = [
        IntervalMethod::Covariance,
        IntervalMethod::Likelihood,
        IntervalMethod::Bootstrap(samples),
    ];
    let fields = SimulatedField::all();
    std::thread::scope(|scope| {
        let runs: Vec<_> = (fields.iter().enumerate())
            .map(|(k, field)| {
                let each: Vec<_> = methods
                    .iter()
                    .map(|&m| {
                        let seed = seed + k as u64;
                        scope.spawn(move || (m, coverage(field, m, tournaments, seed)))
                    })
                    .collect();
                (field, each)
            })
            .collect();
        runs.into_iter()
            .map(|(field, each)| FieldCoverage {
                field: field.clone(),
                kinds: each.into_iter().filter_map(|h| h.join().ok()).collect(),
            })
            .collect()
    })
}

impl fmt::Display for FieldCoverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.field.name)?;
        for (method, c) in &self.kinds {
            let kind = match method {
                IntervalMethod::Covariance => "covariance".to_owned(),
                IntervalMethod::Likelihood => "profile likelihood".to_owned(),
                IntervalMethod::Bootstrap(b) => format!("bootstrap over pairs ({b})"),
            };
            writeln!(
                f,
                "  {kind:<30} {:>5.1}% of {} tournaments ({} without finite ratings left out; {} intervals open at the top)",
                100.0 * c.share(),
                c.trials,
                c.unrated,
                c.open_top
            )?;
        }
        Ok(())
    }
}
