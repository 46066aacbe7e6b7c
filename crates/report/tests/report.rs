//! The report model, text and JSON, on checked-in results files and on
//! hand-made edge cases.

use std::path::{Path, PathBuf};

use aboure_records::{parse_games, GameRecord, GameResult, Termination};
use aboure_report::{load, Input, RatingStatus, Report, ReportOptions, SprtSettings};
use serde_json::Value;

use crate::support;
use support::game;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Compares `actual` with the checked-in file; `UPDATE_SNAPSHOTS=1`
/// rewrites it instead (then review the diff before committing).
fn snapshot(actual: &str, expected_file: &str) {
    let path = fixture(expected_file);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_SNAPSHOTS=1 writes it)", path.display()));
    if actual != expected {
        for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
            if a != e {
                panic!(
                    "{} differs at line {}:\nexpected: {e}\nactual:   {a}\n\nwhole output:\n{actual}",
                    path.display(),
                    i + 1
                );
            }
        }
        panic!(
            "{} differs in length ({} lines expected, {} actual):\n{actual}",
            path.display(),
            expected.lines().count(),
            actual.lines().count()
        );
    }
}

fn report_of(files: &[PathBuf], options: ReportOptions) -> Report {
    let (input, sprt) = load(files).unwrap();
    Report::from_input(
        &input,
        &ReportOptions {
            sprt: options.sprt.or(sprt),
            ..options
        },
    )
}

fn paired(id: &str, pairing: [&str; 2], pair: u32, game: u8, result: &str) -> GameRecord {
    let (s, n) = if game == 0 {
        (pairing[0], pairing[1])
    } else {
        (pairing[1], pairing[0])
    };
    let mut g = self::game(id, s, n, result);
    g.pairing = [pairing[0].into(), pairing[1].into()];
    g.pair = pair;
    g.game = game;
    g
}

#[test]
fn round_robin_text_snapshot() {
    let report = report_of(
        &[fixture("round-robin/games.jsonl")],
        ReportOptions::default(),
    );
    snapshot(&report.text(), "round-robin/expected.txt");
}

#[test]
fn sprt_text_snapshot_reads_run_json() {
    let report = report_of(&[fixture("sprt/games.jsonl")], ReportOptions::default());
    let text = report.text();
    assert!(text.contains("SPRT greedy vs random"), "{text}");
    snapshot(&text, "sprt/expected.txt");
}

