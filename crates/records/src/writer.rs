//! Appending games durably: each record is one `write` of a whole line,
//! followed by `fsync`, so a record is on disk before the next game starts and
//! a crash can at worst leave one partial last line (which the reader
//! tolerates).

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

    /// Writes `game` as one line and syncs it to disk.
    pub fn write(&mut self, game: &GameRecord) -> io::Result<()> {
        let mut line = serde_json::to_vec(game).map_err(io::Error::other)?;
        line.push(b'\n');
        self.file.write_all(&line)?;
        self.file.sync_data()
    }
}
