//! Leagues played by workers sharing one folder (`--join`, `--shard K/N`),
//! with the real binary and real bot processes: workers started at
//! different times, one SIGKILLed in the middle of a pair and never
//! restarted, record every pair of the league exactly once and stop on its
//! verdict, and `workers.json` says who died, who ended, who took the
//! pair cut short over and how many games each recorded; a plain
//! `--resume` afterwards reads their games and plays nothing more; a
//! worker whose file changes the field is refused.

use crate::disk::{assert_each_recorded_once, SmallDisk};
use crate::harness::*;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn builtin(name: &str, bot: &str, extra: &str) -> String {
    format!("[[bot]]\nname = \"{name}\"\nbuiltin = \"{bot}\"\n{extra}\n")
}

fn league(dir: &Path, keys: &str, bots: &str) -> PathBuf {
    let text = format!(
        "[tournament]\nformat = \"league\"\nseed = 5\n{keys}\n[openings]\nplies = 2\n\
         [time-control]\nbase = \"60s\"\n{bots}"
    );
    write_config(dir, &text)
}

/// A worker on the league in `out`, one game at a time, its output piped.
fn worker(config: &Path, out: &Path, extra: &[&str]) -> Child {
    run_command(config, out, &["--concurrency", "1"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn manifest(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap()
}

/// The games of each pair, by pair number, failing on a game recorded
/// twice (in one file or in two).
fn pairs(out: &Path) -> BTreeMap<u64, Vec<u64>> {
    let mut ids = std::collections::BTreeSet::new();
    let mut pairs: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for g in games(out) {
        let id = g["id"].as_str().unwrap().to_owned();
        assert!(ids.insert(id.clone()), "{id} recorded twice");
        let (pair, game) = (g["pair"].as_u64().unwrap(), g["game"].as_u64().unwrap());
        assert_eq!(id, format!("l{pair:05}-g{game}"));
        pairs.entry(pair).or_default().push(game);
    }
    for games in pairs.values_mut() {
        games.sort_unstable();
    }
    pairs
}

/// Games of pair `n` recorded so far, in every results file.
fn recorded_of(out: &Path, n: u64) -> usize {
    let prefix = format!("\"id\":\"l{n:05}-g");
    aboure_records::results_files(out)
        .unwrap_or_default()
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            text.lines().filter(|l| l.contains(&prefix)).count()
        })
        .sum()
}

/// The units whose claim file worker `name` signed last.
fn held_by(out: &Path, name: &str) -> Vec<u64> {
    let signed = format!("worker {name} ");
    let Ok(entries) = std::fs::read_dir(out.join("claims")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let unit = aboure_workers::unit_of_file_name(e.file_name().to_str()?)?;
            let text = std::fs::read_to_string(e.path()).ok()?;
            let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
            last.starts_with(&signed).then_some(unit)
        })
        .collect()
}

