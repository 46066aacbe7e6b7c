//! A second implementation of the rules, written to be obviously right rather
//! than fast: seeds are dropped one at a time, relays are followed literally,
//! and an endless sowing is found by remembering every state seen in the move.
//! The engine is checked against it.

// Each test binary uses a different part of it.
#![allow(dead_code)]

use std::collections::HashSet;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RefPos {
    pub pits: Vec<u32>,
    /// 0 = South (pits 0..6), 1 = North (pits 6..12).
    pub side: usize,
    pub captured: [u32; 2],
}

impl RefPos {
    pub fn start() -> RefPos {
        RefPos {
            pits: vec![4; 12],
            side: 0,
            captured: [0, 0],
        }
    }

    fn own_pits(&self, side: usize) -> std::ops::Range<usize> {
        if side == 0 {
            0..6
        } else {
            6..12
        }
    }

    /// Plays a sowing from `pit` by the side to move. `None` if it never ends.
    pub fn sow(&self, pit: usize) -> Option<RefPos> {
        let mut pits = self.pits.clone();
        let mut seen = HashSet::new();
        let mut from = pit;
        let last = loop {
            if !seen.insert((pits.clone(), from)) {
                return None;
            }
            let mut hand = pits[from];
            pits[from] = 0;
            let mut at = from;
            // The first seed goes back into the pit it came from.
            pits[at] += 1;
            hand -= 1;
            while hand > 0 {
                at = (at + 1) % 12;
                pits[at] += 1;
                hand -= 1;
            }
            let before = pits[at] - 1;
            if before == 0 || before == 1 || before == 3 {
                break at;
            }
            from = at;
        };
        let mut next = self.clone();
        if pits[last] == 2 || pits[last] == 4 {
            let mut taken = [false; 12];
            let mut at = last;
            while !taken[at] && (pits[at] == 2 || pits[at] == 4) {
                next.captured[self.side] += pits[at];
                pits[at] = 0;
                taken[at] = true;
                at = (at + 11) % 12;
            }
        }
        next.pits = pits;
        next.side = 1 - self.side;
        Some(next)
    }

    /// Legal sowings of `side`, as (pit, position after).
    pub fn sowings(&self, side: usize) -> Vec<(usize, RefPos)> {
        let mut me = self.clone();
        me.side = side;
        self.own_pits(side)
            .filter(|&p| self.pits[p] >= 2)
            .filter_map(|p| me.sow(p).map(|next| (p, next)))
            .collect()
    }

    /// Legal moves: `Some(pit)` for a sowing, `None` for a forced pass.
    pub fn moves(&self) -> Vec<(Option<usize>, RefPos)> {
        let sowings = self.sowings(self.side);
        if !sowings.is_empty() {
            return sowings.into_iter().map(|(p, n)| (Some(p), n)).collect();
        }
        if self.sowings(1 - self.side).is_empty() {
            return Vec::new();
        }
        let mut passed = self.clone();
        passed.side = 1 - self.side;
        vec![(None, passed)]
    }

    pub fn score(&self) -> [u32; 2] {
        [
            self.captured[0] + self.pits[0..6].iter().sum::<u32>(),
            self.captured[1] + self.pits[6..12].iter().sum::<u32>(),
        ]
    }

    pub fn notation(&self) -> String {
        let row = |r: &[u32]| {
            r.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{}/{} {} {} {}",
            row(&self.pits[0..6]),
            row(&self.pits[6..12]),
            if self.side == 0 { "s" } else { "n" },
            self.captured[0],
            self.captured[1]
        )
    }
}

pub fn perft(pos: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.moves()
        .iter()
        .map(|(_, next)| perft(next, depth - 1))
        .sum()
}
