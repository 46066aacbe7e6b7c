//! What the helper is told to do: one JSON value passed as its only
//! argument (no file to clean up, no descriptor to inherit). Everything is
//! decided in the arbiter, which has probed the machine; the helper only
//! carries it out.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The helper's instructions for one bot process.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// The program, as an absolute path.
    pub program: PathBuf,
    /// Its whole argument vector, `argv[0]` included.
    pub argv: Vec<String>,
    /// Working directory.
    pub workdir: PathBuf,
    /// The whole environment of the bot.
    pub env: Vec<(String, String)>,
    /// New user, pid, mount, IPC and UTS namespaces (and network, unless
    /// `network`); otherwise a subreaper.
    pub namespaces: bool,
    /// Keep the machine's network.
    pub network: bool,
    /// The bot's network namespace, made once for the run (see `netns`),
    /// which the helper enters instead of making one.
    #[serde(default)]
    pub net: Option<PathBuf>,
    /// Landlock rules, if Landlock is used.
    pub landlock: Option<Rules>,
    /// The seccomp backstop.
    pub seccomp: bool,
    /// The memory limit is a per-process `RLIMIT_DATA` (no memory cgroup),
    /// which counts private memory only: seccomp also refuses shared
    /// anonymous memory (`MAP_SHARED | MAP_ANONYMOUS`, `memfd_create`,
    /// `shmget`), which would otherwise escape it.
    pub private_memory: bool,
    /// Cgroup folders (`tasks` inside) the helper joins before it forks
    /// anything.
    pub cgroups: Vec<PathBuf>,
    /// Cgroup folders the bot's own process joins before anything of the
    /// bot runs (its cpu, cpuset and freezer groups, see
    /// `Cgroups::bot_dirs`).
    #[serde(default)]
    pub bot_cgroups: Vec<PathBuf>,
    /// Resource limits: (resource, soft, hard).
    pub rlimits: Vec<(Resource, u64, u64)>,
    /// The constructed root (needs `namespaces`); `None`: the host's.
    pub root: Option<Root>,
    /// The identity the bot runs as; `None`: the helper's own.
    pub identity: Option<Identity>,
    /// The bot's own files, which its identity must be able to read (the
    /// helper checks them after the identity change, to say which).
    pub own_files: Vec<PathBuf>,
    /// Its `write` paths, which its identity must be able to write.
    pub own_writable: Vec<PathBuf>,
    /// What its `write` paths may hold together, bytes: the helper stops
    /// the bot past it (see `usage`).
    #[serde(default)]
    pub write_limit: Option<u64>,
    /// The CPU time, whole seconds, that every process of the bot may
    /// spend together (`cpu-limit`): the helper stops the bot past it (see
    /// `spent`).
    #[serde(default)]
    pub cpu_limit: Option<u64>,
    /// The cgroup whose `cpuacct.usage` counts every process of the bot,
    /// reaped or not: where there is one, the `cpu-limit` is read there
    /// (see `spent`).
    #[serde(default)]
    pub cpu_account: Option<PathBuf>,
    /// The bot is held by signals (`SIGSTOP`), not by a freezer: seccomp
    /// also refuses what would send it a `SIGCONT` while every process of
    /// it is stopped (see `confine::continue_sources`).
    #[serde(default)]
    pub signal_hold: bool,
    /// A build step, not a game's bot: in a constructed root, seccomp lets
    /// it set file modes and times (see `seccomp::STAMPS`).
    #[serde(default)]
    pub build: bool,
}

/// The bot's world: what is mounted in the fresh tmpfs that becomes its
/// root, each at the same path as on the host (so the command's paths
/// still work). A private `/tmp`, `/dev` and `/proc` are always added.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Root {
    /// In the order they are made (a folder before what lies inside it).
    pub entries: Vec<Entry>,
    /// Size of the scratch tmpfs (`/tmp`, also `HOME`), bytes.
    pub scratch: u64,
}

/// One path of the constructed root.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Where, in the bot's root and on the host.
    pub path: PathBuf,
    /// What is there.
    pub kind: EntryKind,
    /// For a bind, the host's path with every symbolic link resolved (the
    /// helper reads it below another root, where an absolute link would
    /// point elsewhere).
    pub source: Option<PathBuf>,
}

/// What a path of the constructed root holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntryKind {
    /// The host's file or folder, read-only.
    ReadOnly,
    /// The host's file or folder, writable.
    ReadWrite,
    /// A copy of the host's file (the small files of `/etc`: a copy costs
    /// less than a mount, made and torn down with every bot process).
    Copy,
    /// A symbolic link to this target (`/lib` on a merged-`/usr` system).
    Symlink(PathBuf),
    /// An empty folder (the working directory when nothing is bound there).
    Folder,
    /// Hidden: an empty read-only folder or file mounted over what a bind
    /// brought (the tournament file, the results, another bot's files).
    Mask,
    /// What a writable bind brought, made read-only where it lies: a
    /// build's version-control metadata (see `sealed`). Nothing when it
    /// is gone or a link by then.
    Sealed,
}

/// A user and group id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// User id.
    pub uid: u32,
    /// Group id (the only group: supplementary groups are dropped).
    pub gid: u32,
}

/// Filesystem and network rules for Landlock.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Read (and execute) below these.
    pub read: Vec<PathBuf>,
    /// Read and write below these, but make no socket or FIFO (the bot's
    /// `write` paths: a socket there would outlive the process and hand
    /// descriptors, its private `/tmp` among them, to its next one).
    pub write: Vec<PathBuf>,
    /// Everything below these: the bot's private scratch (runtimes make
    /// their sockets in `TMPDIR`).
    #[serde(default)]
    pub scratch: Vec<PathBuf>,
    /// Devices to read and write (`/dev/null`).
    pub devices: Vec<PathBuf>,
    /// No TCP bind or connect.
    pub no_tcp: bool,
}

/// The `setrlimit` resources the sandbox sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resource {
    /// Address space.
    As,
    /// CPU seconds.
    Cpu,
    /// File size.
    Fsize,
    /// Open descriptors.
    Nofile,
    /// Processes of the user.
    Nproc,
    /// Core dumps (none).
    Core,
    /// Signals queued to the processes of the user: bounded, so that a
    /// bot cannot use up the count its sandbox's hold relay needs (see
    /// `relay`).
    Sigpending,
    /// The main thread's stack, which `RLIMIT_DATA` does not count (see
    /// `stack`).
    Stack,
}
