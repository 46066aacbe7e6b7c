//! The transposition table: values of positions already searched, keyed by
//! `Position::hash()` (board and side to move), with the best move found.
//!
//! Values are future values (see [`crate::eval`]), so an entry holds for any
//! capture history. An entry whose whole subtree reached the end of the game
//! within the search is marked [`SOLVED`]: its bound is exact at any depth,
//! which lets iterative deepening notice when it has solved the position.

use aboure_engine::{Move, Position};

/// The depth recorded for a subtree searched to the end of every line.
pub const SOLVED: u8 = u8::MAX;

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact (for its depth).
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

/// One slot: 16 bytes.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    value: i16,
    depth: u8,
    /// 0 empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
    /// Pit + 1, or 0 for no move (a pass or nothing).
    pit: u8,
    generation: u8,
}

/// A stored entry, read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The stored value, centi-seeds of future margin.
    pub value: i32,
    /// The depth it was searched to, or [`SOLVED`].
    pub depth: u8,
    /// What the value bounds.
    pub bound: Bound,
    /// The best (or cut-off) move found, if it was a sowing.
    pub best: Option<Move>,
}

/// A fixed-size, always-allocated table.
pub struct Table {
    slots: Vec<Slot>,
    generation: u8,
}

impl Table {
    /// A table of about `megabytes` MB (at least one slot).
    pub fn new(megabytes: usize) -> Table {
        let n = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1);
        let mut slots = vec![Slot::default(); n];
        // A zeroed allocation may come lazily from the operating system, a
        // page at a time on first touch; a search touching fresh pages pays
        // milliseconds for it on its first move. Touch every page now.
        let per_page = 4096 / std::mem::size_of::<Slot>();
        for slot in slots.iter_mut().step_by(per_page) {
            // SAFETY: `slot` is a valid, aligned, exclusive reference.
            unsafe { std::ptr::write_volatile(slot, Slot::default()) };
        }
        Table {
            slots,
            generation: 0,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.generation = 0;
    }

    /// Marks a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = &self.slots[self.index(key)];
        if s.bound == 0 || s.key != key {
            return None;
        }
        Some(Entry {
            value: s.value as i32,
            depth: s.depth,
            bound: match s.bound {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: if s.pit == 0 {
                None
            } else {
                Move::sow(s.pit as usize - 1)
            },
        })
    }

    /// Stores a result, replacing the slot's entry unless that one is deeper
    /// and from this search.
    #[inline]
    pub fn store(&mut self, key: u64, value: i32, depth: u8, bound: Bound, best: Move) {
        let generation = self.generation;
        let i = self.index(key);
        let s = &mut self.slots[i];
        if s.bound != 0 && s.key != key && s.generation == generation && s.depth > depth {
            return;
        }
        *s = Slot {
            key,
            value: value.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            pit: best.pit().map_or(0, |p| p.index() as u8 + 1),
            generation,
        };
    }

    /// The line of best moves stored from `pos`, at most `max` long.
    pub fn line(&self, pos: &Position, max: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut seen = Vec::new();
        let mut pos = *pos;
        while line.len() < max {
            let moves = pos.legal_moves();
            let m = if moves.as_slice() == [Move::Pass] {
                Move::Pass
            } else {
                match self.probe(pos.hash()).and_then(|e| e.best) {
                    Some(m) if moves.contains(m) => m,
                    _ => break,
                }
            };
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            pos.play_unchecked(m);
            line.push(m);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(1);
        let pos = Position::startpos();
        let key = pos.hash();
        assert_eq!(t.probe(key), None);
        let m = Move::sow(2).unwrap();
        t.store(key, -250, 4, Bound::Lower, m);
        let e = t.probe(key).unwrap();
        assert_eq!(
            e,
            Entry {
                value: -250,
                depth: 4,
                bound: Bound::Lower,
                best: Some(m)
            }
        );
        assert_eq!(t.line(&pos, 5)[0], m);
        t.clear();
        assert_eq!(t.probe(key), None);
    }

    #[test]
    fn deeper_entries_of_this_search_survive() {
        let mut t = Table::new(1);
        let n = t.slots.len() as u64;
        // Two keys that land in the same slot.
        let a = 5u64;
        let b = a + (u64::MAX / n) / 4;
        assert_eq!(t.index(a), t.index(b));
        t.store(a, 1, 9, Bound::Exact, Move::Pass);
        t.store(b, 2, 3, Bound::Exact, Move::Pass);
        assert_eq!(t.probe(a).unwrap().value, 1);
        t.new_search();
        t.store(b, 2, 3, Bound::Exact, Move::Pass);
        assert_eq!(t.probe(b).unwrap().value, 2);
        assert_eq!(t.probe(a), None);
    }
}
