//! One writer per results file, and an SPRT split over shards that share
//! one output folder, with the real binary and real processes: a second run
//! on a folder is refused naming the first; a SIGKILLed run leaves no stale
//! lock; shards (one of them killed and resumed) reach the verdict of one
//! process at the same pair count; the live test and the report count the
//! same pairs.

#[path = "support/harness.rs"]
mod harness;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use aboure_records::{parse_games, GameRecord};
use aboure_report::{Input, Report, ReportOptions, SprtSettings};
use aboure_stats::{EloModel, Sprt};
use harness::*;
use serde_json::Value;

/// A deterministic SPRT: depth-limited alphabeta against seeded greedy,
/// each game in a fresh process, clocks far from binding.
pub fn sprt_config(dir: &Path) -> PathBuf {
    write_config(
        dir,
        "[tournament]\nformat = \"sprt\"\npairs = 200\nseed = 5\n\
         [time-control]\nmovetime = \"2s\"\n[openings]\nplies = 4\n\
         [sprt]\nelo0 = 0.0\nelo1 = 100.0\nalpha = 0.05\nbeta = 0.05\n\
         [[bot]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = { depth = 2 }\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\noptions = { seed = 7 }\n",
    )
}

/// What must not depend on how the test was spread: the decision, the
/// pairs counted, their counts and the LLR.
fn verdict(out: &Path) -> Value {
    let text = std::fs::read_to_string(out.join("sprt.json"))
        .unwrap_or_else(|e| panic!("no sprt.json in {}: {e}", out.display()));
    let v: Value = serde_json::from_str(&text).unwrap();
    serde_json::json!([v["decision"], v["pairs"], v["pentanomial"], v["llr"]])
}

