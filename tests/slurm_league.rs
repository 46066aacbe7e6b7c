//! A league on the real Slurm cluster of `slurm_sprt` (it declares the
//! machine's 2 CPUs): a job array of six workers (`--shard K/6`, only their
//! names for a league) sharing one folder, throttled to two at a time, one
//! task cancelled before it ever runs and one SIGKILLed in the middle of a
//! game, neither resubmitted. The others must record every pair of the
//! league's budget exactly once and stop on its verdict, every task must
//! end, and `workers.json` must say which ended, which died and who took
//! its pair over; the test fails after a hard time limit instead of
//! hanging.

use crate::harness::*;
use crate::slurm_sprt::{cluster, run_throttled_array, TASKS};

use std::collections::BTreeMap;
use std::time::Instant;

#[test]
fn a_league_over_a_throttled_slurm_array_with_a_task_never_run_and_one_killed() {
    let (conf, cpus) = cluster();
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
    run_throttled_array(&conf, dir, &config, &out, t0);
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
    roster_says(&out);
    eprintln!(
        "{TASKS} tasks on {cpus} CPUs: a league of 20 pairs in {:.1} s, each game once",
        t0.elapsed().as_secs_f64()
    );
}

/// Asserts what `workers.json` says at the end: the tasks that ran ended,
/// task 2 died, the cancelled one never registered, whoever took over
/// took from task 2, and each played the games its results file holds.
fn roster_says(out: &std::path::Path) {
    use aboure_records::workers::{WorkerState, WorkersFile};
    let file = WorkersFile::read_in(out).unwrap().expect("workers.json");
    let states: Vec<_> = file
        .workers
        .iter()
        .map(|w| (w.name.clone(), w.state, w.holding.len()))
        .collect();
    let expected: Vec<_> = (1..TASKS)
        .map(|k| {
            let state = match k {
                2 => WorkerState::Died,
                _ => WorkerState::Ended,
            };
            (format!("{k}-of-{TASKS}"), state, 0)
        })
        .collect();
    assert_eq!(states, expected);
    let from: Vec<_> = file.workers.iter().flat_map(|w| &w.took_over).collect();
    assert!(!from.is_empty(), "task 2's pair was taken over: {from:?}");
    assert!(
        from.iter().all(|t| t.from == format!("2-of-{TASKS}")),
        "{from:?}"
    );
    assert_eq!(workers_games(out, &file), 40, "{:?}", file.workers);
}
