//! Ending games early: a ply limit and repeated positions, scored like a
//! natural end (each side keeps its row) so the bot that was ahead on seeds
//! is not robbed; and, optionally, exact adjudication, which ends a game as
//! soon as the solver proves what perfect play reaches from there.

use std::collections::HashMap;

use aboure_engine::Position;
use aboure_records::Termination;

/// The adjudication rules of a tournament, as validated from its
/// `[adjudication]` table over the base layer's (`config/default.toml`).
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

/// The final seeds `[south, north]` perfect play reaches from `position`,
/// given its exact value `value` (the final margin of the side to move over
/// the seeds still on the board).
pub fn solved_score(position: &Position, value: i32) -> [u8; 2] {
    let board: i32 = position.pits().iter().map(|&n| n as i32).sum();
    let mover = position.side_to_move();
    let mine = (board + value) / 2;
    let theirs = board - mine;
    let mut score = [0u8; 2];
    score[mover.index()] = (position.captured(mover) as i32 + mine) as u8;
    score[(!mover).index()] = (position.captured(!mover) as i32 + theirs) as u8;
    score
}

/// Watches one game's positions.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    seen: HashMap<u64, u32>,
    plies: u32,
}

impl Adjudicator {
    /// Starts watching a game at `start`.
    pub fn new(rules: Adjudication, start: &Position) -> Adjudicator {
        let mut adjudicator = Adjudicator {
            rules,
            seen: HashMap::new(),
            plies: 0,
        };
        adjudicator.seen.insert(start.hash(), 1);
        adjudicator
    }

    /// Plies recorded so far.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Records that a ply led to `position` (which is not game over) and
    /// says whether the game ends here.
    pub fn after_ply(&mut self, position: &Position) -> Option<Termination> {
        self.plies += 1;
        let count = self.seen.entry(position.hash()).or_insert(0);
        *count += 1;
        if *count >= self.rules.repetitions {
            Some(Termination::Repetition)
        } else if self.plies >= self.rules.max_plies {
            Some(Termination::MaxPlies)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_engine::Move;

    #[test]
    fn solved_scores_add_the_future_to_the_captures() {
        // 4 seeds on the board: a margin of +2 for North, the mover, means
        // North ends with 3 of them and South with 1.
        let pos: Position = "0,0,1,0,0,0/0,0,0,2,1,0 n 20 24".parse().unwrap();
        assert_eq!(solved_score(&pos, 2), [21, 27]);
        assert_eq!(solved_score(&pos, -4), [24, 24]);
        let start = Position::startpos();
        assert_eq!(solved_score(&start, 4), [26, 22]);
    }

    #[test]
    fn max_plies_counts_every_ply() {
        let rules = Adjudication {
            max_plies: 2,
            repetitions: 3,
            solve: None,
        };
        let mut pos = Position::startpos();
        let mut adj = Adjudicator::new(rules, &pos);
        pos.play(Move::sow(2).unwrap()).unwrap();
        assert_eq!(adj.after_ply(&pos), None);
        let m = pos.legal_moves()[0];
        pos.play(m).unwrap();
        assert_eq!(adj.after_ply(&pos), Some(Termination::MaxPlies));
    }

    #[test]
    fn repetition_counts_the_start() {
        let rules = Adjudication {
            max_plies: 100,
            repetitions: 2,
            solve: None,
        };
        let pos = Position::startpos();
        let mut adj = Adjudicator::new(rules, &pos);
        assert_eq!(adj.after_ply(&pos), Some(Termination::Repetition));
    }
}
