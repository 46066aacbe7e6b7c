//! What a bot's author may have planted among the paths the privileged
//! side follows, judged before any game and before anything on the host
//! changes for the bot.
//!
//! The helper binds, as root or in the arbiter's user namespace, what a
//! bot's command names (its script, its data) from where it leads, every
//! link resolved, and opens a script's folder both as spelled and where
//! its link leads. The other rules judge those paths by what they lead
//! into (the tournament file, the results, another bot's files); a link
//! leading anywhere else on the host (another tournament's file kept in
//! `/srv`, a folder of the arbiter's own home) was bound where it led.
//! So a link met on such a path (not the system's, nor one on the way to
//! the operator's folders, see [`crate::spelled`]) may lead only where
//! the bot's files are anyway: its own folder as the command spells it,
//! its `read` and `write` paths, or the folders every bot reads (`/usr`,
//! `/lib*`: a virtualenv's `python3` leads there). Anything else is
//! refused, naming the link and where it leads; the operator names the
//! real path, or gives it in `read`.
//!
//! A `write` path is given to the bot's uid: one in the system's program,
//! library or configuration folders would let the bot replace what every
//! user and every other bot runs, so it is refused like a tournament file
//! there.

use std::path::{Path, PathBuf};

use crate::error::SandboxError;
use crate::jail::Sandbox;
use crate::paths::normal;
use crate::registered::RegisteredBot;
use crate::settings::Policy;
use crate::spelled::link_on_the_way;

/// Folders a `write` path may neither lie in nor hold: the system's
/// programs and libraries (which every bot reads), its configuration, its
/// kernels. `/opt` is not among them: it holds installations a bot's
/// command names and data an operator may give (`/opt/data`), and a program
/// there runs only for who names it.
const SYSTEM_WRITE: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32", "/etc", "/boot",
];

impl Sandbox {
    /// Whether links and `write` paths are judged for this bot: not when
    /// it runs unsandboxed, where nothing is bound or given.
    pub(crate) fn judges(&self, policy: &Policy) -> bool {
        !(policy.disabled || self.settings.mode == crate::settings::Mode::Off)
    }

    /// Refuses a sandboxed bot whose `read` or `write` path or working
    /// directory passes through a symbolic link a bot's folder may hold,
    /// or whose `write` path lies in or holds a system folder, before
    /// anything on the host is changed for it.
    pub(crate) fn refuse_links(
        &self,
        name: &str,
        workdir: &Path,
        policy: &Policy,
    ) -> Result<(), SandboxError> {
        if !self.judges(policy) {
            return Ok(());
        }
        let operators = self.operators();
        let paths = (policy.read.iter().map(|p| ("read path", p.as_path())))
            .chain(policy.write.iter().map(|p| ("write path", p.as_path())))
            .chain([("working directory", workdir)]);
        for (what, path) in paths {
            let path = normal(path);
            if let Some(found) = link_on_the_way(&path, &operators) {
                return Err(SandboxError::Link {
                    bot: name.to_owned(),
                    what,
                    path,
                    link: Box::new(found),
                });
            }
        }
        for path in policy.write.iter().map(|p| normal(p)) {
            if let Some(folder) = system_write(&path) {
                return Err(SandboxError::SystemWrite {
                    bot: name.to_owned(),
                    path,
                    folder,
                });
            }
        }
        Ok(())
    }

    /// Refuses a sandboxed bot whose command names a path (its script or
    /// program, a data file) through a link that leads out of its own
    /// places (see the module docs).
    pub(crate) fn refuse_leading_out(
        &self,
        bot: &RegisteredBot,
        policy: &Policy,
    ) -> Result<(), SandboxError> {
        if !self.judges(policy) {
            return Ok(());
        }
        let operators = self.operators();
        let places = places(bot, &operators);
        let in_write = |p: &&PathBuf| bot.write.iter().any(|w| p.starts_with(w));
        let paths = bot.entry.iter().chain(&bot.named).filter(|p| !in_write(p));
        for path in paths {
            let Some(link) = link_on_the_way(path, &operators) else {
                continue;
            };
            let Ok(target) = std::fs::canonicalize(path) else {
                continue;
            };
            let inside = places.iter().any(|p| target.starts_with(p));
            if !inside && crate::view::system_holding(&target).is_none() {
                return Err(SandboxError::LeadsOut {
                    bot: bot.name.clone(),
                    path: path.clone(),
                    link: Box::new((link, target)),
                });
            }
        }
        Ok(())
    }
}

/// Where a link on a path of `bot`'s command may lead: its own folder as
/// its command spells it (its script's or program's, or its folder of
/// classes), its `read` and `write` paths; each as spelled and, where no
/// link of a bot's lies on its way, resolved.
fn places(bot: &RegisteredBot, operators: &[PathBuf]) -> Vec<PathBuf> {
    let own = bot.entry.as_ref().and_then(|e| match e.is_dir() {
        true => Some(e.clone()),
        false => e.parent().map(Path::to_owned),
    });
    let mut places: Vec<PathBuf> = (own.into_iter())
        .chain(bot.read.iter().cloned())
        .chain(bot.write.iter().cloned())
        .collect();
    let resolved: Vec<PathBuf> = (places.iter())
        .filter(|p| link_on_the_way(p, operators).is_none())
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    places.extend(resolved);
    places
}

/// The system folder `path` (a `write` path) lies in or holds, as spelled
/// or after its links (`/lib` is `/usr/lib` on many systems).
fn system_write(path: &Path) -> Option<PathBuf> {
    let resolved = std::fs::canonicalize(path).ok();
    let forms = || std::iter::once(path).chain(resolved.as_deref());
    SYSTEM_WRITE.iter().map(Path::new).find_map(|folder| {
        let real = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_owned());
        let hit = forms().any(|p| {
            [folder, real.as_path()]
                .iter()
                .any(|f| p.starts_with(f) || f.starts_with(p))
        });
        hit.then(|| folder.to_owned())
    })
}

/// Where in `bot`'s folders and paths the file `path` was found: `own
/// folder`, `read path` or `write path`, and which.
pub(crate) fn held_in(bot: &RegisteredBot, path: &Path) -> (&'static str, PathBuf) {
    let places = (bot.folders.iter().map(|f| ("own folder", f)))
        .chain(bot.read.iter().map(|f| ("read path", f)))
        .chain(bot.write.iter().map(|f| ("write path", f)));
    for (place, folder) in places {
        if path.starts_with(folder) {
            return (place, folder.clone());
        }
    }
    (
        "own folder",
        path.parent().map(Path::to_owned).unwrap_or_default(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_path_in_or_holding_a_system_folder_is_told() {
        for (path, folder) in [
            ("/usr/local/bin", Some("/usr")),
            ("/usr", Some("/usr")),
            ("/", Some("/usr")),
            ("/etc/cron.d", Some("/etc")),
            ("/boot", Some("/boot")),
            ("/opt/cache", None),
            ("/srv/bots/cache", None),
        ] {
            let got = system_write(Path::new(path));
            assert_eq!(got.as_deref(), folder.map(Path::new), "{path}");
        }
    }
}
