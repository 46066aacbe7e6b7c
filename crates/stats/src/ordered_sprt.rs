//! An SPRT whose verdict does not depend on the order results arrive in.
//!
//! Spread over many machines, game pairs finish in any order, and which
//! finish first is not random: short games come back sooner, and game
//! length correlates with the result (a crash or a blunder ends a game
//! early). Counting pairs as they arrive, as fishtest and OpenBench do,
//! lets that bias into the test (fishtest issue 933). Here the pairs are
//! numbered before any is played, and only the longest unbroken prefix of
//! complete pairs counts, taken in pair order and evaluated at whole batches;
//! the first batch boundary where a bound is crossed decides, and pairs
//! beyond it are overrun, never counted. So the verdict and the number of
//! pairs it rests on are exactly those of one process playing the pairs in
//! order, whatever the arrival order: a pure function of the set of results.
//!
//! Memory stays flat: the pentanomial counts, plus the complete pairs that
//! arrived ahead of the prefix (bounded when the players keep a bounded
//! look-ahead).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::pentanomial::Pentanomial;
use crate::result::PlayerResult;
use crate::sprt::{Sprt, SprtDecision, SprtStatus};

/// The first player's results in games 0 and 1 of a pair.
pub type PairOutcome = [PlayerResult; 2];

/// Where an [`OrderedSprt`] stands.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OrderedStatus {
    /// LLR, bounds and decision at the last evaluated batch boundary.
    pub status: SprtStatus,
    /// Pairs counted: the evaluated prefix (the deciding one, once decided).
    pub counted: u64,
    /// Their pentanomial counts.
    pub counts: Pentanomial,
    /// Complete pairs past the counted ones: waiting for the prefix to reach
    /// them, or, once decided, the overrun.
    pub beyond: u64,
}

impl OrderedStatus {
    /// True once a bound has been crossed.
    pub fn decided(&self) -> bool {
        self.status.decision != SprtDecision::Continue
    }
}

/// The SPRT over the in-order prefix of numbered game pairs.
#[derive(Clone, Debug)]
pub struct OrderedSprt {
    sprt: Sprt,
    batch: u64,
    /// Pairs `0..next` are complete and in `counts`.
    next: u64,
    counts: Pentanomial,
    /// The state at the last batch boundary.
    evaluated: OrderedStatus,
    /// Complete pairs at or after `next`, before the decision.
    waiting: BTreeMap<u64, PairOutcome>,
    /// Complete pairs past the deciding boundary.
    overrun: BTreeSet<u64>,
}

impl OrderedSprt {
    /// A test evaluated every `batch` pairs (1: after every pair; 0 is
    /// taken as 1).
    pub fn new(sprt: Sprt, batch: u64) -> OrderedSprt {
        OrderedSprt {
            sprt,
            batch: batch.max(1),
            next: 0,
            counts: Pentanomial::default(),
            evaluated: OrderedStatus {
                status: sprt.status(0.0),
                counted: 0,
                counts: Pentanomial::default(),
                beyond: 0,
            },
            waiting: BTreeMap::new(),
            overrun: BTreeSet::new(),
        }
    }

    /// The test's parameters.
    pub fn sprt(&self) -> &Sprt {
        &self.sprt
    }

    /// Pairs complete in order from pair 0 (the prefix), counted or not.
    pub fn prefix(&self) -> u64 {
        self.next
    }

    /// Where the test stands.
    pub fn status(&self) -> OrderedStatus {
        let beyond = if self.evaluated.decided() {
            self.overrun.len()
        } else {
            self.waiting.len()
        };
        OrderedStatus {
            beyond: beyond as u64 + (self.next - self.evaluated.counted),
            ..self.evaluated
        }
    }

    /// Adds complete pair number `index`. A pair already known is ignored
    /// (the same pair read twice).
    pub fn add(&mut self, index: u64, outcome: PairOutcome) {
        self.add_with(index, outcome, |_| {});
    }

    /// As [`OrderedSprt::add`], calling `on_batch` with the status at each
    /// batch boundary the prefix reaches (for a path of the LLR).
    pub fn add_with(
        &mut self,
        index: u64,
        outcome: PairOutcome,
        mut on_batch: impl FnMut(&OrderedStatus),
    ) {
        if self.evaluated.decided() {
            if index >= self.evaluated.counted {
                self.overrun.insert(index);
            }
            return;
        }
        if index < self.next {
            return;
        }
        self.waiting.entry(index).or_insert(outcome);
        while let Some(outcome) = self.waiting.remove(&self.next) {
            self.counts.add_pair(outcome[0], outcome[1]);
            self.next += 1;
            if !self.next.is_multiple_of(self.batch) {
                continue;
            }
            self.evaluated = OrderedStatus {
                status: self.sprt.status_pentanomial(&self.counts),
                counted: self.next,
                counts: self.counts,
                beyond: 0,
            };
            on_batch(&self.evaluated);
            if self.evaluated.decided() {
                // Everything that arrived ahead is overrun.
                self.overrun = std::mem::take(&mut self.waiting).into_keys().collect();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::EloModel;
    use PlayerResult::*;

    fn sprt() -> Sprt {
        Sprt::new(0.0, 100.0, 0.05, 0.05, EloModel::Normalized).unwrap()
    }

    #[test]
    fn only_the_unbroken_prefix_counts() {
        let mut t = OrderedSprt::new(sprt(), 1);
        t.add(1, [Win, Win]);
        t.add(2, [Win, Draw]);
        assert_eq!(
            (t.prefix(), t.status().counted, t.status().beyond),
            (0, 0, 2)
        );
        t.add(0, [Loss, Loss]);
        let s = t.status();
        assert_eq!((s.counted, s.beyond), (3, 0));
        assert_eq!(s.counts, Pentanomial::new(1, 0, 0, 0, 1, 1));
        t.add(1, [Loss, Loss]);
        assert_eq!(t.status().counts, s.counts, "a pair read twice counts once");
    }

    #[test]
    fn batches_are_evaluated_whole() {
        let mut t = OrderedSprt::new(sprt(), 4);
        let mut boundaries = Vec::new();
        for i in 0..6 {
            t.add_with(i, [Draw, Draw], |s| boundaries.push(s.counted));
        }
        assert_eq!(boundaries, [4]);
        assert_eq!((t.status().counted, t.status().beyond), (4, 2));
    }

    #[test]
    fn pairs_past_the_decision_are_overrun() {
        let mut t = OrderedSprt::new(sprt(), 1);
        t.add(40, [Win, Win]);
        let mut i = 0;
        while !t.status().decided() {
            t.add(i, [Win, Win]);
            i += 1;
        }
        let decided = t.status();
        assert_eq!(decided.status.decision, SprtDecision::AcceptH1);
        assert_eq!(decided.counted, i);
        assert_eq!(decided.beyond, 1, "pair 40 arrived early");
        t.add(i, [Loss, Loss]);
        t.add(i, [Loss, Loss]);
        t.add(0, [Loss, Loss]);
        let after = t.status();
        assert_eq!(
            (after.counted, after.counts),
            (decided.counted, decided.counts)
        );
        assert_eq!(after.beyond, 2);
    }
}
