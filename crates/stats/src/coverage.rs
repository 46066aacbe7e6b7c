//! Do the ratings' 95% intervals contain the truth 95% of the time?
//!
//! Tournaments of game pairs (colours swapped) are drawn from known
//! strengths with BayesElo's model ([`crate::simulate`]), many times over
//! from a seed; each is fitted (draw and first-move parameters too) and
//! the share of tournaments whose interval for one player holds its true
//! rating relative to the mean is counted, for each kind of interval:
//! the covariance, the profile likelihood and the bootstrap over pairs.
//! Three fields, as issue 25 asks: an ordinary field, a nearly perfect
//! player (600 above the field: most of its pairs never lost, its
//! resamples often without a loss) and a newcomer with 20 games.
//! Tournaments with no finite fit (the perfect player won every game) have
//! no interval to check and are counted apart.
//!
//! The crate's tests run a small case with stated tolerances;
//! `aboure bench coverage` prints the full figures.

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::Serialize;

use crate::bradley_terry::{bootstrap, BootstrapOptions, PairedResults, SeatedPairs};
use crate::simulate::BayesEloModel;
use crate::{fit_counts, BradleyTerryOptions, RatingScale};

/// A field of players of known strength (BayesElo's raw scale): game
/// pairs among all but the last, who plays `newcomer` pairs against each
/// of the others (as many as the rest when `None`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimulatedField {
    /// What the field is, in words.
    pub name: &'static str,
    /// Each player's true rating.
    pub truth: Vec<f64>,
    /// Pairs each pairing plays.
    pub pairs: usize,
    /// Pairs the last player plays against each other, if fewer.
    pub newcomer: Option<usize>,
    /// BayesElo's draw parameter of the results.
    pub draw_elo: f64,
    /// The player whose interval is checked.
    pub player: usize,
}

/// The first-move advantage of every simulated game.
pub const ADVANTAGE: f64 = 25.0;

impl SimulatedField {
    /// The three fields of the coverage table.
    pub fn all() -> [SimulatedField; 3] {
        let with = |x: f64| vec![0.0, 40.0, -30.0, 90.0, -100.0, x];
        [
            SimulatedField {
                name: "ordinary field (6 bots, 30 games each)",
                truth: with(10.0),
                pairs: 3,
                newcomer: None,
                draw_elo: 120.0,
                player: 3,
            },
            SimulatedField {
                name: "nearly perfect bot (600 above the field)",
                truth: with(600.0),
                pairs: 3,
                newcomer: None,
                draw_elo: 200.0,
                player: 5,
            },
            SimulatedField {
                name: "newcomer with 20 games",
                truth: with(150.0),
                pairs: 5,
                newcomer: Some(2),
                draw_elo: 120.0,
                player: 5,
            },
        ]
    }

    /// One tournament's results, pairs kept.
    pub fn play(&self, rng: &mut SmallRng) -> PairedResults {
        let model = BayesEloModel {
            draw_elo: self.draw_elo,
            advantage: ADVANTAGE,
        };
        let n = self.truth.len();
        let mut results = PairedResults::new(n, &[]);
        for i in 0..n {
            for j in i + 1..n {
                let count = match self.newcomer {
                    Some(k) if j == n - 1 => k,
                    _ => self.pairs,
                };
                let (a, b) = (self.truth[i], self.truth[j]);
                let mut pairs = SeatedPairs::default();
                for _ in 0..count {
                    let south = model.play(rng, a, b);
                    let north = !model.play(rng, b, a);
                    pairs.add(south, north);
                }
                results.add_pairs(i, j, &pairs);
            }
        }
        results
    }
}

/// A kind of interval, as the coverage run computes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum IntervalMethod {
    /// `rating +/- 1.96 sd` from the covariance.
    Covariance,
    /// The profile likelihood.
    Likelihood,
    /// Percentiles of a bootstrap over game pairs with this many resamples.
    Bootstrap(usize),
}

/// How often one kind of interval held the truth.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Coverage {
    /// Tournaments with a finite fit, whose interval was checked.
    pub trials: usize,
    /// Of those, intervals that held the true rating.
    pub hits: usize,
    /// Of those, intervals with no upper end.
    pub open_top: usize,
    /// Tournaments with no finite fit (left out).
    pub unrated: usize,
}

impl Coverage {
    /// The share of intervals that held the truth.
    pub fn share(&self) -> f64 {
        self.hits as f64 / self.trials.max(1) as f64
    }
}

/// The coverage of `method` on `field` over `tournaments` tournaments
/// drawn from `seed` (the same tournaments for every method).
pub fn coverage(
    field: &SimulatedField,
    method: IntervalMethod,
    tournaments: usize,
    seed: u64,
) -> Coverage {
    let n = field.truth.len();
    let mean = field.truth.iter().sum::<f64>() / n as f64;
    let truth = field.truth[field.player] - mean;
    let options = BradleyTerryOptions {
        scale: RatingScale::Raw,
        profile: method == IntervalMethod::Likelihood,
        ..Default::default()
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Coverage {
        trials: 0,
        hits: 0,
        open_top: 0,
        unrated: 0,
    };
    for t in 0..tournaments {
        let results = field.play(&mut rng);
        let bounds = match method {
            IntervalMethod::Covariance | IntervalMethod::Likelihood => {
                fit_counts(n, &results.by_colour(), &options).map(|r| {
                    let (x, e) = (r.ratings[field.player], r.errors[field.player]);
                    match r.profile {
                        Some(b) => b[field.player],
                        None => (Some(x - e), Some(x + e)),
                    }
                })
            }
            IntervalMethod::Bootstrap(samples) => {
                let settings = BootstrapOptions {
                    samples,
                    seed: seed ^ t as u64,
                    threads: 1,
                };
                bootstrap(&results, &options, (&[], &[]), &settings)
                    .map(|(_, b)| b.bounds[field.player])
            }
        };
        let Ok((lo, hi)) = bounds else {
            out.unrated += 1;
            continue;
        };
        out.trials += 1;
        out.open_top += hi.is_none() as usize;
        out.hits += (lo.is_none_or(|l| l <= truth) && hi.is_none_or(|h| truth <= h)) as usize;
    }
    out
}
