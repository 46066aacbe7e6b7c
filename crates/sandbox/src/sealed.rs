//! A build's version-control metadata, read-only. A build writes its
//! folder, which is often a checkout of the stranger's repository; git,
//! Mercurial and the others run commands their metadata names
//! (`core.fsmonitor`, `core.hooksPath` and the hooks in `.git/hooks`, an
//! `.hg/hgrc` hook): a build that wrote them would have its code run by
//! the operator's next `git status` in that folder, outside any sandbox,
//! with the operator's rights. So in a build's cage each of these found in
//! its `write` paths is bound read-only over itself ([`crate::root`] does
//! it by descriptor, never following a link): the build still reads it
//! (`git describe` works), and writes nothing there.
//!
//! Found by a walk of each `write` path by descriptor that follows no
//! link, whole or refused (past [`crate::hardlink::LINK_SEARCH`] entries
//! or `tree::MAX_DEPTH` levels, as a build's folder is); a `.git` file
//! (`gitdir: PATH`, a submodule's or a worktree's) seals the folder it
//! names too, when that folder is one the build could write. What the
//! build makes where there was none (a new `.git` in a subfolder) cannot
//! be sealed beforehand: the same walk after the build finds it
//! ([`crate::Jail::repositories`]), and `aboure-build` refuses the build.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use nix::sys::stat::SFlag;

use crate::hardlink::Unsearched;
use crate::paths::normal;

/// The names under which version-control tools keep a checkout's
/// metadata: git, Mercurial, Subversion, Bazaar, Darcs, Jujutsu, CVS,
/// Pijul, Fossil (both spellings of its checkout database) and Sapling.
pub(crate) const METADATA: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".bzr",
    "_darcs",
    ".jj",
    "CVS",
    ".pijul",
    ".fslckout",
    "_FOSSIL_",
    ".sl",
];

/// The version-control metadata in `folders` (a build's `write` paths,
/// absolute): each folder or file named as in [`METADATA`], not a link;
/// the folders their `.git` files or links point to inside `folders`; and
/// each folder git would take for a repository whatever its name (see
/// [`git_would_use`]). The walk is whole or refused: past its bounds (see
/// [`crate::hardlink`]), where it stopped.
pub(crate) fn metadata_in(folders: &[PathBuf]) -> Result<Vec<PathBuf>, Unsearched> {
    let mut found = Vec::new();
    let mut heads = Vec::new();
    crate::hardlink::walk(folders, |path, stat| {
        let Some(name) = path.file_name() else {
            return false;
        };
        if name == "HEAD" {
            heads.extend(path.parent().map(Path::to_owned));
        }
        if !METADATA.iter().any(|m| name == *m) {
            return false;
        }
        let inside = |d: &PathBuf| inside(d, folders);
        match SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT {
            SFlag::S_IFDIR => found.push(path.to_owned()),
            SFlag::S_IFREG => {
                found.extend(gitdir(path).filter(inside));
                found.push(path.to_owned());
            }
            SFlag::S_IFLNK => found.extend(link_target(path).filter(inside)),
            _ => {}
        }
        false
    })?;
    found.extend(heads.into_iter().filter(|d| git_would_use(d)));
    found.sort();
    found.dedup();
    // What lies in a folder found already (a `.git`'s worktrees and
    // modules) is read-only with it.
    let outer = found.clone();
    found.retain(|p| !outer.iter().any(|o| p != o && p.starts_with(o)));
    Ok(found)
}

/// Whether git would take `folder` for a repository (a bare one, or the
/// metadata a `core.worktree` points back from), by its own test: a
/// `HEAD`, with `objects` and `refs` or a `commondir` beside it. No name
/// is needed: a build that wrote `HEAD`, `objects/`, `refs/` and a
/// `config` naming `core.fsmonitor` into a subfolder, or into its own
/// folder, had the operator's next `git status` there run the command.
/// Over-counting costs little: such a folder is only made read-only to a
/// build.
fn git_would_use(folder: &Path) -> bool {
    let has = |name: &str| std::fs::symlink_metadata(folder.join(name)).is_ok();
    has("HEAD") && ((has("objects") && has("refs")) || has("commondir"))
}

/// The folder a link named as version-control metadata points to (`.git`
/// -> `meta`), if it is a folder, not a link.
fn link_target(link: &Path) -> Option<PathBuf> {
    let target = std::fs::read_link(link).ok()?;
    let folder = normal(&link.parent()?.join(target));
    let meta = std::fs::symlink_metadata(&folder).ok()?;
    meta.is_dir().then_some(folder)
}

