//! A bot's own folders: what the sandbox opens, read-only, because the bot
//! is made of the files there. A program rarely lives alone: a Python
//! script imports the modules beside it, a shell script sources its
//! neighbours, a compiled engine reads its network file from its folder,
//! a Java program is a folder of classes. So the folder of each program or
//! script of the command is readable by default:
//!
//! - the program's folder (after `PATH` and symbolic links), unless it is
//!   installed (in the system's folders, which every bot sees, or in a
//!   `bin` folder, whose installation is opened as such) or aboure itself;
//! - for an installed program, the first path an argument names (read as
//!   [`crate::argument`] reads every argument): the folder of a file, the
//!   script of an interpreter (`python3 -u dir/bot.py`, `node dir/main.js`,
//!   `sh dir/bot.sh`) or the program a wrapper runs (`nice -n5 dir/bot`);
//!   a folder itself (`java -cp classes Main`);
//!
//! each as written and, when it differs, as its symbolic links resolve
//! (Python looks for modules beside the resolved script, a shell beside the
//! link). Later paths (a book, a network, a jar) are opened as files, and a
//! later folder opens nothing: no flag turns an argument into a folder bound
//! whole.
//!
//! A folder that holds far more than one bot is refused, not opened: `/`,
//! a home directory, the system's program folders (`/usr/bin`...), `/etc`,
//! the shared `/tmp`. Opening one would show a stranger's program every
//! file its owner keeps there. The bot then needs a folder of its own, or a
//! `read` allowance that covers its files (the owner has then chosen). So is
//! a path the command names in a kernel or host runtime folder (`/proc`,
//! `/sys`, `/run`, `/dev`), whatever its position.

use std::path::{Path, PathBuf};

use crate::argument::{kernel, named};
use crate::paths::{homes, installation, normal};

/// Folders never opened as a bot's own: the root, the system's program
/// and configuration folders, the shared scratch and kernel folders.
const SHARED: &[&str] = &[
    "/",
    "/bin",
    "/sbin",
    "/usr",
    "/usr/bin",
    "/usr/sbin",
    "/usr/local",
    "/usr/local/bin",
    "/usr/local/sbin",
    "/usr/games",
    "/usr/local/games",
    "/etc",
    "/tmp",
    "/var/tmp",
    "/dev",
    "/dev/shm",
    "/proc",
    "/sys",
    "/run",
    "/home",
];

/// Where installed programs live: a program found there is not the bot's
/// own (every bot sees these folders anyway).
const SYSTEM: &[&str] = &["/usr", "/bin", "/sbin", "/lib", "/lib64", "/nix/store"];

/// A folder the sandbox will not open as a bot's own.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} is the folder of {}, and it is {kind}: the sandbox does not open it whole. \
     Put the bot's files in a folder of their own (and point `workdir` there), \
     or allow what it reads with `sandbox = {{ read = [...] }}`",
    crate::error::shown(folder),
    crate::error::shown(file)
)]
pub struct Refusal {
    /// The folder.
    pub folder: PathBuf,
    /// The program or script it holds.
    pub file: PathBuf,
    /// What kind of folder it is.
    pub kind: Shared,
}

/// Why a folder is not a bot's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shared {
    /// A home directory.
    Home,
    /// `/`, a system folder or the shared scratch.
    System,
    /// A folder of the kernel or of the host's running services.
    Kernel,
}

impl std::fmt::Display for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Shared::Home => "a home directory",
            Shared::System => "a folder the whole system shares",
            Shared::Kernel => "a kernel or host runtime folder (/proc, /sys, /run, /dev)",
        })
    }
}

/// The command of a bot: `program` absolute (found on `PATH`), `args` as
/// written, relative to `workdir` (absolute); `helper` is aboure itself.
#[derive(Clone, Copy, Debug)]
pub struct Command<'a> {
    /// The program, absolute.
    pub program: &'a Path,
    /// Its arguments.
    pub args: &'a [String],
    /// The working directory, absolute.
    pub workdir: &'a Path,
    /// The `aboure` binary.
    pub helper: &'a Path,
}

