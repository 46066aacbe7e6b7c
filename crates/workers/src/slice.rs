//! A worker's slice of the units (`--shard K/N`, a hint), and the units a
//! worker tries next: its own slice's first, then its neighbours'.

use std::ops::Range;

use crate::ledger::Ledger;
use crate::Unit;

/// A worker's slice of the units: `--shard K/N` as a hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    /// 0-based: K - 1.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Slice {
    /// True if `unit` is in this slice.
    pub fn has(&self, unit: Unit) -> bool {
        self.count == 0 || unit % self.count == self.index
    }
}

/// The units worth trying, best first: those of `window` not complete in
/// `ledger` and not in `busy` (seen held by another worker), at most
/// `most` of them. A worker of a slice takes its own first, in schedule
/// order; then the next slice's (`K + 1`, then `K + 2`, ..., wrapping),
/// each in schedule order. So workers that have run out of their own
/// spread over the others' slices, one neighbour each, instead of all
/// knocking on the same lowest free unit. Without a slice, the free units
/// in schedule order.
pub fn candidates(
    window: Range<Unit>,
    ledger: &Ledger,
    busy: &std::collections::BTreeSet<Unit>,
    slice: Option<Slice>,
    most: usize,
) -> Vec<Unit> {
    let start = window.start.max(ledger.complete_below());
    let end = window.end;
    let free = move |u: &Unit| !ledger.complete(*u) && !busy.contains(u);
    let Some(s) = slice.filter(|s| s.count > 0) else {
        return (start..end).filter(free).take(most).collect();
    };
    // Slice `k`'s units of the window, in order.
    let column = move |k: u64| {
        let first = start + (k + s.count - start % s.count) % s.count;
        (first..end).step_by(s.count as usize)
    };
    let mut found = Vec::new();
    for d in 0..s.count {
        let k = (s.index + d) % s.count;
        found.extend(column(k).filter(free).take(most - found.len()));
        if found.len() >= most {
            break;
        }
    }
    found
}
