//! `claims/finished.log`: one shared log of the games of finished units,
//! so a worker learns what the others recorded by reading one file from
//! the offset it reached, instead of opening every sibling's results file
//! about once per unit it claims (253 opens a unit at 100 workers).
//!
//! Each line is a game's summary as a results line has it (who played, the
//! result, how it ended; no moves), with `unit` and `recorded_in` (the
//! results file that holds the record) added; it is a copy, the results
//! files stay the record. The holder of a unit appends the games of the
//! unit when the unit is complete, after their records are synced and
//! before it removes the unit's claim file, so a unit without a claim file
//! is either never claimed or in the log: a worker that acquires a fresh
//! claim file and then reads the log knows all it needs. A claim file
//! signed by someone else (its holder died, gave up, or lost its lock)
//! says the log may not tell everything about the unit: only then are the
//! siblings' results files read (see the arbiter's tournament queue).
//!
//! The log's first line says whether it holds every finished unit of the
//! run: it does if, when the log was created (with `O_EXCL`, by the first
//! worker to start, whole: written under a name of its own and linked into
//! place), no results file of the folder held a game. A worker
//! that starts on such a run reads only the log; on a folder whose games
//! began before its log (written by an aboure without one), every worker
//! reads the siblings' files once as it starts.
//!
//! # What it needs of the filesystem
//!
//! `O_APPEND` is not atomic on NFS (the client appends at the size it last
//! saw), so lines are appended under an exclusive `flock` of the log
//! itself, held for one write and one `fsync` and then unlocked, taken by
//! tries with backoff, never by a blocking call, and tried by one thread of
//! a process at a time ([`crate::backoff::hold`]: a blocking `flock` on
//! NFSv4 with delegations was seen to spin, and a thousand threads of one
//! process trying it at once stalled in LOCK calls): the same `flock` across
//! machines the claims need already (on NFSv4 a byte-range lock on the
//! server; taking it makes the client revalidate the file, so it appends
//! at the true end). A write that fails is cut back; a line left cut short
//! by a writer that died mid-write is closed with a newline by the next
//! writer, so it costs only itself (a reader skips a line it cannot read,
//! and a game missing from the log is still in its results file). Readers
//! take no lock: they read the new bytes from the offset reached, with
//! `O_DIRECT` ([`crate::fresh`]: close-to-open consistency does not hold
//! under a read delegation, and a worker that misses a line plays a pair
//! twice), and read complete lines only.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use aboure_records::{GameRecord, GameSummary};
use serde::{Deserialize, Serialize};

use super::Unit;

/// The log's name in `claims/`.
pub const FINISHED_LOG: &str = "finished.log";

/// The shared log of finished units, as one worker reads and writes it.
#[derive(Debug)]
pub struct FinishedLog {
    path: PathBuf,
    /// Bytes read so far (always at a line's end).
    read: u64,
    /// Reads, and bytes read, for the figures.
    polls: u64,
    bytes: u64,
    /// Units appended by this worker.
    appended: u64,
}

/// A line as written.
#[derive(Serialize)]
struct Entry<'a> {
    unit: Unit,
    recorded_in: &'a str,
    #[serde(flatten)]
    game: &'a GameRecord,
}

/// The log's first line.
#[derive(Serialize, Deserialize)]
struct Header {
    finished_log: u32,
    complete_from_start: bool,
}

/// The keys of a line a summary does not have.
#[derive(Deserialize)]
struct Where {
    recorded_in: String,
}

