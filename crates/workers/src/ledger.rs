//! Which games of which units are recorded, in any results file of the
//! folder: what a worker checks before it plays a unit and again before it
//! writes a record. It keeps the prefix of complete units as one number
//! and only the units past it, so it stays small while units complete
//! roughly in order.

use std::collections::BTreeMap;

use super::Unit;

/// Recorded games by unit.
#[derive(Clone, Debug)]
pub struct Ledger {
    units: Unit,
    /// Units `0..below` are complete.
    below: Unit,
    /// Units at or past `below` with a game recorded: bit `g` for game `g`.
    past: BTreeMap<Unit, u8>,
    games: u64,
}

const BOTH: u8 = 0b11;

impl Ledger {
    /// Nothing recorded yet of `units` units.
    pub fn new(units: Unit) -> Ledger {
        Ledger {
            units,
            below: 0,
            past: BTreeMap::new(),
            games: 0,
        }
    }

    /// Records game `game` (0 or 1) of `unit`; false if it was already
    /// recorded (or is not a game of the schedule).
    pub fn add(&mut self, unit: Unit, game: u8) -> bool {
        if unit >= self.units || game > 1 || self.has(unit, game) {
            return false;
        }
        *self.past.entry(unit).or_default() |= 1 << game;
        self.games += 1;
        while self.past.get(&self.below) == Some(&BOTH) {
            self.past.remove(&self.below);
            self.below += 1;
        }
        true
    }

    /// True if game `game` of `unit` is recorded.
    pub fn has(&self, unit: Unit, game: u8) -> bool {
        unit < self.below || self.past.get(&unit).is_some_and(|m| m & (1 << game) != 0)
    }

    /// True if both games of `unit` are recorded.
    pub fn complete(&self, unit: Unit) -> bool {
        self.has(unit, 0) && self.has(unit, 1)
    }

    /// Units `0..complete_below()` are all complete.
    pub fn complete_below(&self) -> Unit {
        self.below
    }

    /// Games recorded.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Units in the schedule.
    pub fn units(&self) -> Unit {
        self.units
    }

    /// True once every game of the schedule is recorded.
    pub fn all_done(&self) -> bool {
        self.below >= self.units
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefix_advances_over_complete_units_only() {
        let mut l = Ledger::new(4);
        assert!(l.add(1, 0) && l.add(1, 1) && l.add(0, 1));
        assert_eq!(l.complete_below(), 0);
        assert!(!l.add(1, 1), "recorded twice");
        assert!(!l.add(4, 0) && !l.add(2, 2), "not in the schedule");
        assert!(l.add(0, 0));
        assert_eq!((l.complete_below(), l.games()), (2, 4));
        assert!(l.has(0, 0) && l.complete(1) && !l.complete(2));
        l.add(2, 0);
        l.add(2, 1);
        l.add(3, 1);
        assert!(!l.all_done());
        l.add(3, 0);
        assert!(l.all_done() && l.past.is_empty());
    }
}
