//! The fairness layers of the layers report: how a bot is held still while
//! its opponent thinks (`freezer`), and how its CPU is shared out
//! (`cgroup-cpu`, `cgroup-cpuset`). Unlike the other layers they matter
//! with the sandbox off too: a bot is then still held, with signals to its
//! process group, so the report says so rather than "sandbox off".

use crate::layer::Layer;
use crate::probe::Support;
use crate::settings::Mode;

/// The layers' names.
pub(crate) const FREEZER: &str = "freezer";
/// The cpu controller's layer.
pub(crate) const CPU: &str = "cgroup-cpu";
/// The cpuset controller's layer.
pub(crate) const CPUSET: &str = "cgroup-cpuset";

const SIGNALS: &str = "stopped with SIGSTOP and continued with SIGCONT through its \
     process group while its opponent thinks (a helper that leaves the group with \
     setpgid or setsid keeps running, unless seccomp refuses them)";

const NAMESPACE: &str = "stopped with SIGSTOP and continued with SIGCONT by its \
     sandbox's init (kill(-1) in its pid namespace) while its opponent thinks, every \
     process of it, in the one process group seccomp leaves it (no setsid or setpgid, \
     so the kernel never continues a group it orphaned)";

/// The fairness layers `mode` gets on a machine with `support`.
pub(crate) fn layers(mode: Mode, support: &Support) -> Vec<Layer> {
    let on = mode != Mode::Off;
    let freezer = match (on, &support.freezer_cgroup) {
        (true, Ok(())) => Layer {
            name: FREEZER,
            active: true,
            detail: "every process of a bot frozen while its opponent thinks (cgroup v1 freezer)"
                .to_owned(),
        },
        (true, Err(e)) if support.namespaces.is_ok() => Layer {
            name: FREEZER,
            active: false,
            detail: format!("{e}; a bot is {NAMESPACE}"),
        },
        (true, Err(e)) => Layer {
            name: FREEZER,
            active: false,
            detail: format!("{e}; a bot is {SIGNALS}"),
        },
        (false, _) => Layer {
            name: FREEZER,
            active: false,
            detail: format!("sandbox off: a bot is {SIGNALS}"),
        },
    };
    let controller =
        |name, result: &Result<(), crate::probe::Unsupported>, what: &str, missing: &str| Layer {
            name,
            active: on && result.is_ok(),
            detail: match (on, result) {
                (false, _) => format!("sandbox off: {missing}"),
                (true, Ok(())) => what.to_owned(),
                (true, Err(e)) => format!("{e}; {missing}"),
            },
        };
    vec![
        freezer,
        controller(
            CPU,
            &support.cpu_cgroup,
            "each bot held to its CPU share (`cpu`, CFS quota)",
            "a bot's threads may use every core",
        ),
        controller(
            CPUSET,
            &support.cpuset_cgroup,
            "bots pinned to the cores `cpus` names",
            "`cpus` has no effect",
        ),
    ]
}

/// The fairness layers of a run with the sandbox off.
pub(crate) fn without_sandbox() -> Vec<Layer> {
    let nothing = Err(crate::probe::Unsupported::from(""));
    let support = Support {
        namespaces: nothing.clone(),
        root: nothing.clone(),
        identity: nothing.clone(),
        root_user: false,
        landlock_abi: 0,
        landlock: nothing.clone(),
        seccomp: nothing.clone(),
        memory_cgroup: nothing.clone(),
        pids_cgroup: nothing.clone(),
        freezer_cgroup: nothing.clone(),
        cpu_cgroup: nothing.clone(),
        cpuset_cgroup: nothing,
    };
    layers(Mode::Off, &support)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::Layers;

    fn support(freezer: Result<(), crate::probe::Unsupported>) -> Support {
        Support {
            namespaces: Ok(()),
            root: Ok(()),
            identity: Ok(()),
            root_user: true,
            landlock_abi: 7,
            landlock: Ok(()),
            seccomp: Ok(()),
            memory_cgroup: Ok(()),
            pids_cgroup: Ok(()),
            freezer_cgroup: freezer,
            cpu_cgroup: Err("no cgroup v1 cpu controller".into()),
            cpuset_cgroup: Ok(()),
        }
    }

    #[test]
    fn the_freezer_layer_says_how_a_bot_is_held_otherwise() {
        let layers = layers(Mode::Auto, &support(Err("no freezer".into())));
        assert!(!layers[0].active);
        assert!(
            layers[0]
                .detail
                .starts_with("no freezer; a bot is stopped with SIGSTOP"),
            "{layers:?}"
        );
        assert!(
            layers[0].detail.contains("by its sandbox's init (kill(-1)"),
            "{layers:?}"
        );
        assert_eq!(
            layers[1].detail,
            "no cgroup v1 cpu controller; a bot's threads may use every core"
        );
        assert!(layers[2].active);
        let off = without_sandbox();
        assert!(off.iter().all(|l| !l.active));
        assert!(off[0].detail.starts_with("sandbox off: a bot is stopped"));
        let report = Layers {
            mode: Mode::Off,
            layers: off,
        }
        .with_ponder(["p"]);
        assert!(
            report.to_string().starts_with(
                "sandbox off: bots run as plain processes; a bot is stopped with SIGSTOP"
            ),
            "{report}"
        );
        assert!(report.to_string().ends_with("never held: p"), "{report}");
    }

    #[test]
    fn pondering_bots_are_named() {
        let layers = Layers::new(Mode::Auto, &support(Ok(())));
        let named = layers.clone().with_ponder(["a", "b"]);
        let freezer = named.layers.iter().find(|l| l.name == FREEZER).unwrap();
        assert!(
            freezer.detail.ends_with("; pondering, never held: a, b"),
            "{freezer:?}"
        );
        assert_eq!(layers.clone().with_ponder([]), layers);
    }
}
