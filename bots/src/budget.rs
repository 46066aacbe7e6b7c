//! The deadlines of one search as instants, from the thinking time the
//! protocol crate allots a `go` ([`SearchLimits::allot`]), with the depth and node
//! limits: what the reference bots' searches poll.

use std::time::{Duration, Instant};

use aboure_protocol::SearchLimits;

/// The deadlines of one search, as instants, with the depth and node limits.
#[derive(Clone, Copy, Debug)]
pub struct SearchBudget {
    started: Instant,
    soft: Option<Instant>,
    hard: Option<Instant>,
    /// Search at most this deep, if set.
    pub depth: Option<u32>,
    /// Search at most this many nodes (or playouts), if set.
    pub nodes: Option<u64>,
}

impl SearchBudget {
    /// The budget of a search that started (the `go` arrived) at `started`.
    pub fn new(limits: &SearchLimits, started: Instant) -> SearchBudget {
        let a = limits.allot();
        SearchBudget {
            started,
            soft: a.soft.map(|d| started + d),
            hard: a.hard.map(|d| started + d),
            depth: limits.depth,
            nodes: limits.nodes,
        }
    }

    /// The same budget with its time cut to `share` (0..=1) of what was
    /// left: for a search that must leave time for another after it.
    pub fn share(&self, share: f64) -> SearchBudget {
        let now = Instant::now();
        let cut = |t: Option<Instant>| {
            t.map(|t| {
                now + t
                    .saturating_duration_since(now)
                    .mul_f64(share.clamp(0.0, 1.0))
            })
        };
        SearchBudget {
            soft: cut(self.soft),
            hard: cut(self.hard),
            ..*self
        }
    }

    /// When the search started.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// True once the hard deadline has passed: answer now.
    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// True once the soft deadline has passed: start nothing new.
    pub fn past_soft(&self) -> bool {
        self.soft.is_some_and(|s| Instant::now() >= s)
    }

    /// True once `nodes` reached the node limit.
    pub fn out_of_nodes(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
    }

    /// True when the search has no limit at all and runs until `stop`.
    pub fn is_infinite(&self) -> bool {
        self.hard.is_none() && self.depth.is_none() && self.nodes.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budget_instants() {
        let start = Instant::now();
        let b = SearchBudget::new(
            &SearchLimits {
                nodes: Some(10),
                ..SearchLimits::default()
            },
            start,
        );
        assert!(!b.is_infinite());
        assert!(!b.past_hard());
        assert!(b.out_of_nodes(10));
        assert!(!b.out_of_nodes(9));
        let b = SearchBudget::new(
            &SearchLimits {
                movetime: Some(ms(0)),
                ..SearchLimits::default()
            },
            start,
        );
        assert!(b.past_hard());
        assert!(b.past_soft());
        assert!(SearchBudget::new(&SearchLimits::default(), start).is_infinite());
        let long = SearchBudget::new(
            &SearchLimits {
                movetime: Some(ms(60_000)),
                ..SearchLimits::default()
            },
            start,
        );
        let short = long.share(0.0);
        assert!(short.past_hard() && !long.past_hard());
        assert!(long.share(0.5).hard.unwrap() < long.hard.unwrap());
        assert!(SearchBudget::new(&SearchLimits::default(), start)
            .share(0.5)
            .is_infinite());
    }
}
