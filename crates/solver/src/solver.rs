//! The public face of the solver: one table, many questions.

use aboure_engine::{Move, Position};

use crate::lookahead::Lookahead;
use crate::search::{board_seeds, gain, move_code, mtdf, order, Abort, Search, INFINITY};
use crate::table::{Bounds, Table};

/// Exact values of Djenon-aboure positions under perfect play.
///
/// The value of a position is the final seed margin of the side to move:
/// what it will capture from now on plus what its row holds at the end,
/// minus the same for the opponent. Seeds captured before the position do
/// not count, so the value depends only on the board and the side to move.
///
/// The solver owns its transposition table and keeps it between calls, so
/// solving the positions of one game one after the other costs little more
/// than solving the first.
///
/// ```
/// use aboure_engine::Position;
/// use aboure_solver::Solver;
///
/// let mut solver = Solver::new(16);
/// let pos: Position = "0,0,0,0,0,3/0,0,0,0,0,1 s 22 22".parse().unwrap();
/// // South's only move sows 5: one seed stays, the last makes pit 7 hold 1,
/// // and neither side can sow again: North's row holds 3, South's 1.
/// assert_eq!(solver.value(&pos), -2);
/// ```
pub struct Solver {
    table: Table,
    nodes: u64,
}

/// What a search with a stop callback found.
type Outcome<T> = Result<T, Abort>;

impl Solver {
    /// A solver whose table takes about `table_mb` megabytes (16 bytes a
    /// position; rounded down to a power of two).
    pub fn new(table_mb: usize) -> Solver {
        Solver {
            table: Table::new(table_mb),
            nodes: 0,
        }
    }

    /// The exact value of `pos` for the side to move.
    pub fn value(&mut self, pos: &Position) -> i32 {
        match self.value_search(pos, u64::MAX, None) {
            Ok(v) => v,
            Err(_) => unreachable!("a search without budget or stop cannot abort"),
        }
    }

    /// The exact value of `pos`, or `None` if proving it would take more
    /// than `node_budget` nodes. What was proven stays in the table, so a
    /// later call with a larger budget starts further ahead.
    pub fn value_within(&mut self, pos: &Position, node_budget: u64) -> Option<i32> {
        self.value_search(pos, node_budget, None).ok()
    }

    /// The exact value of every legal move of `pos`, best first (moves of
    /// equal value in pit order). A move's value is the seeds it captures
    /// minus the value of the position it leads to, so the best move's value
    /// is the position's value and the loss of a move is the difference.
    /// Empty when the game is over.
    pub fn move_values(&mut self, pos: &Position) -> Vec<(Move, i32)> {
        match self.move_values_search(pos, u64::MAX) {
            Ok(values) => values,
            Err(_) => unreachable!("a search without budget or stop cannot abort"),
        }
    }

    /// [`Solver::move_values`], or `None` if proving them would take more
    /// than `node_budget` nodes.
    pub fn move_values_within(
        &mut self,
        pos: &Position,
        node_budget: u64,
    ) -> Option<Vec<(Move, i32)>> {
        self.move_values_search(pos, node_budget).ok()
    }

    /// The best move of `pos` with its exact value, or, when `should_stop`
    /// returns true before the value is proven, the best move found so far
    /// with `None`. The fallback comes from a depth-limited search that
    /// scores its horizon as an adjudicated end and uses every exact value
    /// already in the table. `None` only when the game is over.
    ///
    /// The exact search and the fallback take turns with growing budgets
    /// (the exact one keeps what it proved in the table), so an early stop
    /// still gets a sensible move and an unhurried call an exact one.
    pub fn best_move(
        &mut self,
        pos: &Position,
        should_stop: &dyn Fn() -> bool,
    ) -> Option<(Move, Option<i32>)> {
        let (moves, _, n) = pos.children();
        if n == 0 {
            return None;
        }
        let mut fallback = moves[0];
        let mut depth = 1;
        let mut budget = 1u64 << 14;
        loop {
            if depth <= MAX_LOOKAHEAD {
                let mut look = Lookahead::new(&self.table, should_stop);
                let found = look.best(pos, depth);
                self.nodes += look.nodes;
                match found {
                    Ok((m, _)) => fallback = m,
                    Err(_) => return Some((fallback, None)),
                }
                depth += 1;
            }
            match self.run(budget, Some(should_stop), |s| root_best(s, pos)) {
                Ok((m, v)) => return Some((m, Some(v))),
                Err(Abort::Stopped) => return Some((fallback, None)),
                Err(Abort::Budget) => budget = budget.saturating_mul(2),
            }
        }
    }

