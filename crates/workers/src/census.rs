//! Telling who works on the run, and finding the dead. One worker at a
//! time holds the lock of `claims/roster.lock` (until it leaves or dies:
//! the kernel drops the lock, and another worker takes it); at each of its
//! periods ([`period`]: 2 s, longer among many) it reads the roster of
//! `claims/` ([`crate::roster`], which probes each worker's lock once),
//! adds the games each worker's results file holds (as far as it has read
//! them), and writes it to `workers.json` in the run folder
//! ([`aboure_records::workers::WorkersFile`], whole or not at all), and
//! its brief ([`RosterBrief`]: the counts, the pairs dead workers hold and
//! those live workers hold, a few bytes a pair in flight, signed with the
//! holder's name and the pass's number) to `claims/roster.brief`, which
//! the others read as the run's pairs finish ([`Pace`]).
//!
//! A reader tries the lock only when the brief it reads is the one it
//! read last time (the same holder and pass: the holder stopped passing,
//! having left or died), when there is no brief, and at its first look.
//! Tried at every read, the lock cost a call per read for nothing while
//! the holder lived.
//!
//! Workers of every format that shares a folder use it: a tournament's
//! and a league's. What differs is
//! passed in: how the worker counts its games by results file ([`Games`])
//! and what it does with the brief besides telling its observer (the
//! progress line). A tournament worker hands the pairs to its queue: those
//! that workers that died still hold, which it tries first (a dead
//! worker's pair is taken over within a roster period or two of its
//! death, ahead of the takers' own next pairs), and those live workers
//! hold, which it does not try. A league worker needs neither (it knocks
//! on every pair in flight at each ask).
//!
//! As it leaves ([`leave`]), each worker tries the lock once more (every
//! 20 ms for up to a second, as a worker that is leaving too may hold it
//! for one write), writes the file if it gets it, and lets go of the lock
//! for good: the last one to leave gets it and writes the final file. A
//! worker that leaves while another keeps working gives up after that
//! second; one still working takes the lock once it finds the brief
//! unchanged, and writes the file.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aboure_records::workers::{WorkersFile, WORKERS_SCHEMA};

use crate::{roster, Error, Pace, RosterBrief, WorkerState};

// The crowd's pace lives with the pace of reads (`pace.rs`), which both
// this file and the arbiter's queue read.
pub use crate::pace::{crowd, period, EVERY, PACED};

/// The lock whose holder writes `workers.json`.
const ROSTER_LOCK: &str = "roster.lock";

/// The brief of the roster, for the other workers.
const ROSTER_BRIEF: &str = "roster.brief";

/// How often, and how far apart, a worker that is leaving tries the lock:
/// another worker that is leaving holds it for one write.
const LEAVING_TRIES: u32 = 50;
const LEAVING_PAUSE: Duration = Duration::from_millis(20);

/// The games a worker counted, by the name of the results file that holds
/// them; `None` once the worker's state is lost (a poisoned lock), which
/// ends the watch. Called on tokio's blocking pool.
pub type Games = Arc<dyn Fn() -> Option<BTreeMap<String, u64>> + Send + Sync>;

/// What a worker does with each brief (tell its observer, steer its
/// claims), and whether it was read by a pass over `claims/` (true) or
/// from the brief.
pub type Told = Arc<dyn Fn(&RosterBrief, bool) + Send + Sync>;

/// The right to write the roster: the lock of `claims/roster.lock`, once
/// taken, kept while this worker works, let go of as it leaves.
#[derive(Default)]
pub struct Writer {
    held: Option<File>,
    /// The lock's file, open, between the tries of a worker that is
    /// leaving (its 50 tries in a second), so each is one call on NFS.
    tried: Option<File>,
    /// Left: the lock is not to be taken again.
    left: bool,
    /// The brief's holder and pass at this worker's last read of it: a
    /// brief unchanged since was written by a holder that stopped.
    seen: Option<(String, u64)>,
    /// Passes made while holding the lock.
    passes: u64,
}

impl Writer {
    /// True if this worker holds the lock: its reads are passes over
    /// `claims/`, the others' reads of the brief.
    pub fn holds(&self) -> bool {
        self.held.is_some()
    }

