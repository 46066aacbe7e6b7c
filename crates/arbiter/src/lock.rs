//! One writer per results file.
//!
//! Two runs appending to one file (a requeued Slurm task whose first copy is
//! still alive, two terminals resuming one folder) would play every game
//! twice and write duplicates. A run therefore holds an exclusive advisory
//! lock (`flock`) on the results file it appends to for as long as it runs.
//! The kernel drops the lock when the process dies however it dies, so a
//! killed run never leaves a stale lock and `--resume` just works. Beside
//! the file, `<file>.owner` names the holder (host and process id) so the
//! run that is refused can say who has it. On NFS, Linux maps `flock` to
//! POSIX locks held on the server, so runs on different machines exclude
//! each other too.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use crate::error::RunError;

/// A held lock on a results file; released when dropped or when the
/// process ends.
#[derive(Debug)]
pub struct ResultsLock {
    _file: File,
    owner: PathBuf,
}

impl ResultsLock {
    /// Locks `path` (creating it if needed), or says who holds it.
    pub fn acquire(path: &Path) -> Result<ResultsLock, RunError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(RunError::io(format!("cannot open {}", path.display())))?;
        let owner = owner_path(path);
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(&owner)
                    .ok()
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "a process that has not said who it is yet".to_owned());
                return Err(RunError::Locked {
                    path: path.to_owned(),
                    holder,
                });
            }
            Err(TryLockError::Error(e)) => {
                return Err(RunError::io(format!("cannot lock {}", path.display()))(e))
            }
        }
        let me = format!("host {} pid {}\n", hostname(), std::process::id());
        std::fs::write(&owner, me)
            .map_err(RunError::io(format!("cannot write {}", owner.display())))?;
        Ok(ResultsLock { _file: file, owner })
    }
}

impl Drop for ResultsLock {
    fn drop(&mut self) {
        // Still locked here, so no other run has written its own name yet.
        let _ = std::fs::remove_file(&self.owner);
    }
}

/// `games.jsonl` -> `games.jsonl.owner`.
fn owner_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".owner");
    PathBuf::from(name)
}

/// This machine's name, as `hostname` prints it.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_owned())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown-host".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_holder_and_a_dropped_one_is_free() {
        let dir = std::env::temp_dir().join(format!("aboure-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        let held = ResultsLock::acquire(&path).unwrap();
        let err = ResultsLock::acquire(&path).unwrap_err().to_string();
        let me = format!("pid {}", std::process::id());
        assert!(err.contains(&me) && err.contains("games.jsonl"), "{err}");
        drop(held);
        assert!(!owner_path(&path).exists());
        ResultsLock::acquire(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
