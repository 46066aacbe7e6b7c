//! What one bot may see, decided by the arbiter from its command and
//! allowances: the system folders programs need, a short list of files
//! from `/etc`, the installation its interpreter belongs to, its own files
//! (its program, its own folders as [`crate::own`] finds them, the files
//! its command names)
//! and its `read` and `write` paths. The same list makes the constructed
//! root ([`crate::plan::Root`]) and the Landlock rules of the second layer.
//!
//! Deliberately absent: a folder named in the command (`..`, `/` or a
//! class path as an argument opens nothing), the working directory (the tournament file's
//! folder by default: it stays the bot's working directory, empty unless
//! one of the above lies in it), other bots' folders, `/sys`, `/run`, the
//! host's `/tmp` and `/dev/shm`, and everything else in `/etc`
//! (`shadow`, `sudoers`, keys).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::cage::Sight;
use crate::hardlink::Unsearched;
pub use crate::own::Command;
use crate::own::{own_folders, Refusal};
use crate::paths::{installation, normal};
use crate::plan::{Entry, EntryKind};
use crate::reach::Need;
use crate::settings::Policy;

/// The folders every program needs, read-only (a symbolic link where the
/// host has one, as `/lib` on a merged-`/usr` system).
const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32",
];

/// What of `/etc` programs read: the dynamic linker's cache, user and
/// group names, time zone, name resolution, `alternatives` (Debian's
/// `/usr/bin` links point there), the public certificates and OpenSSL's
/// configuration (Node.js reads it at start, and stops when it is there
/// but refused; with the constructed root it is simply absent).
const ETC: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/hosts",
    "/etc/resolv.conf",
    "/etc/services",
    "/etc/protocols",
    "/etc/alternatives",
    "/etc/ssl/certs",
    "/etc/ssl/openssl.cnf",
    "/etc/ca-certificates",
];

/// The bot's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// The constructed root's entries, in the order they are made.
    pub entries: Vec<Entry>,
    /// The bot's own files and folders (beyond its program), which its
    /// identity must be able to read.
    pub own: Vec<PathBuf>,
    /// Its program, as the command names it.
    program: PathBuf,
    /// The installation its program belongs to (an interpreter's prefix,
    /// found through the arbiter's `PATH`), bound for it as the system's
    /// folders are.
    installation: Option<PathBuf>,
}

impl View {
    /// The view of a bot with `command` and allowances `policy`, or the
    /// refusal of a folder too shared to be its own (see [`crate::own`]).
    pub fn of(command: &Command, policy: &Policy) -> Result<View, Refusal> {
        let mut wanted: Vec<Entry> = system().to_vec();
        let ro = |path: PathBuf| entry(path, EntryKind::ReadOnly);
        // What lies in a `write` path is the bot's to change: a file there
        // may be a link it planted by the next start. Nothing in one is
        // resolved or bound on its own; the writable bind shows it as it is,
        // links resolved inside the bot's root.
        let write: Vec<PathBuf> = policy.write.iter().map(|p| normal(p)).collect();
        let outside = |p: &PathBuf| !write.iter().any(|w| p.starts_with(w));
        let program = normal(command.program);
        let prefix = installation(&program).filter(|_| outside(&program));
        wanted.extend(prefix.clone().map(ro));
        let mut own = Vec::new();
        let files = crate::argument::files(command.path_args(), command.workdir, &write);
        let folders = own_folders(command, &policy.read, &policy.write)?;
        own.extend(folders.iter().cloned());
        own.extend(files.iter().cloned());
        let read = policy.read.iter().map(|p| normal(p));
        let bound = (std::iter::once(program.clone()))
            .chain(folders)
            .chain(files)
            .chain(read)
            .filter(outside);
        wanted.extend(bound.map(ro));
        let nested = |w: &PathBuf| write.iter().any(|o| o != w && w.starts_with(o));
        let writable = write.iter().filter(|w| !nested(w));
        wanted.extend(writable.map(|p| entry(p.clone(), EntryKind::ReadWrite)));
        wanted.push(entry(normal(command.workdir), EntryKind::Folder));
        Ok(View {
            entries: order(resolved(wanted)),
            own,
            program,
            installation: prefix,
        })
    }

