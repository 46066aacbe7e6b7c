//! When a worker reads the roster's brief: as the pairs finish, not as
//! the clock turns. Paced by the clock alone (each worker every 2 s times
//! the crowd, [`period`]), the crowd read the brief 25
//! times a second whatever the run did; at 1,000 workers, whose pairs
//! finished at a little over 2 a second, that was 17 reads a pair, 68 of
//! the 175 NFS calls a pair cost. What a reader needs of the brief
//! changes only as pairs finish or workers come and go: the pairs live
//! workers hold, those dead ones left, how many are alive.
//!
//! So at each of its periods a worker reads the brief only if the run has
//! recorded, as the worker knows it from the log it reads anyway (no
//! call more), at least [`GAMES_PER_READ`] games per live worker since
//! its last read: all of them together then read it about once per pair
//! finished, at 10 workers as at 1,000. A run whose pairs stop
//! finishing (every live worker waiting for a dead one's pair, or long
//! games) is still read at every [`FLOOR`]-th period, so a death is seen
//! and its pairs are taken over: the holder of the roster passes over
//! `claims/` at every period, and the first reader to look after that
//! tells its queue. The holder itself is not paced here (it must see the
//! dead), nor is a worker that has no brief yet.
//!
//! The crowd is the live workers the brief counts, or the workers the
//! run was split for (`--shard K/N`'s N), whichever is more: the first
//! briefs of a run count the workers started so far, and the next pass,
//! over 2,000 files in a guest starting 1,000 workers, came minutes
//! later; meanwhile every worker, told of a small crowd, read the brief
//! every 2 s (91 reads a second, 39 a pair, at 1,000 workers).

use std::time::Duration;

use crate::RosterBrief;

/// How often the roster is read, by up to [`PACED`] live workers.
pub const EVERY: Duration = Duration::from_secs(2);

/// Up to this many live workers, each reads the roster every [`EVERY`];
/// with more, each reads it (and waits between its looks for work)
/// proportionally longer ([`crowd`]).
pub const PACED: usize = 50;

/// How many times its usual wait each of `alive` workers waits between two
/// polls of the run's shared files (the roster, and an idle worker's looks
/// for work): 1 up to [`PACED`] workers, `alive / PACED` above. So all of
/// them together poll the file server no more often than [`PACED`] workers
/// would, however many there are: with polls at a fixed period, every
/// worker added made each pair cost the server more calls (on NFS, 62 a
/// pair at 10 workers, 119 at 100; at 1,000 the roster alone was read 500
/// times a second). What it costs is a slower view of a death: at 1,000
/// workers the roster is read every 40 s, so a dead worker's pair waits
/// up to two such periods to be taken over.
pub fn crowd(alive: usize) -> f64 {
    (alive as f64 / PACED as f64).max(1.0)
}

/// The wait before the next look at the roster, for a worker among
/// `alive`: [`EVERY`] times [`crowd`], drawn between half and one and a
/// half of that, so that workers do not read in step.
pub fn period(alive: usize) -> Duration {
    EVERY.mul_f64(crowd(alive) * rand::Rng::gen_range(&mut rand::thread_rng(), 0.5..1.5))
}

/// Games the run must have recorded, per live worker, since a worker's
/// last read of the brief before it reads it again (at its next period).
/// Two games a worker is one pair each, spread over the crowd: about one
/// read of the brief per pair finished, all workers together.
pub const GAMES_PER_READ: f64 = 2.0;

/// However slowly the run goes, a worker reads the brief at least at
/// every `FLOOR`-th of its periods.
pub const FLOOR: u32 = 8;

/// One worker's pace of reading the brief.
#[derive(Clone, Debug, Default)]
pub struct Pace {
    /// Games recorded, as this worker knew them, at its last read.
    games_at_read: u64,
    /// Periods passed without a read since.
    skipped: u32,
    /// Whether it read once at all.
    started: bool,
    /// The workers the run was split for, if it was (`--shard K/N`).
    expected: usize,
}