    /// Nodes searched by this solver since it was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions whose bounds the table holds, and how many it can hold.
    pub fn table_usage(&self) -> (usize, usize) {
        (self.table.len(), self.table.capacity())
    }

    /// Forgets every stored bound.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    fn value_search(
        &mut self,
        pos: &Position,
        limit: u64,
        stop: Option<&dyn Fn() -> bool>,
    ) -> Outcome<i32> {
        self.run(limit, stop, |s| child_value(s, pos))
    }

    fn move_values_search(&mut self, pos: &Position, limit: u64) -> Outcome<Vec<(Move, i32)>> {
        self.run(limit, None, |s| {
            let (moves, next, n) = pos.children();
            let mut values = Vec::with_capacity(n);
            for i in 0..n {
                let g = gain(pos, &next[i]);
                values.push((moves[i], g - child_value(s, &next[i])?));
            }
            values.sort_by_key(|&(_, v)| -v);
            Ok(values)
        })
    }

    /// Runs `f` on a search over the table and counts its nodes.
    fn run<T>(
        &mut self,
        limit: u64,
        stop: Option<&dyn Fn() -> bool>,
        f: impl FnOnce(&mut Search<'_>) -> Outcome<T>,
    ) -> Outcome<T> {
        let mut s = Search::new(&mut self.table, limit, stop);
        let found = f(&mut s);
        self.nodes += s.nodes;
        found
    }
}

/// Deepest lookahead tried by `best_move`: games from the start last at most
/// 46 plies.
const MAX_LOOKAHEAD: u32 = 64;

/// The exact value of `pos`, by MTD(f) from a first guess of a draw.
fn child_value(s: &mut Search<'_>, pos: &Position) -> Outcome<i32> {
    Ok(mtdf(0, |beta| Ok((s.negamax(pos, beta - 1, beta)?, ())))?.0)
}

/// The best move of `pos` (which has one) and its exact value.
fn root_best(s: &mut Search<'_>, pos: &Position) -> Outcome<(Move, i32)> {
    let (value, best) = mtdf(0, |beta| root_test(s, pos, beta - 1, beta))?;
    match best {
        Some(m) => Ok((m, value)),
        // MTD(f) ends on a lower bound proven by a search that failed high.
        None => unreachable!("MTD(f) ended without a proven lower bound"),
    }
}

/// A fail-soft alpha-beta search of the root `pos` (which has a move) that
/// also returns the best move it found.
fn root_test(s: &mut Search<'_>, pos: &Position, alpha: i32, beta: i32) -> Outcome<(i32, Move)> {
    let (moves, next, n) = pos.children();
    let tt_best = s.probe(pos).map_or(crate::table::NONE, |b| b.best);
    let idx = order(pos, &moves, &next, n, tt_best);
    let mut best = (-INFINITY, moves[idx[0]]);
    for &i in &idx[..n] {
        let g = gain(pos, &next[i]);
        let v = g - s.negamax(&next[i], g - beta, g - alpha.max(best.0))?;
        if v > best.0 {
            best = (v, moves[i]);
            if v >= beta {
                break;
            }
        }
    }
    if best.0 > alpha {
        let (lower, upper) = if best.0 >= beta {
            (best.0, board_seeds(pos))
        } else {
            (best.0, best.0)
        };
        s.store(
            pos,
            Bounds {
                lower,
                upper,
                best: move_code(best.1),
            },
        );
    }
    Ok(best)
}
