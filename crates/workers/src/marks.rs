//! Exactly once, decided by the file server: before it writes a game, a
//! worker makes the game's mark, `claims/recorded/ID`, naming its own
//! results file ([`aboure_records::mark`] says what a mark is and how
//! readers use it).
//!
//! A claim (a `flock`) keeps workers off each other's units, but it is not
//! enough to decide who writes: on NFS a lock can be lost behind its
//! holder's back (a client cut off past its lease), and two mounts of one
//! client with separate caches, under delegations, were seen to record
//! one pair twice, though each checked its claim before writing. A name is
//! different: `link` asks the server, which makes it only if it
//! does not exist, so one worker makes the mark, and the others learn it at
//! once, whatever their caches say.
//!
//! The mark is made whole under a name of its own and linked into place,
//! so it never exists without its text. A worker that finds another's mark
//! reads that worker's results file from the server (`O_DIRECT`) for the
//! record, and counts it instead of writing its own. A mark whose file
//! never shows its record (its maker died, or was cut off, between the
//! link and its write: a window of a few system calls) is taken over after
//! [`ORPHAN_WAIT`] (a `rename` over it); and a writer checks its mark again
//! once its record is synced ([`RecordMarks::is_mine`]), taking its record
//! back if the mark was taken over meanwhile.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use aboure_records::mark::{mark_path, mark_text, marked_file, marks_dir};
use aboure_records::GameRecord;

/// How long a mark may name a file that does not hold its record before
/// another worker takes it over: far longer than the few system calls
/// between a mark and its write, on a loaded machine.
pub const ORPHAN_WAIT: Duration = Duration::from_secs(10);

/// The results file the mark of game `id` of the run in `run_dir` names,
/// as the server has it now (`O_DIRECT`: [`crate::fresh`]); `None` without
/// a mark. What a worker reads of a mark: a mark taken over is a new file
/// under the old name, which a client reading through its cache (under a
/// delegation of the old file, or a name it has not looked up again) may
/// not see; a worker that then counted the record the mark no longer names
/// could not take the count back.
pub fn mark_now(run_dir: &Path, id: &str) -> io::Result<Option<String>> {
    let Some(bytes) = crate::fresh::read_from(&mark_path(run_dir, id), 0)? else {
        return Ok(None);
    };
    Ok(marked_file(&String::from_utf8_lossy(&bytes)).map(str::to_owned))
}

/// The marks of one run, as one worker makes them.
#[derive(Debug)]
pub struct RecordMarks {
    run_dir: PathBuf,
    dir: PathBuf,
    /// This worker's results file's name: what its marks say.
    own: String,
    /// How long an orphan is waited for.
    orphan_wait: Duration,
}

/// What making a game's mark found.
#[derive(Debug, PartialEq)]
pub enum Reservation {
    /// The mark is this worker's: write the record.
    Mine,
    /// Another worker's results file (named) holds the game's record:
    /// count it, write nothing.
    Elsewhere(String, Box<GameRecord>),
    /// Another worker made the mark but never wrote the record: the mark
    /// is this worker's now (its maker's name given).
    TakenOver(String),
}

impl RecordMarks {
    /// The marks of the run in `run_dir`, for the worker whose results file
    /// (in `run_dir`) is named `own_file`. Their folder is made with the
    /// first mark.
    pub fn new(run_dir: &Path, own_file: &str) -> RecordMarks {
        RecordMarks {
            run_dir: run_dir.to_owned(),
            dir: marks_dir(run_dir),
            own: own_file.to_owned(),
            orphan_wait: ORPHAN_WAIT,
        }
    }

    /// The same marks, waiting `wait` for an orphan (for the tests).
    pub fn with_orphan_wait(self, wait: Duration) -> RecordMarks {
        RecordMarks {
            orphan_wait: wait,
            ..self
        }
    }

    /// Makes the mark of game `id`, or finds whose it is. Blocks up to
    /// [`ORPHAN_WAIT`] when the mark's maker has not written its record.
    pub fn reserve(&self, id: &str) -> io::Result<Reservation> {
        self.reserve_in(id)
    }

    /// The name of this worker's results file, which its marks name.
    pub fn own_file(&self) -> &str {
        &self.own
    }

