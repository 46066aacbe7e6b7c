//! Who works on a run: `claims/worker-NAME`, locked (`flock`) by each
//! worker for as long as it lives and marked `ended` when it leaves
//! cleanly, so anyone can tell live workers from ended and dead ones
//! without a clock; with the claim files, which units each one holds. A
//! dead worker's units stay signed with its name until another worker
//! takes them over, so "died, holding nothing" means its pairs were taken.
//!
//! A worker's file is a few lines, appended to while it lives: what it
//! says of itself (`worker NAME host H pid P games at once C`), `results
//! FILE` (its results file), one `took U from NAME` per unit it took over
//! from another worker, and `ended` when it leaves. The roster is the
//! typed [`WorkerEntry`] list that `workers.json` holds.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::path::Path;
use std::time::SystemTime;

use aboure_records::workers::{TakenOver, WorkerEntry, WorkerState};

use super::Unit;

/// This worker's own file, locked while it lives.
#[derive(Debug)]
pub struct WorkerFile {
    file: File,
}

impl WorkerFile {
    /// Locks `claims/worker-NAME` in `claims` and writes `about` and the
    /// name of its results file into it; `None` if a live worker of that
    /// name holds it.
    pub fn register(
        claims: &Path,
        name: &str,
        about: &str,
        results: &str,
    ) -> io::Result<Option<WorkerFile>> {
        let path = claims.join(format!("worker-{name}"));
        // Appending: each line lands at the end, after the truncation below.
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)?;
        // A reader of the roster holds the lock for an instant: try again
        // before taking the name for a live worker's.
        let mut tries = 0;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) if tries < 5 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(TryLockError::WouldBlock) => return Ok(None),
                Err(TryLockError::Error(e)) => return Err(e),
            }
        }
        file.set_len(0)?;
        let worker = WorkerFile { file };
        worker.append(&format!("{about}\nresults {results}\n"))?;
        Ok(Some(worker))
    }

    fn append(&self, text: &str) -> io::Result<()> {
        (&self.file).write_all(text.as_bytes())
    }

    /// Notes that this worker took `unit` over from worker `from`.
    pub fn took_over(&self, unit: Unit, from: &str) -> io::Result<()> {
        self.append(&format!("took {unit} from {from}\n"))
    }

    /// Marks the worker as having left cleanly (before its lock goes).
    pub fn end(&self) -> io::Result<()> {
        self.append("ended\n")
    }
}

/// The worker's name in a claim file's signature (`worker NAME host ...`).
pub fn signer_name(signature: &str) -> Option<&str> {
    signature.strip_prefix("worker ")?.split(' ').next()
}

/// The last worker that signed a claim file's `text`: its name and whole
/// signature. A note its holder wrote after signing (a league's decision,
/// signed again at once unless the holder died in between) is skipped, so
/// the pair still counts as that worker's.
pub fn last_signer(text: &str) -> Option<(&str, &str)> {
    text.lines()
        .rev()
        .map(str::trim)
        .find_map(|line| Some((signer_name(line)?, line)))
}

/// RFC 3339 UTC, to the second.
fn stamp(at: SystemTime) -> String {
    humantime::format_rfc3339_seconds(at).to_string()
}

/// Every worker that ever worked on the run whose claims are in `claims`,
/// by name; `games` is left at 0 (the results files tell it, not the
/// claims), `last_seen` is now for a live worker and when its file was
/// last written otherwise.
pub fn roster(claims: &Path) -> io::Result<Vec<WorkerEntry>> {
    // By signer's name: each unit with its whole signature.
    let mut holding: BTreeMap<String, Vec<(Unit, String)>> = BTreeMap::new();
    let mut workers = Vec::new();
    for entry in std::fs::read_dir(claims)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        // Only claims and workers' entries are read (not the log of
        // finished units, which grows with the run).
        let unit = crate::unit_of_file_name(name);
        if unit.is_none() && !name.starts_with("worker-") {
            continue;
        }
        // One open per file, read and (a worker's) locked through it. A
        // file removed since the listing was finished with: skip it.
        let Ok(mut file) = crate::fresh::undelegated(&path, 0) else {
            continue;
        };
        let mut text = String::new();
        if std::io::Read::read_to_string(&mut file, &mut text).is_err() {
            continue;
        }
        if let Some(unit) = unit {
            if let Some((worker, signature)) = last_signer(&text) {
                let held = (unit, signature.to_owned());
                holding.entry(worker.to_owned()).or_default().push(held);
            }
        } else if let Some(worker) = name.strip_prefix("worker-") {
            let alive = match file.try_lock_shared() {
                Ok(()) => false,
                Err(TryLockError::WouldBlock) => true,
                Err(TryLockError::Error(e)) => return Err(e),
            };
            let written = file.metadata()?.modified()?;
            workers.push(entry_of(worker, &text, alive, written));
        }
    }
    for w in &mut workers {
        let signed = holding.remove(&w.name).unwrap_or_default();
        // A live worker holds only what it signed itself: a unit its name
        // signed in an earlier life (killed, then restarted) is free.
        let mut units: Vec<Unit> = signed
            .into_iter()
            .filter(|(_, sig)| w.state != WorkerState::Alive || signed_by(&w.about, sig))
            .map(|(unit, _)| unit)
            .collect();
        units.sort_unstable();
        w.holding = units;
    }
    workers.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(workers)
}

