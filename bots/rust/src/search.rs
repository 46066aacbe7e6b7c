//! The move choice: a one-ply capture maximiser. Every legal sowing is
//! played, the ones that capture the most seeds are kept, and a seeded random
//! number picks among them, so the `seed` option gives a reproducible but
//! varied bot. This is the part to make stronger (a deeper search, a better
//! evaluation).

use crate::rules::{Move, Position};

/// mulberry32: a small, well-mixed 32-bit generator, the same in every kit.
pub struct Random(u32);

impl Random {
    pub fn new(seed: u32) -> Random {
        Random(seed)
    }

    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x6d2b_79f5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u32) as usize
    }
}

/// The move chosen, the seed margin from the mover's view right after it,
/// and the positions looked at.
pub struct Choice {
    pub mv: Move,
    pub score: i64,
    pub nodes: usize,
}

/// The biggest capture, ties broken by `rng`.
pub fn choose(position: &Position, rng: &mut Random) -> Choice {
    let moves = position.children();
    let Some(most) = moves.iter().map(|c| c.taken).max() else {
        return Choice {
            mv: Move::Pass,
            score: 0,
            nodes: 0,
        };
    };
    let best: Vec<_> = moves.iter().filter(|c| c.taken == most).collect();
    let pick = best[rng.below(best.len())];
    let s = pick.position.score();
    let me = position.side;
    Choice {
        mv: pick.mv,
        score: i64::from(s[me]) - i64::from(s[1 - me]),
        nodes: moves.len(),
    }
}
