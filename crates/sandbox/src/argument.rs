//! The paths a bot's command names, read the same way for every argument
//! and every program. A list of flags (`-cp`, `--class-path`...) is never
//! complete: compilers take `-I DIR` and `-LDIR`, programs take
//! `--flag=PATH`, search paths join folders with `:`. So each argument is
//! read as every path it could name: itself, what follows the first `=`
//! of a flag, what follows a short flag's letter, each of these split at
//! `:`, and a trailing `/*` dropped. Whatever of these exists is a path the
//! command names, whatever program reads it.
//!
//! What an argument names is only ever bound as a file (or, for the
//! script of an installed interpreter, as its folder, see [`crate::own`]);
//! a folder named elsewhere opens nothing. One named in a kernel or host
//! runtime folder (`/proc`, `/sys`, `/run`, `/dev`) is refused: those hold
//! the host's processes, cgroups and daemon sockets, never a bot's files.

use std::path::{Path, PathBuf};

use crate::paths::normal;

/// Folders of the kernel and the host's running services: never a bot's.
const KERNEL: &[&str] = &["/proc", "/sys", "/run", "/var/run", "/var/lock", "/dev"];

/// Every text `arg` could name a path with (see the module docs).
pub(crate) fn pieces(arg: &str) -> Vec<&str> {
    let mut whole = vec![arg];
    if let Some(flag) = arg.strip_prefix('-') {
        if let Some((_, value)) = arg.split_once('=') {
            whole.push(value);
        }
        // `-I/usr/x`, `-Llib`: what follows a short flag's letter.
        if !flag.starts_with('-') {
            if let Some(c) = flag.chars().next() {
                whole.push(&flag[c.len_utf8()..]);
            }
        }
    }
    let mut out: Vec<&str> = Vec::new();
    for text in whole {
        for piece in std::iter::once(text).chain(text.split(':')) {
            let piece = piece.strip_suffix("/*").unwrap_or(piece);
            if !piece.is_empty() && !out.contains(&piece) {
                out.push(piece);
            }
        }
    }
    out
}

/// The existing paths `arg` names, relative to `workdir`, lexically normal.
pub(crate) fn named(arg: &str, workdir: &Path) -> Vec<PathBuf> {
    (pieces(arg).into_iter())
        .map(|p| normal(&workdir.join(p)))
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
        .collect()
}

/// The files the arguments name (outside `write` paths: a file there may
/// be a link by the next start, and the writable bind shows it anyway).
pub(crate) fn files(args: &[String], workdir: &Path, write: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for path in args.iter().flat_map(|a| named(a, workdir)) {
        let in_write = write.iter().any(|w| path.starts_with(normal(w)));
        if !in_write && path.is_file() && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// The kernel or runtime folder `path` lies in, as written or resolved.
/// Only a file or a folder counts: a device, a pipe or a socket (as
/// `/dev/null` for a log) is never bound, and is let be.
pub(crate) fn kernel(path: &Path) -> Option<PathBuf> {
    let kind = std::fs::metadata(path).ok()?.file_type();
    if !(kind.is_file() || kind.is_dir()) {
        return None;
    }
    let resolved = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    KERNEL
        .iter()
        .map(Path::new)
        .find(|k| path.starts_with(k) || resolved.starts_with(k))
        .map(Path::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_a_path_argument_is_read() {
        assert_eq!(pieces("bot.py"), ["bot.py"]);
        assert_eq!(pieces("a:b/*"), ["a:b", "a", "b"]);
        assert_eq!(
            pieces("--class-path=x:y"),
            ["--class-path=x:y", "--class-path=x", "y", "x:y", "x"]
        );
        assert_eq!(pieces("-I/usr/inc"), ["-I/usr/inc", "/usr/inc"]);
        assert_eq!(pieces("-cp"), ["-cp", "p"]);
        assert!(pieces("").is_empty());
    }

    #[test]
    fn named_files_are_found_in_any_form_and_kernel_folders_are_told() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("lib")).unwrap();
        std::fs::write(d.join("lib/x.jar"), "").unwrap();
        std::fs::write(d.join("book"), "").unwrap();
        let args = ["--book=book", "-cp", "lib:lib/x.jar", "lib"].map(String::from);
        assert_eq!(files(&args, d, &[]), [d.join("book"), d.join("lib/x.jar")]);
        assert_eq!(files(&args, d, &[d.join("lib")]), [d.join("book")]);
        assert_eq!(kernel(Path::new("/proc/1")), Some(PathBuf::from("/proc")));
        assert_eq!(kernel(Path::new("/sys/fs")), Some(PathBuf::from("/sys")));
        assert_eq!(kernel(Path::new("/dev/null")), None);
        assert_eq!(kernel(d), None);
        assert_eq!(kernel(&d.join("missing")), None);
    }
}
