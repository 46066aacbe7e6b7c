//! The search of the `alphabeta` bot: iterative deepening over a fail-soft
//! negamax with principal variation search, a transposition table, move
//! ordering (table move, then bigger captures, then history) and a capture
//! quiescence search at the horizon.
//!
//! Values are future values (see [`crate::eval`]): a move is worth the seeds
//! it captures minus the child's value. Finished games are scored exactly.
//! No position can repeat within a game (a move without capture ends in a
//! pit that was empty, so it adds an occupied pit and empties none; a
//! capture removes seeds for good: the argument is in the solver's search
//! docs), so the search keeps no path and a stored value holds whatever
//! line led to its position.

use aboure_engine::{Move, Position};
use aboure_protocol::{Search, SearchInfo};

use crate::budget::SearchBudget;
use crate::eval::{captured_margin, evaluate, terminal, Weights, SCALE};
use crate::table::{Bound, Table, SOLVED};

/// The deepest iteration (plies); games are far shorter than this.
pub const MAX_DEPTH: u32 = 120;
/// How many nodes pass between two looks at the clock and the stop flag (a
/// power of two).
const POLL_EVERY: u64 = 256;
/// Larger than any value.
const INFINITY: i32 = 1_000_000;
/// How many captures in a row the quiescence search follows by default.
pub const QUIESCENCE_PLIES: u32 = 6;

/// What the search may use, besides the time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    /// The evaluation's weights.
    pub weights: Weights,
    /// Follow captures beyond the horizon.
    pub quiescence: bool,
    /// How many captures in a row the quiescence search follows.
    pub quiescence_plies: u32,
}

impl Default for SearchSettings {
    fn default() -> SearchSettings {
        SearchSettings {
            weights: Weights::DEFAULT,
            quiescence: true,
            quiescence_plies: QUIESCENCE_PLIES,
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play.
    pub best: Move,
    /// Its value: the expected final margin for the mover, centi-seeds,
    /// counting the seeds captured so far.
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// True when the search reached the end of every line: the score is the
    /// exact result of best play (repetitions aside).
    pub solved: bool,
}

/// One search from one root.
pub struct Searcher<'a> {
    table: &'a mut Table,
    search: &'a mut dyn Search,
    budget: SearchBudget,
    settings: SearchSettings,
    /// History heuristic, by side and pit.
    history: [[u32; 12]; 2],
    nodes: u64,
    /// Counts leaves whose value is not exact (horizon, inexact table hits):
    /// unchanged over a subtree means the subtree is solved.
    inexact: u64,
    can_abort: bool,
    aborted: bool,
}

/// What the transposition table says of a node.
enum Probe {
    /// A value good enough to return without a search.
    Cut(i32),
    /// Search, trying this move first if there is one.
    Search(Option<Move>),
}

impl<'a> Searcher<'a> {
    /// A searcher using `table`, reporting to `search`, stopping per `budget`.
    pub fn new(
        table: &'a mut Table,
        search: &'a mut dyn Search,
        budget: SearchBudget,
        settings: SearchSettings,
    ) -> Searcher<'a> {
        Searcher {
            table,
            search,
            budget,
            settings,
            history: [[0; 12]; 2],
            nodes: 0,
            inexact: 0,
            can_abort: false,
            aborted: false,
        }
    }

    fn poll(&mut self) {
        let clock_due = self.nodes & (POLL_EVERY - 1) == 0;
        self.aborted = self.budget.out_of_nodes(self.nodes)
            || (clock_due && (self.search.stopped() || self.budget.past_hard()));
    }

    /// Counts a node; false when the search must stop.
    #[inline]
    fn count_node(&mut self) -> bool {
        if self.aborted {
            return false;
        }
        self.nodes += 1;
        if self.can_abort {
            self.poll();
        }
        !self.aborted
    }

    /// Searches `root` by iterative deepening and returns the best move.
    pub fn run(&mut self, root: &Position, max_depth: u32) -> SearchOutcome {
        self.table.new_search();
        let me = root.side_to_move();
        let (moves, _, n) = root.children();
        let mut out = SearchOutcome {
            best: if n > 0 { moves[0] } else { Move::Pass },
            score: terminal(root) + captured_margin(root, me),
            depth: 0,
            nodes: 0,
            solved: n == 0,
        };
        if n <= 1 {
            // Nothing to choose (or the game is over).
            return out;
        }
        let mut depth = 1;
        while depth <= max_depth.min(MAX_DEPTH) {
            // Depth 1 is a handful of nodes: always finish it.
            self.can_abort = depth > 1;
            let before = self.inexact;
            let (value, best) = self.root(root, depth as i32);
            if let Some(best) = best {
                out.best = best;
                out.score = value + captured_margin(root, me);
            }
            if self.aborted {
                break;
            }
            out.depth = depth;
            out.solved = self.inexact == before;
            self.report(root, &out);
            if out.solved || self.budget.past_soft() {
                break;
            }
            depth += 1;
        }
        out.nodes = self.nodes;
        out
    }

    fn report(&mut self, root: &Position, out: &SearchOutcome) {
        let info = SearchInfo {
            depth: Some(out.depth),
            score: Some((out.score as f64 / SCALE as f64).round() as i32),
            nodes: Some(self.nodes),
            time: Some(self.budget.elapsed()),
            pv: self.table.line(root, out.depth as usize),
            string: None,
        };
        self.search.info(&info);
    }

    /// One iteration at the root. Returns the best value and move among the
    /// moves whose search completed (the first one is the previous best).
    fn root(&mut self, root: &Position, depth: i32) -> (i32, Option<Move>) {
        let (value, best) = self.node(root, depth, 0, -INFINITY, INFINITY);
        (value, best)
    }