impl FinishedLog {
    /// The log in the claims folder `claims`.
    pub fn new(claims: &Path) -> FinishedLog {
        FinishedLog {
            path: claims.join(FINISHED_LOG),
            read: 0,
            polls: 0,
            bytes: 0,
            appended: 0,
        }
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens the log, creating it if it is absent (`folder_has_games`
    /// says whether a results file of the folder holds a game already);
    /// true if it holds every unit finished since the run began.
    pub fn open_or_create(
        &mut self,
        folder_has_games: impl FnOnce() -> io::Result<bool>,
    ) -> io::Result<bool> {
        match crate::fresh::undelegated(&self.path, 0) {
            Ok(file) => return read_header(file),
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            Err(_) => {}
        }
        let header = Header {
            finished_log: 1,
            complete_from_start: !folder_has_games()?,
        };
        // Made whole under a name of its own, then linked into place: a
        // link fails if the name exists (atomically, on NFS too), and the
        // log never exists without its first line.
        static MADE: AtomicU64 = AtomicU64::new(0);
        let mut temp = self.path.as_os_str().to_owned();
        temp.push(format!(
            ".{}.{}.tmp",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed)
        ));
        let temp = PathBuf::from(temp);
        let mut line = serde_json::to_vec(&header).map_err(io::Error::other)?;
        line.push(b'\n');
        let linked = File::create(&temp)
            .and_then(|mut f| f.write_all(&line).and_then(|()| f.sync_data()))
            .and_then(|()| std::fs::hard_link(&temp, &self.path));
        let _ = std::fs::remove_file(&temp);
        match linked {
            Ok(()) => {}
            // Another worker made it first.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return read_header(crate::fresh::undelegated(&self.path, 0)?)
            }
            Err(e) => return Err(e),
        }
        Ok(header.complete_from_start)
    }

    /// Appends the games of a finished unit, each with the name of the
    /// results file that holds it (`recorded_in`), whole and synced, under
    /// the log's lock.
    pub fn append(&mut self, unit: Unit, games: &[(String, GameRecord)]) -> io::Result<()> {
        let mut text = Vec::new();
        for (recorded_in, game) in games {
            // The summary only: the moves are the results file's.
            let game = &GameSummary::of(game).to_record();
            let entry = Entry {
                unit,
                recorded_in,
                game,
            };
            serde_json::to_writer(&mut text, &entry).map_err(io::Error::other)?;
            text.push(b'\n');
        }
        let open = |path: &Path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .read(true)
                .open(path)
        };
        // An error keeps its errno (a lost claim is told by it), an unlock's
        // too; a timeout says which lock.
        let result = crate::backoff::hold(&self.path, crate::backoff::SHORT_HOLDS, open, |file| {
            write_at_end(file, &text)
        });
        self.appended += u64::from(result.is_ok());
        result.map(drop)
    }

    /// The games appended by any worker since the last call, each with
    /// the name of the results file that holds it.
    pub fn poll(&mut self) -> io::Result<Vec<(String, GameRecord)>> {
        self.polls += 1;
        // From the server, not the cache: see `crate::fresh`.
        let Some(bytes) = crate::fresh::read_from(&self.path, self.read)? else {
            return Ok(Vec::new());
        };
        let Some(end) = bytes.iter().rposition(|&b| b == b'\n') else {
            return Ok(Vec::new());
        };
        self.read += end as u64 + 1;
        self.bytes += end as u64 + 1;
        let mut games = Vec::new();
        for line in bytes[..end].split(|&b| b == b'\n') {
            // A line cut short by a writer that died is no game.
            let (Ok(summary), Ok(place)) = (
                GameSummary::from_line(line),
                serde_json::from_slice::<Where>(line),
            ) else {
                continue;
            };
            games.push((place.recorded_in, summary.to_record()));
        }
        Ok(games)
    }

    /// Reads, bytes read and units appended so far.
    pub fn counts(&self) -> (u64, u64, u64) {
        (self.polls, self.bytes, self.appended)
    }
}

/// True if the log's first line says it holds every finished unit (a log
/// whose first line is not written yet, or is no header, does not).
fn read_header(file: File) -> io::Result<bool> {
    let mut first = Vec::new();
    io::BufRead::read_until(&mut io::BufReader::new(file), b'\n', &mut first)?;
    Ok(serde_json::from_slice::<Header>(first.trim_ascii_end())
        .is_ok_and(|h| h.complete_from_start))
}