fn report_sprt(out: &Path) -> Value {
    let output = aboure(&[
        "report",
        "--format",
        "json",
        "--no-accuracy",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", show(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    json["sprt"].clone()
}

#[test]
fn a_second_run_on_a_folder_is_refused_and_a_killed_holder_can_be_resumed() {
    let dir = folder("lock");
    let text = format!(
        "[tournament]\npairs = 3\nconcurrency = 1\n[time-control]\nbase = \"30s\"\n{}{}",
        testbot("a", "sleepy --ms 20 --seed 1"),
        testbot("b", "sleepy --ms 20 --seed 2"),
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let mut first = run_command(&config, &out, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_games(&out, 1);

    let second = run(&config, &out, &["--resume"]);
    assert!(!second.status.success(), "{}", show(&second));
    let stderr = String::from_utf8_lossy(&second.stderr);
    let holder = format!("pid {}", first.id());
    assert!(
        stderr.contains(&holder) && stderr.contains("another run"),
        "expected the refusal to name {holder}:\n{stderr}"
    );
    assert!(
        first.try_wait().unwrap().is_none(),
        "refused at once, not after waiting for the holder to end"
    );

    first.kill().unwrap(); // SIGKILL: the kernel drops the lock
    first.wait().unwrap();
    let resumed = run(&config, &out, &["--resume"]);
    assert!(resumed.status.success(), "{}", show(&resumed));
    let ids: Vec<String> = games(&out)
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect();
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!((ids.len(), unique.len()), (6, 6), "{ids:?}");
    assert!(!out.join("games.jsonl.owner").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_sharing_a_folder_reach_the_one_process_verdict_with_one_killed_and_resumed() {
    let dir = folder("sprt-shards");
    let config = sprt_config(&dir);
    let one = dir.join("one");
    let output = run(&config, &one, &["--concurrency", "1"]);
    assert!(output.status.success(), "{}", show(&output));
    let expected = verdict(&one);
    assert!(expected[0] != "continue", "{expected}");

    let shared = dir.join("shared");
    let start = |k: u32| {
        run_command(&config, &shared, &["--resume", "--concurrency", "1"])
            .args(["--shard", &format!("{k}/3")])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut doomed = start(2);
    let others = [start(1), start(3)];
    let own = shared.join("games-2-of-3.jsonl");
    let t0 = Instant::now();
    while std::fs::read_to_string(&own).map_or(0, |t| t.lines().count()) < 1 {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "shard 2 wrote nothing"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    doomed.kill().unwrap();
    doomed.wait().unwrap();
    let resumed = start(2);
    for child in others.into_iter().chain([resumed]) {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
    }
    assert_eq!(verdict(&shared), expected);
    // No shard ran further ahead of the counted pairs than the look-ahead
    // (4 x 3 shards x 1 game at once, at least 16).
    let counted = expected[1].as_u64().unwrap();
    let furthest = games(&shared)
        .iter()
        .map(|g| g["pair"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(
        furthest < counted + 16,
        "pair {furthest} played, {counted} counted"
    );

    // The report of either folder gives the same verdict and pair count.
    let (a, b) = (report_sprt(&one), report_sprt(&shared));
    for key in ["decision", "pairs", "pentanomial", "llr"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(a["pairs"], expected[1]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The lines of pair `p` of "new" against "old"; `swap` breaks the pair
/// (game 1 without the colours swapped).
fn pair(p: u32, results: [&str; 2], swap: bool) -> String {
    let seats = |g: u32| {
        if g == 0 || !swap {
            if g == 0 {
                ("new", "old")
            } else {
                ("old", "new")
            }
        } else {
            ("new", "old")
        }
    };
    (0..2)
        .map(|g| {
            let (s, n) = seats(g);
            format!(
                "{{\"id\":\"r0000-p{p:02}-g{g}\",\"pairing\":[\"new\",\"old\"],\"pair\":{p},\"game\":{g},\"south\":\"{s}\",\"north\":\"{n}\",\"result\":\"{}\",\"termination\":\"natural\"}}\n",
                results[g as usize]
            )
        })
        .collect()
}

/// The report of `games` under the SPRT `sprt`, and its JSON.
fn sprt_report(sprt: Sprt, games: &[GameRecord]) -> (Report, Value) {
    let report = Report::from_input(
        &Input::from_games(games),
        &ReportOptions {
            sprt: Some(SprtSettings {
                sprt,
                pairing: ["new".to_owned(), "old".to_owned()],
            }),
            ..Default::default()
        },
    );
    let json = serde_json::from_str(&report.json_text()).unwrap();
    (report, json)
}

#[test]
fn the_live_sprt_and_the_report_count_the_same_pairs_broken_pair_included() {
    let sprt = Sprt::new(0.0, 400.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let mut text = String::new();
    for p in 0..8 {
        text += &pair(p, ["1-0", "1/2-1/2"], p == 5);
    }
    // Pair 9 arrived ahead of pair 8, and pair 3's first game twice.
    text += &pair(9, ["1-0", "0-1"], false);
    text += &pair(3, ["1-0", "1/2-1/2"], false)
        .lines()
        .next()
        .map(|l| format!("{l}\n"))
        .unwrap();
    let games: Vec<GameRecord> = parse_games(text.as_bytes(), "g.jsonl".as_ref()).games;

    let live = aboure_arbiter::sprt::verdict(sprt, &["new".into(), "old".into()], &games);
    let (report, json) = sprt_report(sprt, &games);
    let s = &json["sprt"];
    // Pair 5 is broken: both count pairs 0 to 4 and nothing past it.
    assert_eq!(live.counted, 5);
    assert_eq!(s["pairs"], 5);
    assert_eq!(
        s["pentanomial"],
        serde_json::to_value(live.counts).unwrap(),
        "{s}"
    );
    assert_eq!(s["waiting"], 3, "pairs 6, 7 and 9 wait behind the gap");
    assert_eq!(live.beyond, 3);
    assert!(
        report.text().contains("after 5 pairs")
            && report.text().contains("waiting: 3 complete pairs"),
        "{}",
        report.text()
    );
    // The head-to-head counts every complete pair but the broken one.
    let pairing = &json["pairings"][0];
    assert_eq!(pairing["pairs"], 8, "{pairing}");
}

#[test]
fn pairs_past_the_decision_are_reported_as_overrun_by_both() {
    let sprt = Sprt::new(0.0, 100.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    // Arrival order: the late pairs first.
    let text: String = (0..30)
        .rev()
        .map(|p| {
            // Mostly two wins for "new", every third pair one each.
            let second = if p % 3 == 0 { "1-0" } else { "0-1" };
            pair(p, ["1-0", second], false)
        })
        .collect();
    let games: Vec<GameRecord> = parse_games(text.as_bytes(), "g.jsonl".as_ref()).games;
    let live = aboure_arbiter::sprt::verdict(sprt, &["new".into(), "old".into()], &games);
    assert!(live.decided() && live.counted < 30, "{live:?}");
    assert_eq!(live.beyond, 30 - live.counted);
    let (report, json) = sprt_report(sprt, &games);
    assert_eq!(json["sprt"]["pairs"], live.counted);
    assert_eq!(json["sprt"]["overrun"], live.beyond);
    let line = format!(
        "overrun: {} more pairs played after the decision",
        live.beyond
    );
    assert!(report.text().contains(&line), "{}", report.text());
    assert!(report.html().contains("Overrun:"));
}