#[test]
fn json_has_the_documented_fields_with_the_right_values() {
    let path = fixture("round-robin/games.jsonl");
    let report = report_of(std::slice::from_ref(&path), ReportOptions::default());
    let json = report.json();
    assert_eq!(json["schema_version"], 1);
    assert_eq!(json["games"], 24);
    assert_eq!(json["pairs"], 12);

    // Points and games recounted from the raw records, independently.
    let games = parse_games(&std::fs::read(&path).unwrap(), &path).games;
    let players = json["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    for p in players {
        let name = p["name"].as_str().unwrap();
        let played: Vec<f64> = games.iter().filter_map(|g| g.points_of(name)).collect();
        assert_eq!(p["games"].as_u64().unwrap(), played.len() as u64, "{name}");
        assert_eq!(
            p["points"].as_f64().unwrap(),
            played.iter().sum::<f64>(),
            "{name}"
        );
        let (elo, low, high) = (
            p["elo"].as_f64().unwrap(),
            p["elo_low"].as_f64().unwrap(),
            p["elo_high"].as_f64().unwrap(),
        );
        assert!(low < elo && elo < high, "{name}: {low} {elo} {high}");
        // The text shows the same numbers.
        assert!(
            report.text().contains(&format!("[{low:+.1}, {high:+.1}]")),
            "{name}"
        );
    }
    // Best first, centred on 0.
    let elos: Vec<f64> = players.iter().map(|p| p["elo"].as_f64().unwrap()).collect();
    assert!(elos.windows(2).all(|w| w[0] >= w[1]), "{elos:?}");
    assert!(elos.iter().sum::<f64>().abs() < 1e-6);
    assert_eq!(players[0]["name"], "greedy");
    assert_eq!(players[0]["rank"], 1);

    assert!(json["ratings"]["first_move_advantage"].is_f64());
    assert!(json["ratings"]["draw_elo"].is_f64());
    assert_eq!(json["ratings"]["status"], "ok");

    // LOS: complementary off the diagonal.
    let los = &json["los"]["matrix"];
    for i in 0..3 {
        for j in 0..3 {
            let (a, b) = (los[i][j].as_f64().unwrap(), los[j][i].as_f64().unwrap());
            assert!((a + b - 1.0).abs() < 1e-9 || i == j, "{i} {j}: {a} {b}");
        }
    }
    assert!(los[0][2].as_f64().unwrap() > 0.95);

    // Pairings: W/D/L and pentanomial recounted.
    let pairings = json["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 3);
    let gs = pairings
        .iter()
        .find(|p| p["players"] == serde_json::json!(["greedy", "slow"]))
        .unwrap();
    let between: Vec<&GameRecord> = games
        .iter()
        .filter(|g| g.points_of("greedy").is_some() && g.points_of("slow").is_some())
        .collect();
    let wins = between
        .iter()
        .filter(|g| g.points_of("greedy") == Some(1.0))
        .count();
    assert_eq!(gs["wins"].as_u64().unwrap() as usize, wins);
    assert_eq!(gs["games"], 8);
    assert_eq!(gs["pairs"], 4);
    let p = &gs["pentanomial"];
    let total: u64 = ["ll", "ld", "wl", "dd", "wd", "ww"]
        .iter()
        .map(|k| p[k].as_u64().unwrap())
        .sum();
    assert_eq!(total, 4);
    for key in ["trinomial_stats", "pentanomial_stats"] {
        let s = &gs[key];
        for field in ["score", "draw_ratio", "elo", "nelo", "los"] {
            assert!(!s[field].is_null(), "{key}.{field}");
        }
        assert!(s["elo"]["value"].is_f64() && s["elo"]["low"].is_f64());
    }
    // A perfect score is said in words, not as a number.
    let gr = pairings
        .iter()
        .find(|p| p["players"] == serde_json::json!(["greedy", "random"]))
        .unwrap();
    assert_eq!(gr["trinomial_stats"]["elo"]["special"], "+inf");
    assert!(gr["trinomial_stats"]["elo"]["value"].is_null());

    // Failures: by kind per bot, and listed with their games.
    let slow = players.iter().find(|p| p["name"] == "slow").unwrap();
    assert_eq!(slow["failures"]["time"], 1);
    assert_eq!(slow["failures"]["crash"], 1);
    let failures = json["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 2);
    assert_eq!(failures[0]["game"], "r0001-p01-g0");
    assert_eq!(failures[0]["kind"], "time");
    assert_eq!(failures[0]["termination"], "time_forfeit");
    assert!(json["sprt"].is_null());

    // The crosstable agrees with the pairings.
    let c = &json["crosstable"];
    let row = c["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p == "greedy")
        .unwrap();
    let col = c["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p == "slow")
        .unwrap();
    assert_eq!(c["cells"][row][col]["points"], gs["points"]);
    assert!(c["cells"][row][row].is_null());
}

#[test]
fn sprt_state_matches_the_statistics_crate() {
    let report = report_of(&[fixture("sprt/games.jsonl")], ReportOptions::default());
    let s = report.sprt.as_ref().expect("run.json has an sprt section");
    assert_eq!((s.test.as_str(), s.baseline.as_str()), ("greedy", "random"));
    assert_eq!(s.pairs, 12);
    assert_eq!(s.path.len(), 12);
    let sprt =
        aboure_stats::Sprt::new(0.0, 10.0, 0.05, 0.05, aboure_stats::EloModel::Normalized).unwrap();
    assert_eq!(s.llr, sprt.llr_pentanomial(&s.pentanomial));
    assert_eq!(*s.path.last().unwrap(), s.llr);
    assert!((s.upper - (0.95f64 / 0.05).ln()).abs() < 1e-12);
    assert_eq!(s.decision, "continue");
    assert_eq!(report.pairings[0].pentanomial, s.pentanomial);
    let json = report.json();
    assert_eq!(json["sprt"]["decision"], "continue");
    assert_eq!(json["sprt"]["path"].as_array().unwrap().len(), 12);
}

#[test]
fn merging_a_file_twice_counts_its_games_once_and_names_both_files() {
    let dir = std::env::temp_dir().join(format!("aboure-report-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let original = fixture("round-robin/games.jsonl");
    let copy = dir.join("copy.jsonl");
    std::fs::copy(&original, &copy).unwrap();
    let (input, _) = load(&[original.clone(), copy.clone()]).unwrap();
    assert_eq!(input.games.len(), 24);
    assert_eq!(input.warnings.len(), 1, "{:?}", input.warnings);
    let w = &input.warnings[0];
    assert!(
        w.contains("copy.jsonl") && w.contains("round-robin/games.jsonl"),
        "{w}"
    );
    assert!(w.contains("24 game ids already read"), "{w}");
    let merged = Report::from_input(&input, &ReportOptions::default());
    let single = report_of(&[original], ReportOptions::default());
    assert_eq!(merged.text(), single.text());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shards_merge_into_the_whole_run() {
    let path = fixture("round-robin/games.jsonl");
    let bytes = std::fs::read(&path).unwrap();
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    let mut input = Input::default();
    // Both games of a pair stay in the same shard, as `--shard` does.
    input.add(
        Path::new("shard1.jsonl"),
        parse_games(&lines[..10].concat(), Path::new("shard1.jsonl")),
    );
    input.add(
        Path::new("shard2.jsonl"),
        parse_games(&lines[10..].concat(), Path::new("shard2.jsonl")),
    );
    assert!(input.warnings.is_empty());
    let merged = Report::from_input(&input, &ReportOptions::default());
    let whole = report_of(&[path], ReportOptions::default());
    assert_eq!(merged.pairs, 12);
    assert_eq!(merged.json()["players"], whole.json()["players"]);
}

#[test]
fn csv_results_are_rated_and_problems_located() {
    let csv = "south,north,result\nA,B,1-0\nB,A,1/2-1/2\nA,C,0-1\nC,B,1-0\nB,C,1-0\nB,C,2-0\n";
    let mut input = Input::default();
    input.add(
        Path::new("elsewhere.csv"),
        parse_games(csv.as_bytes(), Path::new("elsewhere.csv")),
    );
    assert_eq!(input.warnings.len(), 1);
    assert!(
        input.warnings[0].starts_with("elsewhere.csv:7: malformed line"),
        "{:?}",
        input.warnings
    );
    let report = Report::from_input(&input, &ReportOptions::default());
    assert_eq!(report.games, 5);
    assert_eq!(report.pairs, 0);
    assert_eq!(report.ratings.status, RatingStatus::Ok);
    let a = report.players.iter().find(|p| p.name == "A").unwrap();
    assert_eq!((a.wins, a.draws, a.losses, a.points), (1, 1, 1, 1.5));
    assert!(report.text().contains("games outside a complete pair: 2"));
}

#[test]
fn truncated_and_malformed_lines_are_located_and_the_rest_rated() {
    let path = fixture("round-robin/games.jsonl");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.splice(0..0, b"{not json}\n".iter().copied());
    bytes.extend_from_slice(br#"{"id":"cut","pairing":["#);
    let mut input = Input::default();
    input.add(
        Path::new("damaged.jsonl"),
        parse_games(&bytes, Path::new("damaged.jsonl")),
    );
    assert_eq!(input.warnings.len(), 2, "{:?}", input.warnings);
    assert!(input.warnings[0].starts_with("damaged.jsonl:1: malformed line"));
    assert!(input.warnings[1].starts_with("damaged.jsonl:26: truncated last line"));
    assert_eq!(
        Report::from_input(&input, &ReportOptions::default()).games,
        24
    );
}

#[test]
fn anchoring_pins_the_named_bot() {
    let path = fixture("round-robin/games.jsonl");
    let free = report_of(std::slice::from_ref(&path), ReportOptions::default());
    let anchored = report_of(
        &[path],
        ReportOptions {
            anchors: vec![("random".into(), 1000.0)],
            ..Default::default()
        },
    );
    let elo = |r: &Report, n: &str| r.players.iter().find(|p| p.name == n).unwrap().elo.unwrap();
    assert!((elo(&anchored, "random") - 1000.0).abs() < 1e-9);
    let diff = |r: &Report| elo(r, "greedy") - elo(r, "random");
    assert!((diff(&free) - diff(&anchored)).abs() < 1e-6);
    assert!(anchored.text().contains("anchored at random = 1000"));
    // Two fixed anchors: both held, the third bot fitted between them.
    let two = report_of(
        &[fixture("round-robin/games.jsonl")],
        ReportOptions {
            anchors: vec![("random".into(), 1000.0), ("greedy".into(), 1400.0)],
            ..Default::default()
        },
    );
    assert!((elo(&two, "random") - 1000.0).abs() < 1e-9);
    assert!((elo(&two, "greedy") - 1400.0).abs() < 1e-9);
    let slow = two.players.iter().find(|p| p.name == "slow").unwrap();
    assert!(slow.elo_high.unwrap() > slow.elo.unwrap());
    let held = two.players.iter().find(|p| p.name == "greedy").unwrap();
    assert_eq!(
        held.elo_low, held.elo_high,
        "a fixed anchor has no uncertainty"
    );
    assert!(two
        .text()
        .contains("anchored at random = 1000, greedy = 1400"));
    let json = two.json();
    assert_eq!(json["ratings"]["anchors"][1][0], "greedy");
}

#[test]
fn game_pairs_need_swapped_colours() {
    let games = [
        paired("p0g0", ["a", "b"], 0, 0, "1-0"),
        paired("p0g1", ["a", "b"], 0, 1, "1-0"),
        paired("p1g0", ["a", "b"], 1, 0, "1/2-1/2"),
        paired("p1g1", ["a", "b"], 1, 1, "0-1"),
        // Same colours twice: not a pair.
        paired("p2g0", ["a", "b"], 2, 0, "1-0"),
        {
            let mut g = paired("p2g1", ["a", "b"], 2, 1, "1-0");
            g.south = "a".into();
            g.north = "b".into();
            g
        },
        // A pair cut short.
        paired("p3g0", ["a", "b"], 3, 0, "0-1"),
    ];
    let report = Report::build(&games, &ReportOptions::default());
    let p = &report.pairings[0];
    assert_eq!(p.pairs, 2);
    // Pair 0: a won with South, lost with North: one win one loss.
    // Pair 1: a drew, then won as North: win and draw.
    assert_eq!((p.pentanomial.wl, p.pentanomial.wd), (1, 1));
    assert_eq!(p.unpaired_games, 3);
    assert_eq!((p.wins, p.draws, p.losses), (4, 1, 2));
}

#[test]
fn forfeits_are_counted_by_kind() {
    let mut g = game("x", "a", "b", "0-1");
    g.termination = Termination::IllegalMove;
    g.loser = Some(aboure_records::SideName::South);
    g.detail = Some("bestmove 13: no such pit".into());
    let mut h = game("y", "b", "a", "1-0");
    h.termination = Termination::StartupFailure;
    h.loser = Some(aboure_records::SideName::North);
    let report = Report::build(&[g, h], &ReportOptions::default());
    let a = report.players.iter().find(|p| p.name == "a").unwrap();
    assert_eq!(
        (a.failures.illegal, a.failures.startup, a.failures.other),
        (1, 1, 0)
    );
    // One line per bot and kind, with a count and the first as an example.
    let text = report.text();
    let failures: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Failures:"))
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        failures,
        [
            "Failures: 2 games lost by forfeit, by bot and kind (the first of each as an example)",
            "  a    illegal    1 game  e.g. x illegal_move: bestmove 13: no such pit",
            "  a    startup    1 game  e.g. y startup_failure",
        ],
        "{text}"
    );
    assert_eq!(
        report.shown_games().next().unwrap().result,
        GameResult::NorthWins
    );
}

#[test]
fn no_games_is_not_an_error() {
    let report = Report::build(&[], &ReportOptions::default());
    assert_eq!(report.text(), "0 games, 0 complete game pairs, 0 bots\n");
    assert_eq!(report.json()["players"], Value::Array(vec![]));
}

#[test]
fn a_long_run_embeds_its_forfeits_and_latest_games_and_says_so() {
    let mut games: Vec<GameRecord> = (0..30)
        .map(|i| game(&format!("g{i:02}"), "a", "b", "1-0"))
        .collect();
    for i in [2, 5] {
        games[i].termination = Termination::Crash;
        games[i].loser = Some(aboure_records::SideName::North);
        games[i].result = GameResult::SouthWins;
    }
    let options = ReportOptions {
        viewer_games: Some(6),
        ..Default::default()
    };
    let report = Report::build(&games, &options);
    let ids: Vec<String> = report.shown_games().map(|g| g.id).collect();
    assert_eq!(ids, ["g02", "g05", "g26", "g27", "g28", "g29"]);
    assert_eq!(report.records_left_out, 24);
    assert_eq!(report.games, 30, "the ratings count every game");
    let html = report.html();
    assert!(html.contains("hold 6 of the 30 games"), "{html}");
    // Under the limit, everything and no note.
    let all = Report::build(&games, &ReportOptions::default());
    assert_eq!((all.records.len(), all.records_left_out), (30, 0));
    assert!(!all.html().contains("of the 30 games"));
}

#[test]
fn html_escapes_names_and_survives_no_games() {
    let evil = "</script><b>x&y\"'";
    let mut games = [game("1", "e", "b", "1-0"), game("2", "b", "e", "1/2-1/2")];
    for g in &mut games {
        let [p0, p1] = &mut g.pairing;
        for name in [&mut g.south, &mut g.north, p0, p1] {
            if name == "e" {
                *name = evil.to_owned();
            }
        }
    }
    let report = Report::build(&games, &ReportOptions::default());
    let html = report.html();
    assert!(
        !html.contains("</script><b>"),
        "a name broke out of the page"
    );
    assert!(html.contains("&lt;/script&gt;&lt;b&gt;x&amp;y&quot;&#39;"));
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "the data and the script"
    );
    let empty = Report::build(&[], &ReportOptions::default()).html();
    assert!(empty.contains("0 games, 0 complete game pairs, 0 bots"));
}

#[test]
fn the_report_and_the_run_count_the_same_standings() {
    let mut crash = game("c", "b", "a", "1-0");
    crash.termination = Termination::Crash;
    crash.loser = Some(aboure_records::SideName::North);
    let games = vec![
        game("w", "a", "b", "1-0"),
        game("d", "b", "a", "1/2-1/2"),
        crash,
        game("x", "c", "b", "0-1"),
    ];
    let report = Report::build(&games, &ReportOptions::default());
    // The table `aboure run` prints, from the same games.
    let mut tally = aboure_records::Tally::new(["a", "b", "c"]);
    games.iter().for_each(|g| tally.add(g));
    let run_table = tally.standings();
    assert_eq!(report.players.len(), run_table.len());
    for s in &run_table {
        let p = report.players.iter().find(|p| p.name == s.name).unwrap();
        assert_eq!(
            (p.games, p.wins, p.draws, p.losses, p.points),
            (s.games(), s.wdl.wins, s.wdl.draws, s.wdl.losses, s.points()),
            "{}",
            s.name
        );
        assert_eq!(p.failures.total(), s.failure_count(), "{}", s.name);
    }
    let a = report.players.iter().find(|p| p.name == "a").unwrap();
    assert_eq!((a.wins, a.draws, a.losses, a.failures.crash), (1, 1, 1, 1));
}

#[test]
fn a_truncated_sprt_is_decided_at_its_cap_with_the_elo_corrected_for_the_stop() {
    let sprt = aboure_stats::Sprt::new(0.0, 10.0, 0.05, 0.05, aboure_stats::EloModel::Normalized)
        .unwrap()
        .truncated(10)
        .unwrap();
    let options = ReportOptions {
        sprt: Some(SprtSettings {
            sprt,
            pairing: ["greedy".into(), "random".into()],
        }),
        ..Default::default()
    };
    let report = report_of(&[fixture("sprt/games.jsonl")], options);
    let s = report.sprt.as_ref().unwrap();
    assert_eq!((s.pairs, s.truncated, s.max_pairs), (10, true, Some(10)));
    let expected = if s.llr > 0.0 {
        "accept_h1"
    } else {
        "accept_h0"
    };
    assert_eq!((s.decision, s.overrun), (expected, 2));
    let elo = s.elo.expect("a decided test has its Elo");
    assert_eq!(Some(elo.naive), s.pentanomial.head_to_head().nelo.value());
    assert!(
        elo.corrected.is_finite() && elo.corrected != elo.naive,
        "{elo:?}"
    );
    let text = report.text();
    assert!(
        text.contains("truncated test: cap of 10 pairs reached: decided by the sign of the LLR"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "normalized Elo at the stop: {:.2} as counted, {:.2} corrected for the stopping rule",
            elo.naive, elo.corrected
        )),
        "{text}"
    );
    let json = report.json();
    assert_eq!(json["sprt"]["truncated"], true);
    assert_eq!(json["sprt"]["elo"]["corrected"], elo.corrected);
    assert!(report.html().contains("corrected for the stopping rule"));
}
