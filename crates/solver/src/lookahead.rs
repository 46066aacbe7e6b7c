//! A depth-limited search for when the exact one runs out of time.
//!
//! `Solver::best_move` must answer even when the stop request comes before
//! the exact value is proven. This search looks a fixed number of plies
//! ahead and scores the positions at the horizon as if the game were
//! adjudicated there (the difference of the rows). It reads the exact table,
//! so wherever the exact search already proved a value it uses that value,
//! but it never writes: its estimates are not proofs.

use aboure_engine::{Move, Position};

use crate::search::{end_value, gain, order, Abort, INFINITY};
use crate::table::{Table, NONE};

/// Nodes between two calls of the stop callback (a power of two).
const STOP_CHECK_INTERVAL: u64 = 1024;

pub(crate) struct Lookahead<'a> {
    table: &'a Table,
    pub(crate) nodes: u64,
    stop: &'a dyn Fn() -> bool,
}

impl<'a> Lookahead<'a> {
    pub(crate) fn new(table: &'a Table, stop: &'a dyn Fn() -> bool) -> Lookahead<'a> {
        Lookahead {
            table,
            nodes: 0,
            stop,
        }
    }

    /// The best move of `pos` (which must have one) and its estimated value,
    /// `depth` plies ahead.
    pub(crate) fn best(&mut self, pos: &Position, depth: u32) -> Result<(Move, i32), Abort> {
        let (moves, next, n) = pos.children();
        let tt_best = self.table.probe(pos.hash()).map_or(NONE, |b| b.best);
        let idx = order(pos, &moves, &next, n, tt_best);
        let mut best = (moves[idx[0]], -INFINITY);
        for &i in &idx[..n] {
            let g = gain(pos, &next[i]);
            let v = g - self.search(&next[i], depth.saturating_sub(1), -INFINITY, g - best.1)?;
            if v > best.1 {
                best = (moves[i], v);
            }
        }
        Ok(best)
    }

    fn search(&mut self, pos: &Position, depth: u32, alpha: i32, beta: i32) -> Result<i32, Abort> {
        self.nodes += 1;
        if self.nodes & (STOP_CHECK_INTERVAL - 1) == 0 && (self.stop)() {
            return Err(Abort::Stopped);
        }
        let (moves, next, n) = pos.children();
        if n == 0 {
            return Ok(end_value(pos));
        }
        let mut tt_best = NONE;
        if let Some(b) = self.table.probe(pos.hash()) {
            if b.lower == b.upper {
                return Ok(b.lower);
            }
            tt_best = b.best;
        }
        if depth == 0 {
            return Ok(end_value(pos));
        }
        let idx = order(pos, &moves, &next, n, tt_best);
        let mut best = -INFINITY;
        for &i in &idx[..n] {
            let g = gain(pos, &next[i]);
            let v = g - self.search(&next[i], depth - 1, g - beta, g - alpha.max(best))?;
            if v > best {
                best = v;
                if best >= beta {
                    break;
                }
            }
        }
        Ok(best)
    }
}
