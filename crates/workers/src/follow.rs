//! Following the other workers' results files: each is followed by the
//! results files' one follower ([`aboure_records::Follower`]): reopened at
//! each poll (so NFS's close-to-open consistency shows what was written
//! before the open), read from the offset already reached, complete lines
//! only, in bounded slices, and read again from its start if it was
//! truncated or replaced (the games are then handed on again: callers count
//! a game once by its id). Lines are read as summaries (who played, the
//! result; not the moves), which is all a worker needs of them.
//!
//! A record whose mark names another file is left out: a worker that lost
//! the mark and died before it could cut its record back left it, and the
//! record that counts is the one the mark names
//! ([`aboure_records::RecordChoice::marked_elsewhere_by`]). A worker
//! cannot take a count back, so it looks at the mark of every record it
//! reads here (one small read each, in a run that has marks, from the
//! server: [`crate::mark_now`]): these files are read only when the log
//! of finished units may not tell everything.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use aboure_records::mark::marks_dir;
use aboure_records::{results_files, Follower, GameRecord, GameSummary, RecordChoice};

use crate::Error;

/// What a worker has read of its siblings' files.
#[derive(Debug)]
pub struct Siblings {
    dir: PathBuf,
    own: PathBuf,
    /// Each other results file's follower.
    files: HashMap<PathBuf, Follower>,
    /// Polls, files opened and bytes read in all, for the figures.
    polls: u64,
    opens: u64,
    bytes: u64,
}

impl Siblings {
    /// Follows the results files of `dir` other than `own`.
    pub fn new(dir: &Path, own: &Path) -> Siblings {
        Siblings {
            dir: dir.to_owned(),
            own: own.to_owned(),
            files: HashMap::new(),
            polls: 0,
            opens: 0,
            bytes: 0,
        }
    }

    /// The games appended since the last call, each with the name of the
    /// file it is in.
    pub fn poll(&mut self) -> Result<Vec<(String, GameRecord)>, Error> {
        let files = results_files(&self.dir)
            .map_err(Error::io(format!("cannot list {}", self.dir.display())))?;
        let mut games = Vec::new();
        self.polls += 1;
        let marked = marks_dir(&self.dir).is_dir();
        for path in files.into_iter().filter(|p| *p != self.own) {
            let name = path
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            let follower = self
                .files
                .entry(path.clone())
                .or_insert_with(|| Follower::new(&path));
            loop {
                self.opens += 1;
                let poll = follower
                    .poll()
                    .map_err(Error::io(format!("cannot read {}", path.display())))?;
                for (_, line) in &poll.lines {
                    self.bytes += line.len() as u64 + 1;
                    // A damaged line is the report's to show; here it is no game.
                    let Ok(summary) = GameSummary::from_line(line) else {
                        continue;
                    };
                    let elsewhere =
                        || RecordChoice::marked_elsewhere_by(&summary.id, &path, crate::mark_now);
                    if !(marked && elsewhere()) {
                        games.push((name.clone(), summary.to_record()));
                    }
                }
                if !poll.more {
                    break;
                }
            }
        }
        Ok(games)
    }

    /// Polls, files opened and bytes of complete lines read so far.
    pub fn counts(&self) -> (u64, u64, u64) {
        (self.polls, self.opens, self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str) -> String {
        format!(
            "{{\"id\":\"{id}\",\"pairing\":[\"x\",\"y\"],\"pair\":0,\"game\":0,\"south\":\"x\",\"north\":\"y\",\"result\":\"1-0\",\"termination\":\"natural\"}}\n"
        )
    }

    #[test]
    fn new_complete_lines_are_read_once_and_the_own_file_never() {
        let dir = std::env::temp_dir().join(format!("aboure-follow-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let own = dir.join("games-1-of-2.jsonl");
        let other = dir.join("games-2-of-2.jsonl");
        std::fs::write(&own, line("mine")).unwrap();
        let half = line("b");
        std::fs::write(&other, format!("{}{}", line("a"), &half[..20])).unwrap();
        let mut f = Siblings::new(&dir, &own);
        let ids =
            |g: Vec<(String, GameRecord)>| g.into_iter().map(|(_, g)| g.id).collect::<Vec<_>>();
        assert_eq!(ids(f.poll().unwrap()), ["a"]);
        assert!(f.poll().unwrap().is_empty());
        std::fs::write(&other, format!("{}{half}", line("a"))).unwrap();
        std::fs::write(dir.join("games-w-late.jsonl"), line("c")).unwrap();
        assert_eq!(ids(f.poll().unwrap()), ["b", "c"]);
        assert_eq!(f.counts(), (3, 4, (3 * line("a").len()) as u64));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_record_whose_mark_names_another_file_is_left_out() {
        use aboure_records::mark::{mark_path, mark_text};
        let dir = tempfile::tempdir().unwrap();
        let own = dir.path().join("games-w-own.jsonl");
        let dead = dir.path().join("games-1-of-2.jsonl");
        let marked = dir.path().join("games-2-of-2.jsonl");
        std::fs::create_dir_all(marks_dir(dir.path())).unwrap();
        std::fs::write(mark_path(dir.path(), "a"), mark_text("games-2-of-2.jsonl")).unwrap();
        std::fs::write(mark_path(dir.path(), "b"), mark_text("games-1-of-2.jsonl")).unwrap();
        std::fs::write(&dead, format!("{}{}{}", line("a"), line("b"), line("c"))).unwrap();
        std::fs::write(&marked, line("a")).unwrap();
        let mut f = Siblings::new(dir.path(), &own);
        let got: Vec<(String, String)> = (f.poll().unwrap().into_iter())
            .map(|(file, g)| (file, g.id))
            .collect();
        let want = [
            ("games-1-of-2.jsonl", "b"),
            ("games-1-of-2.jsonl", "c"),
            ("games-2-of-2.jsonl", "a"),
        ];
        let want: Vec<(String, String)> = (want.iter())
            .map(|(f, i)| (f.to_string(), i.to_string()))
            .collect();
        assert_eq!(
            got, want,
            "a's left-over out; b marked here, c unmarked, kept"
        );
    }

    #[test]
    fn a_sibling_file_replaced_is_read_again_from_its_start() {
        let dir = tempfile::tempdir().unwrap();
        let own = dir.path().join("games-1-of-2.jsonl");
        let other = dir.path().join("games-2-of-2.jsonl");
        std::fs::write(&other, format!("{}{}", line("a"), line("b"))).unwrap();
        let mut f = Siblings::new(dir.path(), &own);
        let ids =
            |g: Vec<(String, GameRecord)>| g.into_iter().map(|(_, g)| g.id).collect::<Vec<_>>();
        assert_eq!(ids(f.poll().unwrap()), ["a", "b"]);
        let temp = dir.path().join("replacement");
        std::fs::write(&temp, line("z")).unwrap();
        std::fs::rename(&temp, &other).unwrap();
        assert_eq!(ids(f.poll().unwrap()), ["z"]);
    }
}
