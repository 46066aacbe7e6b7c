//! The positions the `accuracy` objective scores: the informative positions
//! of games between the reference bots (alphabeta against mcts, colours
//! alternating, from random four-ply openings), so both sides and all
//! phases are in it; and the solver's exact value of each move, computed
//! once per tune. The games are played in-process, by the loop the bench
//! plays its games with (`aboure_protocol::duel`): the sample depends only
//! on the tune's seed, so a resumed tune scores the same one.
//!
//! A position is informative when its moves do not all have the same exact
//! value. In one that is not, every move loses nothing, so every point of
//! theta scores zero there: keeping it adds the same zero to both points'
//! loss and changes no gradient estimate, only the scale of the mean, while
//! each costs a round trip to each probe. They are dropped, and the
//! objective is the mean loss over informative positions.

use aboure_bots::{AlphaBetaPlayer, MctsPlayer};
use aboure_engine::{Move, Position};
use aboure_protocol::duel::{self, Seat};
use aboure_protocol::{Player, SearchLimits};
use aboure_solver::Solver;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Nodes (alphabeta) and playouts (mcts) a move in the sample's games.
const NODES: u64 = 1_500;
/// The solver's table: a few hundred positions need far less than a
/// report's analysis, and zeroing a big table costs more than they do.
const SOLVER_MB: usize = 16;

/// A position and the solver's value of each of its moves, best first.
#[derive(Clone, Debug)]
pub struct Scored {
    /// The position.
    pub position: Position,
    /// Each legal move's exact value for the side to move, best first.
    pub values: Vec<(Move, i32)>,
}

impl Scored {
    /// Seeds `m` loses against the best move (the worst move's loss for a
    /// move that is not legal here).
    pub fn loss(&self, m: Option<Move>) -> i64 {
        let best = self.values.first().map_or(0, |v| v.1);
        let worst = self.values.last().map_or(0, |v| v.1);
        let played = m
            .and_then(|m| self.values.iter().find(|v| v.0 == m))
            .map_or(worst, |v| v.1);
        i64::from(best - played)
    }
}

/// How soft the step from a lost to a won game is, in seeds of the final
/// margin: [`Scored::score_lost`] counts a move by the expected result it
/// gives away, so that a move from +20 to +14 (still won) costs next to
/// nothing and one from +1 to -1 costs almost a whole point.
const RESULT_SCALE: f64 = 1.0;

/// The expected result (0 to 1) of a final margin of `margin` seeds for
/// the side to move.
fn expected_result(margin: f64) -> f64 {
    1.0 / (1.0 + (-margin / RESULT_SCALE).exp())
}

impl Scored {
    /// The final margin, in seeds, of best play from here for the side to
    /// move: the seeds already captured plus the exact future value.
    pub fn margin(&self) -> i32 {
        let me = self.position.side_to_move();
        let captured =
            i32::from(self.position.captured(me)) - i32::from(self.position.captured(!me));
        captured + self.values.first().map_or(0, |v| v.1)
    }

    /// The expected result `m` gives away against the best move (the
    /// worst move's for a move that is not legal here): seeds lost,
    /// weighted by how open the game is, so that decided positions count
    /// less than open ones.
    pub fn score_lost(&self, m: Option<Move>) -> f64 {
        let seeds = self.loss(m) as f64;
        let best = f64::from(self.margin());
        expected_result(best) - expected_result(best - seeds)
    }

    /// The squared error, in expected result, of a search's value
    /// `centi_seeds` (the final margin it expects, captured seeds
    /// counted) against the exact one: a loss that moves with every
    /// weight, where [`Scored::score_lost`] moves only when a chosen move
    /// changes.
    pub fn value_error(&self, centi_seeds: i32) -> f64 {
        let exact = expected_result(f64::from(self.margin()));
        let guessed = expected_result(f64::from(centi_seeds) / 100.0);
        (exact - guessed).powi(2)
    }

