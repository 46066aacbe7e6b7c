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
    /// Landlock rules, if Landlock is used.
    pub landlock: Option<Rules>,
    /// The seccomp backstop.
    pub seccomp: bool,
    /// Cgroup folders (`cgroup.procs` inside) the bot joins.
    pub cgroups: Vec<PathBuf>,
    /// Resource limits: (resource, soft, hard).
    pub rlimits: Vec<(Resource, u64, u64)>,
}

/// Filesystem and network rules for Landlock.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Read (and execute) below these.
    pub read: Vec<PathBuf>,
    /// Read and write below these.
    pub write: Vec<PathBuf>,
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
}