/// True if a claim signed `signature` was signed by the worker whose
/// file's first line is `about` (`SIGNATURE games at once C`): the same
/// name, host and process.
fn signed_by(about: &str, signature: &str) -> bool {
    about
        .strip_prefix(signature)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// A worker as its file `text` describes it.
fn entry_of(name: &str, text: &str, alive: bool, written: SystemTime) -> WorkerEntry {
    let mut lines = text.lines();
    let about = lines.next().unwrap_or("").to_owned();
    let (mut results, mut took_over, mut ended) = (String::new(), Vec::new(), false);
    for line in lines {
        if let Some(file) = line.strip_prefix("results ") {
            results = file.to_owned();
        } else if let Some((pair, from)) = line
            .strip_prefix("took ")
            .and_then(|t| t.split_once(" from "))
        {
            if let Ok(pair) = pair.parse() {
                let from = from.to_owned();
                took_over.push(TakenOver { pair, from });
            }
        } else if line == "ended" {
            ended = true;
        }
    }
    // `ended` is written just before the worker lets go of its lock.
    let state = match (alive, ended) {
        (_, true) => WorkerState::Ended,
        (true, false) => WorkerState::Alive,
        (false, false) => WorkerState::Died,
    };
    let last_seen = match state {
        WorkerState::Alive => SystemTime::now(),
        _ => written,
    };
    WorkerEntry {
        name: name.to_owned(),
        about,
        state,
        holding: Vec::new(),
        games: 0,
        results,
        last_seen: stamp(last_seen),
        took_over,
    }
}

/// What every worker needs of the roster, small enough to read every few
/// seconds at a thousand workers (the whole roster is `workers.json`,
/// for people and pages).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RosterBrief {
    /// Workers that ever worked on the run.
    pub workers: usize,
    /// Workers alive now: how far apart each paces its polls
    /// ([`crate::crowd`]).
    #[serde(default)]
    pub alive: usize,
    /// [`describe`] of the roster.
    pub summary: String,
    /// Units workers no longer alive still hold (those that died, and
    /// those that were interrupted mid-pair): free, to be taken over first.
    pub orphans: Vec<Unit>,
    /// Units live workers hold: not worth a try until they are finished
    /// or their holder dies. Without them, a worker with nothing of its own
    /// left knocks on every held unit in turn (at 1,000 workers, 150 tries
    /// a pair, nearly all on units held).
    #[serde(default)]
    pub held: Vec<Unit>,
    /// The worker that wrote it (the holder of the roster's lock), and
    /// the number of its pass: a reader that finds both as it last read
    /// them knows the holder stopped, and tries the lock.
    #[serde(default)]
    pub written_by: String,
    /// See [`RosterBrief::written_by`].
    #[serde(default)]
    pub pass: u64,
}

impl RosterBrief {
    /// The brief of `roster`.
    pub fn of(roster: &[WorkerEntry]) -> RosterBrief {
        let held_by = |alive: bool| {
            let mut units: Vec<Unit> = roster
                .iter()
                .filter(|w| (w.state == WorkerState::Alive) == alive)
                .flat_map(|w| w.holding.iter().copied())
                .collect();
            units.sort_unstable();
            units
        };
        RosterBrief {
            workers: roster.len(),
            alive: roster
                .iter()
                .filter(|w| w.state == WorkerState::Alive)
                .count(),
            summary: describe(roster),
            orphans: held_by(false),
            held: held_by(true),
            written_by: String::new(),
            pass: 0,
        }
    }
}

