//! Following one results file as another process (or another machine, over
//! NFS) appends to it.
//!
//! Polling, not inotify: inotify sees nothing of writes made on another NFS
//! client, and a poll every half second costs one `stat` per file. Only
//! complete lines are handed on; a partial last line waits for the rest. A
//! file that shrinks below what was read, or is replaced by another file
//! (new inode), is read again from the start. The one shrink that is not a
//! restart is `aboure run --resume` cutting away a partial last line: the
//! complete lines already read are still there.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Most bytes read from one file in one poll, so that a follower that
/// starts on a large file hands its lines on in slices and memory stays
/// bounded by this, not by the file.
const READ_SLICE: usize = 16 << 20;

/// Bytes before the end of what was read that each poll checks again.
const TAIL: usize = 256;

/// A results file being followed.
#[derive(Debug)]
pub struct Follower {
    path: PathBuf,
    /// Device and inode of the file read so far.
    identity: Option<(u64, u64)>,
    /// Bytes of complete lines read.
    complete: u64,
    /// The last bytes of the complete lines (up to [`TAIL`]), checked again
    /// at each poll.
    tail: Vec<u8>,
    /// Complete lines read (for `file:line` in messages).
    lines: usize,
}

/// What one poll found.
#[derive(Debug, Default)]
pub struct Poll {
    /// The file was replaced or shrank: everything read from it before must
    /// be forgotten (then `lines` are read from its start).
    pub restarted: bool,
    /// New complete lines, each with its 1-based line number, newline cut.
    pub lines: Vec<(usize, Vec<u8>)>,
    /// More is waiting beyond one slice (16 MiB): poll again at once.
    pub more: bool,
}

impl Follower {
    /// Follows `path` from its start (it need not exist yet).
    pub fn new(path: &Path) -> Follower {
        Follower {
            path: path.to_owned(),
            identity: None,
            complete: 0,
            tail: Vec::new(),
            lines: 0,
        }
    }

    /// The file followed.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the file again from its start at the next poll.
    pub fn rewind(&mut self) {
        self.identity = None;
        self.complete = 0;
        self.tail.clear();
        self.lines = 0;
    }

    /// Reads what was appended since the last poll.
    pub fn poll(&mut self) -> std::io::Result<Poll> {
        let mut poll = Poll::default();
        let mut file = match File::open(&self.path) {
            Ok(f) => f,
            // Gone (being replaced, or removed): what it held is gone too.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if self.identity.is_some() {
                    self.rewind();
                    poll.restarted = true;
                }
                return Ok(poll);
            }
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        let identity = (meta.dev(), meta.ino());
        if self.identity.is_some_and(|i| i != identity) || meta.len() < self.complete {
            self.rewind();
            poll.restarted = true;
        }
        self.identity = Some(identity);
        // Read again from a little before the end of the complete lines: the
        // bytes there must not have changed (a file rewritten in place to at
        // least its old length is caught here), and the unfinished line is
        // read whole each time (a resume may have cut it away and written
        // another line in its place).
        let from = self.complete - self.tail.len() as u64;
        file.seek(SeekFrom::Start(from))?;
        let mut chunk = Vec::new();
        (&mut file)
            .take((self.tail.len() + READ_SLICE) as u64)
            .read_to_end(&mut chunk)?;
        if !chunk.starts_with(&self.tail) {
            self.rewind();
            poll.restarted = true;
            return self.poll().map(|mut p| {
                p.restarted = true;
                p
            });
        }
        chunk.drain(..self.tail.len());
        poll.more = chunk.len() == READ_SLICE && meta.len() > from + chunk.len() as u64;
        let Some(last_newline) = chunk.iter().rposition(|&b| b == b'\n') else {
            if chunk.len() == READ_SLICE {
                return Err(std::io::Error::other(format!(
                    "line {}: longer than {} MB",
                    self.lines + 1,
                    READ_SLICE >> 20
                )));
            }
            return Ok(poll);
        };
        chunk.truncate(last_newline + 1);
        self.complete += chunk.len() as u64;
        let keep = chunk.len().min(TAIL);
        self.tail = chunk[chunk.len() - keep..].to_vec();
        for line in chunk[..last_newline].split(|&b| b == b'\n') {
            self.lines += 1;
            if !line.iter().all(u8::is_ascii_whitespace) {
                poll.lines.push((self.lines, line.to_vec()));
            }
        }
        Ok(poll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("aboure-follow-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("games.jsonl")
    }

    fn append(path: &Path, bytes: &[u8]) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        f.write_all(bytes).unwrap();
    }

    fn texts(p: &Poll) -> Vec<(usize, String)> {
        p.lines
            .iter()
            .map(|(n, l)| (*n, String::from_utf8_lossy(l).into_owned()))
            .collect()
    }

    #[test]
    fn partial_lines_wait_for_the_rest() {
        let path = scratch("partial");
        let _ = std::fs::remove_file(&path);
        let mut f = Follower::new(&path);
        assert!(f.poll().unwrap().lines.is_empty());
        append(&path, b"a\nb");
        assert_eq!(texts(&f.poll().unwrap()), vec![(1, "a".to_owned())]);
        append(&path, b"c\n\nd\n");
        assert_eq!(
            texts(&f.poll().unwrap()),
            vec![(2, "bc".to_owned()), (4, "d".to_owned())]
        );
        assert!(f.poll().unwrap().lines.is_empty());
    }

    #[test]
    fn a_truncated_or_replaced_file_is_read_again() {
        let path = scratch("truncate");
        std::fs::write(&path, b"a\nb\n").unwrap();
        let mut f = Follower::new(&path);
        assert_eq!(f.poll().unwrap().lines.len(), 2);
        std::fs::write(&path, b"x\n").unwrap();
        let p = f.poll().unwrap();
        assert!(p.restarted);
        assert_eq!(texts(&p), vec![(1, "x".to_owned())]);
        // Replaced by a longer file under the same name (new inode).
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, b"p\nq\nr\n").unwrap();
        std::fs::rename(&tmp, &path).unwrap();
        let p = f.poll().unwrap();
        assert!(p.restarted);
        assert_eq!(p.lines.len(), 3);
    }

    #[test]
    fn a_resume_cutting_a_partial_line_is_not_a_restart() {
        let path = scratch("resume");
        std::fs::write(&path, b"a\nhalf").unwrap();
        let mut f = Follower::new(&path);
        assert_eq!(f.poll().unwrap().lines.len(), 1);
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(2).unwrap();
        append(&path, b"whole\n");
        let p = f.poll().unwrap();
        assert!(!p.restarted);
        assert_eq!(texts(&p), vec![(2, "whole".to_owned())]);
    }
}
