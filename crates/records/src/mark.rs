//! `claims/recorded/ID`: which results file holds the record of game `ID`
//! that counts, decided by the file server.
//!
//! Workers sharing a run folder each append to their own results file, so
//! nothing in the files themselves stops two workers from recording one
//! game: a lock can be lost behind its holder's back (an NFS client cut
//! off past its lease), and two mounts of one NFS client under delegations
//! were seen both to hold one `flock`. What a server always decides itself
//! is whether a name exists: a worker about to write a game first links a
//! file naming its own results file to `claims/recorded/ID` (`link` fails
//! if the name exists, atomically, on NFS too, and the file is whole before
//! it has the name). The one that made the name writes the record; the
//! others drop theirs.
//!
//! So a reader that meets two records of one id (a worker that lost the
//! mark after writing, and could not take its record back) counts the one
//! in the file the mark names, and without a mark (a run by one process, or
//! written before marks) the one [`crate::record_wins`] picks: the choice
//! depends on the folder, never on the order the files are read in
//! ([`RecordChoice`]). A reader that counts as it reads and meets the
//! marked record after another one reads again from the start, the choice
//! kept ([`RecordChoice::offer`]); one that cannot take a count back (a
//! worker) leaves out every record whose mark names another file
//! ([`RecordChoice::marked_elsewhere`]).

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

/// The folder of marks in `claims/`.
pub const RECORDED_DIR: &str = "recorded";

/// The folder of marks of the run in `run_dir`.
pub fn marks_dir(run_dir: &Path) -> PathBuf {
    crate::RunFolder::new(run_dir).claims().join(RECORDED_DIR)
}

/// The mark of game `id` of the run in `run_dir`.
pub fn mark_path(run_dir: &Path, id: &str) -> PathBuf {
    marks_dir(run_dir).join(id)
}

/// A mark's text: the name of the results file (in the run folder) that
/// holds the record that counts.
pub fn mark_text(recorded_in: &str) -> String {
    format!("{recorded_in}\n")
}

/// The results file a mark's text names; `None` for a text that names
/// none (not a mark).
pub fn marked_file(text: &str) -> Option<&str> {
    let name = text.strip_suffix('\n')?;
    (!name.is_empty() && !name.contains(['/', '\n'])).then_some(name)
}

