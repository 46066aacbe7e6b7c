//! The seed counts of the twelve pits, packed one byte a pit into a `u128`,
//! and the two hot operations on them: sowing (with relays) and capturing.
//!
//! A lap of `n` seeds from pit `p` drops one seed into each of the pits
//! `p, p+1, ..., p+n-1` (mod 12). With the counts packed as bytes that is one
//! addition of a precomputed mask, `n / 12` times a row of ones plus the
//! partial lap `RANGE[p][n % 12]`; no byte can overflow since no pit holds
//! more than 48 seeds. A whole move is a handful of such additions.
//!
//! Playouts and searches spend nearly all their time here, so the shape of
//! the code follows the machine: a move is inlined into its caller and the
//! board never leaves its two registers; each lap waits only on one table
//! load, one addition and one byte extraction; the end of a move is one bit
//! test; and the rare sowing that relays for long goes on out of line under
//! the exact cycle check. `aboure bench engine` measures the result.

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

/// `LAP[p][n]`: the mask added by a lap of `n` seeds from `p` (after `p` was
/// emptied), and the pit the last seed falls into. 12 x 49 entries, 9 KiB:
/// one load replaces the divisions of the lap arithmetic.
static LAP: [[(u128, u8); TOTAL + 1]; PITS] = {
    let mut table = [[(0u128, 0u8); TOTAL + 1]; PITS];
    let mut p = 0;
    while p < PITS {
        let mut n = 1;
        while n <= TOTAL {
            let full = n / PITS;
            let rest = n % PITS;
            table[p][n] = (
                ONES * full as u128 + RANGE[p][rest],
                ((p + n - 1) % PITS) as u8,
            );
            n += 1;
        }
        p += 1;
    }
    table
};

/// `CLEAR[p]`: every bit set but those of pit `p`'s byte.
static CLEAR: [u128; PITS] = {
    let mut table = [0u128; PITS];
    let mut p = 0;
    while p < PITS {
        table[p] = !(0xffu128 << (p * 8));
        p += 1;
    }
    table
};

const TOTAL: usize = crate::TOTAL_SEEDS as usize;

/// Laps sown before the exact cycle check starts. Almost every move ends well
/// before this, so the common case pays nothing for the check.
const CYCLE_CHECK_AFTER: u32 = 24;

/// Bit `c` set when a lap whose last pit now holds `c` ends the move: 1 (it
/// was empty), 2 or 4 (a capture). Any other count relays.
const ENDS: u64 = 0b10110;
/// Bit `c` set when a pit holding `c` is captured: 2 and 4.
const TAKEN: u64 = 0b10100;

