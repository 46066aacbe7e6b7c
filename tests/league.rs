//! Leagues end to end with the real binary and real bot processes: a
//! league that stops on its verdict and records it; one killed with
//! SIGKILL and resumed that plays exactly the pairs of one never stopped;
//! and one that grows from 4 to 8 entrants across resumed runs without
//! replaying a game, retires an entrant and refuses a changed one. The
//! bots are seeded and depth- or node-limited, so timing cannot change a
//! move and every league here is deterministic.

use crate::harness::*;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

/// A built-in bot with a seed and extra settings.
fn builtin(name: &str, bot: &str, extra: &str) -> String {
    format!("[[bot]]\nname = \"{name}\"\nbuiltin = \"{bot}\"\n{extra}\n")
}

/// The entrants the tests draw from, weakest first: the reference bots at
/// several levels and the test bot's seeded random mover.
fn entrant(name: &str) -> String {
    match name {
        "random" => builtin(name, "random", "options = { seed = 1 }"),
        "greedy" => builtin(name, "greedy", "options = { seed = 1 }"),
        "mover" => testbot(name, "sleepy --ms 1 --seed 3"),
        "mover-9" => testbot(name, "sleepy --ms 1 --seed 9"),
        "mcts-20" => builtin(
            name,
            "mcts",
            "options = { seed = 1 }\ntime-control = { nodes = 20 }",
        ),
        "mcts-60" => builtin(
            name,
            "mcts",
            "options = { seed = 2 }\ntime-control = { nodes = 60 }",
        ),
        "ab-2" => builtin(name, "alphabeta", "time-control = { depth = 2 }"),
        "ab-4" => builtin(name, "alphabeta", "time-control = { depth = 4 }"),
        other => panic!("no entrant {other}"),
    }
}

fn league(dir: &Path, keys: &str, names: &[&str]) -> PathBuf {
    let bots: String = names.iter().map(|n| entrant(n)).collect();
    let text = format!(
        "[tournament]\nformat = \"league\"\nseed = 5\n{keys}\n[openings]\nplies = 2\n\
         [time-control]\nbase = \"60s\"\n{bots}"
    );
    write_config(dir, &text)
}

fn manifest(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap()
}

/// Each game's pair, players, moves and outcome, by id (failing on a game
/// recorded twice).
fn by_id(out: &Path) -> BTreeMap<String, Value> {
    let mut map = BTreeMap::new();
    for g in games(out) {
        let id = g["id"].as_str().unwrap().to_owned();
        let key = serde_json::json!([
            g["pairing"],
            g["south"],
            g["north"],
            g["opening"],
            g["moves"],
            g["result"],
            g["termination"]
        ]);
        assert!(map.insert(id.clone(), key).is_none(), "{id} recorded twice");
    }
    map
}

/// The two entrants of each pair, by pair number.
fn pairs(out: &Path) -> BTreeMap<u64, [String; 2]> {
    let mut pairs = BTreeMap::new();
    for g in games(out) {
        let pairing = [0, 1].map(|i| g["pairing"][i].as_str().unwrap().to_owned());
        pairs.insert(g["pair"].as_u64().unwrap(), pairing);
    }
    pairs
}

#[test]
fn a_league_stops_when_its_neighbours_are_separated_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let config = league(
        dir.path(),
        "games = 400\nuntil = \"separated\"\nconfidence = 0.9\nconcurrency = 2",
        &["random", "greedy", "ab-4"],
    );
    let out = dir.path().join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let verdict = &manifest(&out)["league"]["verdict"];
    assert_eq!(verdict["reason"], "settled", "{verdict}\n{stdout}");
    let recorded = games(&out).len() as u64;
    assert_eq!(verdict["games"], recorded);
    assert!(
        recorded < 400 && recorded.is_multiple_of(2),
        "{recorded} games"
    );
    let neighbours = verdict["neighbours"].as_array().unwrap();
    assert_eq!(neighbours.len(), 2);
    for n in neighbours {
        assert_eq!(n["verdict"], "separated", "{n}");
    }
    assert_eq!(neighbours[0]["upper"], "ab-4");
    assert_eq!(neighbours[1]["lower"], "random");
    assert!(
        stdout.contains(&format!("league stopped after {recorded} games"))
            && stdout.contains("every neighbour pair is separated")
            && stdout.contains("1/2 ab-4 over greedy"),
        "{stdout}"
    );
    // Every pair is two games, colours swapped, from one opening.
    let all = games(&out);
    for g in &all {
        let id = g["id"].as_str().unwrap();
        let (pair, game) = (g["pair"].as_u64().unwrap(), g["game"].as_u64().unwrap());
        assert_eq!(id, format!("l{pair:05}-g{game}"));
        let south = &g["pairing"][game as usize];
        assert_eq!(&g["south"], south, "{id}");
        let partner = all
            .iter()
            .find(|o| o["pair"] == g["pair"] && o["game"] != g["game"])
            .unwrap();
        assert_eq!(partner["opening"], g["opening"], "{id}");
    }
}