    fn reserve_in(&self, id: &str) -> io::Result<Reservation> {
        let path = self.dir.join(id);
        let temp = self.made(id)?;
        let linked = std::fs::hard_link(&temp, &path);
        let _ = std::fs::remove_file(&temp);
        match linked {
            Ok(()) => return Ok(Reservation::Mine),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        let t0 = Instant::now();
        let mut pause = Duration::from_millis(20);
        loop {
            // A link retried by the NFS client after a lost reply fails
            // with EEXIST though it made the name: the text tells.
            let Some(owner) = self.owner(id)? else {
                return self.reserve(id); // removed meanwhile: try again
            };
            if owner == self.own {
                return Ok(Reservation::Mine);
            }
            if let Some(record) = self.record_in(&owner, id)? {
                return Ok(Reservation::Elsewhere(owner, Box::new(record)));
            }
            if t0.elapsed() >= self.orphan_wait {
                let temp = self.made(id)?;
                std::fs::rename(&temp, &path)?;
                tracing::warn!(
                    "game {id} was marked by {owner}, which never recorded it: recorded here"
                );
                return Ok(Reservation::TakenOver(owner));
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_secs(1));
        }
    }

    /// True if the mark of `id` still names this worker's file, read from
    /// the server: checked once the record is synced.
    /// A mark this worker made that is gone (the claims folder removed)
    /// is an `ENOENT`: a loss of its claims.
    pub fn is_mine(&self, id: &str) -> io::Result<bool> {
        match self.owner(id)? {
            Some(owner) => Ok(owner == self.own),
            None => Err(io::Error::from_raw_os_error(libc::ENOENT)),
        }
    }

    /// The file the mark of `id` names, as the server has it now.
    fn owner(&self, id: &str) -> io::Result<Option<String>> {
        mark_now(&self.run_dir, id)
    }

    /// The record of `id` in the run's results file `file`, as the server
    /// has it now.
    fn record_in(&self, file: &str, id: &str) -> io::Result<Option<GameRecord>> {
        let Some(bytes) = crate::fresh::read_from(&self.run_dir.join(file), 0)? else {
            return Ok(None);
        };
        let needle = format!("\"id\":\"{id}\"");
        let found = bytes
            .split(|&b| b == b'\n')
            .filter(|line| line.windows(needle.len()).any(|w| w == needle.as_bytes()))
            .find_map(|line| serde_json::from_slice::<GameRecord>(line).ok())
            .filter(|g| g.id == id);
        Ok(found)
    }

    /// A whole mark naming this worker's file, under a name of its own.
    fn made(&self, id: &str) -> io::Result<PathBuf> {
        static MADE: AtomicU64 = AtomicU64::new(0);
        let temp = self.dir.join(format!(
            ".{id}.{}.{}.tmp",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed)
        ));
        let mut file = match std::fs::File::create(&temp) {
            // The first mark of the run makes the folder; a claims folder
            // that is gone is not made again (ENOENT: the claims are lost).
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                match std::fs::create_dir(&self.dir) {
                    Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
                    _ => {}
                }
                std::fs::File::create(&temp)?
            }
            made => made?,
        };
        file.write_all(mark_text(&self.own).as_bytes())?;
        Ok(temp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str) -> String {
        format!(
            r#"{{"id":"{id}","pairing":["a","b"],"pair":0,"game":0,"south":"a","north":"b","result":"1-0","termination":"natural"}}"#
        )
    }

    fn worker(run: &Path, name: &str) -> RecordMarks {
        std::fs::create_dir_all(aboure_records::RunFolder::new(run).claims()).unwrap();
        RecordMarks::new(run, &format!("games-w-{name}.jsonl"))
            .with_orphan_wait(Duration::from_millis(200))
    }

    #[test]
    fn one_worker_makes_the_mark_and_the_other_counts_its_record() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path();
        let (a, b) = (worker(run, "a"), worker(run, "b"));
        assert_eq!(a.reserve("g0").unwrap(), Reservation::Mine);
        assert_eq!(a.reserve("g0").unwrap(), Reservation::Mine, "its own again");
        std::fs::write(run.join("games-w-a.jsonl"), record("g0") + "\n").unwrap();
        match b.reserve("g0").unwrap() {
            Reservation::Elsewhere(file, g) => {
                assert_eq!((file.as_str(), g.id.as_str()), ("games-w-a.jsonl", "g0"));
            }
            other => panic!("{other:?}"),
        }
        assert!(a.is_mine("g0").unwrap());
        assert!(!b.is_mine("g0").unwrap());
        assert_eq!(b.reserve("g1").unwrap(), Reservation::Mine, "another game");
        let left: Vec<_> = std::fs::read_dir(marks_dir(run)).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
    }

    #[test]
    fn a_mark_whose_record_never_comes_is_taken_over_and_its_maker_sees_it() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path();
        let (a, b) = (worker(run, "a"), worker(run, "b"));
        assert_eq!(a.reserve("g0").unwrap(), Reservation::Mine);
        // a's file holds another game only (and a line cut short).
        std::fs::write(
            run.join("games-w-a.jsonl"),
            record("g9") + "\n{\"id\":\"g0\"",
        )
        .unwrap();
        let t0 = Instant::now();
        assert_eq!(
            b.reserve("g0").unwrap(),
            Reservation::TakenOver("games-w-a.jsonl".into())
        );
        assert!(t0.elapsed() >= Duration::from_millis(200), "waited first");
        assert!(b.is_mine("g0").unwrap());
        assert!(!a.is_mine("g0").unwrap(), "its maker finds it lost");
        // The claims folder gone: a loss (ENOENT), and not made again.
        std::fs::remove_dir_all(aboure_records::RunFolder::new(run).claims()).unwrap();
        let gone = a.is_mine("g0").unwrap_err();
        assert_eq!(crate::loss(&gone), Some(crate::Loss::Gone));
        assert!(a.reserve("g1").is_err());
        assert!(!aboure_records::RunFolder::new(run).claims().exists());
    }

    #[test]
    fn many_workers_racing_for_one_game_one_makes_the_mark() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().to_owned();
        std::fs::create_dir_all(aboure_records::RunFolder::new(&run).claims()).unwrap();
        let threads: Vec<_> = (0..16)
            .map(|w| {
                let run = run.clone();
                std::thread::spawn(move || {
                    let marks = RecordMarks::new(&run, &format!("games-w-{w}.jsonl"))
                        .with_orphan_wait(Duration::from_secs(60));
                    match marks.reserve("g0").unwrap() {
                        Reservation::Mine => {
                            let mut f = std::fs::OpenOptions::new()
                                .create(true)
                                .append(true)
                                .open(run.join(format!("games-w-{w}.jsonl")))
                                .unwrap();
                            writeln!(f, "{}", record("g0")).unwrap();
                            1
                        }
                        Reservation::Elsewhere(..) => 0,
                        Reservation::TakenOver(o) => panic!("took over {o}"),
                    }
                })
            })
            .collect();
        let made: u32 = threads.into_iter().map(|t| t.join().unwrap()).sum();
        assert_eq!(made, 1, "exactly one writer");
    }
}
