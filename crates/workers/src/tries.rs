//! Where a worker's claim tries went: what each one found, whose pair it
//! was, and how far the run was when it was made. A try that plays a pair
//! costs the filesystem what it must; the others (a pair held by a live
//! worker, one just finished, one whose games were recorded before the
//! worker knew) are the waste a crowd of workers makes, and these counts
//! say which kind, by whom and when (`aboure bench workers` prints them).

use super::{Refused, Slice, Unit};

/// What a claim try found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// A free pair with games to play: a claim.
    Claimed,
    /// Another live worker holds its lock.
    Held,
    /// Its claim file was removed under the try: just finished.
    Removed,
    /// Acquired, but all its games were recorded already: the worker's
    /// view of the run was older than the pair's end.
    Recorded,
}

impl Found {
    /// Every kind, in the order of [`Tries`]' columns.
    pub const ALL: [Found; 4] = [Found::Claimed, Found::Held, Found::Removed, Found::Recorded];

    fn index(self) -> usize {
        self as usize
    }
}

impl From<Refused> for Found {
    fn from(why: Refused) -> Found {
        match why {
            Refused::Held => Found::Held,
            Refused::Removed => Found::Removed,
        }
    }
}

/// Whose pair a try was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// One the roster said a worker no longer alive still held.
    Orphan,
    /// One of the worker's own slice (`--shard K/N`).
    Own,
    /// Any other: the worker had nothing of its own slice left to try.
    Other,
}

impl Whose {
    /// Every kind, in the order of [`Tries`]' rows.
    pub const ALL: [Whose; 3] = [Whose::Orphan, Whose::Own, Whose::Other];

    /// Whose `unit` is, to a worker of `slice` (an orphan is said so by
    /// the caller).
    pub fn of(unit: Unit, slice: Option<Slice>) -> Whose {
        match slice.is_some_and(|s| s.has(unit)) {
            true => Whose::Own,
            false => Whose::Other,
        }
    }
}

/// Quarters of the run, by the games recorded as the trying worker saw
/// them.
pub const PHASES: usize = 4;

/// A worker's claim tries, counted by what they found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tries {
    /// By quarter of the run (0: under a quarter of the games recorded),
    /// then by [`Found`].
    pub by_phase: [[u64; 4]; PHASES],
    /// By [`Whose`], then by [`Found`].
    pub by_whose: [[u64; 4]; 3],
    /// Claims that found nothing to play (the worker then waits).
    pub empty: u64,
}

impl Tries {
    /// Counts a try of a `whose` pair that found `found`, made with
    /// `recorded` of the run's `games` recorded.
    pub fn add(&mut self, whose: Whose, found: Found, (recorded, games): (u64, u64)) {
        let phase = (recorded * PHASES as u64)
            .checked_div(games)
            .map_or(0, |p| (p as usize).min(PHASES - 1));
        self.by_phase[phase][found.index()] += 1;
        self.by_whose[whose as usize][found.index()] += 1;
    }

    /// Every try that found `found`.
    pub fn found(&self, found: Found) -> u64 {
        self.by_whose.iter().map(|row| row[found.index()]).sum()
    }

    /// Every try, whatever it found.
    pub fn total(&self) -> u64 {
        self.by_whose.iter().flatten().sum()
    }

    /// Adds another worker's tries to these.
    pub fn add_all(&mut self, other: &Tries) {
        let mine = self.by_phase.iter_mut().chain(&mut self.by_whose);
        let theirs = other.by_phase.iter().chain(&other.by_whose);
        for (a, b) in mine.flatten().zip(theirs.flatten()) {
            *a += b;
        }
        self.empty += other.empty;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tries_are_counted_by_quarter_whose_and_what_they_found() {
        let mut t = Tries::default();
        t.add(Whose::Own, Found::Claimed, (0, 8));
        t.add(Whose::Own, Found::Claimed, (1, 8));
        t.add(Whose::Other, Found::Held, (2, 8));
        t.add(Whose::Other, Found::Recorded, (7, 8));
        t.add(Whose::Orphan, Found::Claimed, (8, 8));
        t.add(Whose::Other, Found::Removed, (0, 0));
        assert_eq!(t.by_phase[0], [2, 0, 1, 0]);
        assert_eq!(t.by_phase[1], [0, 1, 0, 0]);
        assert_eq!(
            t.by_phase[3],
            [1, 0, 0, 1],
            "the last game is in the last quarter"
        );
        assert_eq!(t.by_whose[Whose::Other as usize], [0, 1, 1, 1]);
        assert_eq!((t.found(Found::Claimed), t.total()), (3, 6));
        let mut sum = t;
        sum.add_all(&t);
        assert_eq!((sum.total(), sum.by_phase[3][3]), (12, 2));
    }
}
