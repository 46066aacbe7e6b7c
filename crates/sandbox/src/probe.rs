//! What this machine allows, found once per run by trying (not by reading
//! version numbers): the helper is started in probe mode and tries each
//! layer on itself; the cgroup controllers are tried by making a group.
//! Each missing layer comes with the system's reason and how to enable it,
//! for `strict` mode's refusal and `auto` mode's report.

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use crate::cgroup;
use crate::confine::landlock_abi;
use crate::exec::ProbeReport;

/// Why this machine does not allow a layer: the system's reason and the
/// remedy, in words, as `auto` mode reports it and `strict` mode refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Unsupported {
    /// The reason, with how to enable the layer where one is known.
    pub reason: String,
}

impl From<String> for Unsupported {
    fn from(reason: String) -> Unsupported {
        Unsupported { reason }
    }
}

impl From<&str> for Unsupported {
    fn from(reason: &str) -> Unsupported {
        Unsupported {
            reason: reason.to_owned(),
        }
    }
}

/// The layers this machine allows (`Ok`) or not (why).
#[derive(Clone, Debug)]
pub struct Support {
    /// User, pid, network, mount namespaces (with a `/proc` of their own).
    pub namespaces: Result<(), Unsupported>,
    /// A constructed root in them.
    pub root: Result<(), Unsupported>,
    /// Bots as uids of their own (`Ok` for an unprivileged arbiter, whose
    /// bots keep its uid).
    pub identity: Result<(), Unsupported>,
    /// The arbiter runs as root (its bots as uids of `sandbox.uids`).
    pub root_user: bool,
    /// The kernel's Landlock ABI (0: none).
    pub landlock_abi: i64,
    /// Landlock.
    pub landlock: Result<(), Unsupported>,
    /// seccomp filters.
    pub seccomp: Result<(), Unsupported>,
    /// A cgroup v1 memory controller aboure can make groups in.
    pub memory_cgroup: Result<(), Unsupported>,
    /// A cgroup v1 pids controller aboure can make groups in.
    pub pids_cgroup: Result<(), Unsupported>,
    /// A cgroup v1 freezer controller aboure can make groups in.
    pub freezer_cgroup: Result<(), Unsupported>,
    /// A cgroup v1 cpu controller aboure can make groups in.
    pub cpu_cgroup: Result<(), Unsupported>,
    /// A cgroup v1 cpuset controller aboure can make groups in.
    pub cpuset_cgroup: Result<(), Unsupported>,
}

static SUPPORT: OnceLock<Support> = OnceLock::new();

impl Support {
    /// Probes the machine once (later calls return the first answer);
    /// `helper` is the `aboure` binary.
    pub fn probe(helper: &Path) -> &'static Support {
        SUPPORT.get_or_init(|| Support::try_now(helper))
    }

    fn try_now(helper: &Path) -> Support {
        let report = Command::new(helper)
            .args([crate::HELPER_COMMAND, "--probe"])
            .env_clear()
            .output()
            .map_err(|e| format!("cannot run {}: {e}", helper.display()))
            .and_then(|out| {
                serde_json::from_slice::<ProbeReport>(&out.stdout).map_err(|_| {
                    format!(
                        "the probe of {} failed: {}",
                        helper.display(),
                        String::from_utf8_lossy(&out.stderr).trim()
                    )
                })
            });
        let report = report.unwrap_or_else(|e| ProbeReport {
            namespaces: Some(e.clone()),
            proc: None,
            root: None,
            identity: Some(e.clone()),
            landlock: Some(e.clone()),
            seccomp: Some(e),
        });
        let namespaces_ok = report.namespaces.is_none() && report.proc.is_none();
        let abi = landlock_abi();
        let support = Support {
            namespaces: unsupported(match (report.namespaces, report.proc) {
                (None, None) => Ok(()),
                (Some(e), _) | (None, Some(e)) => Err(format!(
                    "{e}; {}. Without them the bot sees the host's processes and network, \
                     and has no constructed root",
                    userns_remedy()
                )),
            }),
            root: unsupported(match (namespaces_ok, report.root) {
                (false, _) => Err(
                    "needs the namespaces: the bot sees the host's filesystem, fenced by \
                     Landlock and its uid alone (what Landlock has no rule for, file \
                     metadata, inotify and Unix sockets by path, is left to seccomp)"
                        .to_owned(),
                ),
                (true, Some(e)) => Err(format!("{e} (the bot sees the host's filesystem)")),
                (true, None) => Ok(()),
            }),
            identity: unsupported(report.identity.map_or(Ok(()), |e| {
                Err(format!(
                    "{e}: bots run as root, and may change any file they can reach"
                ))
            })),
            root_user: nix::unistd::geteuid().is_root(),
            landlock_abi: abi,
            landlock: unsupported(match (abi, report.landlock) {
                (0, _) => Err(
                    "this kernel has no Landlock (it needs Linux 5.13 or later with \
                     \"landlock\" in the lsm= boot parameter; see /sys/kernel/security/lsm)"
                        .to_owned(),
                ),
                (_, Some(e)) => Err(e),
                _ => Ok(()),
            }),
            seccomp: unsupported(report.seccomp.map_or(Ok(()), |e| {
                Err(format!(
                    "{e} (a container's seccomp profile may forbid it: allow the seccomp call)"
                ))
            })),
            memory_cgroup: unsupported(cgroup::usable("memory").map_err(cgroup_remedy)),
            pids_cgroup: unsupported(cgroup::usable("pids").map_err(cgroup_remedy)),
            freezer_cgroup: unsupported(cgroup::usable("freezer")),
            cpu_cgroup: unsupported(cgroup::usable("cpu")),
            cpuset_cgroup: unsupported(cgroup::usable("cpuset")),
        };
        for controller in cgroup::CONTROLLERS {
            cgroup::sweep(controller);
        }
        support
    }
}

/// A probe's answer (the reason as the system and the remedy word it) as
/// the layer's support.
fn unsupported(result: Result<(), impl ToString>) -> Result<(), Unsupported> {
    result.map_err(|e| Unsupported::from(e.to_string()))
}

fn read_sysctl(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_owned())
}

fn userns_remedy() -> String {
    if read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").as_deref() == Some("1")
    {
        "AppArmor restricts user namespaces (Ubuntu 23.10 and later): \
         `sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0`, or an AppArmor \
         profile for the aboure binary with `userns,`"
            .to_owned()
    } else if read_sysctl("/proc/sys/kernel/unprivileged_userns_clone").as_deref() == Some("0") {
        "user namespaces are off: `sudo sysctl kernel.unprivileged_userns_clone=1`".to_owned()
    } else if read_sysctl("/proc/sys/user/max_user_namespaces").as_deref() == Some("0") {
        "user namespaces are off: `sudo sysctl user.max_user_namespaces=10000`".to_owned()
    } else {
        "in a container, its seccomp profile or missing privileges may forbid unshare \
         (docker: --security-opt seccomp=unconfined, or run aboure outside the container)"
            .to_owned()
    }
}

fn cgroup_remedy(why: cgroup::Unusable) -> String {
    format!(
        "{why} (aboure uses cgroup v1 controllers, as root; limits fall back to \
         RLIMIT_DATA and RLIMIT_NPROC)"
    )
}