    /// True when the moves do not all have the same value, so that the move
    /// a bot chooses here can change its loss.
    pub fn informative(&self) -> bool {
        self.values.first().map(|v| v.1) != self.values.last().map(|v| v.1)
    }
}

/// The positions of a tune's sample, and what drawing them took.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The informative positions, in the order they were played.
    pub positions: Vec<Scored>,
    /// Positions with more than one legal move that were valued for it (the
    /// informative ones among them were kept).
    pub valued: usize,
    /// Games played for it.
    pub games: u64,
}

/// `n` informative positions from the games of seed `seed`.
pub fn sample(n: usize, seed: u64) -> Sample {
    let limits = SearchLimits {
        nodes: Some(NODES),
        ..SearchLimits::default()
    };
    sample_with(n, seed, &limits, &mut |game| {
        let a: Box<dyn Player> = Box::new(AlphaBetaPlayer::new(1));
        let m: Box<dyn Player> = Box::new(MctsPlayer::new(0.5, game + 1));
        match game % 2 {
            0 => (a, m),
            _ => (m, a),
        }
    })
}

/// `n` informative positions from games between the players `players`
/// gives for each game (South first), from random openings of seed
/// `seed`, every move searched under `limits`: the sample of a tuned
/// bot's own games (`aboure bench tune-cpu` draws it from the games of
/// the start point).
pub fn sample_with(
    n: usize,
    seed: u64,
    limits: &SearchLimits,
    players: &mut dyn FnMut(i64) -> (Box<dyn Player>, Box<dyn Player>),
) -> Sample {
    let mut solver = Solver::new(SOLVER_MB);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    let mut valued = 0;
    let mut game: i64 = 0;
    while out.len() < n {
        let (mut south, mut north) = players(game);
        let start = opening(&mut rng);
        for position in played(&mut *south, &mut *north, start, limits) {
            if out.len() < n && position.legal_moves().len() > 1 {
                let values = solver.move_values(&position);
                let scored = Scored { position, values };
                valued += 1;
                if scored.informative() {
                    out.push(scored);
                }
            }
        }
        game += 1;
    }
    Sample {
        positions: out,
        valued,
        games: game as u64,
    }
}

/// The positions a bot chose a move in, in a game from `start` played by
/// the one in-process game loop ([`duel::play`]).
fn played(
    south: &mut dyn Player,
    north: &mut dyn Player,
    start: Position,
    limits: &SearchLimits,
) -> Vec<Position> {
    let mut seen = Vec::new();
    let south = Seat {
        player: south,
        limits,
    };
    let north = Seat {
        player: north,
        limits,
    };
    duel::play(south, north, start, |pos, _| seen.push(*pos));
    seen
}

