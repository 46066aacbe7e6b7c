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
use crate::settings::Mode;

/// The layers this machine allows (`Ok`) or not (the reason).
#[derive(Clone, Debug)]
pub struct Support {
    /// User, pid, network, mount namespaces (with a `/proc` of their own).
    pub namespaces: Result<(), String>,
    /// A constructed root in them.
    pub root: Result<(), String>,
    /// Bots as uids of their own (`Ok` for an unprivileged arbiter, whose
    /// bots keep its uid).
    pub identity: Result<(), String>,
    /// The arbiter runs as root (its bots as uids of `sandbox.uids`).
    pub root_user: bool,
    /// The kernel's Landlock ABI (0: none).
    pub landlock_abi: i64,
    /// Landlock.
    pub landlock: Result<(), String>,
    /// seccomp filters.
    pub seccomp: Result<(), String>,
    /// A cgroup v1 memory controller aboure can make groups in.
    pub memory_cgroup: Result<(), String>,
    /// A cgroup v1 pids controller aboure can make groups in.
    pub pids_cgroup: Result<(), String>,
    /// A cgroup v1 freezer controller aboure can make groups in.
    pub freezer_cgroup: Result<(), String>,
    /// A cgroup v1 cpu controller aboure can make groups in.
    pub cpu_cgroup: Result<(), String>,
    /// A cgroup v1 cpuset controller aboure can make groups in.
    pub cpuset_cgroup: Result<(), String>,
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
            namespaces: match (report.namespaces, report.proc) {
                (None, None) => Ok(()),
                (Some(e), _) | (None, Some(e)) => Err(format!(
                    "{e}; {}. Without them the bot sees the host's processes and network, \
                     and has no constructed root",
                    userns_remedy()
                )),
            },
            root: match (namespaces_ok, report.root) {
                (false, _) => Err(
                    "needs the namespaces: the bot sees the host's filesystem, fenced by \
                     Landlock and its uid alone (what Landlock has no rule for, file \
                     metadata, inotify and Unix sockets by path, is left to seccomp)"
                        .to_owned(),
                ),
                (true, Some(e)) => Err(format!("{e} (the bot sees the host's filesystem)")),
                (true, None) => Ok(()),
            },
            identity: report.identity.map_or(Ok(()), |e| {
                Err(format!(
                    "{e}: bots run as root, and may change any file they can reach"
                ))
            }),
            root_user: nix::unistd::geteuid().is_root(),
            landlock_abi: abi,
            landlock: match (abi, report.landlock) {
                (0, _) => Err(
                    "this kernel has no Landlock (it needs Linux 5.13 or later with \
                     \"landlock\" in the lsm= boot parameter; see /sys/kernel/security/lsm)"
                        .to_owned(),
                ),
                (_, Some(e)) => Err(e),
                _ => Ok(()),
            },
            seccomp: report.seccomp.map_or(Ok(()), |e| {
                Err(format!(
                    "{e} (a container's seccomp profile may forbid it: allow the seccomp call)"
                ))
            }),
            memory_cgroup: cgroup::usable("memory").map_err(cgroup_remedy),
            pids_cgroup: cgroup::usable("pids").map_err(cgroup_remedy),
            freezer_cgroup: cgroup::usable("freezer"),
            cpu_cgroup: cgroup::usable("cpu"),
            cpuset_cgroup: cgroup::usable("cpuset"),
        };
        for controller in cgroup::CONTROLLERS {
            cgroup::sweep(controller);
        }
        crate::jail::sweep_scratch();
        support
    }
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

fn cgroup_remedy(why: String) -> String {
    format!(
        "{why} (aboure uses cgroup v1 controllers, as root; limits fall back to \
         RLIMIT_AS and RLIMIT_NPROC)"
    )
}

/// One layer of the sandbox and whether it is on for this run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Layer {
    /// Its name, e.g. `landlock`.
    pub name: &'static str,
    /// On for this run.
    pub active: bool,
    /// What it does, or why it is off and how to turn it on.
    pub detail: String,
}

/// The layers of a run, for the start of `aboure run`, `run.json` and
/// the report.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Layers {
    /// The mode asked for.
    pub mode: Mode,
    /// Every layer, on or off.
    pub layers: Vec<Layer>,
}

