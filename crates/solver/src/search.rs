//! Fail-soft alpha-beta (negamax) over exact values, with the table.
//!
//! The value of a position is the final seed margin for the side to move,
//! counting only what is still on the board: at the end of the game it is the
//! difference of the two rows, and a move is worth the seeds it captures minus
//! the value of the position it leads to. Every value therefore lies within
//! plus or minus the seeds on the board, which bounds the search window.
//!
//! Repetition. A position that repeats one on the current search path is
//! scored as an adjudicated end (the difference of the rows), like the
//! tournament rules score a repeated position. Such a score depends on the
//! path, not on the position, so nothing computed from one is stored in the
//! table; and a search that met one is redone without the table (see
//! `Solver`), which makes it exact under that rule. From the start position
//! no repetition is reachable at all (the reachable game graph is acyclic,
//! see `examples/figures.rs`), and the check costs a few comparisons: only
//! positions since the last capture can repeat.

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

/// A searched value and whether it rests on a repetition of the search path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scored {
    pub(crate) value: i32,
    pub(crate) path_dependent: bool,
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

/// One search: the table, the path from the root and the counters.
pub(crate) struct Search<'a> {
    table: &'a mut Table,
    use_table: bool,
    /// Hashes and board seeds of the positions from the root to the node.
    path: Vec<(u64, i32)>,
    pub(crate) nodes: u64,
    limit: u64,
    stop: Option<&'a dyn Fn() -> bool>,
    /// True once some position repeated one on the path.
    pub(crate) repeated: bool,
}

impl<'a> Search<'a> {
    pub(crate) fn new(
        table: &'a mut Table,
        use_table: bool,
        limit: u64,
        stop: Option<&'a dyn Fn() -> bool>,
    ) -> Search<'a> {
        Search {
            table,
            use_table,
            path: Vec::with_capacity(128),
            nodes: 0,
            limit,
            stop,
            repeated: false,
        }
    }

    /// Puts `pos` on the path, as the root of the searches that follow.
    pub(crate) fn push(&mut self, pos: &Position) {
        self.path.push((pos.hash(), board_seeds(pos)));
    }

    /// The proven bounds on `pos`, if the table is in use and knows them.
    pub(crate) fn probe(&self, pos: &Position) -> Option<Bounds> {
        if self.use_table {
            self.table.probe(pos.hash())
        } else {
            None
        }
    }

    /// Stores proven bounds on a root whose search did not depend on the path.
    pub(crate) fn store(&mut self, pos: &Position, bounds: Bounds) {
        if self.use_table && !self.repeated {
            let nodes = self.nodes;
            self.table.store(pos.hash(), bounds, nodes);
        }
    }

    /// The exact value of `pos` if it lies strictly between `alpha` and
    /// `beta`; otherwise an upper bound at most `alpha` or a lower bound at
    /// least `beta` (fail-soft).
    pub(crate) fn negamax(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
    ) -> Result<Scored, Abort> {
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
        let hash = pos.hash();
        let seeds = board_seeds(pos);
        // Only positions since the last capture can repeat this one.
        for &(h, s) in self.path.iter().rev() {
            if s != seeds {
                break;
            }
            if h == hash {
                self.repeated = true;
                return Ok(Scored {
                    value: end_value(pos),
                    path_dependent: true,
                });
            }
        }
        let (moves, next, n) = pos.children();
        if n == 0 {
            return Ok(Scored {
                value: end_value(pos),
                path_dependent: false,
            });
        }
        let (mut alpha, mut beta) = (alpha, beta);
        if seeds <= alpha {
            return Ok(Scored {
                value: seeds,
                path_dependent: false,
            });
        }
        if -seeds >= beta {
            return Ok(Scored {
                value: -seeds,
                path_dependent: false,
            });
        }
        let mut tt_best = NONE;
        if self.use_table {
            if let Some(b) = self.table.probe(hash) {
                let known = |value| Scored {
                    value,
                    path_dependent: false,
                };
                if b.lower >= beta || b.lower == b.upper {
                    return Ok(known(b.lower));
                }
                if b.upper <= alpha {
                    return Ok(known(b.upper));
                }
                alpha = alpha.max(b.lower);
                beta = beta.min(b.upper);
                tt_best = b.best;
            }
        }
        let idx = order(pos, &moves, &next, n, tt_best);
        let start_nodes = self.nodes;
        self.path.push((hash, seeds));
        let mut best = -INFINITY;
        let mut best_i = idx[0];
        let mut dependent = false;
        for &i in &idx[..n] {
            let g = gain(pos, &next[i]);
            let r = match self.negamax(&next[i], g - beta, g - alpha.max(best)) {
                Ok(r) => r,
                Err(e) => {
                    self.path.pop();
                    return Err(e);
                }
            };
            dependent |= r.path_dependent;
            let v = g - r.value;
            if v > best {
                best = v;
                best_i = i;
                if best >= beta {
                    break;
                }
            }
        }
        self.path.pop();
        if self.use_table && !dependent {
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
        }
        Ok(Scored {
            value: best,
            path_dependent: dependent,
        })
    }
}
