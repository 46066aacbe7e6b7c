//! Who works on a run: `claims/worker-NAME`, locked (`flock`) by each
//! worker for as long as it lives and marked `ended` when it leaves
//! cleanly, so anyone can tell live workers from ended and dead ones
//! without a clock; with the claim files, which units each one holds. A
//! dead worker's units stay signed with its name until another worker
//! takes them over, so "died, holding nothing" means its pairs were taken.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;

use super::Unit;

/// This worker's own file, locked while it lives.
#[derive(Debug)]
pub struct WorkerFile {
    file: File,
    about: String,
}

impl WorkerFile {
    /// Locks `claims/worker-NAME` in `claims` and writes `about` into it;
    /// `None` if a live worker of that name holds it.
    pub fn register(claims: &Path, name: &str, about: &str) -> io::Result<Option<WorkerFile>> {
        let path = claims.join(format!("worker-{name}"));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
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
        let worker = WorkerFile {
            file,
            about: about.to_owned(),
        };
        worker.write(about)?;
        Ok(Some(worker))
    }

    fn write(&self, text: &str) -> io::Result<()> {
        self.file.set_len(0)?;
        (&self.file).write_all(text.as_bytes())
    }

    /// Marks the worker as having left cleanly (before its lock goes).
    pub fn end(&self) -> io::Result<()> {
        self.write(&format!("{}\nended\n", self.about))
    }
}

/// How a worker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerState {
    /// Its process lives.
    Alive,
    /// It left cleanly (nothing left, the test decided, interrupted).
    Ended,
    /// It died (killed, crashed, its machine lost) without a word.
    Died,
}

/// A worker seen in `claims/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorkerStatus {
    /// Its name (`1-of-3`, or host and pid).
    pub name: String,
    /// What it wrote about itself: host, pid, games at once.
    pub about: String,
    /// Alive, ended or died.
    pub state: WorkerState,
    /// Units whose claim files it signed last: held if it is alive, not
    /// yet taken over if it died.
    pub holding: Vec<Unit>,
}

/// Every worker that ever worked on the run whose claims are in `claims`.
pub fn roster(claims: &Path) -> io::Result<Vec<WorkerStatus>> {
    let mut holding: BTreeMap<String, Vec<Unit>> = BTreeMap::new();
    let mut workers = Vec::new();
    for entry in std::fs::read_dir(claims)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        // A file removed since the listing was finished with: skip it.
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Some(unit) = name.strip_prefix("unit-").and_then(|u| u.parse().ok()) {
            if let Some(worker) = text
                .strip_prefix("worker ")
                .and_then(|t| t.split(' ').next())
            {
                holding.entry(worker.to_owned()).or_default().push(unit);
            }
        } else if let Some(worker) = name.strip_prefix("worker-") {
            let alive = match File::open(&path)?.try_lock_shared() {
                Ok(()) => false,
                Err(TryLockError::WouldBlock) => true,
                Err(TryLockError::Error(e)) => return Err(e),
            };
            let state = match (alive, text.lines().any(|l| l == "ended")) {
                (true, _) => WorkerState::Alive,
                (false, true) => WorkerState::Ended,
                (false, false) => WorkerState::Died,
            };
            let about = text.lines().next().unwrap_or("").to_owned();
            workers.push((worker.to_owned(), about, state));
        }
    }
    let mut roster: Vec<WorkerStatus> = workers
        .into_iter()
        .map(|(name, about, state)| {
            let mut units = holding.remove(&name).unwrap_or_default();
            units.sort_unstable();
            WorkerStatus {
                name,
                about,
                state,
                holding: units,
            }
        })
        .collect();
    roster.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(roster)
}

/// The roster in a few words: `3 workers alive (5 pairs held), 1 ended,
/// 1 died (their pairs taken over)`.
pub fn describe(roster: &[WorkerStatus]) -> String {
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
    fn the_roster_tells_alive_ended_and_dead_workers_and_what_they_hold() {
        let dir = std::env::temp_dir().join(format!("aboure-roster-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut claims = ClaimDir::new(&dir, "worker 1-of-3 host h pid 1".into()).unwrap();
        let one = WorkerFile::register(claims.dir(), "1-of-3", "worker 1-of-3").unwrap();
        assert!(one.is_some());
        assert!(WorkerFile::register(claims.dir(), "1-of-3", "x")
            .unwrap()
            .is_none());
        let held = acquire(&mut claims, 4).unwrap().unwrap();
        claims.sign(held.handle()).unwrap();
        let two = WorkerFile::register(claims.dir(), "2-of-3", "worker 2-of-3").unwrap();
        two.unwrap().end().unwrap();
        let mut dead = ClaimDir::new(&dir, "worker 3-of-3 host h pid 3".into()).unwrap();
        let three = WorkerFile::register(dead.dir(), "3-of-3", "worker 3-of-3").unwrap();
        let orphan = acquire(&mut dead, 7).unwrap().unwrap();
        dead.sign(orphan.handle()).unwrap();
        drop((three, orphan)); // killed: its locks go, its files stay
        let roster = roster(claims.dir()).unwrap();
        let seen: Vec<_> = roster
            .iter()
            .map(|w| (w.name.as_str(), w.state, w.holding.clone()))
            .collect();
        assert_eq!(
            seen,
            [
                ("1-of-3", WorkerState::Alive, vec![4]),
                ("2-of-3", WorkerState::Ended, vec![]),
                ("3-of-3", WorkerState::Died, vec![7]),
            ]
        );
        assert_eq!(
            describe(&roster),
            "1 worker alive (1 pair held), 1 ended, 1 died (1 of their pairs not yet taken over)"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
