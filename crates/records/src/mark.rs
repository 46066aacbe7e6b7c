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
//! ([`RecordChoice`]).

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

/// Which record of a duplicated id counts, for the readers of one folder.
#[derive(Debug)]
pub struct RecordChoice {
    run_dir: PathBuf,
}

impl RecordChoice {
    /// The choice among the results files of the run in `run_dir`.
    pub fn new(run_dir: &Path) -> RecordChoice {
        RecordChoice {
            run_dir: run_dir.to_owned(),
        }
    }

    /// True if the record of `id` in results file `a` counts rather than
    /// the one in `b`: the one in the file its mark names, else the one
    /// [`crate::record_wins`] picks.
    pub fn wins(&self, id: &str, a: &Path, b: &Path) -> bool {
        let marked = read_mark(&self.run_dir, id).ok().flatten();
        let named = |p: &Path| {
            marked.is_some()
                && p.file_name().and_then(|n| n.to_str()) == marked.as_deref()
                && p.parent() == Some(self.run_dir.as_path())
        };
        match (named(a), named(b)) {
            (true, false) => true,
            (false, true) => false,
            _ => crate::record_wins(a, b),
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
        let choice = RecordChoice::new(run);
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
        assert!(!choice.wins("x", &b_elsewhere, &b));
    }
}
