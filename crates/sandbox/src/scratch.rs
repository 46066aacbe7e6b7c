//! The scratch folders on the host, for bots that run without a
//! constructed root (which has a private tmpfs of its own): one folder per
//! bot process, owned by this module from its making to its sweeping. Each
//! is named with the arbiter's pid, so the folders of an arbiter that was
//! killed outright (its jails never dropped) are found and removed by the
//! next arbiter on the machine.
//!
//! The bot shapes its folder as it likes (a chain of folders thousands
//! deep): it is removed by descriptor, never recursing (see `tree`).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// A bot process's scratch folder on the host, removed when dropped.
#[derive(Debug)]
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    /// The folder.
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = crate::tree::remove_all(&self.0);
    }
}

/// A new scratch folder for the bot `bot`, removed when dropped.
pub(crate) fn create(bot: &str) -> io::Result<Scratch> {
    let dir = tempfile::Builder::new()
        .prefix(&format!("aboure-{}-{bot}-", std::process::id()))
        .tempdir()?;
    Ok(Scratch(dir.keep()))
}

/// Removes, once per process, the scratch folders of arbiters that are
/// gone.
pub(crate) fn sweep_once() {
    static SWEPT: Once = Once::new();
    SWEPT.call_once(sweep);
}

fn sweep() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let owner = name.to_str().and_then(|n| {
            n.strip_prefix("aboure-")?
                .split('-')
                .next()?
                .parse::<u32>()
                .ok()
        });
        if owner.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = crate::tree::remove_all(&entry.path());
        }
    }
}
