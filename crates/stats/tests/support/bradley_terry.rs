//! What the Bradley-Terry tests share: the raw scale and games by the dozen.

use aboure_stats::{BradleyTerryOptions, Game, PlayerResult, RatingScale};

/// Default options, ratings in BayesElo's raw scale.
pub fn raw() -> BradleyTerryOptions {
    BradleyTerryOptions {
        scale: RatingScale::Raw,
        ..Default::default()
    }
}

/// Games given as `(first, second, result, how many)`, in that order.
pub fn played(games: &[(usize, usize, PlayerResult, usize)]) -> Vec<Game> {
    games
        .iter()
        .flat_map(|&(first, second, result, count)| vec![Game::new(first, second, result); count])
        .collect()
}
