//! What the Bradley-Terry tests share: the raw scale and repeated games.

use aboure_stats::{BradleyTerryOptions, Game, GameResult, RatingScale};

/// Default options, ratings in BayesElo's raw scale.
pub fn raw() -> BradleyTerryOptions {
    BradleyTerryOptions {
        scale: RatingScale::Raw,
        ..Default::default()
    }
}

/// `count` copies of one game.
pub fn games(first: usize, second: usize, result: GameResult, count: usize) -> Vec<Game> {
    vec![Game::new(first, second, result); count]
}
