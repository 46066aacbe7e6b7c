//! Paths as the tournament file names them: made absolute lexically, and
//! the installation an interpreter's program belongs to. Used by the view
//! of the bot's world and by the rules for the bot's own files.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute and without `.` and `..` (taken lexically: the
/// paths come from the tournament file, as the command sees them).
pub fn normal(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut out = PathBuf::from("/");
    for c in absolute.components() {
        match c {
            Component::Normal(name) => out.push(name),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

/// The installation a program found in a `bin` folder belongs to (a
/// virtualenv, pyenv, nvm, a prefix in the user's home): interpreters read
/// their libraries from there. A system folder is bound anyway.
pub fn installation(program: &Path) -> Option<PathBuf> {
    let dir = program.parent()?;
    let name = dir.file_name()?.to_str()?;
    ["bin", "sbin", "shims"]
        .contains(&name)
        .then(|| dir.parent().map(Path::to_owned))
        .flatten()
        .filter(|prefix| prefix.components().count() > 1)
}
