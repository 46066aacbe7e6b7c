//! The seed counts of the twelve pits, packed one byte a pit into a `u128`,
//! and the two hot operations on them: sowing (with relays) and capturing.
//!
//! A lap of `n` seeds from pit `p` drops one seed into each of the pits
//! `p, p+1, ..., p+n-1` (mod 12). With the counts packed as bytes that is one
//! addition of a precomputed mask, `n / 12` times a row of ones plus the
//! partial lap `RANGE[p][n % 12]`; no byte can overflow since no pit holds
//! more than 48 seeds. A whole move is a handful of such additions.

use crate::PITS;

/// One in each of the twelve pit bytes.
const ONES: u128 = 0x0101_0101_0101_0101_0101_0101;

/// `RANGE[p][k]`: one seed in each of the `k` pits starting at `p`, wrapping.
static RANGE: [[u128; PITS]; PITS] = {
    let mut table = [[0u128; PITS]; PITS];
    let mut p = 0;
    while p < PITS {
        let mut k = 0;
        while k < PITS {
            let mut mask = 0u128;
            let mut i = 0;
            while i < k {
                mask |= 1u128 << (((p + i) % PITS) * 8);
                i += 1;
            }
            table[p][k] = mask;
            k += 1;
        }
        p += 1;
    }
    table
};

/// Laps sown before the exact cycle check starts. Almost every move ends well
/// before this, so the common case pays nothing for the check.
const CYCLE_CHECK_AFTER: u32 = 24;

/// Seed counts of the twelve pits, one byte each (bytes 12..16 are zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Board(pub(crate) u128);

/// How a sowing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SowEnd {
    /// The last seed fell into an empty pit: no capture.
    Quiet,
    /// The last seed made the pit hold 2 or 4: capture from it backwards.
    Capture(usize),
}

impl Board {
    pub(crate) fn from_pits(pits: [u8; PITS]) -> Board {
        let mut bytes = [0u8; 16];
        bytes[..PITS].copy_from_slice(&pits);
        Board(u128::from_le_bytes(bytes))
    }

    pub(crate) fn pits(self) -> [u8; PITS] {
        let bytes = self.0.to_le_bytes();
        let mut pits = [0u8; PITS];
        pits.copy_from_slice(&bytes[..PITS]);
        pits
    }

    #[inline(always)]
    pub(crate) fn get(self, pit: usize) -> u8 {
        (self.0 >> (pit * 8)) as u8
    }

    /// Empties `pit` and returns what it held.
    #[inline(always)]
    pub(crate) fn take(&mut self, pit: usize) -> u8 {
        let n = self.get(pit);
        self.0 &= !(0xffu128 << (pit * 8));
        n
    }

    /// Seeds in the six pits starting at `first` (0 or 6).
    #[inline]
    pub(crate) fn row_sum(self, first: usize) -> u8 {
        let row = (self.0 >> (first * 8)) as u64 & 0xffff_ffff_ffff;
        // Sum of the six bytes by multiplication: each byte is at most 48, so
        // the partial sums fit in a byte and the total lands in byte 5.
        (row.wrapping_mul(0x0101_0101_0101) >> 40) as u8
    }

    /// Bit `i` set when pit `first + i` holds at least two seeds.
    #[inline]
    pub(crate) fn movable(self, first: usize) -> u8 {
        let mut mask = 0u8;
        for i in 0..crate::ROW {
            mask |= ((self.get(first + i) >= 2) as u8) << i;
        }
        mask
    }

    /// Sows from `start` (which must hold at least two seeds) with relays until
    /// the turn ends. Returns `None`, with the board in an unspecified state,
    /// when the sowing never ends.
    ///
    /// Within a move no seed leaves the board, so the state (board, pit to sow
    /// next) ranges over a finite set: a move that does not end revisits a
    /// state. After a few laps Brent's cycle finding watches for that exact
    /// repetition, so a long but finite move is never rejected.
    #[inline]
    pub(crate) fn sow(&mut self, start: usize) -> Option<SowEnd> {
        let mut pit = start;
        let mut laps = 0u32;
        let mut saved = (Board(u128::MAX), usize::MAX);
        let mut power = 1u32;
        let mut since = 0u32;
        loop {
            let last = self.lap(pit);
            match self.get(last) {
                1 => return Some(SowEnd::Quiet),
                2 | 4 => return Some(SowEnd::Capture(last)),
                _ => pit = last,
            }
            laps += 1;
            if laps > CYCLE_CHECK_AFTER {
                if saved.0 == *self && saved.1 == pit {
                    return None;
                }
                since += 1;
                if since == power {
                    saved = (*self, pit);
                    power *= 2;
                    since = 0;
                }
            }
        }
    }

    /// One lap from `pit`: lifts its seeds and drops them one by one starting
    /// with `pit` itself. Returns the pit the last seed fell into.
    #[inline(always)]
    pub(crate) fn lap(&mut self, pit: usize) -> usize {
        let n = self.take(pit) as usize;
        debug_assert!(n >= 2);
        let full = n / PITS;
        let rest = n - full * PITS;
        self.0 += ONES * full as u128 + RANGE[pit][rest];
        let last = pit + n - 1;
        // n <= 48, so at most four wraps.
        last % PITS
    }

    /// Takes the 2 or 4 seeds of `last` and of every pit before it (walking
    /// clockwise, wrapping) that holds exactly 2 or 4; stops at the first pit
    /// that holds anything else. Returns the seeds taken.
    #[inline]
    pub(crate) fn capture(&mut self, last: usize) -> u8 {
        let mut total = self.take(last);
        let mut pit = last;
        for _ in 1..PITS {
            pit = if pit == 0 { PITS - 1 } else { pit - 1 };
            let c = self.get(pit);
            if c != 2 && c != 4 {
                break;
            }
            total += self.take(pit);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_sums() {
        let b = Board::from_pits([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 48]);
        assert_eq!(b.row_sum(0), 21);
        assert_eq!(b.row_sum(6), 93);
    }

    #[test]
    fn lap_wraps_and_does_not_skip_origin() {
        let mut b = Board::from_pits([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13]);
        let last = b.lap(11);
        // 13 seeds: origin gets the first and the thirteenth.
        assert_eq!(last, 11);
        assert_eq!(b.pits(), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
    }

    #[test]
    fn capture_stops_after_a_full_circle() {
        let mut b = Board::from_pits([2; PITS]);
        assert_eq!(b.capture(3), 24);
        assert_eq!(b.pits(), [0; PITS]);
    }
}