impl Layers {
    /// The layers `mode` gets on a machine with `support`.
    pub fn new(mode: Mode, support: &Support) -> Layers {
        let on = mode != Mode::Off;
        let layer = |name, result: &Result<(), String>, what: &str| Layer {
            name,
            active: on && result.is_ok(),
            detail: match (on, result) {
                (false, _) => "sandbox off".to_owned(),
                (true, Ok(())) => what.to_owned(),
                (true, Err(e)) => e.clone(),
            },
        };
        let abi = support.landlock_abi;
        let landlock_what = match abi {
            ..=3 => format!(
                "ABI {abi}: files only (no TCP rules before 6.7, no signal scoping before 6.12)"
            ),
            4 | 5 => format!("ABI {abi}: files and TCP (no signal scoping before Linux 6.12)"),
            _ => format!("ABI {abi}: files, TCP, signals and abstract sockets"),
        };
        let always = |name, what: &str| Layer {
            name,
            active: on,
            detail: if on {
                what.to_owned()
            } else {
                "sandbox off".to_owned()
            },
        };
        let mut layers = Layers {
            mode,
            layers: vec![
                layer(
                    "namespaces",
                    &support.namespaces,
                    "pid, network, mount, IPC, UTS (and user, for an unprivileged arbiter)",
                ),
                layer(
                    "root",
                    &support.root,
                    "a tmpfs root: system folders, the bot's own files and allowances \
                     read-only, a private /tmp (disk), /dev and /proc",
                ),
                layer(
                    "identity",
                    &support.identity,
                    if support.root_user {
                        "a uid of sandbox.uids per running bot, no groups"
                    } else {
                        "the arbiter's own uid (not root), in a user namespace"
                    },
                ),
                layer("landlock", &support.landlock, &landlock_what),
                layer(
                    "seccomp",
                    &support.seccomp,
                    "ptrace, mounts, namespaces, modules, file metadata, inotify, \
                     io_uring denied",
                ),
                layer(
                    "cgroup-memory",
                    &support.memory_cgroup,
                    "memory of the whole bot",
                ),
                layer(
                    "cgroup-pids",
                    &support.pids_cgroup,
                    "processes of the whole bot",
                ),
                always("limits", "CPU, file size, open files (rlimits)"),
                always("privileges", "no_new_privs, no capabilities"),
                always(
                    "environment",
                    "descriptors 0-2 only, clean environment, fresh scratch",
                ),
            ],
        };
        layers.layers.extend(crate::fairness::layers(mode, support));
        layers
    }

    /// The missing layers, one per line with the reason and the remedy.
    pub fn missing(&self) -> String {
        self.layers
            .iter()
            .filter(|l| !l.active)
            .map(|l| format!("  {}: {}", l.name, l.detail))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// True if the layer `name` is on.
    pub fn has(&self, name: &str) -> bool {
        self.layers.iter().any(|l| l.name == name && l.active)
    }
}

impl std::fmt::Display for Layers {
    /// `sandbox auto: namespaces, landlock, ... (missing: seccomp)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = match self.mode {
            Mode::Auto => "auto",
            Mode::Strict => "strict",
            Mode::Off => {
                write!(f, "sandbox off: bots run as plain processes")?;
                return crate::fairness::write_off(self, f);
            }
        };
        let (on, off): (Vec<&Layer>, Vec<&Layer>) = self.layers.iter().partition(|l| l.active);
        let names = |ls: &[&Layer]| ls.iter().map(|l| l.name).collect::<Vec<_>>().join(", ");
        write!(f, "sandbox {mode}: {}", names(&on))?;
        if !off.is_empty() {
            write!(f, "\nmissing layers:\n{}", self.missing())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(namespaces: Result<(), String>, abi: i64) -> Support {
        Support {
            namespaces,
            root: Ok(()),
            identity: Ok(()),
            root_user: true,
            landlock_abi: abi,
            landlock: Ok(()),
            seccomp: Ok(()),
            memory_cgroup: Err("no cgroup v1 memory controller".to_owned()),
            pids_cgroup: Ok(()),
            freezer_cgroup: Ok(()),
            cpu_cgroup: Ok(()),
            cpuset_cgroup: Ok(()),
        }
    }

    #[test]
    fn missing_layers_are_named_with_their_reason() {
        let mut support = machine(Err("unshare: EPERM; AppArmor restricts".to_owned()), 5);
        support.root = Err("needs the namespaces".to_owned());
        let layers = Layers::new(Mode::Strict, &support);
        assert!(!layers.has("namespaces") && layers.has("landlock"));
        assert_eq!(
            layers.missing(),
            "  namespaces: unshare: EPERM; AppArmor restricts\n  \
             root: needs the namespaces\n  \
             cgroup-memory: no cgroup v1 memory controller"
        );
        let text = layers.to_string();
        assert!(
            text.starts_with("sandbox strict: identity, landlock, seccomp, cgroup-pids, limits"),
            "{text}"
        );
        assert!(
            text.contains("missing layers:\n  namespaces: unshare"),
            "{text}"
        );
        let landlock = &layers.layers[3];
        assert!(
            landlock.detail.contains("no signal scoping"),
            "{landlock:?}"
        );
    }

    #[test]
    fn a_machine_with_everything_misses_nothing_and_off_has_nothing() {
        let mut support = machine(Ok(()), 7);
        support.memory_cgroup = Ok(());
        let layers = Layers::new(Mode::Auto, &support);
        assert_eq!(layers.missing(), "");
        assert!(!layers.to_string().contains("missing"));
        let off = Layers::new(Mode::Off, &support);
        assert!(off.layers.iter().all(|l| !l.active));
    }
}
