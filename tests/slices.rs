//! A static split (`--slice K/N`): machines that share no folder each play
//! one slice of the schedule into a folder of their own, and the slices
//! read together are the one-process run, game for game; an SPRT or a
//! league is refused, with the reason.

use crate::harness::*;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

/// A seeded, node-limited round robin: every game is decided by the file.
fn round_robin(dir: &Path, format: &str) -> std::path::PathBuf {
    let sprt = match format {
        "sprt" => "[sprt]\nelo0 = 0.0\nelo1 = 100.0\nalpha = 0.05\nbeta = 0.05\n",
        _ => "",
    };
    write_config(
        dir,
        &format!(
            "[tournament]\nformat = \"{format}\"\npairs = 7\nseed = 5\n\
             [time-control]\nmovetime = \"2s\"\n[openings]\nplies = 4\n{sprt}\
             [[bot]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = {{ depth = 2 }}\n\
             [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\noptions = {{ seed = 7 }}\n"
        ),
    )
}

/// Every game of the run folders `outs`, by id: its moves and result.
fn played(outs: &[&Path]) -> BTreeMap<String, (Value, Value)> {
    let mut all = BTreeMap::new();
    for out in outs {
        for g in games(out) {
            let id = g["id"].as_str().unwrap().to_owned();
            let game = (g["moves"].clone(), g["result"].clone());
            assert!(all.insert(id.clone(), game).is_none(), "{id} twice");
        }
    }
    all
}

#[test]
fn three_slices_in_folders_of_their_own_are_the_one_process_run_game_for_game() {
    let dir = folder("slices");
    let config = round_robin(&dir, "round-robin");
    let whole = dir.join("whole");
    let one = run(&config, &whole, &["--concurrency", "2"]);
    assert!(one.status.success(), "{}", show(&one));
    let outs: Vec<_> = (1..=3).map(|k| dir.join(format!("slice-{k}"))).collect();
    for (k, out) in outs.iter().enumerate() {
        let slice = format!("{}/3", k + 1);
        let played = run(&config, out, &["--concurrency", "1", "--slice", &slice]);
        assert!(played.status.success(), "{}", show(&played));
    }
    let expected = played(&[&whole]);
    assert_eq!(expected.len(), 14, "7 pairs of one pairing");
    let sliced = played(&outs.iter().map(|p| p.as_path()).collect::<Vec<_>>());
    assert_eq!(sliced, expected);
    // Slice 2 of 3 played pairs 1 and 4 (of 0..7): units i with i % 3 == 1.
    let mut second: Vec<String> = games(&outs[1])
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect();
    second.sort();
    assert_eq!(second.len(), 4, "{second:?}");
    assert!(
        second
            .iter()
            .all(|id| id.contains("-p01-") || id.contains("-p04-")),
        "{second:?}"
    );
    // The report of the slices is the report of the one process.
    let report = |paths: &[&Path]| {
        let mut args = vec!["report", "--format", "json", "--no-accuracy"];
        args.extend(paths.iter().map(|p| p.to_str().unwrap()));
        let output = aboure(&args);
        assert!(output.status.success(), "{}", show(&output));
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        (json["games"].clone(), json["players"].clone())
    };
    let slices: Vec<&Path> = outs.iter().map(|p| p.as_path()).collect();
    assert_eq!(report(&slices), report(&[&whole]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_sprt_is_not_sliced_and_says_why() {
    let dir = folder("slices-sprt");
    let config = round_robin(&dir, "sprt");
    let out = dir.join("out");
    let refused = run(&config, &out, &["--slice", "1/2"]);
    assert_eq!(refused.status.code(), Some(2), "{}", show(&refused));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--slice cannot split an SPRT"), "{stderr}");
    assert!(stderr.contains("--join"), "{stderr}");
    assert_eq!(recorded(&out), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn slices_served_combined_are_followed_live_as_one_run_with_every_slices_worker() {
    let dir = folder("slices-live");
    let config = round_robin(&dir, "round-robin");
    let outs: Vec<_> = (1..=3).map(|k| dir.join(format!("slice-{k}"))).collect();
    // The page is started before any slice has played: their folders are
    // there (`aboure serve` refuses a folder that is not), empty.
    for out in &outs {
        std::fs::create_dir_all(out).unwrap();
    }
    let mut args = vec!["--combine"];
    args.extend(outs.iter().map(|p| p.to_str().unwrap()));
    let (_server, url) = crate::served::serve(&args);
    let slices: Vec<_> = (outs.iter().enumerate())
        .map(|(k, out)| {
            let slice = format!("{}/3", k + 1);
            run_command(&config, out, &["--concurrency", "1", "--slice", &slice])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in slices {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
    }
    let whole = aboure(
        &["report", "--format", "json", "--no-accuracy"]
            .into_iter()
            .chain(outs.iter().map(|p| p.to_str().unwrap()))
            .collect::<Vec<_>>(),
    );
    assert!(whole.status.success(), "{}", show(&whole));
    let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let live = loop {
        let live = crate::served::snapshot(&url, 0)["live"].clone();
        let workers = live["workers"]["list"].as_array().map_or(0, Vec::len);
        if live["games"] == 14 && workers == 3 {
            break live;
        }
        assert!(std::time::Instant::now() < deadline, "{live}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(
        (&live["pairs"], &live["scheduled"], &live["remaining_games"]),
        (&Value::from(7), &Value::from(14), &Value::from(0.0))
    );
    assert_eq!(live["leader"]["name"], whole["players"][0]["name"]);
    assert_eq!(live["leader"]["elo"], whole["players"][0]["elo"]);
    let mut names: Vec<&str> = (live["workers"]["list"].as_array().unwrap().iter())
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["1-of-3", "2-of-3", "3-of-3"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