    /// True if this worker holds the lock (taking it if it is free). The
    /// file is closed again when the lock is refused, unless `again` (the
    /// tries of a worker that is leaving): a working worker's tries are
    /// rare, and a shared file held open for the whole run is what a
    /// stalled run on NFS was suspected of.
    fn take(&mut self, dir: &Path, again: bool) -> std::io::Result<bool> {
        if self.held.is_some() {
            return Ok(true);
        }
        if self.left {
            return Ok(false);
        }
        let file = match self.tried.take() {
            Some(file) => file,
            None => OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(
                    aboure_records::RunFolder::new(dir)
                        .claims()
                        .join(ROSTER_LOCK),
                )?,
        };
        match file.try_lock() {
            Ok(()) => {
                self.held = Some(file);
                Ok(true)
            }
            Err(TryLockError::WouldBlock) => {
                self.tried = again.then_some(file);
                Ok(false)
            }
            Err(TryLockError::Error(e)) => Err(e),
        }
    }
}

/// Reads and tells the roster of the run folder `dir` at the `pace` of
/// the run's pairs, looking every [`Pace::period`], until aborted, as
/// worker `me`.
pub async fn watch(
    (dir, me): (PathBuf, String),
    (games, told): (Games, Told),
    writer: Arc<Mutex<Writer>>,
    mut pace: Pace,
) {
    let mut last = RosterBrief::default();
    loop {
        let (dir, me, games, writer) = (dir.clone(), me.clone(), games.clone(), writer.clone());
        let (brief, mut paced) = (last.clone(), pace.clone());
        let read = tokio::task::spawn_blocking(move || {
            let Some(games) = games() else {
                return Ok(None);
            };
            let mut writer = writer.lock().map_err(|_| Error::Poisoned)?;
            if !paced.due(games.values().sum(), &brief, writer.holds()) {
                return Ok(Some((None, paced)));
            }
            let brief = read(&dir, &me, &games, &mut writer)?;
            Ok::<_, Error>(Some((Some((brief, writer.holds())), paced)))
        });
        let wait = match read.await {
            Ok(Ok(Some((read, paced)))) => {
                pace = paced;
                if let Some((brief, passed)) = read {
                    told(&brief, passed);
                    last = brief;
                }
                pace.period(&last)
            }
            Ok(Ok(None)) | Err(_) => return,
            Ok(Err(e)) => {
                tracing::warn!("cannot read the workers of the run: {e}");
                EVERY
            }
        };
        tokio::time::sleep(wait).await;
    }
}

/// Writes the roster of `dir` once more as worker `me` leaves (marked
/// `ended` already by the caller, so that it is not counted among the
/// dead), with `games` as it counted them, if it holds the lock or gets it
/// within a few tries (the last to leave does), then lets go of the lock
/// for good.
pub async fn leave(dir: &Path, me: &str, games: BTreeMap<String, u64>, writer: Arc<Mutex<Writer>>) {
    let (dir, me) = (dir.to_owned(), me.to_owned());
    let written = tokio::task::spawn_blocking(move || {
        let mut writer = writer.lock().map_err(|_| Error::Poisoned)?;
        for _ in 1..LEAVING_TRIES {
            let lock = aboure_records::RunFolder::new(&*dir)
                .claims()
                .join(ROSTER_LOCK);
            if writer
                .take(&dir, true)
                .map_err(Error::io(format!("cannot lock {}", lock.display())))?
            {
                break;
            }
            std::thread::sleep(LEAVING_PAUSE);
        }
        let read = read(&dir, &me, &games, &mut writer).map(drop);
        writer.held = None;
        writer.tried = None;
        writer.left = true;
        read
    })
    .await;
    if let Ok(Err(e)) = written {
        tracing::warn!("cannot write the workers of the run: {e}");
    }
}

/// The roster's brief: the holder of the roster lock reads the roster
/// from `claims/`, with `games` (recorded games by results file name), and
/// writes `workers.json` and the brief; the others read the brief (none
/// yet: an empty one), and take the lock (and pass) if the brief is the
/// one they read last time, if there is none, or at their first look.
pub fn read(
    dir: &Path,
    me: &str,
    games: &BTreeMap<String, u64>,
    writer: &mut Writer,
) -> Result<RosterBrief, Error> {
    let claims = aboure_records::RunFolder::new(dir).claims();
    let cannot = |what: &str, path: &Path| Error::io(format!("cannot {what} {}", path.display()));
    if !writer.holds() {
        let brief = read_brief(&claims.join(ROSTER_BRIEF))?;
        let signed = brief.as_ref().map(|b| (b.written_by.clone(), b.pass));
        let stopped = writer.seen.is_none() || signed.is_none() || signed == writer.seen;
        writer.seen = signed;
        let lock_path = claims.join(ROSTER_LOCK);
        if !stopped
            || !writer
                .take(dir, false)
                .map_err(cannot("lock", &lock_path))?
        {
            return Ok(brief.unwrap_or_default());
        }
    }
    pass(dir, me, games, writer)
}

