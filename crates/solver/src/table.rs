//! The transposition table: proven bounds on the exact value of positions.
//!
//! A position's exact value depends only on its board and side to move (the
//! captures so far are not part of it), so an entry keyed by
//! `Position::hash()` holds for every game that reaches that board. Entries
//! carry no search depth: a bound is either proven or absent, and two bounds
//! found by different searches intersect. That is why one table can serve
//! every position of a game, and why an interrupted search leaves it valid.
//!
//! Entries are grouped four to a 64-byte bucket; a new position replaces the
//! entry of the bucket that cost the least work to compute.

/// Entries per bucket: four 16-byte entries fill one cache line.
const BUCKET: usize = 4;

/// Proven bounds on a position's exact value, and the best move found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// The value is at least this.
    pub(crate) lower: i32,
    /// The value is at most this.
    pub(crate) upper: i32,
    /// The pit of the best move found (`PASS` for a pass, `NONE` for none).
    pub(crate) best: u8,
}

/// `Bounds::best` for a pass.
pub(crate) const PASS: u8 = 12;
/// `Bounds::best` when no move is known.
pub(crate) const NONE: u8 = 255;

/// One entry: `[key, data]`. The key is the full hash, zero for an empty
/// entry (a real hash of zero is simply never stored, see `store`); the data
/// packs lower (i8) | upper (i8) << 8 | best << 16 | work << 24. Plain
/// words, so that a new table is zeroed memory the system hands out lazily.
type Entry = [u64; 2];

fn unpack(data: u64) -> Bounds {
    Bounds {
        lower: data as u8 as i8 as i32,
        upper: (data >> 8) as u8 as i8 as i32,
        best: (data >> 16) as u8,
    }
}

fn work(data: u64) -> u8 {
    (data >> 24) as u8
}

fn pack(b: Bounds, work: u8) -> u64 {
    (b.lower as i8 as u8 as u64)
        | ((b.upper as i8 as u8 as u64) << 8)
        | ((b.best as u64) << 16)
        | ((work as u64) << 24)
}

/// A fixed-size table of proven bounds.
pub(crate) struct Table {
    entries: Vec<Entry>,
    /// Buckets minus one (the bucket count is a power of two).
    mask: usize,
    /// Positions currently stored.
    filled: usize,
}

impl Table {
    /// A table of about `megabytes` MB (at least one bucket).
    pub(crate) fn new(megabytes: usize) -> Table {
        let bytes = megabytes.saturating_mul(1 << 20);
        let bucket_bytes = BUCKET * std::mem::size_of::<Entry>();
        let mut buckets = 1usize;
        while buckets.saturating_mul(2).saturating_mul(bucket_bytes) <= bytes {
            buckets *= 2;
        }
        Table {
            entries: vec![[0; 2]; buckets * BUCKET],
            mask: buckets - 1,
            filled: 0,
        }
    }

    fn bucket(&self, hash: u64) -> usize {
        // The high bits pick the bucket; the full hash is checked on probe.
        ((hash >> 32) as usize ^ hash as usize) & self.mask
    }

    /// The bounds stored for `hash`, if any.
    #[inline]
    pub(crate) fn probe(&self, hash: u64) -> Option<Bounds> {
        if hash == 0 {
            return None;
        }
        let b = self.bucket(hash) * BUCKET;
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| e[0] == hash)
            .map(|e| unpack(e[1]))
    }

    /// Records proven bounds for `hash`, intersecting them with what the
    /// table already knows. `nodes` is the work the search took, which
    /// decides what a full bucket gives up.
    #[inline]
    pub(crate) fn store(&mut self, hash: u64, bounds: Bounds, nodes: u64) {
        if hash == 0 {
            return;
        }
        let cost = (64 - nodes.leading_zeros()) as u8;
        let b = self.bucket(hash) * BUCKET;
        let bucket = &mut self.entries[b..b + BUCKET];
        if let Some(e) = bucket.iter_mut().find(|e| e[0] == hash) {
            let old = unpack(e[1]);
            let merged = Bounds {
                lower: old.lower.max(bounds.lower),
                upper: old.upper.min(bounds.upper),
                best: if bounds.best == NONE {
                    old.best
                } else {
                    bounds.best
                },
            };
            e[1] = pack(merged, cost.max(work(e[1])));
            return;
        }
        let victim = match bucket.iter().position(|e| e[0] == 0) {
            Some(i) => {
                self.filled += 1;
                i
            }
            None => {
                let mut i = 0;
                for (j, e) in bucket.iter().enumerate() {
                    if work(e[1]) < work(bucket[i][1]) {
                        i = j;
                    }
                }
                i
            }
        };
        bucket[victim] = [hash, pack(bounds, cost)];
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.entries.fill([0; 2]);
        self.filled = 0;
    }

    /// Positions stored.
    pub(crate) fn len(&self) -> usize {
        self.filled
    }

    /// Positions the table can hold.
    pub(crate) fn capacity(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_intersect_and_round_trip() {
        let mut t = Table::new(1);
        let b = |lower, upper, best| Bounds { lower, upper, best };
        t.store(42, b(-48, 10, 3), 100);
        assert_eq!(t.probe(42), Some(b(-48, 10, 3)));
        t.store(42, b(-6, 48, NONE), 10);
        assert_eq!(t.probe(42), Some(b(-6, 10, 3)));
        assert_eq!(t.probe(43), None);
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn a_full_bucket_gives_up_the_cheapest_entry() {
        let mut t = Table::new(0);
        assert_eq!(t.capacity(), BUCKET);
        let exact = |v| Bounds {
            lower: v,
            upper: v,
            best: NONE,
        };
        for k in 1..=4u64 {
            t.store(k, exact(k as i32), 1000 * k);
        }
        t.store(9, exact(9), 5000);
        assert_eq!(t.probe(1), None);
        assert_eq!(t.probe(9), Some(exact(9)));
        assert_eq!(t.probe(2), Some(exact(2)));
    }
}
