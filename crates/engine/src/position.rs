//! A position: the board, the side to move and the seeds each side captured.

use std::fmt;

use crate::board::Board;
use crate::moves::{Move, MoveList};
use crate::{Side, PITS, ROW, TOTAL_SEEDS};

/// A Djenon-aboure position. Its invariant holds by construction: the seeds on
/// the board and in the captures add up to 48. (Positions need not be
/// reachable from the start: set-up positions for study are welcome.)
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) side: Side,
    pub(crate) captured: [u8; 2],
}

/// Why seed counts do not make a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidPosition {
    /// The board and the captures do not add up to 48 seeds.
    Total {
        /// What they add up to.
        total: u32,
    },
}

impl fmt::Display for InvalidPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidPosition::Total { total } => write!(
                f,
                "the pits and captures hold {total} seeds in all, but the game has {TOTAL_SEEDS}"
            ),
        }
    }
}

impl std::error::Error for InvalidPosition {}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move that was refused.
    pub mv: Move,
    /// The legal moves of the position.
    pub legal: MoveList,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.legal.is_empty() {
            write!(f, "move {} is not legal: the game is over", self.mv)
        } else {
            write!(
                f,
                "move {} is not legal; legal moves: {}",
                self.mv, self.legal
            )
        }
    }
}

impl std::error::Error for IllegalMove {}

/// The end of a game: the seeds each side finished with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Final seeds, `[south, north]`: captures plus the seeds left in the row.
    pub score: [u8; 2],
}

impl Outcome {
    /// The side with more seeds, or `None` for a 24-24 draw.
    pub fn winner(self) -> Option<Side> {
        use std::cmp::Ordering::*;
        match self.score[0].cmp(&self.score[1]) {
            Greater => Some(Side::South),
            Less => Some(Side::North),
            Equal => None,
        }
    }

    /// The result from South's view: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(self) -> &'static str {
        match self.winner() {
            Some(Side::South) => "1-0",
            Some(Side::North) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// The legal moves of a position together with the positions they lead to.
pub type Children = ([Move; ROW], [Position; ROW], usize);

impl Position {
    /// The start: four seeds in every pit, South to move.
    pub const fn startpos() -> Position {
        Position {
            board: Board(0x0404_0404_0404_0404_0404_0404),
            side: Side::South,
            captured: [0, 0],
        }
    }

    /// A position from its parts, validated: `pits` in sowing order (South's
    /// 0..=5, then North's 6..=11), the side to move and `[south, north]`
    /// captures.
    pub fn new(
        pits: [u8; PITS],
        side: Side,
        captured: [u8; 2],
    ) -> Result<Position, InvalidPosition> {
        let total: u32 =
            pits.iter().map(|&n| n as u32).sum::<u32>() + captured[0] as u32 + captured[1] as u32;
        if total != TOTAL_SEEDS as u32 {
            return Err(InvalidPosition::Total { total });
        }
        Ok(Position {
            board: Board::from_pits(pits),
            side,
            captured,
        })
    }

    /// Seed counts of the twelve pits in sowing order.
    pub fn pits(&self) -> [u8; PITS] {
        self.board.pits()
    }

    /// Seeds in one pit (`pit` < 12).
    #[inline]
    pub fn seeds(&self, pit: usize) -> u8 {
        assert!(pit < PITS, "pit {pit} is not on the board");
        self.board.get(pit)
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Seeds captured so far by `side`.
    #[inline]
    pub fn captured(&self, side: Side) -> u8 {
        self.captured[side.index()]
    }

    /// Seeds in `side`'s row.
    #[inline]
    pub fn row_seeds(&self, side: Side) -> u8 {
        self.board.row_sum(side.first_pit())
    }

    /// What each side would finish with if the game ended now, `[south,
    /// north]`: its captures plus the seeds in its row. At the natural end and
    /// at an adjudicated end alike this is the final score.
    pub fn score(&self) -> [u8; 2] {
        [
            self.captured[0] + self.row_seeds(Side::South),
            self.captured[1] + self.row_seeds(Side::North),
        ]
    }

    /// Plays the sowing from `pit` for the side to move, if it ends. Returns
    /// false and leaves `self` unchanged for an endless sowing.
    #[inline(always)]
    pub(crate) fn try_sow(&mut self, pit: usize) -> bool {
        let mut board = self.board;
        let Some(last) = board.sow(pit) else {
            return false;
        };
        self.captured[self.side.index()] += board.capture(last);
        self.board = board;
        self.side = !self.side;
        true
    }

    /// True when `side` has a sowing that ends (pits with two or more seeds
    /// whose sowing is not endless).
    fn can_sow(&self, side: Side) -> bool {
        let first = side.first_pit();
        let mut mask = self.board.movable(first);
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let mut b = self.board;
            if b.sow(first + i).is_some() {
                return true;
            }
        }
        false
    }

    /// The legal moves: every sowing that ends, or a single pass when the side
    /// to move has none but the opponent does, or nothing when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let (moves, _, n) = self.children();
        let mut list = MoveList::new();
        for &m in &moves[..n] {
            list.push(m);
        }
        list
    }

    /// The legal moves and the position after each, computed together so that
    /// a search sows every move once. The third element is the count.
    #[inline]
    pub fn children(&self) -> Children {
        let mut moves = [Move::Pass; ROW];
        let mut next = [*self; ROW];
        let mut n = 0;
        let first = self.side.first_pit();
        let mut mask = self.board.movable(first);
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let mut child = *self;
            if child.try_sow(first + i) {
                moves[n] = Move::Sow(crate::Pit::new(first + i).expect("pit on board"));
                next[n] = child;
                n += 1;
            }
        }
        if n == 0 && self.can_sow(!self.side) {
            next[0].side = !self.side;
            n = 1;
        }
        (moves, next, n)
    }

    /// True when neither side has a legal sowing.
    pub fn is_game_over(&self) -> bool {
        !self.can_sow(self.side) && !self.can_sow(!self.side)
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_game_over().then(|| Outcome {
            score: self.score(),
        })
    }

    /// True when `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        match m {
            Move::Pass => !self.can_sow(self.side) && self.can_sow(!self.side),
            Move::Sow(pit) => {
                let p = pit.index();
                Side::owner(p) == self.side && self.board.get(p) >= 2 && {
                    let mut b = self.board;
                    b.sow(p).is_some()
                }
            }
        }
    }

    /// Plays `m` if it is legal; otherwise returns why not and leaves the
    /// position unchanged. A sowing is checked by playing it, so a legal
    /// move is sown once, not once to check and once to play.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        let played = match m {
            Move::Pass => {
                let forced = self.is_legal(Move::Pass);
                if forced {
                    self.side = !self.side;
                }
                forced
            }
            Move::Sow(pit) => {
                let p = pit.index();
                Side::owner(p) == self.side && self.board.get(p) >= 2 && self.try_sow(p)
            }
        };
        if played {
            Ok(())
        } else {
            Err(IllegalMove {
                mv: m,
                legal: self.legal_moves(),
            })
        }
    }

    /// Plays `m` without checking it. `m` must be legal: an endless or
    /// foreign sowing or a pass that is not forced leaves the position in an
    /// unspecified (but valid) state.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        match m {
            Move::Pass => self.side = !self.side,
            Move::Sow(pit) => {
                let ok = self.try_sow(pit.index());
                debug_assert!(ok, "play_unchecked of an endless sowing");
            }
        }
    }

    /// The position after `m`, if `m` is legal.
    pub fn after(&self, m: Move) -> Result<Position, IllegalMove> {
        let mut next = *self;
        next.play(m)?;
        Ok(next)
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
