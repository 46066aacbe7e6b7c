//! The details of a move, step by step, for viewers and game logs: the laps
//! sown (with every relay) and the pits captured. The hot paths use
//! `Position::play_unchecked` instead; this one allocates.

use crate::board::Board;
use crate::moves::{Move, Pit};
use crate::position::{IllegalMove, Position};
use crate::Side;

/// One lap of a sowing: the seeds lifted from `from` and where the last fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lap {
    /// The pit the seeds were lifted from (and the first one sown into).
    pub from: Pit,
    /// How many seeds were lifted.
    pub seeds: u8,
    /// The pit the last seed fell into.
    pub last: Pit,
}

/// Everything that happened in one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDetails {
    /// The move.
    pub mv: Move,
    /// Who played it.
    pub side: Side,
    /// The laps in order: the first from the chosen pit, then each relay.
    pub laps: Vec<Lap>,
    /// The captured pits in the order taken (the last pit first, then
    /// backwards), with the seeds each held.
    pub captures: Vec<(Pit, u8)>,
}

impl MoveDetails {
    /// Seeds captured by the move.
    pub fn captured(&self) -> u8 {
        self.captures.iter().map(|&(_, n)| n).sum()
    }
}

fn pit(index: usize) -> Pit {
    Pit::new(index).expect("pit on board")
}

impl Position {
    /// Plays `m` like [`Position::play`] and reports what happened.
    pub fn play_detailed(&mut self, m: Move) -> Result<MoveDetails, IllegalMove> {
        if !self.is_legal(m) {
            return Err(IllegalMove {
                mv: m,
                legal: self.legal_moves(),
            });
        }
        let mut details = MoveDetails {
            mv: m,
            side: self.side,
            laps: Vec::new(),
            captures: Vec::new(),
        };
        let Move::Sow(start) = m else {
            self.side = !self.side;
            return Ok(details);
        };
        // A legal sowing ends, so this loop does too.
        let mut board: Board = self.board;
        let mut from = start.index();
        loop {
            let seeds = board.get(from);
            let last = board.lap(from);
            details.laps.push(Lap {
                from: pit(from),
                seeds,
                last: pit(last),
            });
            match board.get(last) {
                1 => break,
                2 | 4 => {
                    let mut p = last;
                    loop {
                        let c = board.get(p);
                        if (c != 2 && c != 4) || (p == last && !details.captures.is_empty()) {
                            break;
                        }
                        board.take(p);
                        details.captures.push((pit(p), c));
                        p = if p == 0 { crate::PITS - 1 } else { p - 1 };
                    }
                    break;
                }
                _ => from = last,
            }
        }
        let mut check = *self;
        check.play_unchecked(m);
        self.captured[self.side.index()] += details.captured();
        self.board = board;
        self.side = !self.side;
        debug_assert_eq!(check, *self);
        Ok(details)
    }
}
