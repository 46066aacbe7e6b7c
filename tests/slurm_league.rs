//! A league on the real Slurm cluster of `slurm_sprt` (it declares the
//! machine's 2 CPUs): a job array of six workers (`--shard K/6`, only their
//! names for a league) sharing one folder, throttled to two at a time, one
//! task cancelled before it ever runs and one SIGKILLed in the middle of a
//! game, neither resubmitted. The others must record every pair of the
//! league's budget exactly once and stop on its verdict, and every task
//! must end; the test fails after a hard time limit instead of hanging.

use crate::harness::*;
use crate::slurm_sprt::{cluster, owner_pid, slurm, state, wait_gone, Cancel, LIMIT, TASKS};

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

#[test]
fn a_league_over_a_throttled_slurm_array_with_a_task_never_run_and_one_killed() {
    let (conf, cpus) = cluster();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let bots: String = [1, 2, 3, 4]
        .map(|s| testbot(&format!("m{s}"), &format!("sleepy --ms 10 --seed {s}")))
        .concat();
    let config = write_config(
        dir,
        &format!(
            "[tournament]\nformat = \"league\"\nseed = 5\ngames = 40\n\
             [time-control]\nbase = \"60s\"\n[openings]\nplies = 2\n{bots}"
        ),
    );
    let out = dir.join("shared");
    let t0 = Instant::now();
    let job = slurm(
        &conf,
        "sbatch",
        &[
            "--parsable",
            &format!("--array=1-{TASKS}%2"),
            &format!("--output={}/slurm-%A_%a.out", dir.display()),
            root.join("tests/slurm/sprt.sbatch").to_str().unwrap(),
            ABOURE,
            config.to_str().unwrap(),
            out.to_str().unwrap(),
            &TASKS.to_string(),
        ],
    );
    let _jobs = Cancel(conf.clone(), job.clone());
    let never = format!("{job}_{TASKS}");
    assert_eq!(state(&conf, &never), "PENDING");
    slurm(&conf, "scancel", &[&never]);
    wait_mid_game(&out, &format!("2-of-{TASKS}"), t0 + LIMIT);
    let victim = out.join(format!("games-2-of-{TASKS}.jsonl"));
    let pid = owner_pid(&victim).expect("worker 2 names itself");
    let killed = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    wait_gone(&conf, &job, t0);

    for k in 1..=TASKS {
        let code = std::fs::read_to_string(out.join(format!("exit-{k}")));
        match k {
            2 => assert_eq!(code.unwrap().trim(), "137", "task 2 was killed"),
            TASKS => assert!(code.is_err(), "task {k} never ran"),
            _ => {
                let code = code.unwrap_or_else(|e| panic!("task {k} left no exit status: {e}"));
                assert_eq!(code.trim(), "0", "task {k} failed; see {}", dir.display());
            }
        }
    }
    let mut pairs: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    let mut ids = std::collections::BTreeSet::new();
    for g in games(&out) {
        assert!(
            ids.insert(g["id"].to_string()),
            "{} recorded twice",
            g["id"]
        );
        let (pair, game) = (g["pair"].as_u64().unwrap(), g["game"].as_u64().unwrap());
        pairs.entry(pair).or_default().push(game);
    }
    pairs.values_mut().for_each(|g| g.sort_unstable());
    let expected: BTreeMap<u64, Vec<u64>> = (0..20).map(|n| (n, vec![0, 1])).collect();
    assert_eq!(pairs, expected, "every pair of the budget, each game once");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let verdict = &manifest["league"]["verdict"];
    assert_eq!(verdict["reason"], "budget-spent", "{verdict}");
    assert_eq!(verdict["games"], 40);
    eprintln!(
        "{TASKS} tasks on {cpus} CPUs: a league of 20 pairs in {:.1} s, each game once",
        t0.elapsed().as_secs_f64()
    );
}