impl Pace {
    /// The pace of a worker of a run split for `workers` workers
    /// (`--shard K/N`'s N; 0 if not split).
    pub fn expecting(workers: usize) -> Pace {
        Pace {
            expected: workers,
            ..Pace::default()
        }
    }

    /// The live workers: as many as `brief` counts, or as the run was
    /// split for, whichever is more.
    pub fn alive(&self, brief: &RosterBrief) -> usize {
        brief.alive.max(self.expected)
    }

    /// The wait before this worker's next look at the roster
    /// ([`period`] for its crowd).
    pub fn period(&self, brief: &RosterBrief) -> Duration {
        period(self.alive(brief))
    }

    /// Whether a worker reads the brief at this period of its own, knowing
    /// `games` recorded in the run, after it last read `brief` (or none);
    /// `holds` says it holds the roster's lock (its read is a pass over
    /// `claims/`). Counts the read if it says yes.
    pub fn due(&mut self, games: u64, brief: &RosterBrief, holds: bool) -> bool {
        let alive = self.alive(brief);
        let step = GAMES_PER_READ * alive as f64;
        let grown = games.saturating_sub(self.games_at_read) as f64;
        let due =
            holds || !self.started || alive == 0 || grown >= step || self.skipped + 1 >= FLOOR;
        match due {
            true => {
                self.games_at_read = games;
                self.skipped = 0;
                self.started = true;
            }
            false => self.skipped += 1,
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crowd(alive: usize) -> RosterBrief {
        RosterBrief {
            alive,
            ..RosterBrief::default()
        }
    }

    /// Reads in `periods` periods of one worker among `alive`, the run
    /// recording `per_period` games each period.
    fn reads(alive: usize, per_period: u64, periods: u64) -> u64 {
        let mut pace = Pace::default();
        let brief = crowd(alive);
        (0..periods)
            .filter(|p| pace.due(p * per_period, &brief, false))
            .count() as u64
    }

    #[test]
    fn a_worker_reads_as_the_crowd_finishes_pairs_and_at_least_at_every_floor() {
        // 1,000 workers, 100 games a period: a read every 20 periods but
        // for the floor, every 8th.
        assert_eq!(reads(1000, 100, 800), 100);
        // 1,000 workers recording 4,000 games a period: every period.
        assert_eq!(reads(1000, 4000, 50), 50);
        // 10 workers recording 5 games a period: every 4th.
        assert_eq!(reads(10, 5, 40), 10);
        // A run that stopped: the floor.
        assert_eq!(reads(10, 0, 80), 10);
        // The first look, a worker that holds the lock, and a brief that
        // counts nobody alive (none yet) are read at every period.
        let mut pace = Pace::default();
        assert!(pace.due(0, &crowd(1000), false));
        assert!(!pace.due(0, &crowd(1000), false));
        assert!(pace.due(0, &crowd(1000), true));
        assert!(pace.due(0, &crowd(0), false));
        // A run split for 1,000 workers whose first brief counts 10.
        let mut split = Pace::expecting(1000);
        assert!(split.due(0, &crowd(10), false));
        assert!(!split.due(100, &crowd(10), false), "10 alive would read");
        assert_eq!(split.alive(&crowd(10)), 1000);
        assert!(split.period(&crowd(10)) >= EVERY * 10);
    }

    #[test]
    fn all_workers_together_read_about_once_per_pair_at_any_count() {
        // Every worker's periods, the run recording games at a steady rate:
        // reads per pair, all workers together, over a long run.
        for alive in [10usize, 100, 1000] {
            let pairs_per_period = 5 * alive as u64 / 10;
            let periods = 4000;
            let per_worker = reads(alive, 2 * pairs_per_period, periods);
            let per_pair = (alive as u64 * per_worker) as f64 / (pairs_per_period * periods) as f64;
            assert!((0.9..=1.1).contains(&per_pair), "{alive}: {per_pair}");
        }
    }
}