/// Stops `child` (worker `name`) while it holds a pair not yet complete,
/// then SIGKILLs it; returns that pair.
fn kill_mid_pair(child: &mut Child, out: &Path, name: &str) -> u64 {
    let pid = child.id() as i32;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        // SAFETY: signals to a child this test started and has not reaped.
        unsafe { libc::kill(pid, libc::SIGSTOP) };
        let open = held_by(out, name)
            .into_iter()
            .find(|&n| recorded_of(out, n) < 2);
        if let Some(n) = open {
            child.kill().unwrap(); // SIGKILL, and never started again
            child.wait().unwrap();
            return n;
        }
        // SAFETY: as above.
        unsafe { libc::kill(pid, libc::SIGCONT) };
        assert!(Instant::now() < deadline, "worker {name} never held a pair");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn workers_started_apart_one_killed_mid_pair_record_every_pair_once_and_stop_on_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    // Random movers that sleep before each move: a pair lasts long enough
    // to be cut in the middle. 32 games are 16 pairs.
    let bots: String = [1, 2, 3, 4]
        .map(|s| testbot(&format!("m{s}"), &format!("sleepy --ms 4 --seed {s}")))
        .concat();
    let config = league(dir.path(), "games = 32", &bots);
    let out = dir.path().join("out");
    let mut doomed = worker(&config, &out, &["--shard", "1/3"]);
    wait_mid_game(&out, "1-of-3", Instant::now() + Duration::from_secs(120));
    let second = worker(&config, &out, &["--join"]);
    wait_for_games(&out, 4);
    // Written while they work: the first worker wrote it as it started.
    let running = aboure_records::workers::WorkersFile::read_in(&out).unwrap();
    let first = running.as_ref().and_then(|f| f.worker("1-of-3"));
    let alive = aboure_records::workers::WorkerState::Alive;
    assert_eq!(first.map(|w| w.state), Some(alive), "{running:?}");
    let cut = kill_mid_pair(&mut doomed, &out, "1-of-3");
    let third = worker(&config, &out, &["--join"]);
    let joined = [second.id(), third.id()];
    let mut outputs = Vec::new();
    for child in [second, third] {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
        outputs.push(String::from_utf8_lossy(&output.stdout).into_owned());
    }

    let pairs = pairs(&out);
    let expected: BTreeMap<u64, Vec<u64>> = (0..16).map(|n| (n, vec![0, 1])).collect();
    assert_eq!(pairs, expected, "every pair of the budget, each game once");
    assert!(recorded_of(&out, cut) == 2, "pair {cut}, cut by the kill");
    // The pair cut short was taken over, and the roster says by whom.
    let claims = out.join("claims");
    let took: Vec<String> = std::fs::read_dir(&claims)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("worker-"))
        .flat_map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            text.lines()
                .filter(|l| l.starts_with("took "))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(took, [format!("took {cut} from 1-of-3")]);
    roster_says(&out, cut, joined);
    let left: Vec<_> = std::fs::read_dir(&claims)
        .unwrap()
        .flatten()
        .filter(|e| aboure_workers::unit_of_file_name(&e.file_name().to_string_lossy()).is_some())
        .collect();
    assert!(left.is_empty(), "claims left: {left:?}");
    // Three results files: the killed worker's and the two others'.
    let files = aboure_records::results_files(&out).unwrap();
    let written = files
        .iter()
        .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0))
        .count();
    assert_eq!(written, 3, "{files:?}");

    let verdict = &manifest(&out)["league"]["verdict"];
    assert_eq!(verdict["reason"], "budget-spent", "{verdict}");
    assert_eq!(
        (verdict["games"].as_u64(), verdict["pairs"].as_u64()),
        (Some(32), Some(16))
    );
    for stdout in &outputs {
        assert!(
            stdout
                .contains("league stopped after 32 games (16 pairs): the budget of games is spent"),
            "{stdout}"
        );
    }
    let output = aboure(&["report", "--no-accuracy", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", show(&output));
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(shown.contains("League: 4 entrants"), "{shown}");
    assert!(
        shown.contains("league stopped after 32 games (16 pairs)"),
        "{shown}"
    );
}

/// Asserts what `workers.json` says at the end of the league of the first
/// test: `1-of-3` died, the workers `--join` started (process ids
/// `joined`) ended, one of them took pair `cut` over from it, and each
/// played the games its results file holds.
fn roster_says(out: &Path, cut: u64, joined: [u32; 2]) {
    use aboure_records::workers::{TakenOver, WorkerState, WorkersFile};
    let file = WorkersFile::read_in(out).unwrap().expect("workers.json");
    let seen: Vec<_> = file
        .workers
        .iter()
        .map(|w| (w.name.as_str(), w.state, w.holding.as_slice()))
        .collect();
    let dead = seen.iter().filter(|w| w.0 == "1-of-3").collect::<Vec<_>>();
    assert_eq!(dead, [&("1-of-3", WorkerState::Died, &[][..])], "{seen:?}");
    for pid in joined {
        let ended = seen
            .iter()
            .filter(|w| w.0.ends_with(&format!("-{pid}")))
            .collect::<Vec<_>>();
        assert_eq!(ended.len(), 1, "worker of pid {pid}: {seen:?}");
        assert_eq!((ended[0].1, ended[0].2), (WorkerState::Ended, &[][..]));
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
    let taken: Vec<_> = file
        .workers
        .iter()
        .flat_map(|w| w.took_over.iter().map(move |t| (w.name.as_str(), t)))
        .collect();
    let from = TakenOver {
        pair: cut,
        from: "1-of-3".to_owned(),
    };
    assert_eq!(taken.len(), 1, "{taken:?}");
    assert_eq!(taken[0].1, &from);
    assert_ne!(taken[0].0, "1-of-3");
    assert_eq!(workers_games(out, &file), 32, "{:?}", file.workers);
}

#[test]
fn two_workers_stop_on_the_separated_verdict_and_a_plain_resume_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [
        builtin("random", "random", "options = { seed = 1 }"),
        builtin("greedy", "greedy", "options = { seed = 1 }"),
        builtin("ab-4", "alphabeta", "time-control = { depth = 4 }"),
    ]
    .concat();
    let keys = "games = 400\nuntil = \"separated\"\nconfidence = 0.9";
    let config = league(dir.path(), keys, &bots);
    let out = dir.path().join("out");
    let first = worker(&config, &out, &["--join"]);
    wait_for_games(&out, 4);
    let second = worker(&config, &out, &["--join"]);
    for child in [first, second] {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("every neighbour pair is separated"),
            "{stdout}"
        );
    }
    let pairs = pairs(&out);
    let recorded: usize = pairs.values().map(Vec::len).sum();
    assert!(pairs.values().all(|g| g == &[0, 1]), "{pairs:?}");
    assert_eq!(
        pairs.keys().copied().collect::<Vec<_>>(),
        (0..pairs.len() as u64).collect::<Vec<_>>()
    );
    assert!(recorded < 400, "{recorded} games");
    let verdict = manifest(&out)["league"]["verdict"].clone();
    assert_eq!(verdict["reason"], "settled", "{verdict}");
    assert_eq!(verdict["games"], recorded as u64);
    for n in verdict["neighbours"].as_array().unwrap() {
        assert_eq!(n["verdict"], "separated", "{n}");
    }

    // One process resuming the folder reads the workers' games, finds the
    // league settled on them, and plays nothing.
    let output = run(&config, &out, &["--resume"]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(games(&out).len(), recorded, "nothing played again");
    assert_eq!(manifest(&out)["league"]["verdict"], verdict);

    // A worker whose file adds an entrant is refused: the field does not
    // change while workers share it.
    let grown = format!(
        "{bots}{}",
        builtin("ab-2", "alphabeta", "time-control = { depth = 2 }")
    );
    let config = league(dir.path(), keys, &grown);
    let output = run(&config, &out, &["--join"]);
    assert!(!output.status.success());
    assert!(
        show(&output).contains("the field does not change while workers share it"),
        "{}",
        show(&output)
    );
}

#[test]
fn a_worker_whose_disk_fills_waits_for_room_and_records_every_game_once() {
    let dir = folder("league-full-disk");
    // Random movers that sleep before each move: a game lasts about a
    // second, time to fill the disk between two of them.
    let bots: String = [1, 2, 3]
        .map(|s| testbot(&format!("m{s}"), &format!("sleepy --ms 10 --seed {s}")))
        .concat();
    let config = league(&dir, "games = 8", &bots);
    let disk = SmallDisk::mount(&dir.join("disk"), "256k");
    let out = disk.dir.join("out");
    let mut worker = run_command(&config, &out, &["--join", "--concurrency", "1"]);
    disk.fill_until_retried(&mut worker, &out, &dir.join("worker.stderr"));
    assert_each_recorded_once(&out, 8);
    drop(disk);
    let _ = std::fs::remove_dir_all(&dir);
}
