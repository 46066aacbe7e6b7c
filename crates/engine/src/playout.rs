//! Random playouts: a whole game of uniformly random legal moves, the inner
//! loop of Monte Carlo bots and the engine benchmark. No allocation; the
//! caller brings the random number generator.

use rand_core::RngCore;

use crate::position::{Outcome, Position};

/// A playout gives up after this many plies and scores the position as an
/// adjudicated end (each side keeps its row). Random play can wander among
/// capture-free positions for a long time; real games end long before this.
pub const MAX_PLAYOUT_PLIES: u32 = 1000;

/// What a playout reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    /// The final seeds (see [`Outcome`]).
    pub outcome: Outcome,
    /// Plies played, forced passes included.
    pub plies: u32,
    /// True when the ply limit ended the game rather than the rules.
    pub adjudicated: bool,
}

/// `PICK[mask][r]`: for a random byte `r`, one of the pits the 6-bit `mask`
/// marks, each equally likely, or `NONE` for the few bytes beyond the largest
/// multiple of the count (drawn again, so that the choice stays uniform).
/// 16 KiB: the choice of a move is one load, with no count of the candidates
/// and no multiplication between the board and the sowing.
static PICK: [[u8; 256]; 64] = {
    let mut table = [[NONE; 256]; 64];
    let mut mask = 1;
    while mask < 64 {
        let mut pits = [0u8; 6];
        let mut count = 0;
        let mut i = 0;
        while i < 6 {
            if mask & (1 << i) != 0 {
                pits[count] = i as u8;
                count += 1;
            }
            i += 1;
        }
        let limit = 256 - 256 % count;
        let mut r = 0;
        while r < limit {
            table[mask][r] = pits[r % count];
            r += 1;
        }
        mask += 1;
    }
    table
};
const NONE: u8 = u8::MAX;

/// Plays uniformly random legal moves from `start` to the end of the game.
pub fn playout<R: RngCore + ?Sized>(start: &Position, rng: &mut R) -> PlayoutResult {
    let mut pos = *start;
    let mut plies = 0u32;
    let mut passed = false;
    while plies < MAX_PLAYOUT_PLIES {
        let first = pos.side.first_pit();
        let mut mask = pos.board.movable(first);
        let mut moved = false;
        while mask != 0 {
            // Pick one of the candidate pits at random; an endless one is
            // dropped and another picked, so the choice stays uniform over
            // the legal moves.
            let i = PICK[mask as usize & 63][rng.next_u32() as usize & 255];
            if i == NONE {
                continue;
            }
            let i = i as usize;
            if pos.try_sow(first + i) {
                moved = true;
                break;
            }
            mask &= !(1 << i);
        }
        if !moved {
            if passed {
                // Neither side can sow: the game is over. (The pass before
                // this was not a ply: the opponent had no move either.)
                plies -= 1;
                break;
            }
            pos.side = !pos.side;
            passed = true;
        } else {
            passed = false;
        }
        plies += 1;
    }
    PlayoutResult {
        outcome: Outcome { score: pos.score() },
        plies,
        adjudicated: plies >= MAX_PLAYOUT_PLIES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_is_uniform_over_the_marked_pits() {
        for (mask, row) in PICK.iter().enumerate().skip(1) {
            let mut seen = [0u32; 6];
            for &i in row {
                if i != NONE {
                    assert!(mask & 1 << i != 0, "mask {mask:06b} picked pit {i}");
                    seen[i as usize] += 1;
                }
            }
            let count = mask.count_ones();
            let each = 256 / count;
            for (i, &n) in seen.iter().enumerate() {
                let want = if mask & 1 << i != 0 { each } else { 0 };
                assert_eq!(n, want, "mask {mask:06b}, pit {i}");
            }
        }
    }
}
