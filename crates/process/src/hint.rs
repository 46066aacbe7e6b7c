//! What to tell the author of a bot that ended before its first move. Why:
//! a bot that works on its author's machine and dies at once in a
//! tournament was either refused something by its sandbox, or looked for a
//! file that is not there at all (a data file opened relative to another
//! folder than the one it starts in). Sandbox advice for the second sends
//! the author the wrong way, so the file its stderr names is looked up on
//! the host first: only where the bot itself may see (its sandbox shows
//! that path, and its own uid may look there), and without following a
//! link: an answer for any other path would tell a bot whether a file
//! exists where it may not look (a root-only folder). A name right in the
//! folder it started in, which a sandbox shows empty, gets the same words
//! whether the host has it or not.

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// The advice for a bot that ended before its first move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Its stderr names a file that does not exist on the host either.
    NoSuchFile {
        /// The file, resolved against the bot's working directory.
        path: PathBuf,
        /// The folder the bot started in.
        workdir: PathBuf,
    },
    /// Its stderr names a file right in the folder it started in, which
    /// its sandbox shows empty but for the bot's own files: said the same
    /// whether the host has the file or not (the bot could not tell).
    Unseen {
        /// The file, resolved against the bot's working directory.
        path: PathBuf,
        /// The folder the bot started in.
        workdir: PathBuf,
    },
    /// What its sandbox allowed and the keys that allow more, in words.
    Sandbox(String),
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::NoSuchFile { path, workdir } => {
                write!(
                    f,
                    "no such file on the host: {} (the bot started in {}; relative paths \
                     are from that folder, which the bot's `workdir` sets)",
                    path.display(),
                    workdir.display()
                )?;
                // ENOENT also meets a file created in a folder the sandbox
                // does not show; the bot's own working directory it shows.
                match path.parent() {
                    Some(folder) if folder != workdir && folder.is_dir() => write!(
                        f,
                        "; if the bot creates it, let it write {}: `sandbox = {{ write = \
                         [{:?}] }}` (check-bot --write {})",
                        folder.display(),
                        folder.display().to_string(),
                        folder.display()
                    ),
                    _ => Ok(()),
                }
            }
            Hint::Unseen { path, workdir } => write!(
                f,
                "no such file in the bot's sandbox: {} (the bot started in {}, which its \
                 sandbox shows empty but for the bot's own files, whatever the host has there; \
                 relative paths are from that folder, which the bot's `workdir` sets); if the \
                 file is there on the host, let the bot read it: `sandbox = {{ read = [{:?}] }}` \
                 (check-bot --read {})",
                path.display(),
                workdir.display(),
                path.display().to_string(),
                path.display()
            ),
            Hint::Sandbox(cage) => f.write_str(cage),
        }
    }
}

/// The hint for a bot started in `workdir` whose stderr was `stderr`:
/// no such file, if the stderr names a missing file that the host does not
/// have either, in a place the bot may see (`shows`); a file right in
/// `workdir` that a sandbox (`cage`) does not show, the same words whether
/// the host has it or not; else `cage`, the sandbox's words, if it ran in
/// one.
pub fn hint(
    stderr: &str,
    workdir: &Path,
    cage: Option<String>,
    shows: &dyn Fn(&Path) -> bool,
) -> Option<Hint> {
    let missing = missing_file(stderr).map(|name| resolved(workdir, Path::new(&name)));
    match missing {
        Some(path) if shows(&path) => match absent(&path) {
            true => Some(Hint::NoSuchFile {
                path,
                workdir: workdir.to_owned(),
            }),
            false => cage.map(Hint::Sandbox),
        },
        Some(path) if cage.is_some() && path.parent() == Some(workdir) => Some(Hint::Unseen {
            path,
            workdir: workdir.to_owned(),
        }),
        _ => cage.map(Hint::Sandbox),
    }
}

/// Whether the host has no `path` (absolute, lexically normal), found
/// without following a link: false when a folder on the way is a link or
/// cannot be looked into (no answer is given then).
fn absent(path: &Path) -> bool {
    for prefix in path.ancestors().collect::<Vec<_>>().into_iter().rev() {
        match std::fs::symlink_metadata(prefix) {
            Err(e) => return e.kind() == std::io::ErrorKind::NotFound,
            Ok(meta) if prefix != path && !meta.is_dir() => return false,
            Ok(_) => {}
        }
    }
    false
}

