//! `random`: a uniformly random legal move. The floor of the strength ladder,
//! and a quick opponent for testing arbiters.

use aboure_engine::{Move, Position};
use aboure_protocol::{Limits, OptionSpec, Player, Search, SetOptionError};
use rand::rngs::SmallRng;
use rand::Rng;

use crate::options::{rng_for, unknown, FRESH_SEED, SEED};
use crate::AUTHOR;

/// Plays a uniformly random legal move.
///
/// Option `seed` (int, default 0): a positive seed makes the moves
/// reproducible; 0 draws a fresh seed from the operating system, so two
/// unseeded instances play differently.
pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    /// A random player seeded with `seed` (0 for a fresh seed).
    pub fn new(seed: i64) -> RandomPlayer {
        RandomPlayer { rng: rng_for(seed) }
    }
}

impl Default for RandomPlayer {
    fn default() -> RandomPlayer {
        RandomPlayer::new(FRESH_SEED)
    }
}

/// A uniformly random legal move of `position`, or a pass if it has none.
pub(crate) fn random_move(position: &Position, rng: &mut SmallRng) -> Move {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return Move::Pass;
    }
    moves[rng.gen_range(0..moves.len())]
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        format!("aboure random {}", env!("CARGO_PKG_VERSION"))
    }

    fn author(&self) -> String {
        AUTHOR.to_owned()
    }

    fn options(&self) -> Vec<OptionSpec> {
        vec![SEED.spec()]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), SetOptionError> {
        match name {
            "seed" => {
                self.rng = rng_for(SEED.parse(value)?);
                Ok(())
            }
            _ => Err(unknown("random", name)),
        }
    }

    fn choose(
        &mut self,
        position: &Position,
        _history: &[Position],
        _limits: &Limits,
        _search: &mut dyn Search,
    ) -> Move {
        random_move(position, &mut self.rng)
    }
}
