//! The claim files of a run folder: `claims/unit-U`, one per unit in
//! flight, each locked (`flock`) by the worker that holds it and naming it
//! inside (host, pid, worker) for people and the progress display; and
//! `claims/worker-NAME`, locked by each worker for as long as it lives, so
//! anyone can tell which workers are alive without a clock.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::{ClaimFolder, Unit};

/// The folder of claims inside a run folder.
pub const CLAIMS_DIR: &str = "claims";

/// `claims/` of a run folder, for one worker.
#[derive(Debug)]
pub struct ClaimDir {
    dir: PathBuf,
    /// Written into every claim file this worker holds.
    holder: String,
}

/// An open claim file.
#[derive(Debug)]
pub struct ClaimFile {
    file: File,
    path: PathBuf,
}

impl ClaimDir {
    /// The claims of the run in `run_dir` (creating `claims/`), for the
    /// worker described by `holder`.
    pub fn new(run_dir: &Path, holder: String) -> io::Result<ClaimDir> {
        let dir = run_dir.join(CLAIMS_DIR);
        std::fs::create_dir_all(&dir)?;
        Ok(ClaimDir { dir, holder })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Units with a claim file now (held, or just finished).
    pub fn listed(&self) -> io::Result<Vec<Unit>> {
        let mut units = Vec::new();
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            if let Some(unit) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.strip_prefix("unit-"))
                .and_then(|n| n.parse().ok())
            {
                units.push(unit);
            }
        }
        units.sort_unstable();
        Ok(units)
    }

    /// Writes this worker's name into a claim file it holds; returns the
    /// name found there (empty for a fresh claim; a dead holder's when the
    /// unit is taken over).
    pub fn sign(&self, handle: &ClaimFile) -> io::Result<String> {
        let mut file = &handle.file;
        let mut before = String::new();
        file.seek(SeekFrom::Start(0))?;
        file.read_to_string(&mut before)?;
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(self.holder.as_bytes())?;
        Ok(before.trim().to_owned())
    }

    fn path(&self, unit: Unit) -> PathBuf {
        self.dir.join(format!("unit-{unit}"))
    }
}

impl ClaimFolder for ClaimDir {
    type Handle = ClaimFile;

    fn open(&mut self, unit: Unit) -> io::Result<ClaimFile> {
        let path = self.path(unit);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)?;
        Ok(ClaimFile { file, path })
    }

    fn try_lock(&mut self, handle: &ClaimFile) -> io::Result<bool> {
        match handle.file.try_lock() {
            Ok(()) => Ok(true),
            Err(TryLockError::WouldBlock) => Ok(false),
            Err(TryLockError::Error(e)) => Err(e),
        }
    }

    fn linked(&mut self, handle: &ClaimFile) -> io::Result<bool> {
        let held = handle.file.metadata()?;
        match std::fs::metadata(&handle.path) {
            Ok(named) => Ok(named.dev() == held.dev() && named.ino() == held.ino()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn unlink(&mut self, handle: &ClaimFile) -> io::Result<()> {
        match std::fs::remove_file(&handle.path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

/// This worker's own file, locked while it lives.
#[derive(Debug)]
pub struct WorkerFile {
    _file: File,
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
        // A reader of `workers` holds the lock for an instant: try again
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
        (&file).write_all(about.as_bytes())?;
        Ok(Some(WorkerFile { _file: file }))
    }
}

/// A worker seen in `claims/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerSeen {
    /// Its name (`1-of-3`, or host and pid).
    pub name: String,
    /// What it wrote about itself.
    pub about: String,
    /// True while its process lives (its file is locked).
    pub alive: bool,
}

/// The workers that ever worked on the run in `claims`, alive or not.
pub fn workers(claims: &Path) -> io::Result<Vec<WorkerSeen>> {
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(claims)? {
        let path = entry?.path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("worker-"))
        else {
            continue;
        };
        let file = File::open(&path)?;
        let alive = match file.try_lock_shared() {
            Ok(()) => false,
            Err(TryLockError::WouldBlock) => true,
            Err(TryLockError::Error(e)) => return Err(e),
        };
        let about = std::fs::read_to_string(&path)?.trim().to_owned();
        seen.push(WorkerSeen {
            name: name.to_owned(),
            about,
            alive,
        });
    }
    seen.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::super::{acquire, Claim};
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("aboure-claims-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_held_unit_is_refused_to_others_and_free_once_its_holder_closes_it() {
        let dir = temp("held");
        let mut a = ClaimDir::new(&dir, "a".into()).unwrap();
        let mut b = ClaimDir::new(&dir, "b".into()).unwrap();
        let held = acquire(&mut a, 3).unwrap().expect("free");
        assert_eq!(a.sign(held.handle()).unwrap(), "");
        assert!(acquire(&mut b, 3).unwrap().is_none());
        assert!(held.still_held(&mut a).unwrap());
        assert_eq!(a.listed().unwrap(), [3]);
        assert_eq!(
            std::fs::read_to_string(dir.join("claims/unit-3")).unwrap(),
            "a"
        );
        drop(held); // as a dead process's locks are dropped
        let taken = acquire(&mut b, 3)
            .unwrap()
            .expect("free after its holder died");
        taken.finish(&mut b).unwrap();
        assert!(a.listed().unwrap().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_lock_of_a_file_removed_meanwhile_is_no_claim() {
        let dir = temp("race");
        let (mut a, mut b) = (
            ClaimDir::new(&dir, "a".into()).unwrap(),
            ClaimDir::new(&dir, "b".into()).unwrap(),
        );
        let held: Claim<ClaimFile> = acquire(&mut a, 0).unwrap().unwrap();
        // b opens the file, then a finishes the unit and closes it.
        let opened = b.open(0).unwrap();
        held.finish(&mut a).unwrap();
        assert!(b.try_lock(&opened).unwrap(), "the old file's lock is free");
        assert!(
            !b.linked(&opened).unwrap(),
            "but it is no longer the unit's"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_worker_file_tells_alive_from_dead() {
        let dir = temp("workers");
        let claims = ClaimDir::new(&dir, String::new()).unwrap();
        let one = WorkerFile::register(claims.dir(), "1-of-2", "host h pid 1").unwrap();
        assert!(one.is_some());
        assert!(WorkerFile::register(claims.dir(), "1-of-2", "x")
            .unwrap()
            .is_none());
        let two = WorkerFile::register(claims.dir(), "2-of-2", "host h pid 2").unwrap();
        drop(two);
        let seen = workers(claims.dir()).unwrap();
        let alive: Vec<_> = seen.iter().map(|w| (w.name.as_str(), w.alive)).collect();
        assert_eq!(alive, [("1-of-2", true), ("2-of-2", false)]);
        assert_eq!(seen[0].about, "host h pid 1");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
