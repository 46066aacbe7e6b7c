//! The time-left part of `aboure run`'s progress line: games done, games per
//! minute since this process started, and the estimated time left (for an
//! SPRT from the LLR's drift, bounded by the pairs still allowed). The
//! arithmetic is `aboure_stats::eta`'s, shared with the live page.

use std::time::Instant;

use aboure_stats::eta::{games_per_minute, human_duration, seconds_left, sprt_remaining_pairs};
use aboure_stats::OrderedStatus;

/// What the estimate is made from.
pub struct RunEta {
    started: Instant,
    /// Games in the schedule (for an SPRT, its maximum).
    total: u64,
    /// Games done, and those done before this process started.
    done: u64,
    previous: u64,
    /// For an SPRT: its maximum of pairs, and the combined state over every
    /// shard's games as the arbiter counts it (the one it stops on).
    sprt: Option<(u64, Option<OrderedStatus>)>,
}

impl RunEta {
    /// For a run that is an SPRT of at most `max_pairs` pairs, or not.
    pub fn new(max_pairs: Option<u64>) -> RunEta {
        RunEta {
            started: Instant::now(),
            total: 0,
            done: 0,
            previous: 0,
            sprt: max_pairs.map(|m| (m, None)),
        }
    }

    /// The run starts: `total` games scheduled, `previous` already played.
    pub fn start(&mut self, total: usize, previous: usize) {
        self.total = total as u64;
        self.started = Instant::now();
        self.previous = previous as u64;
        self.done = 0;
    }

    /// A game finished.
    pub fn game_finished(&mut self) {
        self.done += 1;
    }

    /// The SPRT's combined state changed.
    pub fn sprt(&mut self, status: OrderedStatus) {
        if let Some((_, s)) = &mut self.sprt {
            *s = Some(status);
        }
    }

    /// For a run with no length in games (a league stopped by its verdict
    /// alone, whose bar counts neighbour pairs): the games and the pace.
    pub fn open_line(&self) -> String {
        let games = self.previous + self.done;
        match games_per_minute(self.done + 1, self.started.elapsed().as_secs_f64()) {
            Some(p) => format!("{games} games, {p:.1} games/min"),
            None => format!("{games} games"),
        }
    }

    /// `34.5 games/min, about 3 min left` (what is known of it).
    pub fn line(&self) -> String {
        let games = self.previous + self.done;
        let pace = games_per_minute(self.done + 1, self.started.elapsed().as_secs_f64());
        let remaining = match &self.sprt {
            Some((max_pairs, Some(s))) => sprt_remaining_pairs(
                s.status.llr,
                s.status.lower,
                s.status.upper,
                s.counted,
                Some(*max_pairs),
            )
            .map(|p| 2.0 * p),
            Some((_, None)) => None,
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