/// The roster in a few words: `3 workers alive (5 pairs held), 1 ended,
/// 1 died (their pairs taken over)`.
pub fn describe(roster: &[WorkerEntry]) -> String {
    let count = |s: WorkerState| roster.iter().filter(move |w| w.state == s);
    let held: usize = count(WorkerState::Alive).map(|w| w.holding.len()).sum();
    let alive = count(WorkerState::Alive).count();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut words = vec![format!(
        "{} alive ({} held)",
        plural(alive, "worker"),
        plural(held, "pair")
    )];
    let ended = count(WorkerState::Ended).count();
    if ended > 0 {
        words.push(format!("{ended} ended"));
    }
    let died = count(WorkerState::Died).count();
    let orphans: usize = count(WorkerState::Died).map(|w| w.holding.len()).sum();
    match (died, orphans) {
        (0, _) => {}
        (d, 0) => words.push(format!("{d} died (their pairs taken over)")),
        (d, n) => words.push(format!("{d} died ({n} of their pairs not yet taken over)")),
    }
    words.join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::{acquire, ClaimDir};
    use super::*;

    #[test]
    fn the_roster_tells_alive_ended_and_dead_workers_what_they_hold_and_took_over() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        // 1-of-3 in an earlier life, killed holding unit 5.
        let mut earlier = ClaimDir::new(dir, "worker 1-of-3 host h pid 1".into()).unwrap();
        let life =
            WorkerFile::register(earlier.dir(), "1-of-3", "worker 1-of-3 host h pid 1", "g1");
        let left = acquire(&mut earlier, 5).unwrap().unwrap();
        earlier.sign(left.handle()).unwrap();
        drop((life, left));
        let mut claims = ClaimDir::new(dir, "worker 1-of-3 host h pid 11".into()).unwrap();
        let about = "worker 1-of-3 host h pid 11 games at once 1";
        let one = WorkerFile::register(claims.dir(), "1-of-3", about, "g1").unwrap();
        let one = one.expect("a free name");
        assert!(WorkerFile::register(claims.dir(), "1-of-3", "x", "g")
            .unwrap()
            .is_none());
        let held = acquire(&mut claims, 4).unwrap().unwrap();
        claims.sign(held.handle()).unwrap();
        let two = WorkerFile::register(claims.dir(), "2-of-3", "worker 2-of-3", "g2").unwrap();
        two.unwrap().end().unwrap();
        let mut dead = ClaimDir::new(dir, "worker 3-of-3 host h pid 3".into()).unwrap();
        let three = WorkerFile::register(dead.dir(), "3-of-3", "worker 3-of-3", "g3").unwrap();
        let orphan = acquire(&mut dead, 7).unwrap().unwrap();
        dead.sign(orphan.handle()).unwrap();
        // Killed between a note and the signature after it.
        dead.note(orphan.handle(), "league-pair 0 1").unwrap();
        let taken = acquire(&mut dead, 9).unwrap().unwrap();
        dead.sign(taken.handle()).unwrap();
        drop((three, orphan, taken)); // killed: its locks go, its files stay
        let again = acquire(&mut claims, 9).unwrap().unwrap();
        let before = claims.sign(again.handle()).unwrap();
        one.took_over(9, signer_name(&before).unwrap()).unwrap();
        let roster = roster(claims.dir()).unwrap();
        let seen: Vec<_> = roster
            .iter()
            .map(|w| {
                (
                    w.name.as_str(),
                    w.state,
                    w.holding.clone(),
                    w.results.as_str(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("1-of-3", WorkerState::Alive, vec![4, 9], "g1"),
                ("2-of-3", WorkerState::Ended, vec![], "g2"),
                ("3-of-3", WorkerState::Died, vec![7], "g3"),
            ]
        );
        assert_eq!(roster[0].about, about);
        let from = TakenOver {
            pair: 9,
            from: "3-of-3".into(),
        };
        assert_eq!(roster[0].took_over, [from]);
        assert!(
            roster[2].last_seen.ends_with('Z'),
            "{}",
            roster[2].last_seen
        );
        let brief = RosterBrief::of(&roster);
        assert_eq!(
            brief.summary,
            "1 worker alive (2 pairs held), 1 ended, 1 died (1 of their pairs not yet taken over)"
        );
        assert_eq!((brief.workers, brief.orphans), (3, vec![7]));
        assert_eq!(brief.held, [4, 9]);
    }
}
