//! A game recorded twice in one run folder, as a worker that lost the
//! game's mark (`claims/recorded/ID`) and died before it could cut its
//! record back leaves it: the report, the live page (`aboure serve`), a
//! worker's live SPRT (`sprt.json`) and a league worker's standings all
//! count the game once, from the record the mark names, as if the
//! left-over were not there.
//!
//! The folders are made by real workers (two shards sharing the folder,
//! with marks); the left-over is then written into the file of the worker
//! whose file is read first: a copy of a game the other worker recorded
//! (its mark names that worker's file), with the result turned round. A
//! worker SIGKILLed between its write and its cut-back is a window too
//! narrow to hit on purpose; what it leaves is this line.

use crate::harness::*;
use crate::served::{serve, snapshot};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::Value;

/// Workers K/2 for K = 1, 2 on the run of `config` in `out`, run to their end.
fn two_workers(config: &Path, out: &Path) {
    let children: Vec<_> = (1..=2)
        .map(|k| {
            let shard = format!("{k}/2");
            run_command(config, out, &["--resume", "--concurrency", "1"])
                .args(["--shard", &shard])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
    }
}

/// A game of `2-of-2`'s file whose mark names that file, and its line with
/// the result turned round (a draw becomes a win): the left-over.
fn left_over(out: &Path) -> (String, String) {
    let marked = out.join("games-2-of-2.jsonl");
    let text = std::fs::read_to_string(&marked).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("\"termination\":\"natural\""))
        .expect("a game that ended naturally");
    let game: Value = serde_json::from_str(line).unwrap();
    let id = game["id"].as_str().unwrap().to_owned();
    let mark = aboure_records::mark::read_mark(out, &id).unwrap();
    assert_eq!(mark.as_deref(), Some("games-2-of-2.jsonl"), "{id}");
    let result = game["result"].as_str().unwrap();
    let turned = if result == "1-0" { "0-1" } else { "1-0" };
    let from = format!("\"result\":\"{result}\"");
    let to = format!("\"result\":\"{turned}\"");
    assert!(line.contains(&from), "{line}");
    (id, line.replacen(&from, &to, 1))
}

/// Appends the left-over to the results file read first, `1-of-2`'s.
fn leave_behind(out: &Path, line: &str) {
    let dead = out.join("games-1-of-2.jsonl");
    let mut file = std::fs::OpenOptions::new().append(true).open(dead).unwrap();
    writeln!(file, "{line}").unwrap();
}

/// `aboure report --format json` of the folder `out`.
fn report(out: &Path) -> Value {
    report_json(out, &[])
}

/// What must not change for a left-over: the games, each bot's results
/// and the SPRT.
fn counted(report: &Value) -> Value {
    let players: Vec<Value> = (report["players"].as_array().unwrap().iter())
        .map(|p| serde_json::json!([p["name"], p["games"], p["wins"], p["draws"], p["losses"]]))
        .collect();
    serde_json::json!({"games": report["games"], "players": players, "sprt": report["sprt"]})
}

/// The live figures of run 0 of `aboure serve` at `url`, once it has
/// read `games` games and stopped changing.
fn live(url: &str, games: &Value) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let first = snapshot(url, 0);
        if &first["live"]["games"] == games {
            std::thread::sleep(std::time::Duration::from_millis(1500));
            if snapshot(url, 0) == first {
                return first["live"].clone();
            }
        }
        assert!(std::time::Instant::now() < deadline, "{first}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// What `sprt.json` decided, on which pairs.
fn verdict(out: &Path) -> Value {
    let v = aboure_records::SprtFile::read_in(out)
        .unwrap()
        .unwrap_or_else(|| panic!("no sprt.json in {}", out.display()));
    serde_json::json!([v.decision, v.pairs, v.pentanomial, v.llr])
}

fn scratch(name: &str) -> PathBuf {
    folder(&format!("left-over-{name}"))
}

#[test]
fn a_left_over_record_is_left_out_by_the_report_the_page_and_the_live_sprt() {
    // Bounds 4 pairs cannot cross: the cap decides, on every pair.
    let dir = scratch("sprt");
    let config = write_config(
        &dir,
        "[tournament]\nformat = \"sprt\"\npairs = 4\nseed = 5\n\
         [time-control]\nmovetime = \"5ms\"\n[openings]\nplies = 4\n\
         [sprt]\nelo0 = 0.0\nelo1 = 5.0\nmax-pairs = 4\n\
         [[bot]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = { depth = 2 }\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\noptions = { seed = 7 }\n",
    );
    let out = dir.join("out");
    two_workers(&config, &out);
    let expected = counted(&report(&out));
    let expected_verdict = verdict(&out);
    assert_eq!(expected["games"], 8, "{expected}");

    let (id, line) = left_over(&out);
    leave_behind(&out, &line);
    let reported = report(&out);
    assert_eq!(counted(&reported), expected, "the report");
    let warnings = reported["warnings"].to_string();
    assert!(warnings.contains(&id), "{warnings}");

    let (_server, url) = serve(&[out.to_str().unwrap()]);
    let page = live(&url, &expected["games"]);
    let sprt = &expected["sprt"];
    assert_eq!(
        (&page["sprt"]["llr"], &page["sprt"]["pairs"]),
        (&sprt["llr"], &sprt["pairs"]),
        "the live page: {page}"
    );

    // A worker joining reads the others' files (the log of finished units
    // removed: as for units it does not hold yet) and decides the SPRT.
    std::fs::remove_file(out.join("sprt.json")).unwrap();
    std::fs::remove_file(out.join("claims").join("finished.log")).unwrap();
    let output = run(&config, &out, &["--join", "--concurrency", "1"]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(verdict(&out), expected_verdict, "the live SPRT");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_left_over_record_is_left_out_of_a_league_workers_standings() {
    let dir = scratch("league");
    let bot = |name: &str, builtin: &str, options: &str| {
        format!("[[bot]]\nname = \"{name}\"\nbuiltin = \"{builtin}\"\noptions = {{ {options} }}\n")
    };
    let config = write_config(
        &dir,
        &format!(
            "[tournament]\nformat = \"league\"\nseed = 5\ngames = 8\nuntil = \"separated\"\n\
             [openings]\nplies = 2\n[time-control]\nmovetime = \"5ms\"\n{}{}{}",
            bot("random", "random", "seed = 1"),
            bot("greedy", "greedy", "seed = 1"),
            bot("ab", "alphabeta", "depth = 2"),
        ),
    );
    let out = dir.join("out");
    two_workers(&config, &out);
    let expected = counted(&report(&out));
    let league = |out: &Path| -> Value {
        let run: Value =
            serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
        run["league"]["verdict"].clone()
    };
    let expected_verdict = league(&out);
    assert_eq!(expected_verdict["games"], 8, "{expected_verdict}");
    assert!(
        !expected_verdict["neighbours"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{expected_verdict}"
    );

    let (id, line) = left_over(&out);
    leave_behind(&out, &line);
    let reported = report(&out);
    assert_eq!(counted(&reported), expected, "the report");
    assert!(reported["warnings"].to_string().contains(&id));

    // A worker joining reads the others' files, finds the budget spent,
    // and writes the verdict again from its standings.
    let output = run(&config, &out, &["--join", "--concurrency", "1"]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(
        league(&out),
        expected_verdict,
        "the league worker's standings"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
