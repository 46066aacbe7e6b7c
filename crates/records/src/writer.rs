//! Appending games durably: each record is one `write` of a whole line,
//! followed by `fsync`, so a record is on disk before the next game starts and
//! a crash can at worst leave one partial last line (which the reader
//! tolerates). A write that fails (a full disk, an I/O error) is undone:
//! the file is cut back to where it was, so that writing the game again
//! neither duplicates it nor leaves half a line before it.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::record::GameRecord;

/// An open `games.jsonl`, appended to.
#[derive(Debug)]
pub struct GamesWriter {
    file: File,
    path: PathBuf,
}

impl GamesWriter {
    /// Opens (creating if needed) `path` for appending.
    pub fn append(path: &Path) -> io::Result<GamesWriter> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(GamesWriter {
            file,
            path: path.to_owned(),
        })
    }

    /// The file written to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's length, bytes.
    pub fn len(&self) -> io::Result<u64> {
        Ok(self.file.metadata()?.len())
    }

    /// True if the file is empty.
    pub fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// Cuts the file back to `len` bytes and syncs it: a record taken
    /// back (its game's mark was another worker's by the time it was
    /// synced), while nothing was written after it.
    pub fn cut_back(&mut self, len: u64) -> io::Result<()> {
        self.file.set_len(len)?;
        self.file.sync_data()
    }

    /// Writes `game` as one line and syncs it to disk. On failure the file
    /// is cut back to its length before (check [`GamesWriter::len`] before
    /// writing again: the cut can fail too).
    pub fn write(&mut self, game: &GameRecord) -> io::Result<()> {
        let mut line = serde_json::to_vec(game).map_err(io::Error::other)?;
        line.push(b'\n');
        let before = self.len()?;
        let written = self
            .file
            .write_all(&line)
            .and_then(|()| self.file.sync_data());
        if written.is_err() {
            let _ = self
                .file
                .set_len(before)
                .and_then(|()| self.file.sync_data());
        }
        written
    }
}
