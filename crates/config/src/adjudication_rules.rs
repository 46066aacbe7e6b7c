//! The validated values of `[adjudication]`: when a game ends early.

/// The adjudication rules of a tournament, as validated from its
/// `[adjudication]` table over the base layer's (`crates/config/src/base.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    pub(crate) max_plies: u32,
    pub(crate) repetitions: u32,
    pub(crate) solve: Option<SolveRule>,
}

impl Adjudication {
    /// A game reaching this many plies (opening and passes included) ends.
    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// A position (board and side to move) seen this often ends the game.
    pub fn repetitions(&self) -> u32 {
        self.repetitions
    }

    /// Exact adjudication, off by default.
    pub fn solve(&self) -> Option<SolveRule> {
        self.solve
    }
}

/// When the exact solver may end a game: from `after_plies` on, every
/// position is given to the solver with a budget of `nodes`; the first one it
/// proves ends the game with the final seeds of perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveRule {
    pub(crate) after_plies: u32,
    pub(crate) nodes: u64,
}

impl SolveRule {
    /// Plies (opening and passes included) before the solver is asked.
    pub fn after_plies(&self) -> u32 {
        self.after_plies
    }

    /// Solver nodes allowed for each position.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

impl Adjudication {
    /// Rules from their values, for callers that build them without a file
    /// (tests, simulations); [`crate::parse`] checks a file's ranges.
    pub fn new(max_plies: u32, repetitions: u32, solve: Option<SolveRule>) -> Adjudication {
        Adjudication {
            max_plies,
            repetitions,
            solve,
        }
    }
}
