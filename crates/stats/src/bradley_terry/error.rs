//! Why ratings could not be computed: the refusals, with what makes each
//! one (a player with no games, groups with no chain of games, a group that
//! scored every point, a parameter off to infinity), and the checks that
//! find them before the fit runs, so that the fit never returns a number
//! that does not exist.

use std::fmt;

use super::{Anchor, BradleyTerryOptions};
use crate::mm::Condensed;

/// Why ratings could not be computed.
#[derive(Clone, Debug, PartialEq)]
pub enum RatingError {
    /// Fewer than two players.
    TooFewPlayers {
        /// The number given.
        players: usize,
    },
    /// A game names a player that does not exist.
    PlayerOutOfRange {
        /// Index of the game in the input.
        game: usize,
        /// The offending player index.
        player: usize,
        /// Number of players.
        players: usize,
    },
    /// A game of a player against itself.
    SelfPlay {
        /// Index of the game in the input.
        game: usize,
        /// The player.
        player: usize,
    },
    /// Invalid options (the message says which).
    InvalidOption(String),
    /// Some players played no game at all.
    NoGames {
        /// Those players.
        players: Vec<usize>,
    },
    /// No chain of games links these groups: their ratings are not comparable.
    Disconnected {
        /// The groups.
        groups: Vec<Vec<usize>>,
    },
    /// Some group scored every point against another (it never lost nor
    /// drew against it, directly or through a chain): maximum-likelihood
    /// ratings are infinitely apart. A prior makes them finite.
    Unbounded {
        /// The groups, in an order such that no group ever scored a point
        /// against an earlier one (the first never conceded a point to the others).
        groups: Vec<Vec<usize>>,
    },
    /// A fitted parameter runs off to infinity (e.g. a draw parameter when
    /// every game was drawn, an advantage when the first player never lost).
    ParameterUnbounded {
        /// `"draw_elo"` or `"advantage"`.
        parameter: &'static str,
    },
    /// The iterations did not converge within the limit. Short of a limit
    /// set too low, this means the likelihood has no maximum: ratings, the
    /// draw parameter or the advantage drift slowly towards infinity (as
    /// when a pair's only decisive game was won by the first player, so the
    /// advantage can explain it entirely). Fixing the draw and advantage
    /// parameters and adding a prior always gives finite ratings.
    NoConvergence {
        /// Iterations run.
        iterations: usize,
    },
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingError::TooFewPlayers { players } => {
                write!(f, "ratings need at least 2 players, got {players}")
            }
            RatingError::PlayerOutOfRange {
                game,
                player,
                players,
            } => write!(
                f,
                "game {game} names player {player}, but there are only {players} players"
            ),
            RatingError::SelfPlay { game, player } => {
                write!(f, "game {game} is player {player} against itself")
            }
            RatingError::InvalidOption(what) => write!(f, "invalid rating option: {what}"),
            RatingError::NoGames { players } => {
                write!(f, "players {players:?} played no game: they cannot be rated")
            }
            RatingError::Disconnected { groups } => write!(
                f,
                "no chain of games links these groups of players, so their ratings are not comparable: {groups:?}"
            ),
            RatingError::Unbounded { groups } => write!(
                f,
                "one group of players scored every point against another, so the ratings are infinitely apart (strongest first): {groups:?}; a prior makes them finite"
            ),
            RatingError::ParameterUnbounded { parameter } => write!(
                f,
                "the {parameter} parameter is infinite on these results (fix it or add a prior)"
            ),
            RatingError::NoConvergence { iterations } => write!(
                f,
                "the rating fit did not converge in {iterations} iterations: on these results the ratings or the draw/advantage parameters drift towards infinity; fix those parameters and add a prior"
            ),
        }
    }
}

impl std::error::Error for RatingError {}

pub(super) fn check_options(n: usize, o: &BradleyTerryOptions) -> Result<(), RatingError> {
    let bad = |s: String| Err(RatingError::InvalidOption(s));
    if let Some(prior) = o.prior {
        if !(prior > 0.0 && prior.is_finite()) {
            return bad(format!(
                "prior {prior} must be a positive number of virtual draws"
            ));
        }
    }
    if let Anchor::Player { player, rating } = o.anchor {
        if player >= n {
            return bad(format!(
                "anchor player {player} does not exist ({n} players)"
            ));
        }
        if !rating.is_finite() {
            return bad(format!("anchor rating {rating} is not finite"));
        }
    }
    if !o.advantage.is_finite() {
        return bad(format!("advantage {} is not finite", o.advantage));
    }
    if !(o.draw_elo.is_finite() && o.draw_elo >= 0.0) {
        return bad(format!("draw_elo {} must be finite and >= 0", o.draw_elo));
    }
    if o.tolerance.is_nan() || o.tolerance <= 0.0 {
        return bad(format!("tolerance {} must be positive", o.tolerance));
    }
    Ok(())
}

/// Cases where a fitted parameter has no finite maximum, known in advance.
pub(super) fn check_parameters(c: &Condensed, o: &BradleyTerryOptions) -> Result<(), RatingError> {
    let (w, d, l): (f64, f64, f64) = (c.w.iter().sum(), c.d.iter().sum(), c.l.iter().sum());
    if o.fit_draw_elo && w + l == 0.0 {
        return Err(RatingError::ParameterUnbounded {
            parameter: "draw_elo",
        });
    }
    if o.fit_advantage && (l + d == 0.0 || w + d == 0.0) {
        return Err(RatingError::ParameterUnbounded {
            parameter: "advantage",
        });
    }
    Ok(())
}