/// A random opening of four plies that is not over and not a forced pass
/// (also the openings of `aboure bench tune`).
pub fn opening(rng: &mut SmallRng) -> Position {
    loop {
        let mut pos = Position::startpos();
        for _ in 0..4 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.play(moves[rng.gen_range(0..moves.len())]).is_err() {
                break;
            }
        }
        if !pos.is_game_over() && pos.legal_moves().as_slice() != [Move::Pass] {
            return pos;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_engine::Side;

    #[test]
    fn the_sample_is_deterministic_and_its_values_best_first() {
        let drawn = sample(30, 3);
        let a = &drawn.positions;
        assert_eq!(a.len(), 30);
        assert!(drawn.valued >= 30 && drawn.games > 0, "{drawn:?}");
        let text = |s: &[Scored]| s.iter().map(|x| x.position.to_string()).collect::<Vec<_>>();
        assert_eq!(text(a), text(&sample(30, 3).positions));
        assert_ne!(text(a), text(&sample(30, 4).positions));
        for s in a {
            assert!(s.informative());
            assert!(s.values.len() > 1);
            assert!(s.values.windows(2).all(|w| w[0].1 >= w[1].1));
            assert_eq!(s.loss(Some(s.values[0].0)), 0);
            assert_eq!(
                s.loss(None),
                i64::from(s.values[0].1 - s.values.last().unwrap().1)
            );
        }
        // Both sides to move are in it.
        assert!(a.iter().any(|s| s.position.side_to_move() == Side::South));
        assert!(a.iter().any(|s| s.position.side_to_move() == Side::North));
    }

    fn scored(values: &[i32]) -> Scored {
        let position = Position::startpos();
        let moves = position.legal_moves();
        Scored {
            position,
            values: moves.iter().zip(values).map(|(m, v)| (*m, *v)).collect(),
        }
    }

    #[test]
    fn a_move_that_keeps_a_decided_game_decided_costs_next_to_nothing() {
        // At the start nothing is captured: the margin is the best value.
        let open = scored(&[1, -1, -3]);
        let won = scored(&[20, 18, 14]);
        let moves: Vec<Move> = open.values.iter().map(|v| v.0).collect();
        assert_eq!(open.margin(), 1);
        assert_eq!(won.margin(), 20);
        assert_eq!(open.score_lost(Some(moves[0])), 0.0);
        // Two seeds from +1 to -1: a won game lost, about half a point.
        let turned = open.score_lost(Some(moves[1]));
        assert!((turned - 0.462).abs() < 1e-3, "{turned}");
        // Six seeds from +20 to +14: still won.
        let kept = won.score_lost(Some(won.values[2].0));
        assert!(kept < 1e-2 && kept > 0.0, "{kept}");
        assert!(open.score_lost(None) > turned);
        // A search that expects the exact margin errs by nothing.
        assert_eq!(won.value_error(2_000), 0.0);
        assert!(open.value_error(-500) > open.value_error(0));
    }

    #[test]
    fn a_position_whose_moves_all_have_one_value_is_not_informative() {
        assert!(!scored(&[4, 4, 4]).informative());
        assert!(!scored(&[-2, -2]).informative());
        assert!(scored(&[4, 4, 2]).informative());
        assert!(scored(&[0, -1]).informative());
        // Every move of one that is not loses nothing, the worst included.
        let flat = scored(&[3, 3, 3]);
        assert!(flat.values.iter().all(|v| flat.loss(Some(v.0)) == 0));
        assert_eq!(flat.loss(None), 0);
    }

    #[test]
    fn the_sample_drops_exactly_the_positions_that_are_not_informative() {
        // The same games, valued again here: every position with a choice
        // is counted, and the informative ones are those kept, in order.
        let drawn = sample(40, 5);
        let mut solver = Solver::new(SOLVER_MB);
        let mut rng = SmallRng::seed_from_u64(5);
        let mut kept = Vec::new();
        let mut valued = 0;
        for game in 0..drawn.games as i64 {
            let mut a = AlphaBetaPlayer::new(1);
            let mut m = MctsPlayer::new(0.5, game + 1);
            let (south, north): (&mut dyn Player, &mut dyn Player) = if game % 2 == 0 {
                (&mut a, &mut m)
            } else {
                (&mut m, &mut a)
            };
            let start = opening(&mut rng);
            let limits = SearchLimits {
                nodes: Some(NODES),
                ..SearchLimits::default()
            };
            for position in played(south, north, start, &limits) {
                if kept.len() < 40 && position.legal_moves().len() > 1 {
                    valued += 1;
                    let values = solver.move_values(&position);
                    if values[0].1 != values[values.len() - 1].1 {
                        kept.push(position.to_string());
                    }
                }
            }
        }
        let text: Vec<String> = drawn
            .positions
            .iter()
            .map(|s| s.position.to_string())
            .collect();
        assert_eq!(text, kept);
        assert_eq!(drawn.valued, valued);
        assert!(
            drawn.valued > drawn.positions.len(),
            "{} valued",
            drawn.valued
        );
    }
}
