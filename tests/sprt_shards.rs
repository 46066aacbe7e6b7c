//! One writer per results file, and runs shared by worker processes on
//! one output folder, with the real binary and real processes: a second run
//! on a folder is refused naming the first; a SIGKILLed run leaves no stale
//! lock; a round robin whose worker is killed mid-game and never restarted
//! is recorded whole, each game once, by the others; an SPRT's workers (one
//! killed, one never started) reach the verdict of one process at the same
//! pair count; the live test and the report count the same pairs.

use crate::harness;

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
    let v = aboure_records::SprtFile::read_in(out)
        .unwrap()
        .unwrap_or_else(|| panic!("no sprt.json in {}", out.display()));
    serde_json::json!([v.decision, v.pairs, v.pentanomial, v.llr])
}

fn report_sprt(out: &Path) -> Value {
    report_json(out, &[])["sprt"].clone()
}

/// Worker K of N (`--shard K/N --resume --concurrency 1`) on the run in
/// `out`, its output piped.
fn worker(config: &Path, out: &Path, k: u32, n: u32) -> std::process::Child {
    run_command(config, out, &["--resume", "--concurrency", "1"])
        .args(["--shard", &format!("{k}/{n}")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_second_run_on_a_folder_is_refused_and_a_killed_holder_can_be_resumed() {
    let dir = folder("lock");
    let text = format!(
        "[tournament]\npairs = 3\nconcurrency = 1\n[time-control]\nbase = \"30s\"\n{}{}",
        testbot("a", "sleepy --ms 100 --seed 1"),
        testbot("b", "sleepy --ms 100 --seed 2"),
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let mut first = run_command(&config, &out, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_games(&out, 1);
    // Stopped, it holds the folder for as long as the second run takes to
    // start, however busy the machine (it had finished first before).
    // SAFETY: a signal to a child of this test, not yet waited for.
    assert_eq!(unsafe { libc::kill(first.id() as i32, libc::SIGSTOP) }, 0);

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

/// The ids recorded in every results file of `out`, sorted.
fn ids(out: &Path) -> Vec<String> {
    let mut ids: Vec<String> = games(out)
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

/// Claim files left in `out/claims` (there should be none after a run).
fn units_left(out: &Path) -> Vec<String> {
    std::fs::read_dir(out.join("claims"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| aboure_workers::unit_of_file_name(n).is_some())
        .collect()
}

#[test]
fn a_round_robin_shared_by_workers_one_killed_mid_game_and_never_restarted_is_recorded_once() {
    let dir = folder("rr-workers");
    let text = format!(
        "[tournament]\npairs = 4\n[time-control]\nbase = \"30s\"\n{}{}{}",
        testbot("a", "sleepy --ms 5 --seed 1"),
        testbot("b", "sleepy --ms 5 --seed 2"),
        testbot("c", "sleepy --ms 5 --seed 3"),
    );
    let config = write_config(&dir, &text);
    let all: Vec<String> = {
        let one = dir.join("one");
        let output = run(&config, &one, &["--concurrency", "2"]);
        assert!(output.status.success(), "{}", show(&output));
        ids(&one)
    };
    assert_eq!(all.len(), 3 * 4 * 2);

    let out = dir.join("shared");
    let start = |k: u32| worker(&config, &out, k, 3);
    let mut doomed = start(2);
    let others = [start(1), start(3)];
    wait_mid_game(&out, "2-of-3", Instant::now() + Duration::from_secs(60));
    doomed.kill().unwrap(); // SIGKILL, and never started again
    doomed.wait().unwrap();
    let mut taken_over = 0;
    for child in others {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
        let stdout = String::from_utf8_lossy(&output.stdout);
        taken_over += stdout.contains("taken over from workers that died") as u32;
    }
    assert_eq!(ids(&out), all, "every game of the schedule, each once");
    assert_eq!(taken_over, 1, "one worker took over the killed one's pair");
    assert!(units_left(&out).is_empty(), "{:?}", units_left(&out));
    // The roster: two workers left when all was done, one died and its
    // pair was taken over.
    let roster = aboure_workers::roster(&out.join("claims")).unwrap();
    let states: Vec<_> = roster
        .iter()
        .map(|w| (w.name.as_str(), w.state, w.holding.len()))
        .collect();
    use aboure_workers::WorkerState::{Died, Ended};
    assert_eq!(
        states,
        [
            ("1-of-3", Ended, 0),
            ("2-of-3", Died, 0),
            ("3-of-3", Ended, 0)
        ]
    );
    // workers.json, as the last worker to leave wrote it: who played how
    // many games, and who took the dead worker's pair.
    let file = aboure_records::workers::WorkersFile::read_in(&out)
        .unwrap()
        .expect("workers.json");
    let games: Vec<_> = file
        .workers
        .iter()
        .map(|w| (w.name.as_str(), w.state, w.results.as_str()))
        .collect();
    assert_eq!(
        games,
        [
            ("1-of-3", Ended, "games-1-of-3.jsonl"),
            ("2-of-3", Died, "games-2-of-3.jsonl"),
            ("3-of-3", Ended, "games-3-of-3.jsonl")
        ]
    );
    let lines = |name: &str| {
        std::fs::read_to_string(out.join(name))
            .unwrap()
            .lines()
            .count() as u64
    };
    for w in &file.workers {
        assert_eq!(w.games, lines(&w.results), "{w:?}");
    }
    let took: Vec<_> = file.workers.iter().flat_map(|w| &w.took_over).collect();
    assert_eq!(took.len(), 1, "{took:?}");
    assert_eq!(took[0].from, "2-of-3");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The pair (unit) whose claim file worker `name` signed, if any.
fn held_by(out: &Path, name: &str) -> Option<u64> {
    let signed = format!("worker {name} ");
    std::fs::read_dir(out.join("claims"))
        .ok()?
        .flatten()
        .find_map(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            let unit = aboure_workers::unit_of_file_name(&file)?;
            let text = std::fs::read_to_string(e.path()).ok()?;
            text.starts_with(&signed).then_some(unit)
        })
}

/// Stops the worker `name` (SIGSTOP) at a moment it holds a pair not yet
/// complete in its results file, and returns that pair: looked at while it
/// runs, the pair could be finished (or a new one claimed) between the look
/// and the kill.
fn stopped_holding(worker: &std::process::Child, out: &Path, name: &str) -> u64 {
    let pid = worker.id() as libc::pid_t;
    let own = out.join(format!("games-{name}.jsonl"));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        // SAFETY: signals to our own child.
        unsafe { libc::kill(pid, libc::SIGSTOP) };
        let open = held_by(out, name).filter(|&unit| {
            let text = std::fs::read_to_string(&own).unwrap_or_default();
            let pair = |l: &&str| {
                serde_json::from_str::<Value>(l).is_ok_and(|g| g["pair"].as_u64() == Some(unit))
            };
            text.lines().filter(pair).count() < 2
        });
        if let Some(unit) = open {
            return unit;
        }
        // SAFETY: as above.
        unsafe { libc::kill(pid, libc::SIGCONT) };
        assert!(
            Instant::now() < deadline,
            "worker {name} never held an open pair"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_dead_workers_pair_is_taken_over_promptly_ahead_of_the_takers_own_pairs() {
    let dir = folder("rr-prompt");
    let text = format!(
        "[tournament]\npairs = 90\n[time-control]\nbase = \"30s\"\n{}{}",
        testbot("a", "sleepy --ms 10 --seed 1"),
        testbot("b", "sleepy --ms 10 --seed 2"),
    );
    let config = write_config(&dir, &text);
    let out = dir.join("shared");
    let start = |k: u32| worker(&config, &out, k, 3);
    let mut doomed = start(2);
    let others = [start(1), start(3)];
    wait_mid_game(&out, "2-of-3", Instant::now() + Duration::from_secs(60));
    let orphan = stopped_holding(&doomed, &out, "2-of-3");
    doomed.kill().unwrap(); // SIGKILL, and never started again
    let killed = Instant::now();
    doomed.wait().unwrap();
    // Two bots: pair p is unit p. Until both its games are recorded.
    let recorded = |g: &Value| g["pair"].as_u64() == Some(orphan);
    while games(&out).iter().filter(|g| recorded(g)).count() < 2 {
        assert!(
            killed.elapsed() < Duration::from_secs(60),
            "pair {orphan} never taken over"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let lost = killed.elapsed();
    for child in others {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
    }
    let all = ids(&out);
    let mut unique = all.clone();
    unique.dedup();
    assert_eq!((all.len(), unique.len()), (180, 180), "every game once");
    // The taker played the dead worker's pair before the rest of its own
    // slice, not once its slice ran out.
    let (taker, after) = ["games-1-of-3.jsonl", "games-3-of-3.jsonl"]
        .iter()
        .find_map(|f| {
            let text = std::fs::read_to_string(out.join(f)).unwrap();
            let lines: Vec<Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let at = lines.iter().rposition(recorded)?;
            Some((*f, lines.len() - 1 - at))
        })
        .expect("a taker");
    eprintln!(
        "pair {orphan} of the worker killed mid-game taken over and played {:.1} s after the kill, \
         by {taker}, with {after} games of its own after it",
        lost.as_secs_f64()
    );
    // Taken once the taker's own free pairs fell below the 8 it tries at
    // a claim, it would be followed by at most about 20 of its games.
    assert!(
        after >= 40,
        "taken over late: {after} games followed it in {taker}"
    );
    // The order above is the measure of promptness; the clock only
    // catches a takeover that waited for the end, with room for a loaded
    // machine (10.9 s seen at a load of 12 on 2 cores).
    assert!(lost < Duration::from_secs(20), "{lost:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn workers_that_join_a_plain_run_finish_it_together_each_game_once() {
    let dir = folder("join");
    let text = format!(
        "[tournament]\npairs = 6\n[time-control]\nbase = \"30s\"\n{}{}",
        testbot("a", "sleepy --ms 5 --seed 1"),
        testbot("b", "sleepy --ms 5 --seed 2"),
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let first = run_command(&config, &out, &["--concurrency", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_games(&out, 1);
    let joined: Vec<_> = (0..2)
        .map(|_| {
            run_command(&config, &out, &["--join", "--concurrency", "1"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in joined.into_iter().chain([first]) {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
    }
    assert_eq!(ids(&out).len(), 12);
    let mut unique = ids(&out);
    unique.dedup();
    assert_eq!(unique.len(), 12, "no game twice");
    let files = aboure_records::results_files(&out).unwrap();
    assert_eq!(
        files.len(),
        3,
        "games.jsonl and one file per joined worker: {files:?}"
    );
    assert!(files[1]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("games-w-"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_sprt_reaches_the_one_process_verdict_with_a_worker_killed_and_one_never_started() {
    let dir = folder("sprt-shards");
    let config = sprt_config(&dir);
    let one = dir.join("one");
    let output = run(&config, &one, &["--concurrency", "1"]);
    assert!(output.status.success(), "{}", show(&output));
    let expected = verdict(&one);
    assert!(expected[0] != "continue", "{expected}");

    // Four workers asked for: 4/4 never starts, 2/4 is killed mid-game and
    // never restarted; 1/4 and 3/4 finish the test.
    let shared = dir.join("shared");
    let start = |k: u32| worker(&config, &shared, k, 4);
    let mut doomed = start(2);
    let others = [start(1), start(3)];
    wait_mid_game(&shared, "2-of-4", Instant::now() + Duration::from_secs(60));
    doomed.kill().unwrap();
    doomed.wait().unwrap();
    for child in others {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
    }
    assert_eq!(verdict(&shared), expected);
    let recorded = ids(&shared);
    let mut unique = recorded.clone();
    unique.dedup();
    assert_eq!(recorded, unique, "no game recorded twice");
    // The look-ahead follows the claims in flight (at most 3 here): no pair
    // was started 4 x (3 + 1) = 16 pairs past the recorded prefix, and the
    // prefix at the decision is the counted pairs.
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

#[test]
fn a_pair_split_between_two_workers_files_of_one_folder_is_one_pair() {
    let dir = folder("split-pair");
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    // A worker died after game 0 of pair 0; another played game 1.
    let lines: Vec<String> = pair(0, ["1-0", "1/2-1/2"], false)
        .lines()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(run.join("games-1-of-2.jsonl"), &lines[0]).unwrap();
    std::fs::write(run.join("games-w-h-7.jsonl"), &lines[1]).unwrap();
    // The same game 1 in another folder is another run's: no pair there.
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(
        other.join("games.jsonl"),
        pair(1, ["1-0", "1-0"], false)
            .lines()
            .next()
            .unwrap()
            .to_owned()
            + "\n",
    )
    .unwrap();
    let output = aboure(&[
        "report",
        "--format",
        "json",
        "--no-accuracy",
        run.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", show(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let pairing = &json["pairings"][0];
    assert_eq!(pairing["games"], 3, "{pairing}");
    assert_eq!(pairing["pairs"], 1, "{pairing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The cost of sharing a run, measured with many worker processes on one
/// machine (the figures in docs/many-machines.md):
/// `cargo test --test sprt_shards -- --ignored --nocapture workers_figures`
/// (`ABOURE_WORKERS=10,100` by default).
#[test]
#[ignore]
fn workers_figures() {
    let counts = std::env::var("ABOURE_WORKERS").unwrap_or_else(|_| "10,100".into());
    for n in counts.split(',').map(|c| c.trim().parse::<u32>().unwrap()) {
        let dir = folder(&format!("figures-{n}"));
        let text = format!(
            "[tournament]\npairs = 1000\nrestart = \"never\"\n[time-control]\nbase = \"60s\"\n{}{}",
            testbot("a", "sleepy --ms 1 --seed 1"),
            testbot("b", "sleepy --ms 1 --seed 2"),
        );
        let config = write_config(&dir, &text);
        let out = dir.join("out");
        let t0 = Instant::now();
        let workers: Vec<_> = (1..=n)
            .map(|k| {
                let shard = format!("{k}/{n}");
                run_command(
                    &config,
                    &out,
                    &["--shard", &shard, "--resume", "--concurrency", "1"],
                )
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
            })
            .collect();
        let mut sums = [0u64; 5];
        for w in workers {
            let output = w.wait_with_output().unwrap();
            assert!(output.status.success(), "{}", show(&output));
            let stdout = String::from_utf8_lossy(&output.stdout);
            let Some(line) = stdout
                .lines()
                .find(|l| l.starts_with("shared with other workers"))
            else {
                continue;
            };
            let numbers: Vec<u64> = line
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|w| w.parse().ok())
                .collect();
            for (sum, x) in sums.iter_mut().zip(numbers) {
                *sum += x;
            }
        }
        let secs = t0.elapsed().as_secs_f64();
        let recorded = ids(&out);
        let mut unique = recorded.clone();
        unique.dedup();
        assert_eq!((recorded.len(), unique.len()), (2000, 2000));
        let [claimed, tries, polls, opens, bytes] = sums;
        eprintln!(
            "{n} workers: 1000 pairs in {secs:.1} s; {claimed} claims in {tries} tries ({:.0} tries/s, {:.2} per pair); \
             {polls} polls of the others' files ({:.0}/s), {opens} opens ({:.0}/s, {:.0} per pair), {:.1} MB read ({:.2} MB/s)",
            tries as f64 / secs,
            tries as f64 / claimed as f64,
            polls as f64 / secs,
            opens as f64 / secs,
            opens as f64 / claimed as f64,
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / secs,
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_truncated_sprt_stops_at_its_cap_and_says_so() {
    // Bounds no 6 pairs can cross: the cap decides.
    let dir = folder("truncated");
    let config = write_config(
        &dir,
        "[tournament]\nformat = \"sprt\"\npairs = 40\nseed = 5\nconcurrency = 2\n\
         [time-control]\nmovetime = \"5ms\"\n\
         [sprt]\nelo0 = 0.0\nelo1 = 5.0\nmax-pairs = 6\n\
         [[bot]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = { depth = 2 }\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\noptions = { seed = 7 }\n",
    );
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("at the cap of 6 pairs (truncated: by the sign of the LLR)"),
        "{stdout}"
    );
    let decision = aboure_records::SprtFile::read_in(&out).unwrap().unwrap();
    assert_eq!(decision.pairs, 6, "{decision:?}");
    assert_eq!((decision.truncated, decision.max_pairs), (true, Some(6)));
    assert_eq!(decision.schema, aboure_records::SPRT_SCHEMA);
    let expected = if decision.llr > 0.0 {
        aboure_stats::SprtDecision::AcceptH1
    } else {
        aboure_stats::SprtDecision::AcceptH0
    };
    assert_eq!(decision.decision, expected, "{decision:?}");
    // Stopped at the cap: only the games already running finish after it.
    assert!(
        games(&out).len() <= 2 * 6 + 2,
        "{} games",
        games(&out).len()
    );
    let reported = report_sprt(&out);
    assert_eq!(
        (
            &reported["pairs"],
            &reported["decision"],
            &reported["truncated"],
            &reported["max_pairs"]
        ),
        (
            &Value::from(decision.pairs),
            &serde_json::to_value(decision.decision).unwrap(),
            &Value::Bool(true),
            &Value::from(6)
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
