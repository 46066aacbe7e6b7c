//! A build's folder, searched and then given whole to its bot's uid
//! before the build runs.
//!
//! Searched first: a build reads and writes its whole folder, so a folder
//! that holds a tournament file (every bot's `env`: a file with a
//! `[[bot]]` line whose name holds `.toml`, or that reads as TOML with
//! `[[bot]]` tables whatever its name) or a run's results (a folder with
//! `run.json` or `games.jsonl`: the bots' logs) anywhere below it is
//! refused, whatever the command (`aboure run`, `aboure check-bot
//! --build`, run from the wrong folder). A kit's README showing a
//! `[[bot]]` table in its text is no tournament file. The walk is by
//! descriptor, never follows a link, and a folder too large to search
//! whole is refused, not passed.
//!
//! Then given: the folder is the bot's to rebuild in place, whatever uid
//! left its files there (an earlier build whose bot got another uid,
//! because its own was held by another run; the operator building by
//! hand). Only the build's sandbox does this: a game's `write` paths are
//! given at their top only.

use std::ffi::CStr;
use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd};
use std::path::{Path, PathBuf};

use nix::fcntl::{openat, OFlag};
use nix::sys::stat::{FileStat, Mode, SFlag};

use crate::error::SandboxError;
use crate::jail::Sandbox;
use crate::paths::normal;

/// Files larger than this are not read: no tournament file is, and a
/// build folder's compiled outputs are (a walk that read each would read
/// gigabytes).
const LARGEST_LOOKED_AT: u64 = 1 << 20;

impl Sandbox {
    /// Refuses the build of bot `name` in `folder` when the folder holds a
    /// tournament file or a run's results (see the module docs), naming
    /// what was found; before anything is built or given.
    pub fn refuse_tournaments_in(&self, name: &str, folder: &Path) -> Result<(), SandboxError> {
        let folder = normal(folder);
        let top = crate::spelled::open_folder(&folder, &self.operators()).map_err(|source| {
            SandboxError::Prepare {
                bot: name.to_owned(),
                path: folder.clone(),
                source,
            }
        })?;
        let mut budget = crate::hardlink::LINK_SEARCH;
        let mut found: Option<(PathBuf, &'static str)> = None;
        let walked = crate::tree::walk_below(
            top.as_fd(),
            &folder,
            &mut budget,
            |at, entry, path, stat| {
                found = found
                    .take()
                    .or_else(|| of_a_tournament(at, entry, path, stat));
                found.is_none()
            },
        );
        let refuse = |found, what| SandboxError::BuildFolderHolds {
            bot: name.to_owned(),
            folder: folder.clone(),
            found,
            what,
        };
        match (found, walked) {
            (Some((path, what)), _) => Err(refuse(path, what)),
            (None, Ok(Ok(()))) => Ok(()),
            (None, Ok(Err(_))) => Err(SandboxError::BuildFolderUnsearched {
                bot: name.to_owned(),
                folder: folder.clone(),
                entries: crate::hardlink::LINK_SEARCH,
                depth: crate::tree::MAX_DEPTH,
            }),
            (None, Err(source)) => Err(SandboxError::Prepare {
                bot: name.to_owned(),
                path: folder.clone(),
                source,
            }),
        }
    }

    /// Gives bot `name`, where it has a uid of its own, everything in
    /// `folder` (its build's folder, already given to it as a `write`
    /// path, and searched by [`Sandbox::refuse_tournaments_in`] first):
    /// what an earlier build left there as another uid, or the operator
    /// built by hand, is rebuilt in place. The folder is reached without
    /// following a link a bot may have planted, and walked by descriptor
    /// (see [`crate::tree::give_all`]).
    pub fn give_folder(&self, name: &str, folder: &Path) -> Result<(), SandboxError> {
        self.refuse_tournaments_in(name, folder)?;
        let claims = self.claims.lock().unwrap_or_else(|e| e.into_inner());
        let Some(identity) = claims.get(name).map(|c| c.identity()) else {
            return Ok(());
        };
        let folder = normal(folder);
        let prepare_err = |source| SandboxError::Prepare {
            bot: name.to_owned(),
            path: folder.clone(),
            source,
        };
        let top = crate::spelled::open_folder(&folder, &self.operators()).map_err(prepare_err)?;
        let mut budget = crate::occupied::FILE_SEARCH;
        let owner = (identity.uid, identity.gid);
        crate::tree::give_all(top.as_fd(), &folder, owner, &mut budget).map_err(prepare_err)
    }
}

/// The entry `name` of the folder `at` (at `path`) when it marks a
/// tournament's secrets: a run's results file (its folder is a results
/// folder), or a regular file with a `[[bot]]` line; with what it is.
fn of_a_tournament(
    at: BorrowedFd,
    name: &CStr,
    path: &Path,
    stat: &FileStat,
) -> Option<(PathBuf, &'static str)> {
    if SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT != SFlag::S_IFREG {
        return None;
    }
    if [c"run.json", c"games.jsonl"].contains(&name) {
        let folder = path.parent().unwrap_or(path).to_owned();
        return Some((folder, "a run's results folder: its bots' logs and games"));
    }
    if u64::try_from(stat.st_size).map_or(true, |size| size > LARGEST_LOOKED_AT) {
        return None;
    }
    let flags = OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC;
    let file = openat(at, name, flags, Mode::empty()).ok()?;
    let mut text = Vec::new();
    std::fs::File::from(file)
        .take(LARGEST_LOOKED_AT)
        .read_to_end(&mut text)
        .ok()?;
    let text = String::from_utf8_lossy(&text);
    tournament_text(&name.to_string_lossy(), &text).then(|| {
        let what = "a tournament file: [[bot]] tables, with their bots' env";
        (path.to_owned(), what)
    })
}

/// Whether a file named `name` holding `text` is a tournament file: a
/// `[[bot]]` line, and a name holding `.toml` (an editor's copy need not
/// parse) or a text that reads as TOML with `bot` tables (`ladder.conf`).
/// A README showing a tournament file in a code block is neither.
fn tournament_text(name: &str, text: &str) -> bool {
    let line = text.lines().any(|l| l.trim() == "[[bot]]");
    let named = name.to_lowercase().contains(".toml");
    let bot_tables = |t: toml::Table| t.get("bot").is_some_and(toml::Value::is_array);
    line && (named || toml::from_str::<toml::Table>(text).is_ok_and(bot_tables))
}

#[cfg(test)]
mod tests {
    use super::tournament_text;

    #[test]
    fn a_tournament_file_is_told_by_its_bot_tables_not_by_a_readme_that_shows_one() {
        let toml = "[tournament]\npairs = 1\n[[bot]]\nname = \"a\"\nenv = { K = \"v\" }\n";
        assert!(tournament_text("ladder.toml", toml));
        assert!(tournament_text("ladder.conf", toml));
        assert!(tournament_text("T.TOML~", "[[bot]]\nname = \"half"));
        let readme = format!("# Kit\n\n```toml\n{toml}```\n");
        assert!(!tournament_text("README.md", &readme));
        assert!(!tournament_text(
            "Cargo.toml",
            "[package]\nname = \"bot\"\n"
        ));
        assert!(!tournament_text(
            "notes.txt",
            "[[bot]]\nnot = toml = at all\n"
        ));
    }
}
