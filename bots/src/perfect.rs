//! `perfect`: exact play from the solver (`aboure-solver`).
//!
//! With time to spare it proves the best move and plays it. Under a clock it
//! may not finish, early in a game, so it first gives the `alphabeta` search
//! a quarter of the time and plays that move if the solver runs out of time
//! (the solver's own fallback is a plainer search). The solver's table keeps
//! exact bounds that hold for any game (values depend only on the board and
//! the side to move), so it is kept from game to game and each solve makes
//! the next ones cheaper.

use std::cell::Cell;
use std::time::Duration;

use aboure_engine::{Move, Position};
use aboure_protocol::{OptionSpec, Player, Search, SearchInfo, SearchLimits, SetOptionError};
use aboure_solver::Solver;

use crate::budget::SearchBudget;
use crate::eval::{captured_margin, SCALE};
use crate::identity::{id_name, AUTHOR};
use crate::negamax::{SearchSettings, Searcher, MAX_DEPTH};
use crate::options::{unknown, IntOption};
use crate::table::Table;

/// Default solver table size, MB.
pub const DEFAULT_SOLVER_MB: i64 = 64;
/// `hash`: the solver's table in megabytes.
const HASH: IntOption = IntOption {
    name: "hash",
    default: DEFAULT_SOLVER_MB,
    min: 1,
    max: 16384,
};
/// Size of the fallback search's table, MB.
const FALLBACK_MB: usize = 4;
/// About how many nodes the solver searches between two looks at its stop
/// flag; a node limit is honoured to within this.
const SOLVER_POLL_NODES: u64 = 1024;
/// Nodes of the solve that warms the table up when the player is made.
const WARM_UP_NODES: u64 = 200_000;
/// The share of a timed move given to the fallback search.
const FALLBACK_SHARE: f64 = 0.25;

/// Exact play.
///
/// Option `hash` (int, MB, default 64): the solver's table.
///
/// Limits: time limits, `nodes` (to within about a thousand: the solver looks
/// at its stop flag that often) and `stop` are honoured; `depth` does not
/// apply to an exact solve and is ignored: with only a depth, it solves to
/// the end (from the start position that takes seconds).
pub struct PerfectPlayer {
    solver: Solver,
    fallback: Table,
}

impl PerfectPlayer {
    /// A player whose solver table takes `megabytes` MB.
    pub fn new(megabytes: usize) -> PerfectPlayer {
        PerfectPlayer {
            solver: warmed(megabytes),
            fallback: Table::new(FALLBACK_MB),
        }
    }
}

/// A solver whose table has been used once from the start position: its
/// memory may come lazily from the operating system, a page at a time on
/// first touch, and that cost belongs before the first move, not in it.
fn warmed(megabytes: usize) -> Solver {
    let mut solver = Solver::new(megabytes);
    let _ = solver.value_within(&Position::startpos(), WARM_UP_NODES);
    solver
}

impl Default for PerfectPlayer {
    fn default() -> PerfectPlayer {
        PerfectPlayer::new(DEFAULT_SOLVER_MB as usize)
    }
}

impl Player for PerfectPlayer {
    fn name(&self) -> String {
        id_name("perfect")
    }

    fn author(&self) -> String {
        AUTHOR.to_owned()
    }

    fn options(&self) -> Vec<OptionSpec> {
        vec![HASH.spec()]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), SetOptionError> {
        match name {
            "hash" => {
                self.solver = warmed(HASH.parse(value)? as usize);
                Ok(())
            }
            _ => Err(unknown("perfect", name)),
        }
    }

    fn choose(
        &mut self,
        position: &Position,
        _history: &[Position],
        limits: &SearchLimits,
        search: &mut dyn Search,
    ) -> Move {
        let moves = position.legal_moves();
        if moves.len() <= 1 {
            return moves.first().copied().unwrap_or(Move::Pass);
        }
        // A depth limit means nothing to an exact solve.
        let limits_here = SearchLimits {
            depth: None,
            ..*limits
        };
        let budget = SearchBudget::new(&limits_here, search.started());
        let mut fallback = None;
        if !budget.is_infinite() {
            let mut share = budget.share(FALLBACK_SHARE);
            share.nodes = budget.nodes.map(|n| (n as f64 * FALLBACK_SHARE) as u64);
            let out = Searcher::new(&mut self.fallback, search, share, SearchSettings::default())
                .run(position, MAX_DEPTH);
            if out.solved {
                // The search reached the end of every line: already exact.
                return out.best;
            }
            fallback = Some(out.best);
        }
        let found = {
            let search = &*search;
            let polls = Cell::new(0u64);
            // The soft deadline: an unfinished solve is thrown away (though
            // what it proved stays in the table), so it gets the time the
            // move was planned to take, not the most it could take.
            let stop = || {
                polls.set(polls.get() + 1);
                search.stopped()
                    || budget.past_soft()
                    || budget.out_of_nodes(polls.get() * SOLVER_POLL_NODES)
            };
            self.solver.best_move(position, &stop)
        };
        let me = position.side_to_move();
        let best = match found {
            Some((m, Some(value))) => {
                search.info(&SearchInfo {
                    score: Some(value + captured_margin(position, me) / SCALE),
                    nodes: Some(self.solver.nodes()),
                    time: Some(budget.elapsed()),
                    pv: vec![m],
                    string: Some("exact".to_owned()),
                    ..SearchInfo::default()
                });
                m
            }
            Some((m, None)) => fallback.unwrap_or(m),
            None => moves[0],
        };
        if *limits == SearchLimits::default() {
            // `go` without limits: the answer waits for `stop`.
            while !search.stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        best
    }
}