    /// The view with `hidden` masked where it lies inside one of the bot's
    /// own binds (its folders, its `read` and `write` paths): the
    /// tournament file, the results and other bots' files are never seen,
    /// even from a folder that holds them. A hidden path that holds one of
    /// the bot's own files, or lies in a system folder, is left alone: it
    /// cannot be masked without hiding the bot from itself.
    pub fn masked(mut self, hidden: &[PathBuf]) -> View {
        let system = system();
        let mut masks = Vec::new();
        for path in hidden.iter().map(|p| normal(p)) {
            let holds_own = (self.own.iter())
                .chain([&self.program])
                .chain(self.writable().iter())
                .any(|own| own.starts_with(&path));
            let bound_in = self.entries.iter().any(|e| {
                matches!(e.kind, EntryKind::ReadOnly | EntryKind::ReadWrite)
                    && path.starts_with(&e.path)
                    && !system.iter().any(|s| s.path == e.path)
            });
            if bound_in && !holds_own && std::fs::symlink_metadata(&path).is_ok() {
                masks.push(entry(path, EntryKind::Mask));
            }
        }
        self.entries.extend(masks);
        self.entries = order(std::mem::take(&mut self.entries));
        self
    }

    /// The view with the version-control metadata in its `write` paths
    /// made read-only (a build's, see [`crate::sealed`]); where they were
    /// too large to search whole, where the search stopped.
    pub fn sealed(mut self) -> Result<View, Unsearched> {
        let found = crate::sealed::metadata_in(&self.writable())?;
        (self.entries).extend(found.into_iter().map(|p| entry(p, EntryKind::Sealed)));
        self.entries = order(std::mem::take(&mut self.entries));
        Ok(self)
    }

    /// The version-control metadata [`View::sealed`] made read-only.
    pub fn sealed_paths(&self) -> Vec<PathBuf> {
        (self.entries.iter())
            .filter(|e| matches!(e.kind, EntryKind::Sealed))
            .map(|e| e.path.clone())
            .collect()
    }

    /// What the bot's own binds need of its identity on the host: its
    /// program run, its files and folders and `read` paths read, its
    /// `write` paths written (the system's folders and its program's
    /// installation are the machine's, bound as they are).
    pub fn needs(&self) -> Vec<(PathBuf, Need)> {
        let system = system();
        let machine = |path: &PathBuf| {
            system.iter().any(|s| &s.path == path) || self.installation.as_ref() == Some(path)
        };
        let need = |e: &Entry| match e.kind {
            EntryKind::ReadWrite => Some(Need::Write),
            EntryKind::ReadOnly if e.path == self.program => Some(Need::Run),
            EntryKind::ReadOnly => Some(Need::Read),
            _ => None,
        };
        (self.entries.iter())
            .filter(|e| !machine(&e.path))
            .filter_map(|e| Some((e.source.clone()?, need(e)?)))
            .collect()
    }

    /// The paths Landlock lets the bot read (the host's view of the same
    /// entries, plus its own `/proc` and the random devices).
    pub fn readable(&self) -> Vec<PathBuf> {
        let mut read: Vec<PathBuf> = ["/proc", "/dev/urandom", "/dev/random"]
            .iter()
            .map(PathBuf::from)
            .collect();
        read.extend(
            self.entries
                .iter()
                .filter(|e| matches!(e.kind, EntryKind::ReadOnly | EntryKind::Copy))
                .map(|e| e.path.clone()),
        );
        read
    }

    /// The host paths the bot sees as they are (see [`Sight`]): not its
    /// own `/proc` and devices, which are not the host's.
    pub(crate) fn sight(&self, identity: Option<crate::plan::Identity>) -> Sight {
        let of = |wanted: fn(&EntryKind) -> bool| {
            (self.entries.iter())
                .filter(|e| wanted(&e.kind))
                .map(|e| e.path.clone())
                .collect()
        };
        Sight {
            bound: of(|k| {
                matches!(
                    k,
                    EntryKind::ReadOnly | EntryKind::Copy | EntryKind::ReadWrite
                )
            }),
            masked: of(|k| *k == EntryKind::Mask),
            identity,
        }
    }

    /// The paths Landlock lets the bot write (beyond its scratch).
    pub fn writable(&self) -> Vec<PathBuf> {
        self.entries
            .iter()
            .filter(|e| e.kind == EntryKind::ReadWrite)
            .map(|e| e.path.clone())
            .collect()
    }
}

