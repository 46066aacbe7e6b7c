//! `random`: a uniformly random legal move. The floor of the strength ladder,
//! and a quick opponent for testing arbiters.

use aboure_engine::{Move, Position};
use rand::rngs::SmallRng;
use rand::Rng;

use crate::seeded::{ChoiceRule, Seeded};

/// Plays a uniformly random legal move (see [`Seeded`] for its `seed`).
pub type RandomPlayer = Seeded<Uniform>;

/// The rule of `random`: any legal move, all equally likely.
pub struct Uniform;

impl ChoiceRule for Uniform {
    const NAME: &'static str = "random";

    /// A uniformly random legal move, or a pass if there is none.
    fn choose(position: &Position, rng: &mut SmallRng) -> Move {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return Move::Pass;
        }
        moves[rng.gen_range(0..moves.len())]
    }
}
