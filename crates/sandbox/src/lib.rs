//! Runs a bot, a program written by a stranger, so that it cannot harm the
//! arbiter, the results, the machine or the other bots.
//!
//! The arbiter never changes namespaces or privileges itself: it starts the
//! `aboure` binary again as a small helper (`aboure sandbox-exec PLAN`) that
//! sets the bot's cage up and then runs the bot. The layers, each used when
//! the machine allows it (see [`Support`]):
//!
//! - pid, network, mount, IPC and UTS namespaces (and a user namespace for
//!   an unprivileged arbiter), with a tiny init as pid 1 that reaps and,
//!   when the bot exits, takes every process the bot started down with it
//!   (a subreaper that kills every descendant where namespaces are not
//!   allowed);
//! - a constructed root: the bot's world is a tmpfs of read-only binds of
//!   the system, its own files and its allowances, a private size-limited
//!   `/tmp`, five devices and its own `/proc` (the host is not fenced but
//!   out of sight);
//! - an identity that owns nothing: a uid of its own per bot for the whole
//!   run when the arbiter is root, which must be able to reach on the host
//!   every path its command and allowances name (checked with its own
//!   credentials before anything is bound, see `reach`);
//! - Landlock, a second layer: reads only the same paths, writes only its
//!   scratch and allowances, no TCP, no signals or abstract sockets outside
//!   its cage;
//! - seccomp, as a backstop: no ptrace, no reading other processes' memory,
//!   no mounts, no new namespaces, no kernel modules, no file metadata
//!   changes, no inotify, no io_uring;
//! - cgroup v1 memory and pids controllers where writable (else
//!   `RLIMIT_DATA` with shared anonymous memory refused, `RLIMIT_NPROC`),
//!   `RLIMIT_CPU` and `cpu-limit` over all its processes together (read
//!   by the helper from a `cpuacct` group where there is one, else summed
//!   from `/proc`, see `spent`), `RLIMIT_FSIZE`,
//!   `RLIMIT_NOFILE`, and `write-size` over all its `write` folders
//!   together (measured by the helper, see `usage`, walked by `tree`);
//! - fairness: a freezer group per bot process (held while its opponent
//!   thinks), a CPU quota (`cpu`) and the cores (`cpus`) where the cpu and
//!   cpuset controllers are writable;
//! - `no_new_privs`, no capabilities, only descriptors 0, 1 and 2, a clean
//!   environment and a fresh scratch folder removed afterwards.
//!
//! [`Sandbox::new`] probes once what the machine allows and, in `strict`
//! mode, refuses with the exact reason and remedy; [`Sandbox::prepare`]
//! turns one bot's command into the helper's command (a [`Jail`], which
//! cleans up after the bot when dropped).

#![deny(missing_docs)]

mod answer;
mod apart;
mod argument;
mod build_folder;
mod cage;
mod cgroup;
mod channels;
mod confine;
mod early;
mod error;
mod exec;
mod fairness;
mod file_modes;
mod free_space;
mod handover;
mod hardlink;
mod identity;
mod ipc;
mod jail;
mod known;
mod launch;
mod launcher;
mod layer;
mod layers;
mod netns;
mod occupied;
mod own;
mod parts;
mod paths;
mod plan;
mod planted;
mod probe;
mod reach;
mod reaping;
mod registered;
mod relay;
mod root;
mod roster;
mod scratch;
mod sealed;
mod seccomp;
mod settings;
mod setup;
mod spelled;
mod spent;
mod stack;
mod tree;
mod usage;
mod view;
mod watch;

pub use cage::Cage;
pub use early::Games;
pub use error::{Held, SandboxError};
pub use exec::{exec_main, probe_main};
pub use hardlink::{Unsearched, LINK_SEARCH};
pub use jail::{BotSpec, Jail, Sandbox};
pub use launch::Launch;
pub use launcher::SandboxLauncher;
pub use layer::Layer;
pub use layers::Layers;
pub use own::{own_folders, resolve, resolve_in, Command, Refusal, Shared};
pub use probe::{Support, Unsupported};
pub use sealed::disarm;
pub use settings::{
    Mode, Policy, RunMemory, Settings, SettingsError, SettingsParts, COUNT_RANGE, CPU_MILLIS_RANGE,
    MAX_CORE, MIN_RUN_MEMORY, MIN_SCRATCH,
};
pub use spelled::Link;

/// The hidden subcommand of `aboure` that runs the helper.
pub const HELPER_COMMAND: &str = "sandbox-exec";
