//! Game pairs matched while games stream in.
//!
//! The first game of a pair waits in `aboure_records::PairBook` (the one
//! book of pairs, whose rule the live SPRT of `aboure run` follows too), a
//! few bytes, until its partner arrives; then the pair is counted, and
//! nothing of it is kept. Memory grows with the pairs in flight (at most
//! the games being played at once when a run is read in order), not with
//! the games. Pairs never match across files: pair numbers of different
//! runs would mix. An SPRT needs its pairs in pair order for the LLR path,
//! so only then are the complete pairs kept (40 bytes each). Each
//! pairing's pairs are also counted by outcome with seats kept
//! ([`SeatedPairs`], nine counts), which is what a bootstrap over pairs
//! resamples.

use std::collections::HashMap;

use aboure_records::{GamePair, PairBook, Seat};
use aboure_stats::bradley_terry::SeatedPairs;
use aboure_stats::Pentanomial;

/// A first game waits under its file, pairing (by player index) and pair.
type PairKey = (usize, [usize; 2], u32);

/// A complete pair of the file `.0`, players by index.
pub(crate) type FilePair = (usize, GamePair<usize>);

#[derive(Clone, Debug)]
pub(crate) struct OpenPairs {
    book: PairBook<PairKey, usize>,
    /// Pair counts of `a` against `b`, from `a`'s view, both ways.
    counts: HashMap<(usize, usize), Pentanomial>,
    /// Pairs of `a` against `b`, `a < b`, from `a`'s view, seats kept.
    seated: HashMap<(usize, usize), SeatedPairs>,
    pairs: u64,
    /// The complete pairs, kept only when an SPRT needs their order.
    kept: Option<Vec<FilePair>>,
}

impl OpenPairs {
    pub fn new(keep_pairs: bool) -> OpenPairs {
        OpenPairs {
            book: PairBook::new(),
            counts: HashMap::new(),
            seated: HashMap::new(),
            pairs: 0,
            kept: keep_pairs.then(Vec::new),
        }
    }

    /// One game of file `file`, of `pairing`'s pair number `pair`.
    pub fn push(&mut self, file: usize, pairing: [usize; 2], pair: u32, seat: Seat<usize>) {
        let Some(p) = self.book.add((file, pairing, pair), pairing, pair, seat) else {
            return;
        };
        let [a, b] = p.pairing;
        self.counts
            .entry((a, b))
            .or_default()
            .add_pair(p.results[0], p.results[1]);
        self.counts
            .entry((b, a))
            .or_default()
            .add_pair(!p.results[0], !p.results[1]);
        // The completing game says who sat South in which game.
        let g = usize::from(seat.game == 1) ^ usize::from(seat.south != a);
        let (as_south, as_north) = (p.results[g], p.results[g ^ 1]);
        if a < b {
            self.seated
                .entry((a, b))
                .or_default()
                .add(as_south, as_north);
        } else {
            self.seated
                .entry((b, a))
                .or_default()
                .add(!as_north, !as_south);
        }
        self.pairs += 1;
        if let Some(kept) = &mut self.kept {
            kept.push((file, p));
        }
    }

    /// Complete pairs of `a` against `b`, from `a`'s view.
    pub fn pentanomial(&self, a: usize, b: usize) -> Pentanomial {
        self.counts.get(&(a, b)).copied().unwrap_or_default()
    }

    /// Complete pairs of each pairing `(a, b)`, `a < b`, from `a`'s view.
    pub fn seated(&self) -> impl Iterator<Item = (usize, usize, &SeatedPairs)> {
        self.seated.iter().map(|(&(a, b), p)| (a, b, p))
    }

    /// Complete pairs counted.
    pub fn pairs(&self) -> u64 {
        self.pairs
    }

    /// The kept pairs in file and pair order (empty unless kept).
    pub fn in_order(&self) -> Vec<FilePair> {
        let mut pairs = self.kept.clone().unwrap_or_default();
        pairs.sort_by_key(|(file, p)| (*file, p.pair));
        pairs
    }
}
