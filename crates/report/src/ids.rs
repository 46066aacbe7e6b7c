//! The game ids a report has counted, 8 bytes each.
//!
//! A report counts a game read twice (a shard copied twice, a file given
//! twice) once, so it must remember every id; a million ids as strings
//! would be most of its memory. Each id is kept as a 64-bit hash instead,
//! in a table that uses that hash as it is, with the file that had it
//! first in its top bits, so a duplicate's warning can name that file.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// The ids seen, by [`IdKey`].
pub(crate) type GameIds = HashSet<IdKey, BuildHasherDefault<IdHasher>>;

/// A game id's 64-bit hash, of which 56 bits identify it, and the 8 others
/// the file that had it first (files from the 256th on share the last
/// number, and a duplicate of theirs names "an earlier file"). Two ids share 56 bits with probability 2^-56: for a million
/// games, one chance in 140,000 that two distinct games count as one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IdKey(u64);

const FILE_BITS: u32 = 8;
pub(crate) const LAST_FILE: usize = (1 << FILE_BITS) - 1;
const ID_MASK: u64 = u64::MAX >> FILE_BITS;

impl IdKey {
    pub(crate) fn new(hash: u64, file: usize) -> IdKey {
        let file = file.min(LAST_FILE) as u64;
        IdKey((hash & ID_MASK) | (file << (64 - FILE_BITS)))
    }

    pub(crate) fn file(self) -> usize {
        (self.0 >> (64 - FILE_BITS)) as usize
    }
}

impl PartialEq for IdKey {
    fn eq(&self, other: &IdKey) -> bool {
        self.0 & ID_MASK == other.0 & ID_MASK
    }
}

impl Eq for IdKey {}

impl Hash for IdKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The table reads bits from both ends of the hash; spread the id's
        // 56 bits over all 64.
        state.write_u64((self.0 & ID_MASK).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
}

/// The key is already a hash: the table uses it as it is.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}