/// Seed counts of the twelve pits, one byte each (bytes 12..16 are zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Board(pub(crate) u128);

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
        // A u128 lives in two registers: pick the half, then shift it. This
        // is cheaper than a variable shift of the whole u128.
        let half = if pit < 8 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        (half >> ((pit & 7) * 8)) as u8
    }

    /// Empties `pit` and returns what it held.
    #[inline(always)]
    pub(crate) fn take(&mut self, pit: usize) -> u8 {
        let n = self.get(pit);
        self.0 &= CLEAR[pit];
        n
    }

    /// The six counts of the row starting at `first` (0 or 6) in bytes 0..6.
    #[inline(always)]
    fn row(self, first: usize) -> u64 {
        // Two fixed shifts and a select are cheaper than a variable shift of
        // a u128.
        let low = self.0 as u64;
        let high = (self.0 >> 48) as u64;
        (if first == 0 { low } else { high }) & 0xffff_ffff_ffff
    }

    /// Seeds in the six pits starting at `first` (0 or 6).
    #[inline]
    pub(crate) fn row_sum(self, first: usize) -> u8 {
        let row = self.row(first);
        // Sum of the six bytes by multiplication: each byte is at most 48, so
        // the partial sums fit in a byte and the total lands in byte 5.
        (row.wrapping_mul(0x0101_0101_0101) >> 40) as u8
    }

    /// Bit `i` set when pit `first + i` holds at least two seeds.
    #[inline]
    pub(crate) fn movable(self, first: usize) -> u8 {
        // Each byte is at most 48, so adding 126 sets its top bit exactly when
        // it holds 2 or more. The multiplication moves the top bit of byte k
        // (bit 8k + 7) to bit 56 + k: it adds 49 - 7k to its position. Every
        // other product lands below bit 56 or above bit 63 at a position of
        // its own, so nothing carries into the six bits read.
        const GATHER: u64 = 1 << 49 | 1 << 42 | 1 << 35 | 1 << 28 | 1 << 21 | 1 << 14;
        let row = self.row(first);
        let high = (row + 0x7e7e_7e7e_7e7e) & 0x8080_8080_8080;
        (high.wrapping_mul(GATHER) >> 56) as u8
    }

    /// Sows from `start` (which must hold at least two seeds) with relays until
    /// the turn ends, and returns the pit the last seed fell into: it holds 1
    /// (no capture) or 2 or 4 (capture from it, see [`Board::capture`]).
    /// Returns `None`, with the board in an unspecified state, when the
    /// sowing never ends.
    ///
    /// Within a move no seed leaves the board, so the state (board, pit to sow
    /// next) ranges over a finite set: a move that does not end revisits a
    /// state. A move that is still relaying after a few laps goes on out of
    /// line, under Brent's cycle finding, which watches for that exact
    /// repetition: a long but finite move is never rejected, and the short
    /// common case keeps its registers for itself.
    #[inline(always)]
    pub(crate) fn sow(&mut self, start: usize) -> Option<usize> {
        let mut pit = start;
        // The count of the pit to sow next: read once, as the end of the lap
        // before, both to decide whether to relay and to index the next lap.
        let mut n = self.get(pit);
        // The first lap on its own: most moves end with it, and a branch of
        // its own lets the predictor learn that apart from the relays.
        pit = self.add_lap(pit, n);
        n = self.get(pit);
        if ENDS >> n & 1 != 0 {
            return Some(pit);
        }
        for _ in 1..CYCLE_CHECK_AFTER {
            pit = self.add_lap(pit, n);
            n = self.get(pit);
            if ENDS >> n & 1 != 0 {
                return Some(pit);
            }
        }
        let (board, end) = sow_watching_for_cycles(*self, pit);
        *self = board;
        end
    }

    /// One lap from `pit`: lifts its seeds and drops them one by one starting
    /// with `pit` itself. Returns the pit the last seed fell into.
    #[inline(always)]
    pub(crate) fn lap(&mut self, pit: usize) -> usize {
        self.add_lap(pit, self.get(pit))
    }

    /// [`Board::lap`] when the caller already knows that `pit` holds `n`.
    #[inline(always)]
    fn add_lap(&mut self, pit: usize, n: u8) -> usize {
        debug_assert!(n >= 2 && n == self.get(pit));
        self.0 &= CLEAR[pit];
        let (mask, last) = LAP[pit][n as usize];
        self.0 += mask;
        last as usize
    }

    /// Takes the seeds of `last` if it holds 2 or 4, and of every pit before
    /// it (walking clockwise, wrapping) that holds exactly 2 or 4; stops at
    /// the first pit that holds anything else, or after all twelve. Returns
    /// the seeds taken: 0 when `last` holds 1, the end of a quiet move.
    #[inline]
    pub(crate) fn capture(&mut self, last: usize) -> u8 {
        let mut total = 0;
        let mut pit = last;
        for _ in 0..PITS {
            let c = self.get(pit);
            if TAKEN >> c & 1 == 0 {
                break;
            }
            total += c;
            self.0 &= CLEAR[pit];
            pit = if pit == 0 { PITS - 1 } else { pit - 1 };
        }
        total
    }
}