/// A league on anytime intervals records them, bounds each verdict by
/// them, and its report (text and JSON; the live page is the report's
/// HTML) names them and shows each entrant's anytime interval, wider than
/// the standings' fixed-sample one.
#[test]
fn a_league_on_anytime_intervals_names_them_in_its_report() {
    let dir = tempfile::tempdir().unwrap();
    let config = league(
        dir.path(),
        "games = 60
until = \"separated\"
intervals = \"anytime\"
concurrency = 2",
        &["random", "greedy", "ab-2"],
    );
    let out = dir.path().join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let league = &manifest(&out)["league"];
    assert_eq!(league["intervals"], "anytime", "{league}");
    for n in league["verdict"]["neighbours"].as_array().unwrap() {
        let (error, bound) = (n["error"].as_f64().unwrap(), n["bound"].as_f64().unwrap());
        // The 95% sequence is at least 2.4 standard errors wide (the
        // fixed one-sided verdict: 1.645).
        assert!(bound > 2.4 * error, "{n}");
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("anytime bound"), "{stdout}");

    let (ok, text, stderr) = crate::report_cli::aboure(&["--no-accuracy", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(
        text.contains("Intervals: anytime 95% (a confidence sequence")
            && text.contains("Anytime 95%"),
        "{text}"
    );
    let (ok, json, stderr) =
        crate::report_cli::aboure(&["--no-accuracy", "--format", "json", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let report: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["league"]["intervals"], "anytime");
    for e in report["league"]["entrants"].as_array().unwrap() {
        let name = &e["name"];
        let player = (report["players"].as_array().unwrap().iter())
            .find(|p| &p["name"] == name)
            .unwrap();
        let fixed = player["elo_high"].as_f64().unwrap() - player["elo_low"].as_f64().unwrap();
        let anytime = e["anytime"][1].as_f64().unwrap() - e["anytime"][0].as_f64().unwrap();
        assert!(anytime > 1.2 * fixed, "{name}: {anytime} against {fixed}");
    }
}

#[test]
fn a_league_killed_and_resumed_plays_the_pairs_of_one_never_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let config = league(
        dir.path(),
        "games = 40\nconcurrency = 2",
        &["random", "greedy", "mover", "mcts-20"],
    );
    let reference = dir.path().join("reference");
    let output = run(&config, &reference, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let expected = by_id(&reference);
    assert_eq!(expected.len(), 40);

    let out = dir.path().join("killed");
    let mut kills = 0;
    let mut wait = Duration::from_millis(400);
    for _ in 0..8 {
        let before = recorded(&out);
        let mut child = run_command(&config, &out, &["--resume"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Kill it once it has recorded a few more games (or ends).
        let t0 = Instant::now();
        let mut finished = false;
        while recorded(&out) < before + 3 || t0.elapsed() < wait {
            if child.try_wait().unwrap().is_some() {
                finished = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        if finished {
            break;
        }
        child.kill().unwrap(); // SIGKILL: no chance to clean up
        child.wait().unwrap();
        kills += 1;
        wait += Duration::from_millis(137);
    }
    assert!(kills >= 2, "the league finished before it was killed twice");
    // The last run plays one pair at a time: the decisions follow the
    // league's recorded in_flight, not this run's concurrency.
    let output = run(&config, &out, &["--resume", "--concurrency", "1"]);
    assert!(output.status.success(), "{}", show(&output));
    let resumed = by_id(&out);
    assert_eq!(resumed.len(), expected.len());
    for (id, game) in &expected {
        assert_eq!(resumed.get(id), Some(game), "game {id} differs");
    }
}

#[test]
fn a_league_grows_from_four_to_eight_entrants_without_replaying_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut names = vec!["random", "greedy", "mover", "mcts-20"];
    let config = league(dir.path(), "games = 24\nconcurrency = 2", &names);
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let first = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(first.lines().count(), 24);

    // Two newcomers join: placement first.
    names.extend(["ab-2", "mcts-60"]);
    let config = league(dir.path(), "games = 48\nconcurrency = 2", &names);
    let output = run(&config, &out, &["--resume"]);
    assert!(output.status.success(), "{}", show(&output));
    let second = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert!(
        second.starts_with(&first),
        "the first run's games were rewritten"
    );
    assert_eq!(second.lines().count(), 48);
    let entrants = manifest(&out)["league"]["entrants"].clone();
    assert_eq!(entrants[4]["name"], "ab-2");
    assert_eq!(entrants[4]["joined"], 12);
    assert_eq!(entrants[5]["joined"], 12);
    let played = pairs(&out);
    for n in [12, 13] {
        let newcomer = played[&n].iter().any(|e| e == "ab-2" || e == "mcts-60");
        assert!(newcomer, "pair {n} is not a placement: {:?}", played[&n]);
    }
    assert_eq!(by_id(&out).len(), 48);

    // Two more join and greedy retires.
    names.extend(["mover-9", "ab-4"]);
    let bots: String = names
        .iter()
        .map(|n| match *n {
            "greedy" => entrant(n) + "retired = true\n",
            _ => entrant(n),
        })
        .collect();
    let text = format!(
        "[tournament]\nformat = \"league\"\nseed = 5\ngames = 80\nconcurrency = 2\n\
         [openings]\nplies = 2\n[time-control]\nbase = \"60s\"\n{bots}"
    );
    let config = write_config(dir.path(), &text);
    let output = run(&config, &out, &["--resume"]);
    assert!(output.status.success(), "{}", show(&output));
    let third = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert!(third.starts_with(&second), "earlier games were rewritten");
    assert_eq!(by_id(&out).len(), 80, "a game was replayed or lost");
    let league = manifest(&out)["league"].clone();
    assert_eq!(league["entrants"].as_array().unwrap().len(), 8);
    assert_eq!(league["entrants"][1]["retired_from"], 24);
    assert_eq!(league["entrants"][7]["joined"], 24);
    let played = pairs(&out);
    assert!(played
        .range(24..)
        .all(|(_, p)| p.iter().all(|e| e != "greedy")));
    let players: std::collections::BTreeSet<&String> = played.values().flatten().collect();
    assert_eq!(players.len(), 8, "{players:?}");

    // The report's leaderboard: when each joined, who retired, and each
    // entrant's rating over time; the run's own end-of-run report agrees.
    let output = aboure(&["report", "--no-accuracy", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", show(&output));
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(shown.contains("League: 8 entrants, 1 retired"), "{shown}");
    let line = |name: &str| {
        let section = &shown[shown.find("League:").unwrap()..];
        let found = section
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name));
        found
            .unwrap_or_else(|| panic!("no line of {name} in\n{shown}"))
            .to_owned()
    };
    assert!(line("greedy").ends_with("retired from pair 24"), "{shown}");
    assert!(line("ab-2").contains("pair 12 ("), "{shown}");
    assert!(line("mover-9").contains("pair 24 ("), "{shown}");
    assert!(line("random").contains("founder ("), "{shown}");
    assert!(
        shown.contains("league stopped after 80 games (40 pairs): the budget of games is spent"),
        "{shown}"
    );
    let written = std::fs::read_to_string(out.join("report.txt")).unwrap();
    assert!(
        written.contains("League: 8 entrants, 1 retired"),
        "{written}"
    );
    let output = aboure(&[
        "report",
        "--no-accuracy",
        "--format",
        "json",
        out.to_str().unwrap(),
    ]);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let history = json["league"]["history"].as_array().unwrap();
    assert!(history.len() >= 10, "{history:?}");
    let last = history.last().unwrap();
    assert_eq!(last["games"], 80);
    assert_eq!(last["elo"].as_array().unwrap().len(), 8);
    assert!(
        last["elo"].as_array().unwrap().iter().all(Value::is_f64),
        "{last}"
    );
    // Before the newcomers joined they have no rating.
    let early = &history[0]["elo"];
    let newcomer = json["league"]["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["name"] == "ab-4")
        .unwrap();
    assert!(early[newcomer].is_null(), "{early}");
    // A league is rated with BayesElo's prior of 2 virtual draws, in the
    // standings, the leaderboard and the ratings over time alike (the last
    // refit is the standings'), and in the run's own end-of-run report.
    assert_eq!(json["ratings"]["prior"], 2.0, "{}", json["ratings"]);
    assert!(
        shown.contains("prior: 2 virtual draws per bot (BayesElo's default)"),
        "{shown}"
    );
    let entrants = json["league"]["entrants"].as_array().unwrap();
    for (e, elo) in entrants.iter().zip(last["elo"].as_array().unwrap()) {
        assert_eq!(&e["elo"], elo, "{}", e["name"]);
    }
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(written["ratings"]["prior"], 2.0);
    assert_eq!(written["players"], json["players"]);
    let likelihood = report_json(&out, &["--prior", "0"]);
    assert_eq!(likelihood["ratings"]["prior"], 0.0);
    assert_ne!(likelihood["players"], json["players"]);

    // A changed entrant is refused, naming it; nothing is played.
    let changed = text.replace("\"--seed\", \"3\"", "\"--seed\", \"4\"");
    assert_ne!(changed, text);
    let config = write_config(dir.path(), &changed);
    let output = run(&config, &out, &["--resume"]);
    assert!(!output.status.success());
    let message = show(&output);
    assert!(
        message.contains("entrant \"mover\" changed (command)")
            && message.contains("a new version is a new entrant"),
        "{message}"
    );
    // So is an entrant left out, and a retired one brought back.
    let config = write_config(
        dir.path(),
        &text.replace("name = \"mover-9\"", "name = \"m9\""),
    );
    let output = run(&config, &out, &["--resume"]);
    assert!(
        show(&output).contains("entrant \"mover-9\" is missing"),
        "{}",
        show(&output)
    );
    let config = write_config(dir.path(), &text.replace("retired = true\n", ""));
    let output = run(&config, &out, &["--resume"]);
    assert!(
        show(&output).contains("entrant \"greedy\" retired from pair 24 on"),
        "{}",
        show(&output)
    );
    assert_eq!(
        std::fs::read_to_string(out.join("games.jsonl")).unwrap(),
        third
    );
}
