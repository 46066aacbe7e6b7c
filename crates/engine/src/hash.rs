//! Zobrist hashing of positions, for transposition tables and repetition.
//!
//! The hash covers the board and the side to move, not the captures: within
//! one game a board fixes how many seeds were captured, and no future of a
//! position depends on who captured what so far. Two positions with the same
//! board and side to move therefore play out identically and share a hash.

use crate::position::Position;
use crate::{PITS, TOTAL_SEEDS};

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const COUNTS: usize = TOTAL_SEEDS as usize + 1;

/// `KEYS[pit][seeds]`; an empty pit contributes nothing.
static KEYS: [[u64; COUNTS]; PITS] = {
    let mut table = [[0u64; COUNTS]; PITS];
    let mut p = 0;
    while p < PITS {
        let mut n = 1;
        while n < COUNTS {
            table[p][n] = splitmix((p * COUNTS + n) as u64 * 0x1000_0000_01b3);
            n += 1;
        }
        p += 1;
    }
    table
};

const NORTH_TO_MOVE: u64 = splitmix(0xab0u64 << 40);

impl Position {
    /// A 64-bit Zobrist hash of the board and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = if self.side == crate::Side::North {
            NORTH_TO_MOVE
        } else {
            0
        };
        for (p, keys) in KEYS.iter().enumerate() {
            h ^= keys[self.board.get(p) as usize];
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use crate::{Move, Position};

    #[test]
    fn side_and_board_change_the_hash() {
        let a = Position::startpos();
        let mut b = a;
        b.play(Move::sow(0).unwrap()).unwrap();
        assert_ne!(a.hash(), b.hash());
        let flipped: Position = "4,4,4,4,4,4/4,4,4,4,4,4 n 0 0".parse().unwrap();
        assert_ne!(a.hash(), flipped.hash());
        let moved: Position = "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0".parse().unwrap();
        assert_eq!(a.hash(), moved.hash());
    }
}
