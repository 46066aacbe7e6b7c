//! The rules one bot process ran under, in words, for the record of a bot
//! that dies before its first move. Why: a bot that works on its author's
//! machine and exits at once in a tournament was, more often than not,
//! refused something by its sandbox (a module beside a script it imports,
//! an environment variable, the network), and a bare "exited with status
//! 1" does not say so. The words name what was allowed and the key that
//! allows more, so the fix is in the message.

use std::path::{Path, PathBuf};

use aboure_process::size_text;

/// What a bot process was allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// True if reads are confined (a constructed root, or Landlock).
    pub confined_reads: bool,
    /// Beyond the system folders: what it could read (its installation,
    /// own folders and files, `read` allowances), host paths.
    pub readable: Vec<PathBuf>,
    /// Beyond its scratch: what it could write.
    pub writable: Vec<PathBuf>,
    /// Size of its private `/tmp`, if it had one (a constructed root).
    pub scratch: Option<u64>,
    /// The names of the environment variables it was given.
    pub env: Vec<String>,
    /// Network access.
    pub network: bool,
    /// Its memory limit and how it is enforced.
    pub memory: Option<(u64, &'static str)>,
    /// The folder it started in: the same path inside as on the host.
    pub workdir: PathBuf,
    /// True if the bot saw what the host has in `workdir`; false if the
    /// sandbox showed it empty but for the bot's own files.
    pub workdir_shown: bool,
}

/// The host paths a bot process may see, for the hint of a missing file
/// (see `aboure_process::hint`): what its root binds (the system folders,
/// its own folders and files, its `read` and `write` paths), never below a
/// mask (the tournament file, another bot's folder), and, for a bot of a
/// uid of its own, only where that uid may look on the host (the helper
/// binds as root: a root-only folder inside a `read` path shows in the
/// bot's root, and cannot be entered there). Names right in the folder it
/// starts in are not seen: the sandbox shows that folder empty but for
/// what it binds.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sight {
    /// Bound folders and files: everything below them is seen.
    pub(crate) bound: Vec<PathBuf>,
    /// Masked over: nothing below them is seen.
    pub(crate) masked: Vec<PathBuf>,
    /// The bot's uid and gid, when it has its own.
    pub(crate) identity: Option<crate::plan::Identity>,
}

impl Sight {
    /// Whether the bot may see `path` (absolute, lexically normal).
    pub(crate) fn shows(&self, path: &Path) -> bool {
        let seen = self.bound.iter().any(|b| path.starts_with(b));
        seen && !self.masked.iter().any(|m| path.starts_with(m))
            && self
                .identity
                .is_none_or(|identity| crate::reach::looks_up(identity, path))
    }
}

impl std::fmt::Display for Cage {
    /// One line: `the sandbox let it read only ...; to allow more: ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |paths: &[PathBuf]| {
            let shown: Vec<String> = paths.iter().map(|p| crate::error::shown(p)).collect();
            shown.join(", ")
        };
        if self.confined_reads {
            write!(
                f,
                "the sandbox let it read only the system folders (/usr, /bin, /lib, a few files of /etc)"
            )?;
            if !self.readable.is_empty() {
                write!(f, " and {}", list(&self.readable))?;
            }
        } else {
            write!(f, "the sandbox let it read what its user can")?;
        }
        match self.scratch {
            Some(bytes) => write!(f, "; write only its private /tmp ({})", size_text(bytes))?,
            None => write!(f, "; write only its scratch folder (HOME, TMPDIR)")?,
        }
        if !self.writable.is_empty() {
            write!(f, " and {}", list(&self.writable))?;
        }
        write!(f, "; its environment was only {}", self.env.join(", "))?;
        match self.network {
            true => write!(f, "; network on")?,
            false => write!(f, "; network off")?,
        }
        match self.memory {
            Some((bytes, how)) => write!(f, "; memory limit {} ({how})", size_text(bytes))?,
            None => write!(f, "; no memory limit")?,
        }
        write!(f, "; it started in {}", crate::error::shown(&self.workdir))?;
        match self.workdir_shown {
            true => write!(f, " (the same folder as on the host)")?,
            false => write!(
                f,
                " (the same path as on the host, but empty in the sandbox except for the \
                 bot's own files)"
            )?,
        }
        write!(
            f,
            ". To allow more: `sandbox = {{ read = [\"PATH\"] }}` for what it reads \
             (check-bot --read PATH), `sandbox = {{ write = [\"PATH\"] }}` for a folder \
             it writes, such as its logs (check-bot --write PATH), `env = {{ NAME = \"VALUE\" }}` for a variable \
             (check-bot --env NAME=VALUE), `workdir` for the folder it starts in, \
             `sandbox = {{ network = true }}` (check-bot --network)"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_name_what_was_allowed_and_how_to_allow_more() {
        let cage = Cage {
            confined_reads: true,
            readable: vec!["/w/bots/multi".into(), "/opt/models".into()],
            writable: vec![],
            scratch: Some(256 << 20),
            env: ["PATH", "LANG", "HOME", "TMPDIR", "MANCALA_GAMES_DIR"]
                .map(String::from)
                .to_vec(),
            network: false,
            memory: Some((512 << 20, "a cgroup over all its processes")),
            workdir: "/w".into(),
            workdir_shown: false,
        };
        assert_eq!(
            cage.to_string(),
            "the sandbox let it read only the system folders (/usr, /bin, /lib, a few files of \
             /etc) and /w/bots/multi, /opt/models; write only its private /tmp (256 MiB); its \
             environment was only PATH, LANG, HOME, TMPDIR, MANCALA_GAMES_DIR; network off; \
             memory limit 512 MiB (a cgroup over all its processes); it started in /w (the same \
             path as on the host, but empty in the sandbox except for the bot's own files). To \
             allow more: `sandbox = { read = [\"PATH\"] }` for what it reads (check-bot --read \
             PATH), `sandbox = { write = [\"PATH\"] }` for a folder it writes, such as its logs \
             (check-bot --write PATH), `env = { NAME = \
             \"VALUE\" }` for a variable (check-bot --env NAME=VALUE), `workdir` for the folder \
             it starts in, `sandbox = { network = true }` (check-bot --network)"
        );
        let open = Cage {
            confined_reads: false,
            network: true,
            memory: None,
            scratch: None,
            workdir: "/w/bots/multi".into(),
            workdir_shown: true,
            ..cage
        };
        let text = open.to_string();
        assert!(text.starts_with("the sandbox let it read what its user can; write only its scratch folder (HOME, TMPDIR); its"), "{text}");
        assert!(
            text.contains(
                "; network on; no memory limit; it started in /w/bots/multi (the same folder as \
                 on the host). To allow"
            ),
            "{text}"
        );
    }
}
