//! Results kept by game pair, so that a bootstrap can resample pairs whole.
//!
//! The two games of a pair share an opening, so their results are
//! correlated (a lopsided opening tends to give one win each): resampling
//! games one by one would treat them as independent and misstate the
//! spread, as W/D/L intervals do on paired games. So a pair is resampled
//! whole. The fit needs nothing but counts by colour, and a pair's outcome
//! has nine kinds (the first bot's result as South, times its result as
//! North), so a pairing's pairs are nine counts ([`SeatedPairs`]); drawing
//! `N` pairs with replacement from all of a field's is drawing those counts
//! (nine per pairing) from a multinomial with the observed shares: exactly
//! the same resample, in a time and memory that do not grow with the
//! games. Games in no pair (CSV and PGN rows, a pair whose partner is
//! missing) are resampled as singletons the same way, three kinds (the
//! result) per pairing and colour.
//!
//! The pairs are drawn from the whole field, not within each pairing: a
//! pairing's few pairs, resampled apart, spread by only `(n - 1) / n` of
//! their variance (two thirds at 3 pairs a pairing): resampled that way,
//! the intervals of a field of 6 bots playing 3 pairs a pairing held the
//! truth in 82 of 100 simulated tournaments (the ordinary field of
//! [`crate::coverage`]), and in 95% pooled (`aboure bench coverage`). A
//! resample's number of pairs per pairing then varies, as it would have
//! had the schedule been drawn at random; on a large file the two agree.

use rand::Rng;
use rand_distr::{Binomial, Distribution};
use serde::Serialize;

use super::RatingError;
use crate::result::PlayerResult;
use crate::wdl::Wdl;

/// One pairing's complete game pairs by outcome, seats kept:
/// `counts[s][t]` pairs in which the first bot's result was `s` as South
/// and `t` as North (by [`result_index`]: win, draw, loss).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SeatedPairs {
    /// Pairs by the first bot's results as South and as North.
    pub counts: [[u64; 3]; 3],
}

impl SeatedPairs {
    /// Counts one pair: the first bot's results as South and as North.
    pub fn add(&mut self, as_south: PlayerResult, as_north: PlayerResult) {
        self.counts[result_index(as_south)][result_index(as_north)] += 1;
    }

    /// The same pairs from the other bot's view (its South game is the
    /// first bot's North game).
    pub fn reversed(&self) -> SeatedPairs {
        let mut out = SeatedPairs::default();
        for s in 0..3 {
            for t in 0..3 {
                out.counts[2 - t][2 - s] = self.counts[s][t];
            }
        }
        out
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }
}

/// 0 for a win, 1 for a draw, 2 for a loss.
pub fn result_index(result: PlayerResult) -> usize {
    match result {
        PlayerResult::Win => 0,
        PlayerResult::Draw => 1,
        PlayerResult::Loss => 2,
    }
}

/// Every game of a field, its pairs apart: what [`super::bootstrap`]
/// resamples.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedResults {
    players: usize,
    /// `pairs[i * n + j]` for `i < j`: `i`'s pairs against `j`.
    pairs: Vec<SeatedPairs>,
    /// Games in no pair by colour: `singles[s * n + t]`, South `s`
    /// against North `t`, from `s`'s view.
    singles: Vec<Wdl>,
}

