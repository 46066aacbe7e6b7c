//! The claim files of a run folder: `claims/unit-U`, one per unit in
//! flight, each locked (`flock`) by the worker that holds it and naming it
//! inside (worker, host, pid) for people and the progress display.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::{ClaimFolder, Unit};

pub use aboure_records::CLAIMS_DIR;

/// What a unit's claim file is named before its number.
const UNIT_PREFIX: &str = "unit-";

/// The name of `unit`'s claim file in `claims/`: the one place it is made.
pub fn unit_file_name(unit: Unit) -> String {
    format!("{UNIT_PREFIX}{unit}")
}

/// The unit whose claim file is named `name`, if it is one.
pub fn unit_of_file_name(name: &str) -> Option<Unit> {
    name.strip_prefix(UNIT_PREFIX)?.parse().ok()
}

/// A unit of the run in `run_dir` whose claim file a live worker holds
/// now, if any: a run that takes no claims must not play beside them.
pub fn held_unit(run_dir: &Path) -> Option<Unit> {
    let entries = std::fs::read_dir(aboure_records::RunFolder::new(run_dir).claims()).ok()?;
    entries.flatten().find_map(|entry| {
        let unit = entry.file_name().to_str().and_then(unit_of_file_name)?;
        // A file removed since the listing was finished with.
        let file = crate::fresh::undelegated(&entry.path(), 0).ok()?;
        match file.try_lock_shared() {
            Err(TryLockError::WouldBlock) => Some(unit),
            _ => None,
        }
    })
}

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
        let dir = aboure_records::RunFolder::new(run_dir).claims();
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
            if let Some(unit) = entry.file_name().to_str().and_then(unit_of_file_name) {
                units.push(unit);
            }
        }
        units.sort_unstable();
        Ok(units)
    }

    /// Appends this worker's name to a claim file it holds, as it
    /// acquires the unit and again before each record it writes; returns
    /// the name that was last (empty for a fresh claim; a dead holder's
    /// when the unit is taken over). The file keeps every signature, so a
    /// worker that finds a name other than its own last knows that
    /// another one acquired the unit, or was about to write, since it
    /// signed.
    pub fn sign(&self, handle: &ClaimFile) -> io::Result<String> {
        let before = self.signer(handle)?;
        let mut file = &handle.file;
        file.seek(SeekFrom::End(0))?;
        file.write_all(format!("{}\n", self.holder).as_bytes())?;
        Ok(before)
    }

    /// Appends `line` to a claim file this worker holds, before it signs:
    /// what the unit is, where the run decides that as it goes (a league's
    /// pair). A signature stays the file's last line.
    pub fn note(&self, handle: &ClaimFile, line: &str) -> io::Result<()> {
        let mut file = &handle.file;
        file.seek(SeekFrom::End(0))?;
        file.write_all(format!("{line}\n").as_bytes())
    }

    /// Who signed a claim file last (empty if nobody did).
    pub fn signer(&self, handle: &ClaimFile) -> io::Result<String> {
        let mut file = &handle.file;
        let mut text = String::new();
        file.seek(SeekFrom::Start(0))?;
        file.read_to_string(&mut text)?;
        Ok(last_signature(&text).to_owned())
    }

    /// What this worker signs its claims with.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// The text of `unit`'s claim file (its signatures and notes), or
    /// `None` if it has none now (finished, or never claimed).
    pub fn read(&self, unit: Unit) -> Option<String> {
        crate::fresh::read_text(&self.path(unit)).ok()
    }

    fn path(&self, unit: Unit) -> PathBuf {
        self.dir.join(unit_file_name(unit))
    }
}

/// The last signature of a claim file's text.
pub fn last_signature(text: &str) -> &str {
    text.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

impl ClaimFolder for ClaimDir {
    type Handle = ClaimFile;

    fn open(&mut self, unit: Unit) -> io::Result<ClaimFile> {
        let path = self.path(unit);
        let open = || {
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
        };
        // A name another NFS client removed (its unit finished) may still
        // be in this client's cache: the open fails with ESTALE (seen on
        // NFSv3), and a second one looks the name up again. Nothing of
        // this worker's is lost: the file was not its.
        let file = match open() {
            Err(e) if e.raw_os_error() == Some(libc::ESTALE) => open()?,
            opened => opened?,
        };
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
            // The name points at a file removed on the server: not this one.
            Err(e) if e.raw_os_error() == Some(libc::ESTALE) => Ok(false),
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

#[cfg(test)]
mod tests {
    use super::super::{acquire, Claim, Refused};
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("aboure-claims-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn unit_names_round_trip_and_other_names_are_no_unit() {
        assert_eq!(unit_of_file_name(&unit_file_name(417)), Some(417));
        for other in [
            "worker-1-of-2",
            "roster.lock",
            "unit-",
            "unit-x",
            "unit-3.tmp",
        ] {
            assert_eq!(unit_of_file_name(other), None, "{other}");
        }
    }

    #[test]
    fn a_held_unit_is_seen_held_from_outside_and_a_released_one_is_not() {
        let dir = temp("outside");
        assert_eq!(held_unit(&dir), None);
        let mut a = ClaimDir::new(&dir, "a".into()).unwrap();
        let held = acquire(&mut a, 5).unwrap().expect("free");
        assert_eq!(a.read(5).as_deref(), Some(""));
        assert_eq!(held_unit(&dir), Some(5));
        drop(held);
        // Released without finishing: the file stays, nobody holds it.
        assert!(a.read(5).is_some());
        assert_eq!(held_unit(&dir), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_held_unit_is_refused_to_others_and_free_once_its_holder_closes_it() {
        let dir = temp("held");
        let mut a = ClaimDir::new(&dir, "a".into()).unwrap();
        let mut b = ClaimDir::new(&dir, "b".into()).unwrap();
        let held = acquire(&mut a, 3).unwrap().expect("free");
        assert_eq!(a.sign(held.handle()).unwrap(), "");
        assert_eq!(acquire(&mut b, 3).unwrap().err(), Some(Refused::Held));
        assert!(held.still_held(&mut a).unwrap());
        assert_eq!(a.listed().unwrap(), [3]);
        assert_eq!(
            std::fs::read_to_string(dir.join("claims/unit-3")).unwrap(),
            "a\n"
        );
        // As a dead process's locks are dropped. A process another test
        // forks shares the open file (and its lock) until it execs,
        // microseconds later: try again for a moment.
        drop(held);
        let mut taken = acquire(&mut b, 3).unwrap();
        for _ in 0..200 {
            if taken.is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
            taken = acquire(&mut b, 3).unwrap();
        }
        let taken = taken.expect("free after its holder died");
        taken.release(&mut b).unwrap();
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
        held.release(&mut a).unwrap();
        assert!(b.try_lock(&opened).unwrap(), "the old file's lock is free");
        assert!(
            !b.linked(&opened).unwrap(),
            "but it is no longer the unit's"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