/// The entries every bot has, found once per run (the system does not
/// change under a tournament), with their sources resolved.
/// The system folder every bot reads that holds `path`, as spelled or
/// after the links of its longest existing part (`/bin` is `/usr/bin` on
/// many systems): nothing in it can be masked for one bot alone.
pub fn system_holding(path: &Path) -> Option<PathBuf> {
    let path = normal(path);
    let mut existing = path.as_path();
    while std::fs::symlink_metadata(existing).is_err() {
        existing = existing.parent()?;
    }
    let rest = path.strip_prefix(existing).ok()?;
    let resolved = std::fs::canonicalize(existing).ok().map(|r| r.join(rest));
    let folders = system().iter().filter(|e| e.kind == EntryKind::ReadOnly);
    let holding = |e: &&Entry| {
        std::iter::once(&path)
            .chain(resolved.as_ref())
            .any(|p| p.starts_with(&e.path))
    };
    folders.clone().find(holding).map(|e| e.path.clone())
}

fn system() -> &'static [Entry] {
    static SYSTEM_ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    SYSTEM_ENTRIES.get_or_init(|| {
        let mut wanted = Vec::new();
        for path in SYSTEM.iter().map(PathBuf::from) {
            match std::fs::read_link(&path) {
                Ok(to) => wanted.push(entry(path, EntryKind::Symlink(to))),
                Err(_) if path.exists() => wanted.push(entry(path, EntryKind::ReadOnly)),
                Err(_) => {}
            }
        }
        for path in ETC.iter().map(PathBuf::from) {
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => wanted.push(entry(path, EntryKind::Copy)),
                Ok(_) => wanted.push(entry(path, EntryKind::ReadOnly)),
                Err(_) => {}
            }
        }
        resolved(wanted)
    })
}

fn entry(path: PathBuf, kind: EntryKind) -> Entry {
    Entry {
        path,
        kind,
        source: None,
    }
}

/// The binds with their sources resolved; those that do not exist (a
/// `read` path not made yet, `/lib32` here) are left out.
fn resolved(wanted: Vec<Entry>) -> Vec<Entry> {
    wanted
        .into_iter()
        .filter_map(|mut e| {
            let bind = matches!(
                e.kind,
                EntryKind::ReadOnly | EntryKind::ReadWrite | EntryKind::Copy
            );
            if bind && e.source.is_none() {
                e.source = Some(std::fs::canonicalize(&e.path).ok()?);
            }
            Some(e)
        })
        .collect()
}

