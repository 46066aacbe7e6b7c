//! A simulated run of one schedule on one field (the entrants, the pairs
//! so far and the games' dice), and what the schedule made of it: the
//! part every schedule shares, [`super::schedules`]' own and LUCB's.

use aboure_league::{Entrant, Field, PlayedPair};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::truth::TrueField;

/// What one schedule did on one field.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Games played.
    pub games: usize,
    /// True when its own rule stopped it (false: the cap did).
    pub stopped: bool,
    /// The top k it declared, best first.
    pub declared: Vec<usize>,
    /// True when it claims an order within the top k (LUCB claims a set).
    pub claims_order: bool,
    /// Its 95% intervals against the truth, on fields the model fits.
    pub intervals: Option<IntervalCheck>,
}

/// How a schedule's 95% rating intervals at its stop held the truth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IntervalCheck {
    /// Covered and checked, by class: the true top k, the rest of the
    /// upper half, the lower half.
    pub classes: [(usize, usize); 3],
    /// Whether the interval of one entrant chosen by the seed (seed mod n)
    /// covered: one independent trial per seed.
    pub chosen: bool,
}

/// A simulated run: the entrants, the pairs so far and the games' dice.
pub(super) struct Run<'a> {
    pub(super) truth: &'a TrueField,
    pub(super) entrants: Vec<Entrant>,
    pub(super) pairs: Vec<PlayedPair>,
    rng: SmallRng,
}

impl<'a> Run<'a> {
    pub(super) fn new(truth: &'a TrueField, seed: u64) -> Run<'a> {
        Run {
            truth,
            entrants: vec![Entrant::active(0); truth.len()],
            pairs: Vec::new(),
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    pub(super) fn field(&self) -> Field<'_> {
        Field::new(&self.entrants, &self.pairs).expect("simulated pairs name real entrants")
    }

    /// Plays a pair, `a` South first; returns `a`'s points (0 to 2).
    pub(super) fn pair(&mut self, a: usize, b: usize) -> f64 {
        let pair = PlayedPair {
            south_first: a,
            north_first: b,
            results: [
                self.truth.play(&mut self.rng, a, b),
                !self.truth.play(&mut self.rng, b, a),
            ],
        };
        self.pairs.push(pair);
        pair.points_of(a)
    }

    pub(super) fn games(&self) -> usize {
        2 * self.pairs.len()
    }
}
