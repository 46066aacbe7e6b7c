//! The few games a report shows in full, chosen while the rest stream past.
//!
//! A page cannot embed a million games, and a report must not hold them to
//! choose. The rule is the one the page states: every forfeit first (the
//! games a reader looks for), then the most recent games, `most` in all, in
//! reading order. Streaming it needs at most `2 * most` items: the first
//! `most` forfeits, and the `most` latest other games. Items may arrive out
//! of order (analysis results from several threads); `seq` is the game's
//! place in reading order.

use std::collections::BTreeMap;

/// A bounded selection of items by game order, forfeits first.
#[derive(Clone, Debug)]
pub(crate) struct Kept<T> {
    most: usize,
    forfeits: BTreeMap<u64, T>,
    recent: BTreeMap<u64, T>,
    offered: u64,
}

impl<T> Kept<T> {
    pub fn new(most: usize) -> Kept<T> {
        Kept {
            most,
            forfeits: BTreeMap::new(),
            recent: BTreeMap::new(),
            offered: 0,
        }
    }

    /// Offers the item of game `seq`; gives back the item it displaces, if any.
    pub fn offer(&mut self, seq: u64, forfeit: bool, item: T) -> Option<T> {
        self.offered += 1;
        let (map, take_first) = if forfeit {
            (&mut self.forfeits, false)
        } else {
            (&mut self.recent, true)
        };
        map.insert(seq, item);
        if map.len() <= self.most {
            return None;
        }
        // Forfeits keep the earliest, the others the latest.
        let out = if take_first {
            map.pop_first()
        } else {
            map.pop_last()
        };
        out.map(|(_, item)| item)
    }

    /// Counts game `seq` without an item: it will not be kept.
    pub fn pass(&mut self) {
        self.offered += 1;
    }

    /// Whether an item of game `seq` would be kept now (so a caller can
    /// skip preparing it).
    pub fn wants(&self, seq: u64, forfeit: bool) -> bool {
        let map = if forfeit {
            &self.forfeits
        } else {
            &self.recent
        };
        if map.len() < self.most {
            return true;
        }
        match (forfeit, map.first_key_value(), map.last_key_value()) {
            (true, _, Some((&last, _))) => seq < last,
            (false, Some((&first, _)), _) => seq > first,
            _ => false,
        }
    }

    /// The selection, in game order.
    pub fn selected(&self) -> Vec<&T> {
        self.selected_most(self.most)
    }

    /// The selection by the same rule with room for `most` items (at most
    /// the room kept), in game order: the earliest forfeits and the latest
    /// others of a larger selection are those of a smaller one.
    pub fn selected_most(&self, most: usize) -> Vec<&T> {
        let most = most.min(self.most);
        let forfeits = self.forfeits.len().min(most);
        let room = most - forfeits;
        let skip = self.recent.len().saturating_sub(room);
        let mut chosen: Vec<(u64, &T)> = self
            .forfeits
            .iter()
            .take(forfeits)
            .chain(self.recent.iter().skip(skip))
            .map(|(&s, t)| (s, t))
            .collect();
        chosen.sort_by_key(|&(s, _)| s);
        chosen.into_iter().map(|(_, t)| t).collect()
    }

    /// Items offered but not in the selection.
    pub fn left_out(&self) -> u64 {
        self.left_out_of(self.most)
    }

    /// Items offered but not in the selection of `most` (see
    /// [`Kept::selected_most`]).
    pub fn left_out_of(&self, most: usize) -> u64 {
        self.offered - self.selected_most(most).len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule stated on the page, on the whole list at once.
    fn by_rule(forfeit: &[bool], most: usize) -> Vec<u64> {
        let n = forfeit.len();
        let mut keep = vec![false; n];
        let mut kept = 0;
        let order = (0..n).filter(|&i| forfeit[i]).chain((0..n).rev());
        for i in order {
            if kept == most {
                break;
            }
            if !keep[i] {
                keep[i] = true;
                kept += 1;
            }
        }
        (0..n as u64).filter(|&i| keep[i as usize]).collect()
    }

    #[test]
    fn streaming_matches_the_rule_in_any_arrival_order() {
        let mut state = 12345u64;
        for case in 0..300 {
            let mut next = || {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                state >> 33
            };
            let n = (next() % 40) as usize;
            let most = (next() % 12) as usize;
            let forfeit: Vec<bool> = (0..n).map(|_| next() % 4 == 0).collect();
            let mut order: Vec<usize> = (0..n).collect();
            // A little shuffling, as results from worker threads arrive.
            for i in 1..n {
                if next() % 3 == 0 {
                    order.swap(i - 1, i);
                }
            }
            let mut kept = Kept::new(most);
            for &i in &order {
                kept.offer(i as u64, forfeit[i], i as u64);
            }
            let got: Vec<u64> = kept.selected().into_iter().copied().collect();
            let expected = by_rule(&forfeit, most);
            assert_eq!(got, expected, "case {case}: {forfeit:?} most {most}");
            assert_eq!(kept.left_out(), (n - expected.len()) as u64);
            for smaller in 0..=most {
                let got: Vec<u64> = kept.selected_most(smaller).into_iter().copied().collect();
                let expected = by_rule(&forfeit, smaller);
                assert_eq!(
                    got, expected,
                    "case {case}: {forfeit:?} most {smaller} of {most}"
                );
                assert_eq!(kept.left_out_of(smaller), (n - expected.len()) as u64);
            }
        }
    }
}
