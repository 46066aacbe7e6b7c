//! Fail-soft alpha-beta (negamax) over exact values, with the table.
//!
//! The value of a position is the final seed margin for the side to move,
//! counting only what is still on the board: at the end of the game it is the
//! difference of the two rows, and a move is worth the seeds it captures minus
//! the value of the position it leads to. Every value therefore lies within
//! plus or minus the seeds on the board, which bounds the search window.
//!
//! No position can repeat within a game, from any position, so the game
//! graph is acyclic and a value stored for a board holds whatever path led
//! there (no graph-history interaction). The reason: a sowing never empties
//! a pit it does not capture (a lifted pit gets the first seed back at
//! once), so a move without capture leaves every occupied pit occupied, and
//! its last seed lands in a pit that was empty: the number of occupied pits
//! grows. A capture takes seeds off the board for good. A forced pass
//! changes neither, but is followed by a sowing (the opponent can sow, or
//! there would be no pass). So every sowing decreases the pair (seeds on
//! the board, empty pits) in lexicographic order, passes leave it alone and
//! never follow each other, and no position comes back.
//! `tests/acyclic.rs` checks the step of this argument on random positions;
//! `examples/figures.rs` finds no cycle in the whole graph reachable from
//! the start.

use aboure_engine::{Move, Position, Side, ROW};

use crate::table::{Bounds, Table, NONE, PASS};

/// Larger than any value (a position holds at most 48 seeds).
pub(crate) const INFINITY: i32 = 100;

/// Nodes between two calls of the stop callback (a power of two).
const STOP_CHECK_INTERVAL: u64 = 1024;

/// Why a search gave up before proving its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Abort {
    /// The node budget ran out.
    Budget,
    /// The caller asked to stop.
    Stopped,
}

/// Seeds still on the board.
#[inline]
pub(crate) fn board_seeds(pos: &Position) -> i32 {
    pos.row_seeds(Side::South) as i32 + pos.row_seeds(Side::North) as i32
}

/// The value of a finished (or adjudicated) game: the mover's row minus the
/// opponent's.
#[inline]
pub(crate) fn end_value(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    pos.row_seeds(me) as i32 - pos.row_seeds(!me) as i32
}

/// Seeds the move from `pos` to `child` captured.
#[inline]
pub(crate) fn gain(pos: &Position, child: &Position) -> i32 {
    let me = pos.side_to_move();
    child.captured(me) as i32 - pos.captured(me) as i32
}

/// The table's code for a move.
#[inline]
pub(crate) fn move_code(m: Move) -> u8 {
    match m {
        Move::Sow(pit) => pit.index() as u8,
        Move::Pass => PASS,
    }
}

/// Indices of the `n` children in search order: the table's best move
/// first, then by seeds captured, larger first.
#[inline]
pub(crate) fn order(
    pos: &Position,
    moves: &[Move; ROW],
    next: &[Position; ROW],
    n: usize,
    best: u8,
) -> [usize; ROW] {
    let mut keys = [0i32; ROW];
    let mut idx = [0usize; ROW];
    for i in 0..n {
        idx[i] = i;
        keys[i] = gain(pos, &next[i]) + if move_code(moves[i]) == best { 1000 } else { 0 };
    }
    // Insertion sort: at most six moves.
    for i in 1..n {
        let mut j = i;
        while j > 0 && keys[idx[j]] > keys[idx[j - 1]] {
            idx.swap(j, j - 1);
            j -= 1;
        }
    }
    idx
}

/// One search: the table and the counters.
pub(crate) struct Search<'a> {
    table: &'a mut Table,
    pub(crate) nodes: u64,
    limit: u64,
    stop: Option<&'a dyn Fn() -> bool>,
}

impl<'a> Search<'a> {
    pub(crate) fn new(
        table: &'a mut Table,
        limit: u64,
        stop: Option<&'a dyn Fn() -> bool>,
    ) -> Search<'a> {
        Search {
            table,
            nodes: 0,
            limit,
            stop,
        }
    }

    /// The proven bounds on `pos`, if the table knows them.
    pub(crate) fn probe(&self, pos: &Position) -> Option<Bounds> {
        self.table.probe(pos.hash())
    }

    /// Stores proven bounds on `pos`, found by this search so far.
    pub(crate) fn store(&mut self, pos: &Position, bounds: Bounds) {
        self.table.store(pos.hash(), bounds, self.nodes);
    }

    /// The exact value of `pos` if it lies strictly between `alpha` and
    /// `beta`; otherwise an upper bound at most `alpha` or a lower bound at
    /// least `beta` (fail-soft).
    pub(crate) fn negamax(&mut self, pos: &Position, alpha: i32, beta: i32) -> Result<i32, Abort> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(Abort::Budget);
        }
        if self.nodes & (STOP_CHECK_INTERVAL - 1) == 0 {
            if let Some(stop) = self.stop {
                if stop() {
                    return Err(Abort::Stopped);
                }
            }
        }
        let (moves, next, n) = pos.children();
        if n == 0 {
            return Ok(end_value(pos));
        }
        let seeds = board_seeds(pos);
        if seeds <= alpha {
            return Ok(seeds);
        }
        if -seeds >= beta {
            return Ok(-seeds);
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let hash = pos.hash();
        let mut tt_best = NONE;
        if let Some(b) = self.table.probe(hash) {
            if b.lower >= beta || b.lower == b.upper {
                return Ok(b.lower);
            }
            if b.upper <= alpha {
                return Ok(b.upper);
            }
            alpha = alpha.max(b.lower);
            beta = beta.min(b.upper);
            tt_best = b.best;
        }
        let idx = order(pos, &moves, &next, n, tt_best);
        let start_nodes = self.nodes;
        let mut best = -INFINITY;
        let mut best_i = idx[0];
        for &i in &idx[..n] {
            let g = gain(pos, &next[i]);
            let v = g - self.negamax(&next[i], g - beta, g - alpha.max(best))?;
            if v > best {
                best = v;
                best_i = i;
                if best >= beta {
                    break;
                }
            }
        }
        let bounds = if best <= alpha {
            Bounds {
                lower: -seeds,
                upper: best,
                best: NONE,
            }
        } else if best >= beta {
            Bounds {
                lower: best,
                upper: seeds,
                best: move_code(moves[best_i]),
            }
        } else {
            Bounds {
                lower: best,
                upper: best,
                best: move_code(moves[best_i]),
            }
        };
        self.table.store(hash, bounds, self.nodes - start_nodes + 1);
        Ok(best)
    }
}

/// MTD(f): the exact value from null-window searches, each of which proves
/// a bound and moves the window towards the value. `test(beta)` searches
/// the window `(beta - 1, beta)` and returns a fail-soft value with what the
/// caller wants to keep of a search that failed high (such as the move that
/// proved the lower bound). Returns the value and what the last fail-high
/// search kept: the proof of the final lower bound, so of the value.
///
/// From the start it visits about a quarter of the nodes of one full-window
/// search, because the table of bounds makes the later tests cheap.
pub(crate) fn mtdf<T>(
    guess: i32,
    mut test: impl FnMut(i32) -> Result<(i32, T), Abort>,
) -> Result<(i32, Option<T>), Abort> {
    let (mut lower, mut upper) = (-INFINITY, INFINITY);
    let mut g = guess.clamp(-INFINITY + 1, INFINITY);
    let mut proof = None;
    while lower < upper {
        let beta = if g == lower { g + 1 } else { g };
        let (v, kept) = test(beta)?;
        g = v;
        if g < beta {
            upper = g;
        } else {
            lower = g;
            proof = Some(kept);
        }
    }
    Ok((g, proof))
}
