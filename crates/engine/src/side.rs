//! The two players.

use std::fmt;
use std::ops::Not;

/// A player. South owns pits 0..=5 and moves first; North owns pits 6..=11.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The first player, owner of pits 0 to 5.
    South,
    /// The second player, owner of pits 6 to 11.
    North,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// 0 for South, 1 for North: the index used in `[south, north]` pairs.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The first pit of this side's row.
    #[inline]
    pub const fn first_pit(self) -> usize {
        self as usize * crate::ROW
    }

    /// The letter used in position notation: `s` or `n`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 's',
            Side::North => 'n',
        }
    }

    /// The side owning `pit` (0..12).
    #[inline]
    pub const fn owner(pit: usize) -> Side {
        if pit < crate::ROW {
            Side::South
        } else {
            Side::North
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "south",
            Side::North => "north",
        })
    }
}
