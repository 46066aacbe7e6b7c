//! The static evaluation of the search bots: what a position is worth to the
//! side to move when the search can look no further.
//!
//! Values are in centi-seeds ([`SCALE`] per seed) and, like the exact solver's
//! values, count only the *future*: the final margin the side to move can
//! still expect to add from here, without the seeds already captured. That
//! makes a value a function of the board and the side to move alone, which
//! is what `Position::hash()` keys, so values can be shared in a
//! transposition table across move orders with different capture histories.
//!
//! At the end of the game the future is the seeds left in each row, so the
//! exact value of a finished game is the row difference ([`terminal`]).
//! Before the end, seeds in a row are far from safe: every sowing carries
//! them round the board, and pits of 1 or 3 are what captures are made of.

use aboure_engine::{Position, Side, ROW};

/// Centi-seeds per seed.
pub const SCALE: i32 = 100;

/// Weights of the evaluation terms, in centi-seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per seed of row difference (mine minus the opponent's).
    pub row: i32,
    /// Per pit I can sow from (2+ seeds), minus the opponent's.
    pub mobility: i32,
    /// Per pit holding 1 or 3 seeds in the opponent's row (targets I, who
    /// move next, may capture), minus those in mine.
    pub targets: i32,
    /// Per empty pit in my row, minus the opponent's: a lap that ends in an
    /// empty pit ends the turn without a capture, and an empty pit is a
    /// seed fewer to lose and to sow.
    pub empty: i32,
}

impl Weights {
    /// The weights the `alphabeta` bot plays with. Matches at small node
    /// budgets preferred half a seed per row seed to a whole one (row seeds
    /// are far from safe until the end) and found the other terms neutral.
    pub const DEFAULT: Weights = Weights {
        row: 50,
        mobility: 0,
        targets: 0,
        empty: 0,
    };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// Row difference in centi-seeds from the mover's view: the exact future
/// value of a finished (or adjudicated) game.
#[inline]
pub fn terminal(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    (pos.row_seeds(me) as i32 - pos.row_seeds(!me) as i32) * SCALE
}

/// The static value of `pos` for the side to move, in centi-seeds.
#[inline]
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let me = pos.side_to_move();
    let pits = pos.pits();
    let mine = me.first_pit();
    let theirs = (!me).first_pit();
    let mut mobility = 0i32;
    let mut targets = 0i32;
    let mut empty = 0i32;
    for i in 0..ROW {
        let a = pits[mine + i];
        let b = pits[theirs + i];
        mobility += (a >= 2) as i32 - (b >= 2) as i32;
        targets += (b == 1 || b == 3) as i32 - (a == 1 || a == 3) as i32;
        empty += (a == 0) as i32 - (b == 0) as i32;
    }
    let rows = pos.row_seeds(me) as i32 - pos.row_seeds(!me) as i32;
    w.row * rows + w.mobility * mobility + w.targets * targets + w.empty * empty
}

/// The seeds `side` has captured minus its opponent's, in centi-seeds: add it
/// to a future value to get the expected final margin.
#[inline]
pub fn captured_margin(pos: &Position, side: Side) -> i32 {
    (pos.captured(side) as i32 - pos.captured(!side) as i32) * SCALE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced() {
        let pos = Position::startpos();
        assert_eq!(terminal(&pos), 0);
        assert_eq!(evaluate(&pos, &Weights::DEFAULT), 0);
    }

    #[test]
    fn terminal_is_the_row_difference_for_the_mover() {
        let pos: Position = "1,0,1,0,0,1/0,1,0,0,0,0 n 20 24".parse().unwrap();
        assert!(pos.is_game_over());
        assert_eq!(terminal(&pos), -2 * SCALE);
        assert_eq!(captured_margin(&pos, Side::North), 4 * SCALE);
        // The final margin for North: 24 + 1 - (20 + 3) = 2.
        assert_eq!(
            terminal(&pos) + captured_margin(&pos, Side::North),
            2 * SCALE
        );
    }

    #[test]
    fn terms_have_the_right_signs() {
        let w = Weights {
            row: 0,
            mobility: 10,
            targets: 0,
            empty: 0,
        };
        // South to move: 2 movable pits against North's 1.
        let pos: Position = "2,2,0,0,0,0/2,0,0,0,0,0 s 20 22".parse().unwrap();
        assert_eq!(evaluate(&pos, &w), 10);
        let w = Weights {
            row: 0,
            mobility: 0,
            targets: 10,
            empty: 0,
        };
        // South to move: North has three targets (1, 3, 1), South one (1).
        let pos: Position = "1,0,0,0,0,0/1,3,0,0,0,1 s 22 20".parse().unwrap();
        assert_eq!(evaluate(&pos, &w), 20);
        let w = Weights {
            row: 100,
            mobility: 0,
            targets: 0,
            empty: 0,
        };
        assert_eq!(evaluate(&pos, &w), -400);
        let w = Weights {
            row: 0,
            mobility: 0,
            targets: 0,
            empty: 10,
        };
        // South to move: five empty pits of South's against three of North's.
        assert_eq!(evaluate(&pos, &w), 20);
    }
}
