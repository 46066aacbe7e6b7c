//! What the solver says of one opening position.
//!
//! The solver's value counts only the seeds still on the board; an opening
//! has captures already, so the value kept here adds them: it is the final
//! seed margin of the whole game for the side to move under perfect play
//! (positive: the side to move wins, 0: a 24-24 draw). Sharpness is read from
//! the exact values of the moves, in the same units: the seeds a uniformly
//! random legal move loses against the best one on average, and how many of
//! the legal moves keep the position's value.

use aboure_engine::{Move, Position};
use aboure_solver::Solver;

/// The exact value and sharpness of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Appraisal {
    /// The whole game's final seed margin for the side to move, perfect
    /// play on both sides.
    pub value: i32,
    /// Every legal move and its value in the same terms (the margin for the
    /// side to move of the position before it).
    pub moves: Vec<(Move, i32)>,
    /// Mean seeds lost by a uniformly random legal move against the best.
    pub random_loss: f64,
    /// Legal moves that keep the value (at least 1).
    pub keeping: usize,
}

impl Appraisal {
    /// The seeds a move loses against the best one, or `None` for a move
    /// that is not legal here.
    pub fn loss(&self, m: Move) -> Option<i32> {
        let found = self.moves.iter().find(|(n, _)| *n == m)?;
        Some(self.value - found.1)
    }
}

/// Solves `position` (which must not be over) and its moves exactly.
pub fn appraise(solver: &mut Solver, position: &Position) -> Appraisal {
    let me = position.side_to_move();
    let held = i32::from(position.captured(me)) - i32::from(position.captured(!me));
    let value = held + solver.value(position);
    let moves: Vec<(Move, i32)> = solver
        .move_values(position)
        .into_iter()
        .map(|(m, v)| (m, held + v))
        .collect();
    let lost: i32 = moves.iter().map(|(_, v)| value - v).sum();
    let keeping = moves.iter().filter(|(_, v)| *v == value).count();
    Appraisal {
        value,
        random_loss: f64::from(lost) / moves.len().max(1) as f64,
        keeping,
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `line` from `pos` with both sides following the solver's best
    /// move, and returns the final margin for the side that moved first.
    fn perfect_margin(solver: &mut Solver, mut pos: Position) -> i32 {
        let first = pos.side_to_move();
        while !pos.is_game_over() {
            let best = solver
                .move_values(&pos)
                .into_iter()
                .max_by_key(|(_, v)| *v)
                .map(|(m, _)| m)
                .unwrap();
            pos.play(best).unwrap();
        }
        let score = pos.outcome().unwrap().score;
        i32::from(score[first.index()]) - i32::from(score[(!first).index()])
    }

    #[test]
    fn the_value_is_the_final_margin_of_perfect_play_captures_included() {
        let mut solver = Solver::new(16);
        for text in [
            "5,1,2,6,6,0/5,5,5,1,5,5 n 2 0",
            "1,0,0,5,2,1/3,1,0,1,0,0 s 18 16",
            "1,1,0,0,0,1/0,0,5,0,1,3 n 18 18",
        ] {
            let pos: Position = text.parse().unwrap();
            let appraisal = appraise(&mut solver, &pos);
            assert_eq!(appraisal.value, perfect_margin(&mut solver, pos), "{text}");
        }
    }

    #[test]
    fn the_best_move_keeps_the_value_and_losses_are_never_negative() {
        let mut solver = Solver::new(16);
        let pos: Position = "1,0,0,5,2,1/3,1,0,1,0,0 s 18 16".parse().unwrap();
        let a = appraise(&mut solver, &pos);
        assert!(a.keeping >= 1);
        assert_eq!(a.moves.iter().map(|(_, v)| *v).max(), Some(a.value));
        for (m, _) in &a.moves {
            assert!(a.loss(*m).unwrap() >= 0);
        }
        let worst = a
            .moves
            .iter()
            .map(|(m, _)| a.loss(*m).unwrap())
            .max()
            .unwrap();
        assert!(a.random_loss <= f64::from(worst));
        assert_eq!(a.loss(Move::Pass), None);
    }

    #[test]
    fn a_forced_pass_is_one_move_that_keeps_the_value() {
        let mut solver = Solver::new(16);
        let pos: Position = "1,0,1,0,1,1/2,0,0,0,0,0 s 20 22".parse().unwrap();
        let a = appraise(&mut solver, &pos);
        assert_eq!(a.moves.len(), 1);
        assert_eq!((a.keeping, a.random_loss), (1, 0.0));
        // South passes, North sows 6, the game ends 24-24.
        assert_eq!(a.value, 0);
    }
}