/// The rest of a sowing still relaying from `pit` after
/// `CYCLE_CHECK_AFTER` laps, with Brent's cycle finding. By value, so that
/// the board of the hot loop never has to live in memory.
#[cold]
#[inline(never)]
fn sow_watching_for_cycles(mut board: Board, mut pit: usize) -> (Board, Option<usize>) {
    let mut saved = (board, pit);
    let mut power = 1u32;
    let mut since = 0u32;
    loop {
        pit = board.lap(pit);
        if ENDS >> board.get(pit) & 1 != 0 {
            return (board, Some(pit));
        }
        if saved == (board, pit) {
            return (board, None);
        }
        since += 1;
        if since == power {
            saved = (board, pit);
            power *= 2;
            since = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn movable_is_exact_on_every_row_pattern() {
        // Each pit 0, 1, 2 or 48 seeds: every combination of movable pits,
        // with the largest counts next to each other.
        for code in 0..4usize.pow(6) {
            let mut pits = [0u8; PITS];
            let mut want = 0u8;
            for (i, pit) in pits[6..].iter_mut().enumerate() {
                *pit = [0, 1, 2, 48][code / 4usize.pow(i as u32) % 4];
                want |= u8::from(*pit >= 2) << i;
            }
            pits.copy_within(6.., 0);
            let b = Board::from_pits(pits);
            assert_eq!((b.movable(0), b.movable(6)), (want, want), "{pits:?}");
        }
    }

    #[test]
    fn movable_marks_pits_with_two_or_more() {
        let b = Board::from_pits([2, 1, 0, 48, 3, 1, 1, 2, 0, 0, 5, 47]);
        assert_eq!(b.movable(0), 0b011001);
        assert_eq!(b.movable(6), 0b110010);
    }

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
    fn lap_of_every_size_from_every_pit_matches_seed_by_seed() {
        for p in 0..PITS {
            for n in 2..=TOTAL {
                let mut pits = [0u8; PITS];
                pits[p] = n as u8;
                let mut b = Board::from_pits(pits);
                let last = b.lap(p);
                let mut want = [0u8; PITS];
                for k in 0..n {
                    want[(p + k) % PITS] += 1;
                }
                assert_eq!((b.pits(), last), (want, (p + n - 1) % PITS), "{n} from {p}");
            }
        }
    }

    #[test]
    fn capture_stops_after_a_full_circle() {
        let mut b = Board::from_pits([2; PITS]);
        assert_eq!(b.capture(3), 24);
        assert_eq!(b.pits(), [0; PITS]);
    }

    #[test]
    fn a_quiet_end_captures_nothing() {
        let pits = [2, 1, 2, 4, 0, 0, 0, 0, 0, 0, 0, 39];
        let mut b = Board::from_pits(pits);
        assert_eq!(b.capture(1), 0);
        assert_eq!(b.pits(), pits);
    }

    /// The walk the rules describe, pit by pit.
    fn capture_by_walking(pits: &mut [u8; PITS], last: usize) -> u8 {
        let mut total = std::mem::take(&mut pits[last]);
        let mut p = last;
        for _ in 1..PITS {
            p = (p + PITS - 1) % PITS;
            if pits[p] != 2 && pits[p] != 4 {
                break;
            }
            total += std::mem::take(&mut pits[p]);
        }
        total
    }

    #[test]
    fn capture_matches_the_walk_of_the_rules() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for _ in 0..100_000 {
            // Mostly 2s and 4s, so that long chains and wraps are common.
            let mut pits = [0u8; PITS];
            for p in &mut pits {
                *p = [0, 1, 2, 2, 3, 4, 4, 5, 12][rng.gen_range(0..9)];
            }
            let last = rng.gen_range(0..PITS);
            pits[last] = if rng.gen() { 2 } else { 4 };
            let mut b = Board::from_pits(pits);
            let taken = b.capture(last);
            let want = capture_by_walking(&mut pits, last);
            assert_eq!((taken, b.pits()), (want, pits), "capture from {last}");
        }
    }
}
