//! The players whose only state is a random stream and a rule for using
//! it (`random`, `greedy`): one [`Player`] for them all, so the `seed`
//! option, the name and the author are written once and each bot is just
//! its rule.

use std::marker::PhantomData;

use aboure_engine::{Move, Position};
use aboure_protocol::{OptionSpec, Player, Search, SearchLimits, SetOptionError};
use rand::rngs::SmallRng;

use crate::identity::{id_name, AUTHOR};
use crate::options::{rng_for, unknown, FRESH_SEED, SEED};

/// How a seeded bot chooses.
pub trait ChoiceRule {
    /// The bot's name, as [`crate::builtin`] knows it.
    const NAME: &'static str;
    /// The move for `position`, drawing from `rng` where the rule leaves a
    /// choice (a pass when there is no legal sowing).
    fn choose(position: &Position, rng: &mut SmallRng) -> Move;
}

/// A player that follows rule `R` with its own random stream.
///
/// Option `seed` (int, default 0): a positive seed makes the moves
/// reproducible; 0 draws a fresh seed from the operating system, so two
/// unseeded instances play differently.
pub struct Seeded<R> {
    rng: SmallRng,
    rule: PhantomData<fn() -> R>,
}

impl<R: ChoiceRule> Seeded<R> {
    /// A player seeded with `seed` (0 for a fresh seed).
    pub fn new(seed: i64) -> Seeded<R> {
        Seeded {
            rng: rng_for(seed),
            rule: PhantomData,
        }
    }
}

impl<R: ChoiceRule> Default for Seeded<R> {
    fn default() -> Seeded<R> {
        Seeded::new(FRESH_SEED)
    }
}

impl<R: ChoiceRule> Player for Seeded<R> {
    fn name(&self) -> String {
        id_name(R::NAME)
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
            _ => Err(unknown(R::NAME, name)),
        }
    }

    fn choose(
        &mut self,
        position: &Position,
        _history: &[Position],
        _limits: &SearchLimits,
        _search: &mut dyn Search,
    ) -> Move {
        R::choose(position, &mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GreedyPlayer, RandomPlayer};
    use aboure_protocol::SearchInfo;
    use std::time::Instant;

    /// A search nobody stops or listens to.
    struct Quiet(Instant);

    impl Search for Quiet {
        fn started(&self) -> Instant {
            self.0
        }
        fn stopped(&self) -> bool {
            false
        }
        fn info(&mut self, _: &SearchInfo) {}
    }

    fn first_moves(player: &mut impl Player) -> Vec<Move> {
        let mut position = Position::startpos();
        let mut moves = Vec::new();
        let mut search = Quiet(Instant::now());
        for _ in 0..8 {
            let mv = player.choose(&position, &[], &SearchLimits::default(), &mut search);
            position.play_unchecked(mv);
            moves.push(mv);
        }
        moves
    }

    #[test]
    fn each_rule_keeps_its_name_and_its_seed() {
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            RandomPlayer::default().name(),
            format!("aboure random {version}")
        );
        assert_eq!(
            GreedyPlayer::default().name(),
            format!("aboure greedy {version}")
        );
        let mut a = RandomPlayer::default();
        a.set_option("seed", "7").unwrap();
        assert_eq!(first_moves(&mut a), first_moves(&mut RandomPlayer::new(7)));
        let err = GreedyPlayer::default()
            .set_option("depth", "3")
            .unwrap_err();
        assert_eq!(
            err,
            SetOptionError::NoSuchOption {
                player: "greedy".to_owned(),
                name: "depth".to_owned(),
            }
        );
    }
}
