//! Bradley-Terry ratings that do not exist are refused with the reason,
//! and any small set of games either fits to finite numbers or is refused:
//! never a panic or a NaN.

use aboure_stats::{fit, Anchor, BradleyTerryOptions, Game, PlayerResult, RatingError};
use proptest::prelude::*;

use PlayerResult::{Draw, Loss, Win};

use crate::support;
use support::{played, raw};

#[test]
fn refuses_ratings_that_do_not_exist() {
    // Disconnected: 0-1 and 2-3 never met.
    let g = played(&[
        (0, 1, Win, 2),
        (1, 0, Win, 1),
        (2, 3, Draw, 2),
        (3, 2, Win, 1),
    ]);
    assert_eq!(
        fit(4, &g, &raw()),
        Err(RatingError::Disconnected {
            groups: vec![vec![0, 1], vec![2, 3]]
        })
    );
    // A player with no games.
    assert_eq!(
        fit(5, &g, &raw()),
        Err(RatingError::NoGames { players: vec![4] })
    );
    // Player 2 lost every game: infinitely weak.
    let g = played(&[
        (0, 1, Win, 3),
        (1, 0, Win, 2),
        (0, 1, Draw, 2),
        (0, 2, Win, 2),
        (2, 1, Loss, 2),
    ]);
    assert_eq!(
        fit(3, &g, &raw()),
        Err(RatingError::Unbounded {
            groups: vec![vec![0, 1], vec![2]]
        })
    );
    // BayesElo's prior of 2 virtual draws makes it finite, and last.
    let with_prior = BradleyTerryOptions {
        prior: Some(2.0),
        ..raw()
    };
    let r = fit(3, &g, &with_prior).unwrap();
    assert!(r.ratings.iter().all(|x| x.is_finite()));
    assert!(r.ratings[2] < r.ratings[0] && r.ratings[2] < r.ratings[1]);
    // All wins for one side.
    let g = played(&[(0, 1, Win, 4)]);
    assert!(matches!(
        fit(2, &g, &raw()),
        Err(RatingError::Unbounded { .. })
    ));
    // All draws: the draw parameter is infinite when fitted...
    let g = played(&[(0, 1, Draw, 4), (1, 0, Draw, 4)]);
    assert_eq!(
        fit(2, &g, &raw()),
        Err(RatingError::ParameterUnbounded {
            parameter: "draw_elo"
        })
    );
    // ...but with it fixed the ratings are equal.
    let fixed = BradleyTerryOptions {
        fit_draw_elo: false,
        ..raw()
    };
    let r = fit(2, &g, &fixed).unwrap();
    assert!(r.ratings[0].abs() < 1e-9 && (r.draw_elo - 97.3).abs() < 1e-9);
    // The first player won every game: infinite advantage.
    let g = played(&[(0, 1, Win, 3), (1, 0, Win, 3)]);
    assert_eq!(
        fit(2, &g, &raw()),
        Err(RatingError::ParameterUnbounded {
            parameter: "advantage"
        })
    );
    // Malformed input.
    let g = [Game::new(0, 3, Win)];
    assert_eq!(
        fit(2, &g, &raw()),
        Err(RatingError::PlayerOutOfRange {
            game: 0,
            player: 3,
            players: 2
        })
    );
    let g = [Game::new(0, 1, Win), Game::new(1, 1, Win)];
    assert_eq!(
        fit(2, &g, &raw()),
        Err(RatingError::SelfPlay { game: 1, player: 1 })
    );
    assert_eq!(
        fit(1, &[], &raw()),
        Err(RatingError::TooFewPlayers { players: 1 })
    );
    let bad_anchor = BradleyTerryOptions {
        anchor: Anchor::Player {
            player: 9,
            rating: 0.0,
        },
        ..raw()
    };
    assert!(matches!(
        fit(2, &[Game::new(0, 1, Win)], &bad_anchor),
        Err(RatingError::InvalidOption(_))
    ));
    // Errors explain themselves.
    let e = RatingError::Disconnected {
        groups: vec![vec![0], vec![1]],
    };
    assert!(e.to_string().contains("[[0], [1]]"));
}

fn result_of(k: u8) -> PlayerResult {
    [Win, Draw, Loss][k as usize % 3]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    // Any small set of games either fits to finite numbers or is refused
    // with a reason, never a panic or a NaN. With the draw and advantage
    // parameters held and BayesElo's prior, connected results always fit.
    #[test]
    fn fits_or_explains(
        players in 2usize..6,
        raw_games in proptest::collection::vec((0usize..6, 0usize..6, 0u8..3), 0..40),
    ) {
        let games: Vec<Game> = raw_games
            .iter()
            .filter(|(a, b, _)| a % players != b % players)
            .map(|&(a, b, r)| Game::new(a % players, b % players, result_of(r)))
            .collect();
        let held = BradleyTerryOptions {
            fit_advantage: false,
            fit_draw_elo: false,
            prior: Some(2.0),
            ..Default::default()
        };
        let configurations = [
            BradleyTerryOptions::default(),
            BradleyTerryOptions { prior: Some(2.0), ..Default::default() },
            held,
        ];
        for options in configurations {
            match fit(players, &games, &options) {
                Ok(r) => {
                    for i in 0..players {
                        prop_assert!(r.ratings[i].is_finite());
                        prop_assert!(r.errors[i].is_finite() && r.errors[i] >= 0.0);
                        for j in 0..players {
                            prop_assert!((0.0..=1.0).contains(&r.los[i][j]));
                        }
                    }
                    prop_assert!(r.draw_elo.is_finite() && r.advantage.is_finite());
                }
                Err(RatingError::NoGames { .. } | RatingError::Disconnected { .. }) => {}
                Err(e) => {
                    prop_assert!(options != held, "{}", e);
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }
}
