//! How far each search bot is from perfect play (`aboure bench accuracy`):
//! the seeds each move loses against the solver's exact move values, over
//! games between the bots from random four-ply openings, colours
//! alternating. Only moves with a choice are charged.

use std::fmt;

use aboure_bots::{AlphaBetaPlayer, GreedyPlayer, MctsPlayer};
use aboure_engine::{Move, Position, Side};
use aboure_protocol::duel::{play, Seat};
use aboure_protocol::{Player, SearchLimits};
use aboure_solver::Solver;
use aboure_tuning::random_opening;
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::duel::nodes;

/// One bot's losses over the moves it was charged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loss {
    /// Moves with a choice.
    pub moves: u32,
    /// Of them, moves the solver rates best.
    pub best: u32,
    /// Seeds lost against the best move, summed.
    pub seeds: i64,
    /// Moves that turned a win into a draw or loss, or a draw into a loss.
    pub results: u32,
}

/// A [`Loss`] with the name of what was measured.
#[derive(Clone, Debug)]
pub struct Named(pub String, pub Loss);

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Named(name, l) = self;
        let per = |x: f64| x / f64::from(l.moves.max(1));
        write!(
            f,
            "{name}: {} moves, {:.1}% best, {:.3} seeds lost a move, {:.1}% of moves lose a result",
            l.moves,
            100.0 * per(f64::from(l.best)),
            per(l.seeds as f64),
            100.0 * per(f64::from(l.results))
        )
    }
}

/// Charges one move of `pos` (played `m`) to `loss`.
fn charge(loss: &mut Loss, solver: &mut Solver, pos: &Position, m: Move) {
    let values = solver.move_values(pos);
    let (Some(best), Some(played)) = (values.first(), values.iter().find(|v| v.0 == m)) else {
        return;
    };
    let lost = best.1 - played.1;
    // Values are future margins: the result needs the captures so far.
    let me = pos.side_to_move();
    let so_far = i32::from(pos.captured(me)) - i32::from(pos.captured(!me));
    let result = |v: i32| (v + so_far).signum();
    loss.results += u32::from(result(played.1) < result(best.1));
    loss.moves += 1;
    loss.best += u32::from(lost == 0);
    loss.seeds += i64::from(lost);
}

/// Plays `games` games between two bots (the first is South in even games)
/// and charges each one's moves.
pub fn measure(
    bots: [(&mut dyn Player, SearchLimits); 2],
    games: usize,
    solver: &mut Solver,
) -> [Loss; 2] {
    let mut loss = [Loss::default(), Loss::default()];
    let mut rng = SmallRng::seed_from_u64(77);
    let [(a, la), (b, lb)] = bots;
    for g in 0..games {
        let start = random_opening(&mut rng);
        // The first bot is South in even games: its seat, and whose loss a
        // move of South's is.
        let south_is_a = g % 2 == 0;
        let (a, b) = (
            Seat {
                player: &mut *a,
                limits: &la,
            },
            Seat {
                player: &mut *b,
                limits: &lb,
            },
        );
        let (south, north) = if south_is_a { (a, b) } else { (b, a) };
        play(south, north, start, |pos, m| {
            if pos.legal_moves().len() > 1 {
                let k = usize::from((pos.side_to_move() == Side::South) != south_is_a);
                charge(&mut loss[k], solver, pos, m);
            }
        });
    }
    loss
}

/// Alphabeta and mcts at two node budgets against each other, and greedy
/// against alphabeta, `games` games each.
pub fn reference_bots(games: usize) -> Vec<Named> {
    let mut solver = Solver::new(256);
    let mut out = Vec::new();
    for (ab, playouts) in [(1_500u64, 300u64), (15_000, 3_000)] {
        let mut a = AlphaBetaPlayer::default();
        let mut m = MctsPlayer::new(0.5, 3);
        let [x, y] = measure(
            [(&mut a, nodes(ab)), (&mut m, nodes(playouts))],
            games,
            &mut solver,
        );
        out.push(Named(format!("alphabeta {ab} nodes"), x));
        out.push(Named(format!("mcts {playouts} playouts"), y));
    }
    let mut g = GreedyPlayer::new(4);
    let mut a = AlphaBetaPlayer::default();
    let [x, _] = measure(
        [(&mut g, SearchLimits::default()), (&mut a, nodes(1_500))],
        games,
        &mut solver,
    );
    out.push(Named("greedy".to_owned(), x));
    out
}

/// Mcts's exploration constant swept at two playout budgets, against
/// alphabeta at 1,500 nodes, `games` games each.
pub fn mcts_sweep(games: usize) -> Vec<Named> {
    let mut solver = Solver::new(256);
    let mut out = Vec::new();
    for playouts in [300u64, 3000] {
        for c in [0.25, 0.5, 1.0] {
            let share = 0.6;
            let mut m = MctsPlayer::new(c, 3).with_margin_share(share);
            let mut a = AlphaBetaPlayer::default();
            let [x, _] = measure(
                [(&mut m, nodes(playouts)), (&mut a, nodes(1500))],
                games,
                &mut solver,
            );
            out.push(Named(format!("mcts {playouts} c {c} share {share}"), x));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_bots::RandomPlayer;

    #[test]
    fn a_searching_bot_loses_fewer_seeds_than_a_random_one() {
        let mut solver = Solver::new(16);
        let mut a = AlphaBetaPlayer::default();
        let mut r = RandomPlayer::default();
        let [searching, random] = measure(
            [(&mut a, nodes(20_000)), (&mut r, SearchLimits::default())],
            2,
            &mut solver,
        );
        for l in [&searching, &random] {
            assert!(l.moves > 0 && l.best <= l.moves && l.results <= l.moves && l.seeds >= 0);
        }
        assert!(random.seeds > searching.seeds, "{searching:?} {random:?}");
        assert!(random.best < random.moves);
    }
}
