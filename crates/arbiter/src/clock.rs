//! Time controls and the clock arithmetic the arbiter applies to them. Pure:
//! the arbiter measures elapsed time and this module decides what it means.

use std::fmt;
use std::time::Duration;

use aboure_config::{Limit, TimeControl};

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining: Duration,
}

/// A move took longer than allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// Time the move took.
    pub elapsed: Duration,
    /// Time it was allowed, margin excluded.
    pub allowed: Duration,
    /// The margin.
    pub margin: Duration,
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "took {:.3} ms, allowed {:.3} ms + margin {:.3} ms",
            ms(self.elapsed),
            ms(self.allowed),
            ms(self.margin)
        )
    }
}

/// Milliseconds as a float, to the microsecond.
pub fn ms(d: Duration) -> f64 {
    (d.as_micros() as f64) / 1000.0
}

impl Clock {
    /// A clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        let remaining = match control.limit {
            Limit::Fischer { base, .. } => base,
            _ => Duration::ZERO,
        };
        Clock { control, remaining }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Time left on a Fischer clock (`None` for other controls).
    pub fn remaining(&self) -> Option<Duration> {
        match self.control.limit {
            Limit::Fischer { .. } => Some(self.remaining),
            _ => None,
        }
    }

    /// The increment of a Fischer clock (zero otherwise).
    pub fn increment(&self) -> Duration {
        match self.control.limit {
            Limit::Fischer { increment, .. } => increment,
            _ => Duration::ZERO,
        }
    }

    /// Time allowed for the next move, margin excluded.
    pub fn allowed(&self) -> Duration {
        match self.control.limit {
            Limit::Fischer { .. } => self.remaining,
            Limit::Movetime(t) => t,
            Limit::Depth { timeout, .. } | Limit::Nodes { timeout, .. } => timeout,
        }
    }

    /// How long to wait for a move before declaring a loss on time.
    pub fn deadline(&self) -> Duration {
        self.allowed().saturating_add(self.control.margin)
    }

    /// Charges a move that took `elapsed`: a loss on time if it took more
    /// than allowed plus the margin; otherwise Fischer clocks lose `elapsed`
    /// (never below zero: the margin forgives) and gain the increment.
    pub fn charge(&mut self, elapsed: Duration) -> Result<(), Overrun> {
        if elapsed > self.deadline() {
            return Err(Overrun {
                elapsed,
                allowed: self.allowed(),
                margin: self.control.margin,
            });
        }
        if let Limit::Fischer { increment, .. } = self.control.limit {
            self.remaining = self.remaining.saturating_sub(elapsed) + increment;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(base: u64, inc: u64, margin: u64) -> TimeControl {
        TimeControl {
            limit: Limit::Fischer {
                base: Duration::from_millis(base),
                increment: Duration::from_millis(inc),
            },
            margin: Duration::from_millis(margin),
        }
    }

    #[test]
    fn fischer_subtracts_then_adds_increment() {
        let mut clock = Clock::new(fischer(1000, 100, 50));
        clock.charge(Duration::from_millis(300)).unwrap();
        assert_eq!(clock.remaining(), Some(Duration::from_millis(800)));
        clock.charge(Duration::from_millis(800)).unwrap();
        assert_eq!(clock.remaining(), Some(Duration::from_millis(100)));
    }

    #[test]
    fn margin_forgives_up_to_its_size_and_not_beyond() {
        let mut clock = Clock::new(fischer(100, 10, 50));
        assert_eq!(clock.deadline(), Duration::from_millis(150));
        clock.charge(Duration::from_millis(150)).unwrap();
        assert_eq!(clock.remaining(), Some(Duration::from_millis(10)));
        let err = clock.charge(Duration::from_micros(60_001)).unwrap_err();
        assert_eq!(err.allowed, Duration::from_millis(10));
        assert_eq!(
            err.to_string(),
            "took 60.001 ms, allowed 10.000 ms + margin 50.000 ms"
        );
    }

    #[test]
    fn movetime_does_not_accumulate() {
        let tc = TimeControl {
            limit: Limit::Movetime(Duration::from_millis(100)),
            margin: Duration::from_millis(10),
        };
        let mut clock = Clock::new(tc);
        clock.charge(Duration::from_millis(110)).unwrap();
        clock.charge(Duration::from_millis(110)).unwrap();
        assert!(clock.charge(Duration::from_millis(111)).is_err());
        assert_eq!(clock.remaining(), None);
    }

    #[test]
    fn depth_uses_the_safety_timeout() {
        let tc = TimeControl {
            limit: Limit::Depth {
                depth: 4,
                timeout: Duration::from_secs(5),
            },
            margin: Duration::ZERO,
        };
        assert_eq!(Clock::new(tc).deadline(), Duration::from_secs(5));
        assert_eq!(tc.to_string(), "depth 4 (timeout 5s), margin 0s");
    }
}
