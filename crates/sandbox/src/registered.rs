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
    /// What else decides which code it runs (see [`crate::launch`]).
    pub(crate) started: crate::launch::Started,
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
        if self.same_entry(other) {
            return None;
        }
        (self.folders.iter()).find(|f| other.folders.iter().any(|g| f.starts_with(g)))
    }

    /// Whether the two run one program or script, compared by file
    /// without following a link.
    fn same_entry(&self, other: &RegisteredBot) -> bool {
        use std::os::unix::fs::MetadataExt;
        let id = |f: &PathBuf| {
            std::fs::symlink_metadata(f)
                .ok()
                .map(|m| (m.dev(), m.ino()))
        };
        let one = self.entry.as_ref().and_then(id);
        one.is_some() && one == other.entry.as_ref().and_then(id)
    }

    /// The keys in which this bot and `other` differ (see
    /// [`crate::launch`]), when they run one program or script with a
    /// folder of its own, which they would share: nothing when they are
    /// the same program.
    pub(crate) fn not_the_same_program(&self, other: &RegisteredBot) -> Option<Vec<&'static str>> {
        let shares = !self.folders.is_empty() || !other.folders.is_empty();
        let keys = self.started.differences(&other.started);
        (shares && self.same_entry(other) && !keys.is_empty()).then_some(keys)
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

    /// A `write` path of this bot inside `other`'s own folders or `read`
    /// paths, with which of these it lies in: `other` would read or run
    /// what this bot writes there. One inside this bot's own folders too
    /// (two bots of one program share them) is the program's.
    pub(crate) fn writes_into(&self, other: &RegisteredBot) -> Option<(&PathBuf, &'static str)> {
        let inside = |w: &PathBuf, dirs: &[PathBuf]| dirs.iter().any(|d| w.starts_with(d));
        let mine = |w: &&PathBuf| !inside(w, &self.folders);
        (self.write.iter().filter(mine)).find_map(|w| {
            let folder = inside(w, &other.folders).then_some("own folder");
            folder
                .or_else(|| inside(w, &other.read).then_some("read path"))
                .map(|p| (w, p))
        })
    }
}
