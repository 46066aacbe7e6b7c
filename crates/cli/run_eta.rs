//! The time-left part of `aboure run`'s progress line: games done, games per
//! minute since this process started, and the estimated time left (for an
//! SPRT from the LLR's drift, bounded by the pairs still allowed). The
//! arithmetic is `aboure_serve::eta`'s, shared with the live page.

use std::collections::HashMap;
use std::time::Instant;

use aboure_arbiter::sprt;
use aboure_records::GameRecord;
use aboure_serve::eta::{games_per_minute, human_duration, seconds_left, sprt_remaining_pairs};
use aboure_stats::{Pentanomial, Sprt};

/// What the estimate is made from.
pub struct RunEta {
    started: Instant,
    /// Games in the schedule (for an SPRT, its maximum).
    total: u64,
    /// Games done, and those done before this process started.
    done: u64,
    previous: u64,
    sprt: Option<SprtPairs>,
}

/// An SPRT's pairs so far, counted as games finish: a pair's first game
/// waits (one per game in flight) for its partner.
struct SprtPairs {
    test: Sprt,
    first: String,
    max_pairs: u64,
    waiting: HashMap<([String; 2], u32), GameRecord>,
    counts: Pentanomial,
}

impl RunEta {
    /// For a run whose SPRT (if any) is `test`, `first` against the other,
    /// with at most `max_pairs` pairs.
    pub fn new(test: Option<(Sprt, String, u64)>) -> RunEta {
        RunEta {
            started: Instant::now(),
            total: 0,
            done: 0,
            previous: 0,
            sprt: test.map(|(test, first, max_pairs)| SprtPairs {
                test,
                first,
                max_pairs,
                waiting: HashMap::new(),
                counts: Pentanomial::default(),
            }),
        }
    }

    /// The run starts: `total` games scheduled, `previous` already played.
    pub fn start(&mut self, total: usize, previous: &[GameRecord]) {
        self.total = total as u64;
        self.started = Instant::now();
        self.previous = previous.len() as u64;
        self.done = 0;
        for g in previous {
            self.add(g);
        }
        self.done = 0;
    }

    /// A game finished.
    pub fn add(&mut self, game: &GameRecord) {
        self.done += 1;
        let Some(s) = &mut self.sprt else { return };
        let key = (game.pairing.clone(), game.pair);
        match s.waiting.remove(&key) {
            Some(partner) => {
                s.counts += sprt::pentanomial(&s.first, &[partner, game.clone()]);
            }
            None => {
                s.waiting.insert(key, game.clone());
            }
        }
    }

    /// `34.5 games/min, about 3 min left` (what is known of it).
    pub fn line(&self) -> String {
        let games = self.previous + self.done;
        let pace = games_per_minute(self.done + 1, self.started.elapsed().as_secs_f64());
        let remaining = match &self.sprt {
            Some(s) => {
                let status = s.test.status_pentanomial(&s.counts);
                sprt_remaining_pairs(
                    status.llr,
                    status.lower,
                    status.upper,
                    s.counts.pairs(),
                    Some(s.max_pairs),
                )
                .map(|p| 2.0 * p)
            }
            None => Some(self.total.saturating_sub(games) as f64),
        };
        // Games done are the bar's position, shown beside this.
        let mut parts = Vec::new();
        if let Some(p) = pace {
            parts.push(format!("{p:.1} games/min"));
        }
        if let Some(s) = remaining.and_then(|r| seconds_left(r, pace)) {
            parts.push(format!("about {} left", human_duration(s)));
        }
        parts.join(", ")
    }
}
