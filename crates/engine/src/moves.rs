//! Pits, moves and the fixed-capacity move list.

use std::fmt;
use std::str::FromStr;

use crate::{PITS, ROW};

/// A pit number, 0..=11 in sowing order (see `RULES.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit(u8);

impl Pit {
    /// The pit with this number, if it is on the board.
    pub const fn new(index: usize) -> Option<Pit> {
        if index < PITS {
            Some(Pit(index as u8))
        } else {
            None
        }
    }

    /// The pit number, 0..=11.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A move: sow from one of the mover's pits, or pass when no sowing is legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Lift the seeds of this pit and sow them.
    Sow(Pit),
    /// The forced pass of a player with no legal sowing.
    Pass,
}

impl Move {
    /// `Move::Sow` from pit `index`, if it is on the board.
    pub const fn sow(index: usize) -> Option<Move> {
        match Pit::new(index) {
            Some(pit) => Some(Move::Sow(pit)),
            None => None,
        }
    }

    /// The pit sown from, or `None` for a pass.
    pub const fn pit(self) -> Option<Pit> {
        match self {
            Move::Sow(pit) => Some(pit),
            Move::Pass => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Sow(pit) => pit.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a string is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    text: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a move: expected a pit number 0..11 or `pass`",
            self.text.escape_debug()
        )
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses `0`..`11` or `pass`. Surrounding whitespace is accepted; signs,
    /// leading zeros (other than `0` itself) and anything else are not.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let t = s.trim();
        let err = || ParseMoveError { text: s.to_owned() };
        if t == "pass" {
            return Ok(Move::Pass);
        }
        if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        if t.len() == 2 && t.starts_with('0') {
            return Err(err());
        }
        let n: usize = t.parse().map_err(|_| err())?;
        Move::sow(n).ok_or_else(err)
    }
}

/// The legal moves of a position: at most one per pit of the mover's row, or a
/// single pass. Stored inline, so generating moves never allocates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MoveList {
    moves: [Move; ROW],
    len: u8,
}

impl MoveList {
    pub(crate) const fn new() -> MoveList {
        MoveList {
            moves: [Move::Pass; ROW],
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there is no move at all: the game is over.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl fmt::Display for MoveList {
    /// The moves separated by single spaces, e.g. `0 2 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            m.fmt(f)?;
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