impl Command<'_> {
    /// Whether the program is aboure itself: a builtin bot, whose folder
    /// is nothing of the user's.
    pub(crate) fn is_aboure(&self) -> bool {
        let same = |a: &Path, b: &Path| {
            normal(a) == normal(b)
                || (std::fs::canonicalize(a).ok())
                    .is_some_and(|a| std::fs::canonicalize(b).ok() == Some(a))
        };
        same(self.program, self.helper)
    }

    /// The arguments that may name the bot's files: none for aboure itself,
    /// whose arguments are its own words (`bot random`), never paths of
    /// the folder it starts in (a folder `bot` there is not its own).
    pub(crate) fn path_args(&self) -> &[String] {
        if self.is_aboure() {
            &[]
        } else {
            self.args
        }
    }
}

/// The flags after which an interpreter runs code given on its command
/// line (`python3 -c CODE`, `node -e`, `perl -e`, `bash -c`) or a module
/// (`python3 -m`): the file arguments that follow are data, not a script,
/// so their folders are not the bot's own.
const INLINE: &[&str] = &["-c", "-e", "-E", "--eval", "-p", "--print", "-m"];

/// The interpreter's script: the first path its arguments name (a file,
/// or a folder of classes), unless code given inline comes first.
fn script(command: &Command) -> Option<PathBuf> {
    for arg in command.path_args() {
        if INLINE.contains(&arg.as_str()) {
            return None;
        }
        if let Some(path) = named(arg, command.workdir).into_iter().next() {
            return Some(path);
        }
    }
    None
}

/// What the bot's own folders come from: the script of an installed
/// program (an interpreter's, or the program a wrapper runs), else the
/// program itself (one that does not exist fails at its start, with its
/// own reason: its arguments are its data); nothing for aboure itself.
pub(crate) fn entry(command: &Command) -> Option<PathBuf> {
    if command.is_aboure() {
        return None;
    }
    let program = normal(command.program);
    let resolved = std::fs::canonicalize(&program).unwrap_or_else(|_| program.clone());
    let installed = SYSTEM.iter().any(|s| resolved.starts_with(s))
        || installation(&program).is_some()
        || installation(&resolved).is_some();
    if installed {
        script(command)
    } else {
        (resolved != normal(command.helper) && resolved.is_file()).then_some(program)
    }
}

/// The bot's own folders (absolute, lexically normal, without repeats), or
/// the first that is refused. `read` and `write` are the bot's allowances:
/// a file they cover needs no folder and is never refused, and a file in a
/// `write` path (which the bot may have turned into a link by its next
/// start) opens nothing.
pub fn own_folders(
    command: &Command,
    read: &[PathBuf],
    write: &[PathBuf],
) -> Result<Vec<PathBuf>, Refusal> {
    let mut files: Vec<(PathBuf, PathBuf)> = Vec::new();
    let in_kernel = (command.path_args().iter())
        .flat_map(|a| named(a, command.workdir))
        .filter(|path| !read.iter().any(|r| path.starts_with(normal(r))))
        .find_map(|path| kernel(&path).map(|folder| (folder, path)));
    if let Some((folder, file)) = in_kernel {
        let kind = Shared::Kernel;
        return Err(Refusal { folder, file, kind });
    }
    let in_write = |p: &Path| write.iter().any(|w| p.starts_with(normal(w)));
    match entry(command).filter(|p| !in_write(p)) {
        // A folder of classes: the folder itself.
        Some(folder) if folder.is_dir() => files.push((folder.clone(), folder)),
        Some(file) => files.extend(folders_of(&file)),
        None => {}
    }
    let mut folders: Vec<PathBuf> = Vec::new();
    for (folder, file) in files {
        if read.iter().any(|r| file.starts_with(normal(r))) || folders.contains(&folder) {
            continue;
        }
        if let Some(root) = kernel(&folder) {
            let kind = Shared::Kernel;
            return Err(Refusal {
                folder: root,
                file,
                kind,
            });
        }
        if let Some(kind) = shared(&folder) {
            return Err(Refusal { folder, file, kind });
        }
        folders.push(folder);
    }
    Ok(folders)
}

