//! A bot of the run as the sandbox knows it before any starts (its own
//! files and folders, its allowances), and what one such bot may not have
//! of another's: a folder inside the other's, a file of the other's named
//! in its command.

use std::path::PathBuf;

use crate::hardlink::linked_into;

/// What the sandbox knows of a bot of the run before it starts.
#[derive(Debug)]
pub(crate) struct RegisteredBot {
    /// Its name.
    pub(crate) name: String,
    /// The files its command names (its program among them).
    pub(crate) files: Vec<PathBuf>,
    /// The files its arguments name (its data).
    pub(crate) named: Vec<PathBuf>,
    /// Its own folders.
    pub(crate) folders: Vec<PathBuf>,
    /// What its own folders come from (see [`crate::own::entry`]).
    pub(crate) entry: Option<PathBuf>,
    /// Its `read` paths: its files too, wherever they lie.
    pub(crate) read: Vec<PathBuf>,
    /// Its `write` paths.
    pub(crate) write: Vec<PathBuf>,
}

impl RegisteredBot {
    pub(crate) fn own(&self) -> impl Iterator<Item = &PathBuf> {
        self.files.iter().chain(&self.folders)
    }

    /// An own folder of this bot inside (or equal to) one of `other`'s,
    /// unless the two run one program or script (a kit's bots, a tuned
    /// engine's settings), compared by file without following a link: a
    /// script that is a link to another bot's script is not that script
    /// (it would open the other bot's folder as its own).
    pub(crate) fn folder_inside(&self, other: &RegisteredBot) -> Option<&PathBuf> {
        use std::os::unix::fs::MetadataExt;
        let id = |f: &PathBuf| {
            std::fs::symlink_metadata(f)
                .ok()
                .map(|m| (m.dev(), m.ino()))
        };
        let one = self.entry.as_ref().and_then(id);
        if one.is_some() && one == other.entry.as_ref().and_then(id) {
            return None;
        }
        (self.folders.iter()).find(|f| other.folders.iter().any(|g| f.starts_with(g)))
    }

    /// A file this bot's arguments name that lies in `other`'s folders,
    /// `write` or `read` paths (its script, a data file its command names)
    /// and in none of this bot's own folders: another bot's file, which no
    /// mask could hide once it is bound as this bot's own. Its program is
    /// run, not read, and two bots may share one (every built-in bot runs
    /// `aboure`), so naming another bot's program is not refused; a
    /// compiled bot's program is therefore readable by a bot that names it
    /// (docs/sandbox.md). A file both are given by `read` is not refused.
    pub(crate) fn names_a_file_of(&self, other: &RegisteredBot) -> Option<&PathBuf> {
        let inside = |f: &PathBuf, dirs: &[PathBuf]| dirs.iter().any(|d| f.starts_with(d));
        let theirs = [&other.folders[..], &other.write, &other.read].concat();
        let given = |f: &PathBuf| inside(f, &self.read);
        let program = other.files.last();
        self.named.iter().filter(|f| !given(f)).find(|f| {
            let named_there = inside(f, &theirs) && !inside(f, &self.folders);
            program != Some(*f) && (named_there || linked_into(f, &theirs))
        })
    }
}
