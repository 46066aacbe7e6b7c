//! Game-pair (pentanomial) counts.
//!
//! When each opening is played twice with colours swapped, the two games
//! are correlated (a lopsided opening tends to give one win each), so the
//! pair, not the game, is the independent sample. Counting pairs by their
//! total score (0, 1/2, 1, 3/2 or 2 points) and taking the variance over
//! pairs gives honest, usually narrower, intervals; fishtest's SPRT uses
//! these counts. fastchess keeps "one win one loss" (WL) apart from "two
//! draws" (DD) though both score 1 of 2; so does this type.

use serde::Serialize;

use crate::estimate::{summarize, HeadToHead};
use crate::result::PlayerResult;

/// Game pairs of one player against another, by the pair's outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Pentanomial {
    /// Pairs lost twice (0 points).
    pub ll: u64,
    /// Pairs with a loss and a draw (1/2 point).
    pub ld: u64,
    /// Pairs with a win and a loss (1 point).
    pub wl: u64,
    /// Pairs with two draws (1 point).
    pub dd: u64,
    /// Pairs with a win and a draw (3/2 points).
    pub wd: u64,
    /// Pairs won twice (2 points).
    pub ww: u64,
}

impl Pentanomial {
    /// Counts in fastchess's order: ll, ld, wl, dd, wd, ww.
    pub fn new(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
        Pentanomial {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        }
    }

    /// Counts in fishtest's order `[LL, LD, WL+DD, WD, WW]` (the WL+DD bin
    /// is stored as `dd`, since the split is unknown).
    pub fn from_fishtest(counts: [u64; 5]) -> Pentanomial {
        Pentanomial::new(counts[0], counts[1], 0, counts[2], counts[3], counts[4])
    }

    /// Counts one more pair, given the player's results in its two games.
    pub fn add_pair(&mut self, first: PlayerResult, second: PlayerResult) {
        use PlayerResult::*;
        match (first, second) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
    }

    /// The same counts seen from the opponent.
    pub fn reversed(&self) -> Pentanomial {
        Pentanomial::new(self.ww, self.wd, self.wl, self.dd, self.ld, self.ll)
    }

    /// Counts by pair score, fishtest's order: `[LL, LD, WL+DD, WD, WW]`.
    pub fn counts(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts().iter().sum()
    }

    /// Mean score per game (a pair's points divided by two, averaged),
    /// `None` without pairs.
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| {
            let c = self.counts();
            (0..5).map(|i| c[i] as f64 * i as f64 / 4.0).sum::<f64>() / n as f64
        })
    }

    /// Empirical variance of a pair's mean score, `None` without pairs.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.pairs() as f64;
        let c = self.counts();
        Some(
            (0..5)
                .map(|i| c[i] as f64 / n * (i as f64 / 4.0 - s).powi(2))
                .sum(),
        )
    }

    /// Score, Elo and nElo with 95% intervals and LOS, computed as
    /// fastchess's `EloPentanomial` does (samples are pairs; nElo uses
    /// `sqrt(2 * variance)` as the per-game standard deviation).
    pub fn head_to_head(&self) -> HeadToHead {
        let pairs = self.pairs();
        let score = self.score();
        let variance = self.variance().unwrap_or(0.0);
        let (elo, nelo, los) = summarize(
            pairs,
            score.unwrap_or(0.5),
            variance,
            (2.0 * variance).sqrt(),
        );
        HeadToHead {
            games: 2 * pairs,
            score,
            draw_ratio: (pairs > 0).then(|| (self.wl + self.dd) as f64 / pairs as f64),
            elo,
            nelo,
            los,
        }
    }
}

impl std::ops::AddAssign for Pentanomial {
    fn add_assign(&mut self, o: Pentanomial) {
        self.ll += o.ll;
        self.ld += o.ld;
        self.wl += o.wl;
        self.dd += o.dd;
        self.wd += o.wd;
        self.ww += o.ww;
    }
}