impl PairedResults {
    /// The games `by_colour` (`by_colour[s * n + t]`: South `s` against
    /// North `t`, from `s`'s view), none of them paired yet.
    pub fn new(players: usize, by_colour: &[Wdl]) -> PairedResults {
        let mut singles = vec![Wdl::default(); players * players];
        for (k, s) in singles.iter_mut().enumerate() {
            if k / players != k % players {
                *s = by_colour.get(k).copied().unwrap_or_default();
            }
        }
        PairedResults {
            players,
            pairs: vec![SeatedPairs::default(); players * players],
            singles,
        }
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Marks games of `a` against `b` as the game pairs `pairs` (from
    /// `a`'s view); refused if the games are not there to pair.
    pub fn pair_up(&mut self, a: usize, b: usize, pairs: &SeatedPairs) -> Result<(), RatingError> {
        let n = self.players;
        if a >= n || b >= n || a == b {
            return Err(RatingError::InvalidOption(format!(
                "game pairs of players {a} and {b} ({n} players)"
            )));
        }
        let (i, j, p) = if a < b {
            (a, b, *pairs)
        } else {
            (b, a, pairs.reversed())
        };
        let mut south = self.singles[i * n + j];
        let mut north = self.singles[j * n + i];
        for s in 0..3 {
            for t in 0..3 {
                let k = p.counts[s][t];
                // i's South game, from i's view; i's North game, from j's.
                let short = take(&mut south, s, k) || take(&mut north, 2 - t, k);
                if short {
                    return Err(RatingError::InvalidOption(format!(
                        "players {i} and {j} have {} game pairs of a kind they did not play",
                        k
                    )));
                }
            }
        }
        self.singles[i * n + j] = south;
        self.singles[j * n + i] = north;
        self.pairs[i * n + j].counts = add(self.pairs[i * n + j].counts, p.counts);
        Ok(())
    }

    /// Adds the game pairs `pairs` of `a` against `b` (from `a`'s view),
    /// both games of each.
    pub fn add_pairs(&mut self, a: usize, b: usize, pairs: &SeatedPairs) {
        let n = self.players;
        if a >= n || b >= n || a == b {
            return;
        }
        let (i, j, p) = if a < b {
            (a, b, *pairs)
        } else {
            (b, a, pairs.reversed())
        };
        self.pairs[i * n + j].counts = add(self.pairs[i * n + j].counts, p.counts);
    }

    /// Every game by colour, as [`super::fit_counts`] takes them.
    pub fn by_colour(&self) -> Vec<Wdl> {
        let n = self.players;
        let mut out = self.singles.clone();
        for i in 0..n {
            for j in i + 1..n {
                let p = &self.pairs[i * n + j];
                for s in 0..3 {
                    for t in 0..3 {
                        put(&mut out[i * n + j], s, p.counts[s][t]);
                        put(&mut out[j * n + i], 2 - t, p.counts[s][t]);
                    }
                }
            }
        }
        out
    }

    /// The results among `members` only, renumbered in that order.
    pub fn restrict(&self, members: &[usize]) -> PairedResults {
        let (n, m) = (self.players, members.len());
        let mut out = PairedResults::new(m, &[]);
        for (a, &i) in members.iter().enumerate() {
            for (b, &j) in members.iter().enumerate() {
                out.singles[a * m + b] = self.singles[i * n + j];
                if a < b {
                    out.pairs[a * m + b] = if i < j {
                        self.pairs[i * n + j]
                    } else {
                        self.pairs[j * n + i].reversed()
                    };
                }
            }
        }
        out
    }

    /// A resample by colour: as many pairs as there are, drawn with
    /// replacement from all of them, and as many singletons likewise.
    pub fn resample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<Wdl> {
        let n = self.players;
        let mut pairs = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let (ij, ji) = (i * n + j, j * n + i);
                for (s, row) in self.pairs[ij].counts.iter().enumerate() {
                    for (t, &count) in row.iter().enumerate() {
                        pairs.push(Kind {
                            count,
                            first: (ij, s),
                            second: Some((ji, 2 - t)),
                        });
                    }
                }
            }
        }
        let singles: Vec<Kind> = (0..n * n)
            .flat_map(|cell| {
                let w = self.singles[cell];
                [w.wins, w.draws, w.losses]
                    .into_iter()
                    .enumerate()
                    .map(move |(r, count)| Kind {
                        count,
                        first: (cell, r),
                        second: None,
                    })
            })
            .collect();
        let mut out = vec![Wdl::default(); n * n];
        for mut pool in [pairs, singles] {
            pool.retain(|k| k.count > 0);
            let counts: Vec<u64> = pool.iter().map(|k| k.count).collect();
            for (kind, drawn) in pool.iter().zip(multinomial(rng, &counts)) {
                for (cell, r) in [Some(kind.first), kind.second].into_iter().flatten() {
                    put(&mut out[cell], r, drawn);
                }
            }
        }
        out
    }
}

/// A kind of pair or singleton in a resample: how many the results hold,
/// and the cell and result index of each of its games.
struct Kind {
    count: u64,
    first: (usize, usize),
    second: Option<(usize, usize)>,
}

/// Removes `k` games of result `index` from `wdl`; true if there were fewer.
fn take(wdl: &mut Wdl, index: usize, k: u64) -> bool {
    let slot = match index {
        0 => &mut wdl.wins,
        1 => &mut wdl.draws,
        _ => &mut wdl.losses,
    };
    match slot.checked_sub(k) {
        Some(left) => {
            *slot = left;
            false
        }
        None => true,
    }
}

/// Adds `k` games of result `index` to `wdl`.
fn put(wdl: &mut Wdl, index: usize, k: u64) {
    match index {
        0 => wdl.wins += k,
        1 => wdl.draws += k,
        _ => wdl.losses += k,
    }
}

fn add(a: [[u64; 3]; 3], b: [[u64; 3]; 3]) -> [[u64; 3]; 3] {
    let mut out = a;
    for s in 0..3 {
        for t in 0..3 {
            out[s][t] += b[s][t];
        }
    }
    out
}

/// As many draws as `counts` holds, with replacement, from the kinds
/// `counts` counts: a multinomial with the observed shares, drawn as a
/// chain of binomials (each kind given the draws the earlier ones left).
fn multinomial<R: Rng + ?Sized>(rng: &mut R, counts: &[u64]) -> Vec<u64> {
    let mut left_draws: u64 = counts.iter().sum();
    let mut left_weight = left_draws;
    let mut out = Vec::with_capacity(counts.len());
    for &c in counts {
        let x = if left_draws == 0 || c == 0 {
            0
        } else if c >= left_weight {
            left_draws
        } else {
            let p = c as f64 / left_weight as f64;
            Binomial::new(left_draws, p).map_or(0, |b| b.sample(rng))
        };
        out.push(x);
        left_draws -= x;
        left_weight -= c;
    }
    out
}
