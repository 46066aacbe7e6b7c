//! Time management: how long a bot may think on a move, from the limits of
//! its `go`, as pure arithmetic (no clocks), so that it is tested exactly.
//!
//! A search has two deadlines. The *soft* one says when not to start another
//! iteration; the *hard* one says when to stop in the middle of one and answer
//! with the best move found so far. Both leave a safety margin for the time
//! the answer spends in pipes and in the arbiter, because a bot that answers
//! late loses the game whatever its move. The reference bots use this; a Rust
//! bot built on this crate gets it from [`SearchLimits::allot`].

use std::time::Duration;

use crate::SearchLimits;

/// The smallest safety margin kept back from any time limit: process
/// scheduling and pipe latency on a loaded machine (measured: a few ms on a
/// busy two-core machine, sometimes more).
pub const MIN_OVERHEAD: Duration = Duration::from_millis(5);
/// The largest safety margin: beyond this, more margin only wastes time.
pub const MAX_OVERHEAD: Duration = Duration::from_millis(50);
/// The share of the remaining clock a move may plan on, as a divisor: games
/// from the start last some 10 to 30 moves a side, so this spreads the clock
/// with room to spare.
pub const MOVES_TO_GO: u32 = 16;
/// The largest share of the remaining clock a single move may ever take.
pub const MAX_SHARE: u32 = 4;

/// Soft and hard thinking times, relative to the moment the `go` arrived;
/// `None` means unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allotment {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Answer at once after this.
    pub hard: Option<Duration>,
}

/// The safety margin kept back from a time limit `t`: a tenth of it,
/// between [`MIN_OVERHEAD`] and [`MAX_OVERHEAD`], but never more than half.
pub fn overhead(t: Duration) -> Duration {
    (t / 10).clamp(MIN_OVERHEAD, MAX_OVERHEAD).min(t / 2)
}

impl SearchLimits {
    /// The thinking time these limits allow, relative to the moment the
    /// `go` arrived, safety margins already taken off (depth and node limits
    /// are not about time and are for the search itself to honour):
    ///
    /// - `movetime`: soft = hard = the move time less the safety margin;
    /// - clocks: soft = a [`MOVES_TO_GO`]th of the usable time plus three
    ///   quarters of the increment; hard = at most a [`MAX_SHARE`]th of the
    ///   usable time plus three quarters of the increment, and never more
    ///   than the usable time (the clock less its safety margin);
    /// - both: the tighter of the two.
    pub fn allot(&self) -> Allotment {
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let mut tighten = |s: Duration, h: Duration| {
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        };
        if let Some(t) = self.movetime {
            let usable = t - overhead(t);
            tighten(usable, usable);
        }
        if let Some(clock) = self.clock {
            let usable = clock.time - overhead(clock.time);
            let inc = clock.increment * 3 / 4;
            let hard = (usable / MAX_SHARE + inc).min(usable);
            let soft = (usable / MOVES_TO_GO + inc).min(hard);
            tighten(soft, hard);
        }
        Allotment { soft, hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ClockState;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn movetime(t: u64) -> SearchLimits {
        SearchLimits {
            movetime: Some(ms(t)),
            ..SearchLimits::default()
        }
    }

    fn clock(time: u64, inc: u64) -> SearchLimits {
        SearchLimits {
            clock: Some(ClockState {
                time: ms(time),
                increment: ms(inc),
                opponent_time: ms(time),
                opponent_increment: ms(inc),
            }),
            ..SearchLimits::default()
        }
    }

    #[test]
    fn no_limits_means_no_deadline() {
        let a = SearchLimits::default().allot();
        assert_eq!(
            a,
            Allotment {
                soft: None,
                hard: None
            }
        );
        let depth_only = SearchLimits {
            depth: Some(5),
            ..SearchLimits::default()
        };
        assert_eq!(depth_only.allot().hard, None);
    }

    #[test]
    fn movetime_keeps_a_margin() {
        let a = movetime(1000).allot();
        assert_eq!(a.hard, Some(ms(950)));
        assert_eq!(a.soft, Some(ms(950)));
        // Short move times keep the minimum margin.
        let a = movetime(10).allot();
        assert_eq!(a.hard, Some(ms(5)));
        // Long ones the maximum.
        let a = movetime(10_000).allot();
        assert_eq!(a.hard, Some(ms(9_950)));
        // Absurdly short ones half.
        let a = movetime(4).allot();
        assert_eq!(a.hard, Some(ms(2)));
        let a = movetime(0).allot();
        assert_eq!(a.hard, Some(ms(0)));
    }

    #[test]
    fn clock_spreads_the_time() {
        // 10 s + 0.1 s: usable 9.95 s.
        let a = clock(10_000, 100).allot();
        assert_eq!(a.soft, Some(ms(9_950) / 16 + ms(75)));
        assert_eq!(a.hard, Some(ms(9_950) / 4 + ms(75)));
        // 300 ms: usable 270 ms.
        let a = clock(300, 0).allot();
        assert_eq!(a.hard, Some(ms(270) / 4));
    }

    #[test]
    fn clock_never_spends_more_than_is_left() {
        for time in [0, 1, 2, 5, 10, 50, 100, 1000, 60_000] {
            for inc in [0, 10, 1000, 100_000] {
                let a = clock(time, inc).allot();
                let hard = a.hard.unwrap();
                let soft = a.soft.unwrap();
                assert!(soft <= hard, "{time}+{inc}: soft {soft:?} > hard {hard:?}");
                assert!(
                    hard + overhead(ms(time)) <= ms(time),
                    "{time}+{inc}: hard {hard:?} leaves no margin"
                );
            }
        }
    }

    #[test]
    fn the_tighter_limit_wins() {
        let mut limits = clock(60_000, 0);
        limits.movetime = Some(ms(100));
        let a = limits.allot();
        assert_eq!(a.hard, Some(ms(90)));
        assert_eq!(a.soft, Some(ms(90)));
    }
}