/// `name` from `workdir`, lexically normal (`.` dropped, `..` taken back).
fn resolved(workdir: &Path, name: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in workdir.join(name).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The file the last report of a missing file in `stderr` names, as the
/// common runtimes word it: Python (`No such file or directory: 'X'`,
/// `can't open file 'X'`), Node.js (`Cannot find module 'X'`), Java
/// (`X (No such file or directory)`) and C tools (`prog: X: No such file or
/// directory`, where X must look like a path, not a function's name).
pub fn missing_file(stderr: &str) -> Option<String> {
    stderr.lines().rev().find_map(missing_in)
}

/// The file one line reports missing.
fn missing_in(line: &str) -> Option<String> {
    const ENOENT: &str = "No such file or directory";
    let quoted_after = |marker: &str| {
        let rest = &line[line.find(marker)? + marker.len()..];
        let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let body = &rest[1..];
        Some(body[..body.find(quote)?].to_owned())
    };
    if let Some(name) = quoted_after(&format!("{ENOENT}: ")) {
        return Some(name);
    }
    if line.contains(ENOENT) {
        if let Some(name) = quoted_after("can't open file ") {
            return Some(name);
        }
    }
    if let Some(name) = quoted_after("Cannot find module ") {
        return Some(name);
    }
    let before = line.strip_suffix(&format!(" ({ENOENT})")).or_else(|| {
        line.trim_end()
            .strip_suffix(&format!(": {ENOENT}"))
            .map(|l| l.rsplit(": ").next().unwrap_or(l))
    })?;
    let name = before.rsplit(": ").next().unwrap_or(before).trim();
    let pathlike = !name.contains(' ') && (name.contains('/') || name.contains('.'));
    (pathlike && !name.is_empty()).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_missing_file_is_read_from_each_runtimes_words() {
        for (line, file) in [
            (
                "FileNotFoundError: [Errno 2] No such file or directory: 'weights.txt'",
                Some("weights.txt"),
            ),
            (
                "python3: can't open file '/w/bot/mian.py': [Errno 2] No such file or directory",
                Some("/w/bot/mian.py"),
            ),
            (
                "Error: Cannot find module '/w/bots/js/bot.js'",
                Some("/w/bots/js/bot.js"),
            ),
            (
                "Exception in thread \"main\" java.io.FileNotFoundException: data/book.txt (No such file or directory)",
                Some("data/book.txt"),
            ),
            ("cat: ./book.txt: No such file or directory", Some("./book.txt")),
            ("fopen: No such file or directory", None),
            ("PermissionError: [Errno 13] Permission denied: 'bot.log'", None),
            ("ModuleNotFoundError: No module named 'helper'", None),
        ] {
            assert_eq!(missing_in(line).as_deref(), file, "{line}");
        }
    }

    #[test]
    fn a_file_missing_on_the_host_too_is_said_so_and_one_there_gets_the_sandbox_words() {
        let dir = std::env::temp_dir().join(format!("aboure-hint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("here.txt"), "x").unwrap();
        let cage = || Some("the sandbox let it read only ...".to_owned());
        let stderr = "Traceback (most recent call last):\n\
             FileNotFoundError: [Errno 2] No such file or directory: './gone.txt'\n";
        assert_eq!(
            hint(stderr, &dir, cage(), &|_| true),
            Some(Hint::NoSuchFile {
                path: dir.join("gone.txt"),
                workdir: dir.clone()
            })
        );
        let text = hint(stderr, &dir, None, &|_| true).unwrap().to_string();
        let expected = format!(
            "no such file on the host: {} (the bot started in {};",
            dir.join("gone.txt").display(),
            dir.display()
        );
        assert!(text.starts_with(&expected), "{text}");
        assert!(!text.contains("write"), "{text}");
        // A file to be created in a folder the host has: maybe a write the
        // sandbox refused, and the key that allows it.
        std::fs::create_dir_all(dir.join("logs")).unwrap();
        let log = "FileNotFoundError: [Errno 2] No such file or directory: 'logs/bot.log'";
        let text = hint(log, &dir, cage(), &|_| true).unwrap().to_string();
        let logs = dir.join("logs").display().to_string();
        assert!(
            text.ends_with(&format!(
                "; if the bot creates it, let it write {logs}: `sandbox = {{ write = \
                 [{logs:?}] }}` (check-bot --write {logs})"
            )),
            "{text}"
        );
        let there = "FileNotFoundError: [Errno 2] No such file or directory: 'here.txt'\n";
        assert_eq!(
            hint(there, &dir, cage(), &|_| true),
            cage().map(Hint::Sandbox)
        );
        assert_eq!(hint(there, &dir, None, &|_| true), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_path_the_bot_may_not_see_or_reached_through_a_link_gets_no_answer() {
        let dir = std::env::temp_dir().join(format!("aboure-hint-seen-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("real")).unwrap();
        std::os::unix::fs::symlink(dir.join("real"), dir.join("link")).unwrap();
        let cage = || Some("the sandbox let it read only ...".to_owned());
        let words = |name: &str| {
            format!("FileNotFoundError: [Errno 2] No such file or directory: '{name}'\n")
        };
        let inside = |p: &Path| p.starts_with(&dir);
        // Outside what the bot sees: the sandbox's words, whether or not
        // the host has the file.
        for name in ["/etc/passwd", "/etc/no-such-file-here", "../../etc/none"] {
            assert_eq!(
                hint(&words(name), &dir, cage(), &inside),
                cage().map(Hint::Sandbox)
            );
        }
        // Right in the folder it started in, unseen: the same words, and
        // never the host's answer.
        let beside = |name: &str| hint(&words(name), &dir, cage(), &|_| false);
        let unseen = beside("notes.txt");
        assert_eq!(
            unseen,
            Some(Hint::Unseen {
                path: dir.join("notes.txt"),
                workdir: dir.clone()
            })
        );
        std::fs::write(dir.join("notes.txt"), "n").unwrap();
        assert_eq!(beside("./notes.txt"), unseen);
        assert!(!unseen.unwrap().to_string().contains("on the host:"));
        // Through a link: no answer either.
        let through = words("link/gone.txt");
        assert_eq!(
            hint(&through, &dir, cage(), &inside),
            cage().map(Hint::Sandbox)
        );
        let direct = hint(&words("real/gone.txt"), &dir, cage(), &inside);
        assert!(
            matches!(direct, Some(Hint::NoSuchFile { .. })),
            "{direct:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
