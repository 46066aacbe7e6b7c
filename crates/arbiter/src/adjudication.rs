//! Ending games early: a ply limit and repeated positions, scored like a
//! natural end (each side keeps its row) so the bot that was ahead on seeds
//! is not robbed; and, optionally, exact adjudication, which ends a game as
//! soon as the solver proves what perfect play reaches from there.

use std::collections::HashMap;

use aboure_engine::Position;
use aboure_records::Termination;

use aboure_config::Adjudication;

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
        if *count >= self.rules.repetitions() {
            Some(Termination::Repetition)
        } else if self.plies >= self.rules.max_plies() {
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
        let rules = Adjudication::new(2, 3, None);
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
        let rules = Adjudication::new(100, 2, None);
        let pos = Position::startpos();
        let mut adj = Adjudicator::new(rules, &pos);
        assert_eq!(adj.after_ply(&pos), Some(Termination::Repetition));
    }
}
