//! The layers report of a run: which layers of the sandbox are on, what
//! each does or why it is off and how to turn it on. Printed at the start
//! of `aboure run`, written to `run.json` and shown by the report. Made
//! from what the machine allows ([`Support`], found by the probe) and the
//! mode asked for; the fairness layers come from [`crate::fairness`].

use crate::fairness;
use crate::layer::Layer;
use crate::probe::Support;
use crate::settings::Mode;

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
        let layer = |name, result: &Result<(), crate::probe::Unsupported>, what: &str| Layer {
            name,
            active: on && result.is_ok(),
            detail: match (on, result) {
                (false, _) => "sandbox off".to_owned(),
                (true, Ok(())) => what.to_owned(),
                (true, Err(e)) => e.reason.clone(),
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
                     io_uring, fallocate and calls newer than it denied",
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
        layers.layers.extend(fairness::layers(mode, support));
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
                return write_off(self, f);
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

/// The end of the one-line report of a run with the sandbox off: how its
/// bots are still held.
fn write_off(layers: &Layers, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    match layers.layers.iter().find(|l| l.name == fairness::FREEZER) {
        Some(l) => write!(f, "; {}", l.detail.trim_start_matches("sandbox off: ")),
        None => Ok(()),
    }
}

impl Layers {
    /// The report with the bots that `ponder` (run while their opponent
    /// thinks) named in the `freezer` layer.
    pub fn with_ponder<'a>(mut self, bots: impl IntoIterator<Item = &'a str>) -> Layers {
        let bots: Vec<&str> = bots.into_iter().collect();
        if bots.is_empty() {
            return self;
        }
        if let Some(layer) = self.layers.iter_mut().find(|l| l.name == fairness::FREEZER) {
            layer.detail += &format!("; pondering, never held: {}", bots.join(", "));
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(namespaces: Result<(), crate::probe::Unsupported>, abi: i64) -> Support {
        Support {
            namespaces,
            root: Ok(()),
            identity: Ok(()),
            root_user: true,
            landlock_abi: abi,
            landlock: Ok(()),
            seccomp: Ok(()),
            memory_cgroup: Err("no cgroup v1 memory controller".into()),
            pids_cgroup: Ok(()),
            freezer_cgroup: Ok(()),
            cpu_cgroup: Ok(()),
            cpuset_cgroup: Ok(()),
        }
    }

    #[test]
    fn missing_layers_are_named_with_their_reason() {
        let mut support = machine(Err("unshare: EPERM; AppArmor restricts".into()), 5);
        support.root = Err("needs the namespaces".into());
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
