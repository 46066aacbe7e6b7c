//! `aboure tune CONFIG --join DIR`: workers play a `games` tune's pairs
//! beside the process that owns it. A first worker starts alone and is
//! SIGKILLed once it has recorded a game; then the owner and a second
//! worker run together. The path must be exactly the one a single process
//! takes, and every iteration's games recorded once, the killed worker's
//! included.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use aboure_records::{read_tune_path, TuneFile};

use crate::harness::{aboure, show, write_config, ABOURE};

const PAIRS: usize = 3;
const ITERATIONS: usize = 4;

fn config(dir: &Path, objective: &str) -> std::path::PathBuf {
    write_config(
        dir,
        &format!(
            "[tournament]\nseed = 4\nconcurrency = 1\n[time-control]\nnodes = 300\n\
             [[bot]]\nname = \"alphabeta\"\nbuiltin = \"alphabeta\"\noptions = {{ hash = 1 }}\n\
             [tune]\nbot = \"alphabeta\"\n\
             parameters = {{ row_weight = {{ start = -50, min = -1000, max = 1000, step = 10 }} }}\n\
             objective = \"{objective}\"\npairs = {PAIRS}\niterations = {ITERATIONS}\n\
             spsa = {{ A = 1, r-end = 0.5 }}\n"
        ),
    )
}

fn worker(config: &Path, out: &Path) -> Child {
    Command::new(ABOURE)
        .args(["tune", config.to_str().unwrap(), "--join"])
        .arg(out)
        .arg("-q")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The game ids in every results file of iteration folder `dir`, and how
/// many of them the `--join` workers' files hold.
fn games_of(dir: &Path) -> (Vec<String>, usize) {
    let mut ids = Vec::new();
    let mut by_workers = 0;
    for path in aboure_records::results_files(dir).unwrap_or_default() {
        let text = std::fs::read_to_string(&path).unwrap();
        let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        for line in complete.lines() {
            let game: serde_json::Value = serde_json::from_str(line).unwrap();
            ids.push(game["id"].as_str().unwrap().to_owned());
            let name = path.file_name().unwrap().to_string_lossy();
            by_workers += usize::from(name.starts_with("games-w-"));
        }
    }
    (ids, by_workers)
}

fn worker_games(out: &Path) -> usize {
    (1..=ITERATIONS)
        .map(|k| games_of(&out.join(format!("iterations/{k:05}"))).1)
        .sum()
}

#[test]
fn workers_share_a_games_tune_and_a_sigkilled_one_loses_and_duplicates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), "games");
    let whole = dir.path().join("whole");
    let alone = aboure(&[
        "tune",
        cfg.to_str().unwrap(),
        "--out",
        whole.to_str().unwrap(),
        "-q",
    ]);
    assert!(alone.status.success(), "{}", show(&alone));

    let out = dir.path().join("shared");
    let mut first = worker(&cfg, &out);
    let t0 = Instant::now();
    while worker_games(&out) < 1 {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "the worker recorded no game"
        );
        assert!(
            first.try_wait().unwrap().is_none(),
            "the worker ended alone"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    first.kill().unwrap(); // SIGKILL: its claim dies with it
    first.wait().unwrap();
    let killed_recorded = worker_games(&out);

    let mut second = worker(&cfg, &out);
    let owner = aboure(&[
        "tune",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(owner.status.success(), "{}", show(&owner));
    let t0 = Instant::now();
    let status = loop {
        if let Some(status) = second.try_wait().unwrap() {
            break status;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "the second worker did not end"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = second.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("the tune in "), "{stderr}");

    // Everything but the wall time.
    let path = |out: &Path| -> Vec<String> {
        read_tune_path(out)
            .unwrap()
            .into_iter()
            .map(|s| {
                format!(
                    "{} {:?} {:?} {} {}",
                    s.iteration, s.theta_bits, s.plus, s.gain, s.games
                )
            })
            .collect()
    };
    assert_eq!(path(&out), path(&whole), "the same path as one process");
    assert_eq!(path(&out).len(), ITERATIONS);
    let values = |out: &Path| TuneFile::read_in(out).unwrap().unwrap().values;
    assert_eq!(values(&out), values(&whole));
    assert_eq!(owner.stdout, alone.stdout);
    for k in 1..=ITERATIONS {
        let (ids, _) = games_of(&out.join(format!("iterations/{k:05}")));
        let unique: BTreeSet<&String> = ids.iter().collect();
        assert_eq!(ids.len(), 2 * PAIRS, "iteration {k}: {ids:?}");
        assert_eq!(
            unique.len(),
            ids.len(),
            "iteration {k}: a game twice: {ids:?}"
        );
    }
    assert!(
        worker_games(&out) >= killed_recorded,
        "the killed worker's games count"
    );
}

#[test]
fn an_accuracy_tune_cannot_be_joined() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), "accuracy").to_str().unwrap().to_owned();
    let text = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("pairs = 3\n", "");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.path().join("out");
    let output = aboure(&["tune", &cfg, "--join", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("a tune by accuracy cannot be joined"),
        "{stderr}"
    );
}
