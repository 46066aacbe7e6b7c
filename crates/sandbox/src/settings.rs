//! What a bot's sandbox is made of: the validated `[sandbox]` table of a
//! tournament ([`Settings`]) and one bot's allowances ([`Policy`]). This
//! crate reads no TOML: the tournament file's reader (the arbiter's config)
//! owns the keys, their defaults and their errors, and hands these values
//! over already checked.

use std::ops::RangeInclusive;
use std::path::PathBuf;

/// How much of the sandbox to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every layer this machine allows; the missing ones are reported.
    Auto,
    /// Every layer, or refuse to start.
    Strict,
    /// None: bots run as plain child processes.
    Off,
}

/// The validated `[sandbox]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// How much of the sandbox to use.
    pub mode: Mode,
    /// Allowances for every bot (each bot's own are added to these).
    pub defaults: Policy,
    /// Largest file a bot may write, in bytes (`RLIMIT_FSIZE`).
    pub file_size: u64,
    /// Open descriptors per process (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// Processes and threads of one bot together (the pids cgroup, else
    /// `RLIMIT_NPROC`).
    pub processes: u64,
    // Fairness (the cpu and cpuset controllers), kept together.
    /// CPU time of one bot, in thousandths of a core (`cpu = "1"`: 1000);
    /// `None` for `cpu = "unlimited"`.
    pub cpu_millis: Option<u64>,
    /// The cores bots run on, a cpuset list (`cpus = "0,1"`); `None`: all.
    pub cpus: Option<String>,
    /// Size of a bot's scratch tmpfs (`/tmp` and `HOME` of its constructed
    /// root), bytes, unless the bot sets its own.
    pub disk: u64,
    /// The uids (and gids) bots run as when the arbiter is root, one per
    /// bot process running at the same time.
    pub uids: RangeInclusive<u32>,
}

/// What one bot may do beyond the default cage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// False for `sandbox = false`: the bot runs as a plain child process
    /// (for a `wrapper` that is a sandbox of its own, such as docker).
    pub disabled: bool,
    /// Network access.
    pub network: bool,
    /// Extra paths it may read (absolute).
    pub read: Vec<PathBuf>,
    /// Extra paths it may write (absolute).
    pub write: Vec<PathBuf>,
    /// Its own scratch size, bytes, instead of the table's `disk`.
    pub disk: Option<u64>,
}