/// Writes `text` at the end of the locked `file` and syncs it; a failed
/// write is cut back, and a last line left cut short is closed first.
fn write_at_end(mut file: &File, text: &[u8]) -> io::Result<()> {
    let before = file.metadata()?.len();
    let mut last = [0u8];
    let closed = before == 0 || (file.read_at(&mut last, before - 1)? == 1 && last[0] == b'\n');
    let written = (if closed {
        Ok(())
    } else {
        file.write_all(b"\n")
    })
    .and_then(|()| file.write_all(text))
    .and_then(|()| file.sync_data());
    if written.is_err() {
        let _ = file.set_len(before).and_then(|()| file.sync_data());
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, pair: u32, game: u8) -> GameRecord {
        let line = format!(
            r#"{{"id":"{id}","pairing":["a","b"],"pair":{pair},"game":{game},"south":"a","north":"b","moves":["3","4"],"result":"1-0","termination":"natural"}}"#
        );
        serde_json::from_str(&line).unwrap()
    }

    #[test]
    fn the_log_holds_every_unit_only_if_the_folder_had_no_game_when_it_was_made() {
        let dir = tempfile::tempdir().unwrap();
        let mut first = FinishedLog::new(dir.path());
        assert!(first.open_or_create(|| Ok(false)).unwrap());
        let mut later = FinishedLog::new(dir.path());
        assert!(later.open_or_create(|| panic!("not asked again")).unwrap());
        assert!(later.poll().unwrap().is_empty(), "the header is no game");
        let old = tempfile::tempdir().unwrap();
        let mut log = FinishedLog::new(old.path());
        assert!(!log.open_or_create(|| Ok(true)).unwrap());
        assert!(!FinishedLog::new(old.path())
            .open_or_create(|| Ok(false))
            .unwrap());
        // Created by an appender (no header): not complete.
        let bare = tempfile::tempdir().unwrap();
        FinishedLog::new(bare.path()).append(0, &[]).unwrap();
        assert!(!FinishedLog::new(bare.path())
            .open_or_create(|| Ok(false))
            .unwrap());
    }

    #[test]
    fn units_appended_by_any_worker_are_read_once_in_order_and_a_cut_line_costs_only_itself() {
        let dir = tempfile::tempdir().unwrap();
        let (mut a, mut b) = (FinishedLog::new(dir.path()), FinishedLog::new(dir.path()));
        assert!(b.poll().unwrap().is_empty(), "no log yet");
        let file = |name: &str| name.to_owned();
        a.append(
            0,
            &[
                (file("g1"), game("x0", 0, 0)),
                (file("g2"), game("x1", 0, 1)),
            ],
        )
        .unwrap();
        let read = b.poll().unwrap();
        let seen: Vec<_> = read
            .iter()
            .map(|(f, g)| (f.as_str(), g.id.as_str()))
            .collect();
        assert_eq!(seen, [("g1", "x0"), ("g2", "x1")]);
        assert!(read[0].1.moves.is_empty(), "a summary: no moves");
        assert!(b.poll().unwrap().is_empty(), "nothing read twice");
        // A writer killed mid-line, then another unit.
        std::fs::OpenOptions::new()
            .append(true)
            .open(a.path())
            .unwrap()
            .write_all(b"{\"unit\":1,\"recorded_in\":\"g3\",\"id\"")
            .unwrap();
        assert!(b.poll().unwrap().is_empty(), "a partial line waits");
        b.append(2, &[(file("g3"), game("y0", 2, 0))]).unwrap();
        let read = b.poll().unwrap();
        let seen: Vec<_> = read
            .iter()
            .map(|(f, g)| (f.as_str(), g.id.as_str()))
            .collect();
        assert_eq!(seen, [("g3", "y0")]);
        assert_eq!(b.counts().2, 1);
        let text = std::fs::read_to_string(a.path()).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
    }

    #[test]
    fn many_workers_appending_at_once_all_get_through_whole() {
        let dir = tempfile::tempdir().unwrap();
        let (workers, units) = (24u64, 15u64);
        let threads: Vec<_> = (0..workers)
            .map(|w| {
                let dir = dir.path().to_owned();
                std::thread::spawn(move || {
                    let mut log = FinishedLog::new(&dir);
                    for u in 0..units {
                        let unit = w * units + u;
                        let g = game(&format!("g{unit}"), unit as u32, 0);
                        log.append(unit, &[(format!("f{w}"), g)]).unwrap();
                    }
                    log.counts().2
                })
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), units, "every append got its lock");
        }
        let mut reader = FinishedLog::new(dir.path());
        let mut ids: Vec<String> = reader
            .poll()
            .unwrap()
            .into_iter()
            .map(|(_, g)| g.id)
            .collect();
        ids.sort();
        let mut expected: Vec<String> = (0..workers * units).map(|u| format!("g{u}")).collect();
        expected.sort();
        assert_eq!(ids, expected, "each line once, none torn");
    }
}
