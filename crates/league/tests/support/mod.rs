//! Leagues played out on games drawn from known strengths.

use aboure_league::{Decision, Entrant, Field, PlayedPair, Rule};
use aboure_stats::simulate::BayesEloModel;
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// A draw rate and first-move advantage of the order the game has.
pub const MODEL: BayesEloModel = BayesEloModel {
    draw_elo: 100.0,
    advantage: 30.0,
};

/// Plays pair `(south_first, north_first)` between entrants of raw
/// strengths `truth`.
pub fn play(rng: &mut SmallRng, truth: &[f64], a: usize, b: usize) -> PlayedPair {
    PlayedPair {
        south_first: a,
        north_first: b,
        results: [
            MODEL.play(rng, truth[a], truth[b]),
            !MODEL.play(rng, truth[b], truth[a]),
        ],
    }
}

/// Runs `rule` from `pairs` on until it stops or `cap` pairs are
/// recorded; returns the last decision.
pub fn run(
    rule: &Rule,
    entrants: &[Entrant],
    truth: &[f64],
    pairs: &mut Vec<PlayedPair>,
    cap: usize,
    seed: u64,
) -> Decision {
    let mut rng = SmallRng::seed_from_u64(seed ^ pairs.len() as u64);
    loop {
        let field = Field::new(entrants, pairs).expect("simulated pairs are valid");
        let decision = rule.next(&field, seed);
        match decision {
            Decision::Play(p) if pairs.len() < cap => {
                pairs.push(play(&mut rng, truth, p.south_first, p.north_first))
            }
            other => return other,
        }
    }
}