/// Makes `made`, version-control metadata a build made where there was
/// none (see [`metadata_in`]), unusable: metadata named as in
/// [`METADATA`] is removed (folder, file or link: it is new, so nothing
/// of anyone else's goes with it); of a folder git would take for a
/// repository whatever its name (which may be a folder that was there
/// before, the build's own), only its `HEAD`, without which git does not.
/// Nothing is followed: a link is removed, not what it names.
pub fn disarm(made: &Path) -> std::io::Result<()> {
    let named = made
        .file_name()
        .is_some_and(|name| METADATA.iter().any(|m| name == *m));
    let meta = std::fs::symlink_metadata(made)?;
    match (named, meta.is_dir()) {
        (true, true) => std::fs::remove_dir_all(made),
        (true, false) => std::fs::remove_file(made),
        (false, _) => match std::fs::remove_file(made.join("HEAD")) {
            Err(e) if e.kind() == std::io::ErrorKind::IsADirectory => {
                std::fs::remove_dir_all(made.join("HEAD"))
            }
            done => done,
        },
    }
}

/// The folder a `.git` file names (`gitdir: PATH`, relative to the file's
/// folder), if it is one and is a folder, not a link.
fn gitdir(file: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::OpenOptionsExt;
    if file.file_name()? != ".git" {
        return None;
    }
    let mut text = String::new();
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(file)
        .ok()?;
    opened.take(4096).read_to_string(&mut text).ok()?;
    let named = text.lines().next()?.strip_prefix("gitdir:")?.trim();
    let folder = normal(&file.parent()?.join(named));
    let meta = std::fs::symlink_metadata(&folder).ok()?;
    meta.is_dir().then_some(folder)
}

fn inside(path: &Path, folders: &[PathBuf]) -> bool {
    folders.iter().any(|f| path.starts_with(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_found_at_the_top_below_and_where_a_git_file_points() {
        let dir = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(dir.path()).unwrap();
        for folder in [".git/hooks", "src", "deps/lib/.hg", "modules/m", "build"] {
            std::fs::create_dir_all(top.join(folder)).unwrap();
        }
        std::fs::write(top.join("deps/lib/.git"), "gitdir: ../../modules/m\n").unwrap();
        std::fs::write(top.join("src/.git"), "gitdir: /elsewhere/m\n").unwrap();
        std::os::unix::fs::symlink("/etc", top.join("build/.svn")).unwrap();
        std::os::unix::fs::symlink("/etc", top.join("etc")).unwrap();
        let mut found = metadata_in(std::slice::from_ref(&top)).unwrap();
        found.sort();
        let want: Vec<PathBuf> = [
            ".git",
            "deps/lib/.git",
            "deps/lib/.hg",
            "modules/m",
            "src/.git",
        ]
        .iter()
        .map(|p| top.join(p))
        .collect();
        assert_eq!(found, want);
    }

    #[test]
    fn a_folder_git_would_use_is_found_whatever_its_name_and_so_is_a_links_target() {
        let dir = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(dir.path()).unwrap();
        let folders = [
            "bare/objects",
            "bare/refs/heads",
            "worktree",
            "headonly",
            "meta/objects",
            "meta/refs",
            "sub",
            ".git/objects",
            ".git/refs",
            ".git/worktrees/w",
        ];
        for folder in folders {
            std::fs::create_dir_all(top.join(folder)).unwrap();
        }
        for file in [
            "bare/HEAD",
            "worktree/HEAD",
            "headonly/HEAD",
            "meta/HEAD",
            ".git/HEAD",
        ] {
            std::fs::write(top.join(file), "ref: refs/heads/main\n").unwrap();
        }
        std::fs::write(top.join("worktree/commondir"), "../bare\n").unwrap();
        std::fs::write(top.join(".git/worktrees/w/HEAD"), "ref: refs/heads/w\n").unwrap();
        std::fs::write(top.join(".git/worktrees/w/commondir"), "../..\n").unwrap();
        std::os::unix::fs::symlink("../meta", top.join("sub/.git")).unwrap();
        std::os::unix::fs::symlink("/etc", top.join("sub/.hg")).unwrap();
        let found = metadata_in(std::slice::from_ref(&top)).unwrap();
        let want: Vec<PathBuf> = [".git", "bare", "meta", "worktree"]
            .iter()
            .map(|p| top.join(p))
            .collect();
        assert_eq!(found, want);
    }

    #[test]
    fn a_tree_past_the_bounds_is_unsearched_not_half_searched() {
        let dir = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(dir.path()).unwrap();
        let junk = top.join("junk");
        std::fs::create_dir_all(&junk).unwrap();
        for i in 0..crate::hardlink::LINK_SEARCH {
            std::fs::write(junk.join(i.to_string()), "").unwrap();
        }
        std::fs::create_dir_all(top.join("zz/.git")).unwrap();
        let searched = metadata_in(std::slice::from_ref(&top));
        assert!(!searched.unwrap_err().deep);
        let dir = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(dir.path()).unwrap();
        let chain: PathBuf = std::iter::repeat_n("d", crate::tree::MAX_DEPTH + 2).collect();
        std::fs::create_dir_all(top.join(chain).join(".git")).unwrap();
        assert!(metadata_in(std::slice::from_ref(&top)).unwrap_err().deep);
    }
}