/// A bare program name found in the arbiter's `PATH` (the bot's own is
/// minimal), as an absolute path; a path as it is.
pub fn resolve(program: &Path) -> PathBuf {
    resolve_in(program, None)
}

/// [`resolve`] in `path` when the bot's `env` sets a `PATH` of its own
/// (a program it names is looked for there, as a plain start would), else
/// in the arbiter's.
pub fn resolve_in(program: &Path, path: Option<&std::ffi::OsStr>) -> PathBuf {
    if program.components().count() > 1 {
        return std::path::absolute(program).unwrap_or_else(|_| program.to_owned());
    }
    (path.map(ToOwned::to_owned))
        .or_else(|| std::env::var_os("PATH"))
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(program))
                .find(|p| p.is_file())
        })
        .unwrap_or_else(|| program.to_owned())
}

/// The folder of `file` as written and, if it differs, as resolved, each
/// with the file it holds.
fn folders_of(file: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let resolved = std::fs::canonicalize(file).ok();
    for f in std::iter::once(file.to_owned()).chain(resolved) {
        if let Some(folder) = f.parent() {
            let pair = (normal(folder), f.clone());
            if !out.iter().any(|(d, _)| *d == pair.0) {
                out.push(pair);
            }
        }
    }
    out
}

/// Whether `folder` is shared by more than one bot's files.
fn shared(folder: &Path) -> Option<Shared> {
    let resolved = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_owned());
    let is = |p: &Path| *p == *folder || *p == *resolved;
    if SHARED.iter().any(|s| is(Path::new(s))) {
        return Some(Shared::System);
    }
    let home_child = [folder, &resolved]
        .iter()
        .any(|f| f.parent() == Some(Path::new("/home")));
    if home_child || homes(false).iter().any(|h| is(h)) {
        return Some(Shared::Home);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folders(program: &str, args: &[&str], workdir: &Path) -> Result<Vec<PathBuf>, Refusal> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let command = Command {
            program: Path::new(program),
            args: &args,
            workdir,
            helper: Path::new("/opt/aboure/aboure"),
        };
        own_folders(&command, &[], &[])
    }

    #[test]
    fn inline_code_and_files_in_write_paths_open_no_folder() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("other")).unwrap();
        std::fs::create_dir_all(d.join("w")).unwrap();
        std::fs::write(d.join("other/bot.py"), "").unwrap();
        std::fs::write(d.join("w/bot.py"), "").unwrap();
        // The file after `-c CODE` is data, not the script.
        let inline = folders("/usr/bin/python3", &["-c", "pass", "other/bot.py"], d).unwrap();
        assert!(inline.is_empty(), "{inline:?}");
        assert_eq!(
            folders("/usr/bin/python3", &["other/bot.py"], d).unwrap(),
            [d.join("other")]
        );
        // A script in a `write` path may be a link by the next start.
        let args = ["w/bot.py".to_owned()];
        let command = Command {
            program: Path::new("/usr/bin/python3"),
            args: &args,
            workdir: d,
            helper: Path::new("/opt/aboure/aboure"),
        };
        assert!(own_folders(&command, &[], &[d.join("w")])
            .unwrap()
            .is_empty());
    }

    #[test]
    fn scripts_programs_and_the_first_class_path_open_their_folders() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for sub in ["py", "sh", "cpp/build", "java/classes", "lib", "other"] {
            std::fs::create_dir_all(d.join(sub)).unwrap();
        }
        for file in [
            "py/bot.py",
            "sh/bot.sh",
            "cpp/build/bot",
            "lib/x.jar",
            "book",
        ] {
            std::fs::write(d.join(file), "").unwrap();
        }
        let interpreter = "/usr/bin/python3";
        let got = folders(interpreter, &["-u", "py/bot.py", "book"], d).unwrap();
        assert_eq!(got, [d.join("py")]);
        let got = folders("/bin/sh", &["../sh/bot.sh"], &d.join("other")).unwrap();
        assert_eq!(got, [d.join("sh")]);
        let program = d.join("cpp/build/bot");
        let got = folders(program.to_str().unwrap(), &["--book", "book"], d).unwrap();
        assert_eq!(got, [d.join("cpp/build")]);
        let got = folders(
            "/usr/bin/java",
            &["-cp", "java/classes:lib/x.jar", "Main"],
            d,
        );
        // The first path is the folder of classes; a later jar is a file.
        assert_eq!(got.unwrap(), [d.join("java/classes")]);
        let got = folders(
            "/usr/bin/java",
            &["-cp", "lib/x.jar:java/classes", "Main"],
            d,
        );
        assert_eq!(got.unwrap(), [d.join("lib")]);
        let got = folders(
            interpreter,
            &["py/bot.py", "-cp", "java/classes", "--x=sh"],
            d,
        );
        assert_eq!(got.unwrap(), [d.join("py")]);
        let got = folders("/usr/bin/java", &["-cp", "java/classes/*", "Main"], d);
        assert_eq!(got.unwrap(), [d.join("java/classes")]);
        // An installed program's folder is not the bot's, nor aboure's.
        assert_eq!(
            folders("/usr/bin/env", &[], d).unwrap(),
            Vec::<PathBuf>::new()
        );
        assert!(folders("/opt/aboure/aboure", &["bot", "x"], d)
            .unwrap()
            .is_empty());
        assert!(folders("/opt/node/bin/node", &[], d).unwrap().is_empty());
    }

    #[test]
    fn a_symbolic_link_opens_both_folders() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("src")).unwrap();
        std::fs::create_dir_all(d.join("bots")).unwrap();
        std::fs::write(d.join("src/bot.py"), "").unwrap();
        std::os::unix::fs::symlink(d.join("src/bot.py"), d.join("bots/bot.py")).unwrap();
        let got = folders("/usr/bin/python3", &["bots/bot.py"], d).unwrap();
        let real = std::fs::canonicalize(d.join("src")).unwrap();
        assert_eq!(got, [d.join("bots"), real]);
    }

    #[test]
    fn homes_the_root_and_system_folders_are_refused_unless_read_covers_them() {
        let e = folders("/bin/sh", &["/etc/passwd"], Path::new("/")).unwrap_err();
        assert_eq!(
            (e.folder.as_path(), e.kind),
            (Path::new("/etc"), Shared::System)
        );
        assert!(e.to_string().contains("sandbox = { read = [...] }"), "{e}");
        assert!(e.to_string().contains("`workdir`"), "{e}");
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("bot.py"), "").unwrap();
        assert_eq!(shared(Path::new("/home/someone")), Some(Shared::Home));
        assert_eq!(shared(Path::new("/root")), Some(Shared::Home));
        assert_eq!(shared(Path::new("/")), Some(Shared::System));
        assert_eq!(shared(Path::new("/usr/local/bin")), Some(Shared::System));
        assert_eq!(shared(home.path()), None);
        // A program of its own directly in the shared /tmp.
        let engine = tempfile::Builder::new().tempfile_in("/tmp").unwrap();
        let args: Vec<String> = Vec::new();
        let command = Command {
            program: engine.path(),
            args: &args,
            workdir: Path::new("/"),
            helper: Path::new("/opt/aboure"),
        };
        let e = own_folders(&command, &[], &[]).unwrap_err();
        assert_eq!(
            (e.folder.as_path(), e.kind),
            (Path::new("/tmp"), Shared::System)
        );
        let start = format!(
            "/tmp is the folder of {}, and it is a folder the whole system shares",
            engine.path().display()
        );
        assert!(e.to_string().starts_with(&start), "{e}");
        // Nothing to open for a program that does not exist.
        let missing = Command {
            program: Path::new("/root/none"),
            ..command
        };
        assert!(own_folders(&missing, &[], &[]).unwrap().is_empty());
        // Allowed by name: no folder, no refusal.
        let read = [engine.path().to_owned()];
        assert_eq!(
            own_folders(&command, &read, &[]).unwrap(),
            Vec::<PathBuf>::new()
        );
    }
}
