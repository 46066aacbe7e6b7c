//! The positions the `accuracy` objective scores: every position with a
//! choice from games between the reference bots (alphabeta against mcts,
//! colours alternating, from random four-ply openings), so both sides and
//! all phases are in it; and the solver's exact value of each move,
//! computed once per tune. The games are played in-process: the sample
//! depends only on the tune's seed, so a resumed tune scores the same one.

use std::time::Instant;

use aboure_bots::{AlphaBetaPlayer, MctsPlayer};
use aboure_engine::{Move, Position, Side};
use aboure_protocol::{Player, Search, SearchInfo, SearchLimits};
use aboure_solver::Solver;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Nodes (alphabeta) and playouts (mcts) a move in the sample's games.
const NODES: u64 = 1_500;
/// Longest sample game, in plies (the arbiter's default adjudication).
const MAX_PLIES: usize = 400;
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

/// `n` scored positions from the games of seed `seed`.
pub fn sample(n: usize, seed: u64) -> Vec<Scored> {
    let mut solver = Solver::new(SOLVER_MB);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    let mut game: i64 = 0;
    while out.len() < n {
        let mut a = AlphaBetaPlayer::new(1);
        let mut m = MctsPlayer::new(0.5, game + 1);
        let (south, north): (&mut dyn Player, &mut dyn Player) = if game % 2 == 0 {
            (&mut a, &mut m)
        } else {
            (&mut m, &mut a)
        };
        let start = opening(&mut rng);
        for position in played(south, north, start) {
            if out.len() < n && position.legal_moves().len() > 1 {
                let values = solver.move_values(&position);
                out.push(Scored { position, values });
            }
        }
        game += 1;
    }
    out
}

/// A search that is never stopped from outside: a bot played in-process.
struct Unhurried(Instant);

impl Search for Unhurried {
    fn started(&self) -> Instant {
        self.0
    }
    fn stopped(&self) -> bool {
        false
    }
    fn info(&mut self, _: &SearchInfo) {}
}

/// The positions a bot moved in, in a game from `start`.
fn played(south: &mut dyn Player, north: &mut dyn Player, start: Position) -> Vec<Position> {
    let limits = SearchLimits {
        nodes: Some(NODES),
        ..SearchLimits::default()
    };
    south.new_game();
    north.new_game();
    let (mut pos, mut history, mut seen) = (start, Vec::new(), Vec::new());
    while !pos.is_game_over() && history.len() < MAX_PLIES {
        let m = if pos.legal_moves().as_slice() == [Move::Pass] {
            Move::Pass
        } else {
            seen.push(pos);
            let bot: &mut dyn Player = if pos.side_to_move() == Side::South {
                &mut *south
            } else {
                &mut *north
            };
            bot.choose(&pos, &history, &limits, &mut Unhurried(Instant::now()))
        };
        history.push(pos);
        if pos.play(m).is_err() {
            break;
        }
    }
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

    #[test]
    fn the_sample_is_deterministic_and_its_values_best_first() {
        let a = sample(30, 3);
        let b = sample(30, 3);
        assert_eq!(a.len(), 30);
        let text = |s: &[Scored]| s.iter().map(|x| x.position.to_string()).collect::<Vec<_>>();
        assert_eq!(text(&a), text(&b));
        assert_ne!(text(&a), text(&sample(30, 4)));
        for s in &a {
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
}
