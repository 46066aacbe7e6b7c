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

/// A uniformly random number below `n` (n <= 6), by multiply-shift.
#[inline(always)]
fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// `CHOICES[mask]`: how many pits the 6-bit `mask` marks, and which, in order.
/// A table lookup beats counting bits on CPUs without a popcount instruction.
static CHOICES: [(u8, [u8; 6]); 64] = {
    let mut table = [(0u8, [0u8; 6]); 64];
    let mut mask = 0;
    while mask < 64 {
        let mut n = 0;
        let mut i = 0;
        while i < 6 {
            if mask & (1 << i) != 0 {
                table[mask].1[n] = i as u8;
                n += 1;
            }
            i += 1;
        }
        table[mask].0 = n as u8;
        mask += 1;
    }
    table
};

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
            let (count, pits) = &CHOICES[mask as usize];
            let i = pits[below(rng, *count as u32) as usize] as usize;
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