    /// Fail-soft negamax. Returns the value and, at the root, the best move
    /// among the completed children.
    fn node(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<Move>) {
        if !self.count_node() {
            return (0, None);
        }
        let (moves, kids, n) = pos.children();
        if n == 0 {
            return (terminal(pos), None);
        }
        if depth <= 0 {
            return (self.quiesce(pos, 0, alpha, beta), None);
        }
        let hash = pos.hash();
        let table_move = match self.probe(hash, depth, ply, (alpha, beta)) {
            Probe::Cut(value) => return (value, None),
            Probe::Search(table_move) => table_move,
        };
        let (gains, order) = self.order(pos, (&moves, &kids, n), table_move);
        let alpha0 = alpha;
        let before = self.inexact;
        let mut best = -INFINITY;
        let mut best_move = None;
        for (k, &i) in order[..n].iter().enumerate() {
            let v = self.child(&kids[i], gains[i], k == 0, (depth, ply), (alpha, beta));
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(moves[i]);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if let Some(p) = moves[i].pit() {
                            let side = pos.side_to_move().index();
                            self.history[side][p.index()] += (depth * depth) as u32;
                        }
                        break;
                    }
                }
            }
        }
        if self.aborted {
            return (best, best_move);
        }
        self.store(hash, (depth, before), (best, best_move), (alpha0, beta));
        (best, best_move)
    }

    /// The table's word on `hash` at `depth` and `ply` within the window
    /// `(alpha, beta)`: a value that cuts the search short (never at the
    /// root, which must name a move), or the move to try first.
    #[inline]
    fn probe(&mut self, hash: u64, depth: i32, ply: u32, (alpha, beta): (i32, i32)) -> Probe {
        let Some(e) = self.table.probe(hash) else {
            return Probe::Search(None);
        };
        if ply > 0 && (e.depth == SOLVED || e.depth as i32 >= depth) {
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            };
            if cut {
                if e.depth != SOLVED {
                    self.inexact += 1;
                }
                return Probe::Cut(e.value);
            }
        }
        Probe::Search(e.best)
    }

    /// The children of `pos` in the order they are searched (the table's
    /// move, then bigger captures, then history), with each one's capture
    /// gain for the mover, in centi-seeds.
    #[inline]
    fn order(
        &self,
        pos: &Position,
        (moves, kids, n): (&[Move; 6], &[Position; 6], usize),
        table_move: Option<Move>,
    ) -> ([i32; 6], [usize; 6]) {
        let me = pos.side_to_move();
        let side = me.index();
        let mut gains = [0i32; 6];
        let mut keys = [0i64; 6];
        let mut order = [0usize; 6];
        for i in 0..n {
            gains[i] = (kids[i].captured(me) as i32 - pos.captured(me) as i32) * SCALE;
            keys[i] = if Some(moves[i]) == table_move {
                i64::MAX
            } else {
                let h = moves[i].pit().map_or(0, |p| self.history[side][p.index()]);
                ((gains[i] as i64) << 32) + h as i64
            };
            order[i] = i;
        }
        order[..n].sort_by_key(|&i| std::cmp::Reverse(keys[i]));
        (gains, order)
    }

    /// The value for the mover of the move to `child`, which gains `gain`:
    /// the first child searched with the whole window, the others with a
    /// null window first, searched again in full if they beat `alpha`.
    #[inline]
    fn child(
        &mut self,
        child: &Position,
        gain: i32,
        first: bool,
        (depth, ply): (i32, u32),
        (alpha, beta): (i32, i32),
    ) -> i32 {
        let g = gain;
        if first {
            return g - self.node(child, depth - 1, ply + 1, g - beta, g - alpha).0;
        }
        let v = g - self
            .node(child, depth - 1, ply + 1, g - alpha - 1, g - alpha)
            .0;
        if v > alpha && v < beta && !self.aborted {
            g - self.node(child, depth - 1, ply + 1, g - beta, g - alpha).0
        } else {
            v
        }
    }

    /// Stores a node's result, `best` found at `depth` (solved if no
    /// inexact leaf was met since the count stood at `before`), bounded as
    /// its window `(alpha0, beta)` says.
    #[inline]
    fn store(
        &mut self,
        hash: u64,
        (depth, before): (i32, u64),
        (best, best_move): (i32, Option<Move>),
        (alpha0, beta): (i32, i32),
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_depth = if self.inexact == before {
            SOLVED
        } else {
            depth.min(SOLVED as i32 - 1) as u8
        };
        self.table.store(
            hash,
            best,
            stored_depth,
            bound,
            best_move.unwrap_or(Move::Pass),
        );
    }

    /// The value of `pos` beyond the horizon: the static evaluation, or a
    /// capture sequence if one does better (the mover may always decline).
    fn quiesce(&mut self, pos: &Position, qply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.inexact += 1;
        let stand = evaluate(pos, &self.settings.weights);
        if !self.settings.quiescence || qply >= self.settings.quiescence_plies || stand >= beta {
            return stand;
        }
        if !self.count_node() {
            return stand;
        }
        let (_, kids, n) = pos.children();
        if n == 0 {
            return terminal(pos);
        }
        let me = pos.side_to_move();
        let mut best = stand;
        alpha = alpha.max(stand);
        for child in &kids[..n] {
            let g = (child.captured(me) as i32 - pos.captured(me) as i32) * SCALE;
            if g == 0 {
                continue;
            }
            let v = g - self.quiesce(child, qply + 1, g - beta, g - alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