/// The results file named by the mark of `id` in `run_dir`, if there is
/// one (read through the cache: readers of a finished run, or followers
/// that read again later).
pub fn read_mark(run_dir: &Path, id: &str) -> io::Result<Option<String>> {
    match std::fs::read_to_string(mark_path(run_dir, id)) {
        Ok(text) => Ok(marked_file(&text).map(str::to_owned)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Which record of a duplicated id counts, the one rule every reader of a
/// run folder follows: the record in the file the game's mark names, else
/// the one [`crate::record_wins`] picks. Readers that count as they read
/// (the report reading a stream, the live page, a worker) meet the records
/// one at a time: [`RecordChoice::offer`] tells each what to do with the
/// next one, and remembers what it chose for every id it met twice, so a
/// reader that must read again from the start (to take a record back)
/// counts the chosen one only.
#[derive(Debug, Default)]
pub struct RecordChoice {
    /// The file whose record counts, for each id met in two files.
    chosen: HashMap<String, PathBuf>,
}

/// What a reader that counts records as it reads them does with one
/// ([`RecordChoice::offer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// Count it: the first record of its id, or the chosen one.
    Count,
    /// Leave it out: another record of its id counts.
    Skip,
    /// It counts instead of the one counted before, which must be taken
    /// back: a reader that cannot take a count back reads again from the
    /// start, and the choice made here stands then.
    Replace,
}

impl RecordChoice {
    /// No choice made yet.
    pub fn new() -> RecordChoice {
        RecordChoice::default()
    }

    /// True if the record of `id` in results file `a` counts rather than
    /// the one in `b`: the one in the file its mark (in `a`'s folder)
    /// names, else the one [`crate::record_wins`] picks.
    pub fn wins(&self, id: &str, a: &Path, b: &Path) -> bool {
        let dir = a.parent().unwrap_or(Path::new(""));
        let marked = read_mark(dir, id).ok().flatten();
        let named = |p: &Path| {
            marked.is_some()
                && p.file_name().and_then(|n| n.to_str()) == marked.as_deref()
                && p.parent() == Some(dir)
        };
        match (named(a), named(b)) {
            (true, false) => true,
            (false, true) => false,
            _ => crate::record_wins(a, b),
        }
    }

    /// What to do with a record of `id` read from `file`, when the record
    /// of `id` counted so far came from `counted` (`None`: none counted).
    /// A record met first counts without a look at its mark (one read per
    /// duplicate, not per game); a second one is decided by
    /// [`RecordChoice::wins`], for good. Records of one id in files of
    /// different folders are copies of one run or different runs: the
    /// first counts.
    pub fn offer(&mut self, id: &str, file: &Path, counted: Option<&Path>) -> Offered {
        if let Some(chosen) = self.chosen.get(id) {
            return match counted.is_none() && chosen == file {
                true => Offered::Count,
                false => Offered::Skip,
            };
        }
        let Some(counted) = counted else {
            return Offered::Count;
        };
        if counted == file || counted.parent() != file.parent() {
            return Offered::Skip;
        }
        let wins = self.wins(id, file, counted);
        let chosen = if wins { file } else { counted };
        self.chosen.insert(id.to_owned(), chosen.to_owned());
        match wins {
            true => Offered::Replace,
            false => Offered::Skip,
        }
    }

    /// Forgets every choice (the files were truncated or replaced: what
    /// they hold is to be chosen from again).
    pub fn forget(&mut self) {
        self.chosen.clear();
    }

    /// For a reader that cannot take a count back and keeps no file per
    /// game (a worker's ledger, its live SPRT and standings): true if the
    /// mark of `id` names another results file of `file`'s folder, so that
    /// the record in `file` is one left behind by a worker that lost the
    /// mark (and died before it could cut its record back). One read of
    /// the mark per call, through the client's cache ([`read_mark`]).
    pub fn marked_elsewhere(id: &str, file: &Path) -> bool {
        RecordChoice::marked_elsewhere_by(id, file, read_mark)
    }

    /// As [`RecordChoice::marked_elsewhere`], the mark read by `read`
    /// (given the run folder and the id): a worker reads it from the
    /// server, past the client's cache (`aboure_workers::mark_now`).
    pub fn marked_elsewhere_by(
        id: &str,
        file: &Path,
        read: impl Fn(&Path, &str) -> io::Result<Option<String>>,
    ) -> bool {
        let dir = file.parent().unwrap_or(Path::new(""));
        let name = file.file_name().and_then(|n| n.to_str());
        match read(dir, id) {
            Ok(Some(marked)) => Some(marked.as_str()) != name,
            _ => false,
        }
    }

    /// Leaves out of `games`, read from the results file `file`, those
    /// [`RecordChoice::marked_elsewhere_by`] `read`: for a worker reading
    /// its own file as it starts again (it may have died with a left-over
    /// in it). Nothing is read in a run without marks.
    pub fn keep_counted(
        file: &Path,
        games: &mut Vec<crate::GameRecord>,
        read: impl Fn(&Path, &str) -> io::Result<Option<String>>,
    ) {
        let dir = file.parent().unwrap_or(Path::new(""));
        if marks_dir(dir).is_dir() {
            games.retain(|g| !RecordChoice::marked_elsewhere_by(&g.id, file, &read));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_names_one_file_and_other_texts_name_none() {
        assert_eq!(
            marked_file(&mark_text("games-w-h-1.jsonl")),
            Some("games-w-h-1.jsonl")
        );
        for bad in ["", "\n", "games.jsonl", "a/b\n", "a\nb\n"] {
            assert_eq!(marked_file(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_marked_record_counts_whichever_file_is_read_first() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path();
        std::fs::create_dir_all(marks_dir(run)).unwrap();
        let (a, b) = (run.join("games-w-a-1.jsonl"), run.join("games-w-b-2.jsonl"));
        let choice = RecordChoice::new();
        // No mark: the file order decides (a before b), both ways round.
        assert!(choice.wins("x", &a, &b));
        assert!(!choice.wins("x", &b, &a));
        // Marked b: b counts, both ways round, and only for that id.
        std::fs::write(mark_path(run, "x"), mark_text("games-w-b-2.jsonl")).unwrap();
        assert!(!choice.wins("x", &a, &b));
        assert!(choice.wins("x", &b, &a));
        assert!(choice.wins("y", &a, &b));
        // A file of another folder with the marked name is not the marked one.
        let other = tempfile::tempdir().unwrap();
        let b_elsewhere = other.path().join("games-w-b-2.jsonl");
        assert!(choice.wins("x", &b, &b_elsewhere));
        assert!(RecordChoice::marked_elsewhere("x", &a));
        assert!(!RecordChoice::marked_elsewhere("x", &b));
        assert!(!RecordChoice::marked_elsewhere("y", &a), "no mark");
        assert!(!RecordChoice::marked_elsewhere("x", &b_elsewhere));
    }

    #[test]
    fn a_reader_counting_as_it_reads_takes_the_marked_record_once() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path();
        std::fs::create_dir_all(marks_dir(run)).unwrap();
        let (a, b) = (run.join("games-1-of-2.jsonl"), run.join("games-w-b.jsonl"));
        std::fs::write(mark_path(run, "x"), mark_text("games-w-b.jsonl")).unwrap();
        let mut choice = RecordChoice::new();
        // The left-over in a read first counts, until the marked one comes.
        assert_eq!(choice.offer("x", &a, None), Offered::Count);
        assert_eq!(choice.offer("x", &b, Some(&a)), Offered::Replace);
        // Read again from the start: a's is left out, b's counts, once.
        assert_eq!(choice.offer("x", &a, None), Offered::Skip);
        assert_eq!(choice.offer("x", &b, None), Offered::Count);
        assert_eq!(choice.offer("x", &b, Some(&b)), Offered::Skip);
        assert_eq!(choice.offer("x", &a, Some(&b)), Offered::Skip);
        // The marked one read first: the left-over never counts.
        let mut fresh = RecordChoice::new();
        assert_eq!(fresh.offer("x", &b, None), Offered::Count);
        assert_eq!(fresh.offer("x", &a, Some(&b)), Offered::Skip);
        // No mark: the file that sorts first, whichever is read first.
        assert_eq!(fresh.offer("y", &b, None), Offered::Count);
        assert_eq!(fresh.offer("y", &a, Some(&b)), Offered::Replace);
        // Forgotten (files read again after a truncation): first counts.
        choice.forget();
        assert_eq!(choice.offer("x", &a, None), Offered::Count);
        // Two folders: two runs, or a copy; the first counts.
        let other = tempfile::tempdir().unwrap();
        let copy = other.path().join("games-1-of-2.jsonl");
        assert_eq!(fresh.offer("z", &b, None), Offered::Count);
        assert_eq!(fresh.offer("z", &copy, Some(&b)), Offered::Skip);
    }
}
