//! The arbiter killed with SIGKILL at random moments (seeded, so a failure
//! can be replayed), resumed each time, must end with every scheduled game
//! recorded exactly once, and with the same games and the same report as a
//! run that was never interrupted. The bots are deterministic (seeded random
//! movers, restarted for every game) and the clocks generous, so timing
//! cannot change a move.

use crate::harness;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use harness::*;
use serde_json::Value;

/// A tiny seeded xorshift, so the kill times are reproducible.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

const PAIRS: usize = 5;
const GAMES: usize = 3 * PAIRS * 2;

fn tournament(dir: &Path, marker: &str) -> std::path::PathBuf {
    let bot = |name: &str, seed: u32| {
        testbot(name, &format!("sleepy --ms 5 --seed {seed}"))
            + &format!("env = {{ ABOURE_HOSTILE = \"{marker}\" }}\n")
    };
    let text = format!(
        "[tournament]\npairs = {PAIRS}\nconcurrency = 2\nseed = 11\n[openings]\nplies = 2\n\
         [time-control]\nbase = \"30s\"\n{}{}{}",
        bot("a", 1),
        bot("b", 2),
        bot("c", 3),
    );
    write_config(dir, &text)
}

/// What must not depend on interruptions: each game's players, moves and
/// outcome, by id.
fn by_id(out: &Path) -> BTreeMap<String, Value> {
    let mut map = BTreeMap::new();
    for g in games(out) {
        let id = g["id"].as_str().unwrap().to_owned();
        let key = serde_json::json!([
            g["south"],
            g["north"],
            g["start"],
            g["moves"],
            g["score"],
            g["result"],
            g["termination"]
        ]);
        assert!(map.insert(id.clone(), key).is_none(), "{id} recorded twice");
    }
    map
}

/// The JSON report of a run's games, read in the order of their ids: a resumed run's
/// workers take the pairs left over in the order they find them free, so
/// the lines of its file may come in another order than an uninterrupted
/// run's, and the report lists pairings in the order it first meets them.
fn report(out: &Path) -> Value {
    let text = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let mut lines: Vec<(String, &str)> = text
        .lines()
        .map(|l| {
            let id = serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned();
            (id, l)
        })
        .collect();
    lines.sort();
    let sorted = out.with_extension("sorted.jsonl");
    let body: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
    std::fs::write(&sorted, body).unwrap();
    let mut json = report_json(&sorted, &[]);
    // The only thing allowed to differ: which file was read.
    json["files"] = Value::Null;
    json
}

#[test]
fn random_sigkills_then_resume_give_the_same_games_and_report() {
    let dir = folder("sigkill");
    let m = marker("sigkill");
    let config = tournament(&dir, &m);

    let reference = dir.join("reference");
    let output = run(&config, &reference, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let expected = by_id(&reference);
    assert_eq!(expected.len(), GAMES);

    let out = dir.join("crashed");
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut kills = 0;
    for _ in 0..6 {
        let mut child = run_command(&config, &out, &["--resume"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let wait = Duration::from_millis(30 + rng.below(200));
        let t0 = Instant::now();
        let mut finished = false;
        while t0.elapsed() < wait {
            if child.try_wait().unwrap().is_some() {
                finished = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if finished {
            break;
        }
        child.kill().unwrap(); // SIGKILL: no chance to clean up
        child.wait().unwrap();
        kills += 1;
        println!(
            "kill {kills} after {wait:?}: {} lines on disk",
            recorded(&out)
        );
        // Every line on disk is a whole game or a cut last line, never a
        // duplicate.
        if out.join("games.jsonl").exists() {
            let text = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
            let whole: Vec<&str> = text
                .split_inclusive('\n')
                .filter(|l| l.ends_with('\n'))
                .collect();
            let mut ids: Vec<String> = whole
                .iter()
                .map(|l| {
                    serde_json::from_str::<Value>(l).unwrap()["id"]
                        .as_str()
                        .unwrap()
                        .to_owned()
                })
                .collect();
            let n = ids.len();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), n, "a game recorded twice after kill {kills}");
        }
    }
    assert!(
        kills >= 2,
        "the run finished before it could be killed twice"
    );
    let output = run(&config, &out, &["--resume"]);
    assert!(output.status.success(), "{}", show(&output));

    let crashed = by_id(&out);
    assert_eq!(crashed.len(), GAMES);
    for (id, game) in &expected {
        assert_eq!(crashed.get(id), Some(game), "game {id} differs");
    }
    assert_eq!(report(&out), report(&reference));
    // Bots orphaned by the killed arbiter read the end of their input and
    // left.
    assert_no_survivors(&m, Duration::from_secs(10));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bots_die_with_a_killed_arbiter() {
    let dir = folder("orphaned-bots");
    let m = marker("orphaned");
    let text = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nbase = \"60s\"\n{}{}",
        testbot("honest", "random"),
        hostile("hang", "hang.sh", &m, &[]),
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let mut child = run_command(&config, &out, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the hanging bot has been asked for a move: it sleeps in a
    // loop from then on.
    let t0 = Instant::now();
    while !survivors(&m).iter().any(|p| p.contains(" sleep 1")) {
        assert!(t0.elapsed() < Duration::from_secs(30), "no go sent");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!survivors(&m).is_empty());
    child.kill().unwrap();
    child.wait().unwrap();
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}
