//! The scratch folders on the host, for bots that run without a
//! constructed root (which has a private tmpfs of its own): one folder per
//! bot process, owned by this module from its making to its sweeping. Each
//! is named with the arbiter's pid, so the folders of an arbiter that was
//! killed outright (its jails never dropped) are found and removed by the
//! next arbiter on the machine.

use std::io;
use std::path::Path;
use std::sync::Once;

use tempfile::TempDir;

/// A new scratch folder for the bot `bot`, removed when dropped.
pub(crate) fn create(bot: &str) -> io::Result<TempDir> {
    tempfile::Builder::new()
        .prefix(&format!("aboure-{}-{bot}-", std::process::id()))
        .tempdir()
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
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