/// The entries in the order they can be made (a folder before what lies in
/// it, read-only before writable at one path), without those already
/// covered: a read-only path inside a read-only one, an empty folder inside
/// any bound one, anything below a symbolic link (the link's target is
/// bound in its own right), and paths the helper makes itself.
fn order(mut wanted: Vec<Entry>) -> Vec<Entry> {
    let rank = |k: &EntryKind| match k {
        EntryKind::Symlink(_) => 0,
        EntryKind::Copy | EntryKind::ReadOnly => 1,
        EntryKind::ReadWrite => 2,
        EntryKind::Folder => 3,
        EntryKind::Mask => 4,
        EntryKind::Sealed => 5,
    };
    wanted.sort_by(|a, b| (&a.path, rank(&a.kind)).cmp(&(&b.path, rank(&b.kind))));
    let mut entries: Vec<Entry> = Vec::new();
    for entry in wanted {
        let reserved = ["/", "/tmp", "/dev", "/proc"]
            .iter()
            .any(|r| entry.path == Path::new(r))
            || entry.path.starts_with("/proc");
        let covered = entries.iter().any(|e| {
            entry.path.starts_with(&e.path)
                && match (&e.kind, &entry.kind) {
                    (EntryKind::Symlink(_) | EntryKind::Mask, _) => true,
                    (EntryKind::Sealed, EntryKind::Sealed) => true,
                    (_, EntryKind::Mask) => false,
                    (_, EntryKind::Folder) => e.kind != EntryKind::Folder || e.path == entry.path,
                    (EntryKind::ReadOnly, EntryKind::ReadOnly | EntryKind::Copy) => true,
                    (EntryKind::ReadWrite, EntryKind::ReadWrite) => true,
                    _ => false,
                }
        });
        if !reserved && !covered {
            entries.push(entry);
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(path: &str, kind: EntryKind) -> Entry {
        entry(path.into(), kind)
    }

    #[test]
    fn covered_entries_are_left_out_and_parents_come_first() {
        use EntryKind::*;
        let got = order(vec![
            at("/w/bots/a", ReadOnly),
            at("/w", Folder),
            at("/w/bots", ReadOnly),
            at("/w/bots/a/cache", ReadWrite),
            at("/w/bots/x", Folder),
            at("/lib/x", ReadOnly),
            at("/lib", Symlink("usr/lib".into())),
            at("/tmp", ReadOnly),
            at("/proc/1", ReadOnly),
        ]);
        let want = vec![
            at("/lib", Symlink("usr/lib".into())),
            at("/w", Folder),
            at("/w/bots", ReadOnly),
            at("/w/bots/a/cache", ReadWrite),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn a_folder_argument_opens_nothing_and_the_script_opens_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let bots = dir.path().join("bots");
        std::fs::create_dir_all(bots.join("mine")).unwrap();
        std::fs::write(bots.join("mine/bot.py"), "").unwrap();
        std::fs::write(dir.path().join("tournament.toml"), "").unwrap();
        let args = ["bots/mine/bot.py", "..", "/", "bots"].map(String::from);
        let view = View::of(
            &Command {
                program: Path::new("/usr/bin/python3"),
                args: &args,
                workdir: dir.path(),
                helper: Path::new("/opt/aboure"),
            },
            &Policy::default(),
        )
        .unwrap();
        let paths: Vec<&Path> = view.entries.iter().map(|e| e.path.as_path()).collect();
        assert!(paths.contains(&bots.join("mine").as_path()), "{paths:?}");
        assert!(!paths.contains(&bots.as_path()), "{paths:?}");
        assert!(!paths.iter().any(|p| p.ends_with("tournament.toml")));
        assert!(!paths.contains(&Path::new("/etc")), "{paths:?}");
        assert_eq!(view.own, [bots.join("mine"), bots.join("mine/bot.py")]);
        let workdir = view.entries.iter().find(|e| e.path == dir.path()).unwrap();
        assert_eq!(workdir.kind, EntryKind::Folder);
    }

    #[test]
    fn nothing_in_a_write_path_is_bound_on_its_own_and_hidden_paths_are_masked() {
        let dir = tempfile::tempdir().unwrap();
        let mine = dir.path().join("mine");
        std::fs::create_dir_all(mine.join("data")).unwrap();
        std::fs::write(mine.join("bot.py"), "").unwrap();
        std::fs::write(mine.join("data/weights"), "").unwrap();
        std::fs::write(mine.join("t.toml"), "").unwrap();
        let args = ["mine/bot.py", "mine/data/weights"].map(String::from);
        let policy = Policy {
            write: vec![mine.join("data")],
            read: vec![mine.join("data/more")],
            ..Policy::default()
        };
        let command = Command {
            program: Path::new("/usr/bin/python3"),
            args: &args,
            workdir: dir.path(),
            helper: Path::new("/opt/aboure"),
        };
        let view = View::of(&command, &policy).unwrap();
        let at = |path: &Path| {
            view.entries
                .iter()
                .find(|e| e.path == path)
                .map(|e| &e.kind)
        };
        assert_eq!(at(&mine.join("data")), Some(&EntryKind::ReadWrite));
        assert_eq!(at(&mine.join("data/weights")), None);
        assert_eq!(at(&mine.join("data/more")), None);
        let hidden = [mine.join("t.toml"), mine.clone(), PathBuf::from("/usr/bin")];
        let view = view.masked(&hidden);
        let masks: Vec<&Path> = (view.entries.iter())
            .filter(|e| e.kind == EntryKind::Mask)
            .map(|e| e.path.as_path())
            .collect();
        // Its own folder holds its script, and /usr/bin is a system folder.
        assert_eq!(masks, [mine.join("t.toml")]);
    }

    #[test]
    fn paths_are_normalised_lexically() {
        assert_eq!(normal(Path::new("/a/b/../c/./d")), Path::new("/a/c/d"));
    }
}