/// The brief at `path`; `None` if there is none yet.
fn read_brief(path: &Path) -> Result<Option<RosterBrief>, Error> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|source| Error::Brief {
                path: path.to_owned(),
                source,
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(format!("cannot read {}", path.display()))(e)),
    }
}

/// A pass over `claims/` by the holder of the roster's lock: writes
/// `workers.json` and the brief, and returns the brief.
fn pass(
    dir: &Path,
    me: &str,
    games: &BTreeMap<String, u64>,
    writer: &mut Writer,
) -> Result<RosterBrief, Error> {
    let cannot = |what: &str, path: &Path| Error::io(format!("cannot {what} {}", path.display()));
    let previous = match WorkersFile::read_in(dir) {
        Ok(previous) => previous,
        Err(e) => {
            tracing::warn!("{e}: written anew");
            None
        }
    };
    let claims = aboure_records::RunFolder::new(dir).claims();
    let mut workers = roster(&claims).map_err(cannot("read the roster of", &claims))?;
    for w in &mut workers {
        w.games = games.get(&w.results).copied().unwrap_or(0);
        // A worker no longer alive was last seen alive when the file was
        // last written, if that is later than its own files say.
        let seen = previous.as_ref().and_then(|p| p.worker(&w.name));
        if let Some(seen) = seen.filter(|_| w.state != WorkerState::Alive) {
            if seen.last_seen > w.last_seen {
                w.last_seen = seen.last_seen.clone();
            }
        }
    }
    let file = WorkersFile {
        schema: WORKERS_SCHEMA,
        written: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        written_by: me.to_owned(),
        workers,
    };
    file.write_in(dir)?;
    writer.passes += 1;
    let brief = RosterBrief {
        written_by: me.to_owned(),
        pass: writer.passes,
        ..RosterBrief::of(&file.workers)
    };
    // Whole or not at all, as workers.json.
    let brief_path = claims.join(ROSTER_BRIEF);
    let bytes = serde_json::to_vec(&brief).map_err(|source| Error::Brief {
        path: brief_path.clone(),
        source,
    })?;
    aboure_records::write_whole(&brief_path, &bytes).map_err(cannot("write", &brief_path))?;
    Ok(brief)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_workers_poll_as_rarely_all_together_as_fifty_would() {
        assert_eq!(crowd(0), 1.0);
        assert_eq!(crowd(PACED), 1.0);
        assert_eq!(crowd(1000), 20.0);
        for _ in 0..100 {
            let few = period(10);
            assert!(few >= EVERY / 2 && few <= EVERY * 3 / 2, "{few:?}");
            let many = period(1000);
            assert!(many >= EVERY * 10 && many <= EVERY * 30, "{many:?}");
        }
        // Reads a second, all workers together: the same at 1,000 as at 50.
        let rate = |alive: usize| alive as f64 / (EVERY.as_secs_f64() * crowd(alive));
        assert_eq!(rate(1000), rate(PACED));
    }

    #[test]
    fn a_reader_takes_the_roster_over_only_once_the_brief_stops_changing() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        std::fs::create_dir_all(aboure_records::RunFolder::new(dir).claims()).unwrap();
        let games = BTreeMap::new();
        let (mut a, mut b) = (Writer::default(), Writer::default());
        let first = read(dir, "a", &games, &mut a).unwrap();
        assert!(a.holds(), "the first look takes a free lock");
        assert_eq!((first.written_by.as_str(), first.pass), ("a", 1));
        let seen = read(dir, "b", &games, &mut b).unwrap();
        assert!(!b.holds());
        assert_eq!(seen, first);
        assert_eq!(read(dir, "a", &games, &mut a).unwrap().pass, 2);
        drop(a); // died after its second pass: its lock is free
        let changed = read(dir, "b", &games, &mut b).unwrap();
        assert_eq!((changed.pass, b.holds()), (2, false), "changed: no try");
        let taken = read(dir, "b", &games, &mut b).unwrap();
        assert!(b.holds(), "unchanged since: tried, and taken");
        assert_eq!((taken.written_by.as_str(), taken.pass), ("b", 1));
    }
}
