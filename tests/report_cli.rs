//! `aboure report` end to end: text, JSON, CSV and PGN input, merged files
//! with a duplicate, and errors.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    crate::harness::report_fixture(name)
}

/// `aboure report ARGS`: whether it succeeded, its stdout and stderr.
pub(crate) fn aboure(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_aboure"))
        .arg("report")
        .args(args)
        .output()
        .expect("run aboure");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn text_report_is_the_snapshot() {
    let games = fixture("round-robin/games.jsonl");
    let (ok, stdout, stderr) = aboure(&["--no-accuracy", games.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let expected = std::fs::read_to_string(fixture("round-robin/expected.txt")).unwrap();
    assert_eq!(stdout, expected);
}

#[test]
fn json_report_parses_and_merging_warns_about_duplicates() {
    let games = fixture("round-robin/games.jsonl");
    let games = games.to_str().unwrap();
    let (ok, stdout, stderr) = aboure(&["--format", "json", "--no-accuracy", games, games]);
    assert!(ok, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["games"], 24);
    assert_eq!(json["players"][0]["name"], "greedy");
    assert!(
        stderr.contains("warning:") && stderr.contains("24 game ids already read from"),
        "{stderr}"
    );
}

#[test]
fn csv_results_and_anchor() {
    let dir = std::env::temp_dir().join(format!("aboure-report-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("results.csv");
    std::fs::write(
        &csv,
        "south,north,result\nA,B,1-0\nB,A,1/2-1/2\nA,C,0-1\nC,B,1-0\nB,C,1-0\n",
    )
    .unwrap();
    let (ok, stdout, stderr) = aboure(&["--anchor", "B=1500", csv.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("anchored at B = 1500"), "{stdout}");
    let (ok, stdout, stderr) = aboure(&[
        "--anchor",
        "B=1500",
        "--anchor",
        "A=1400",
        csv.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("anchored at B = 1500, A = 1400"),
        "{stdout}"
    );
    let (ok, _, stderr) = aboure(&["--anchor", "nobody=0", csv.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("--anchor nobody"), "{stderr}");
    let (ok, _, stderr) = aboure(&[dir.join("missing.jsonl").to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("missing.jsonl"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn loose_anchors_and_bootstrap_intervals_on_the_command_line() {
    let games = fixture("round-robin/games.jsonl");
    let games = games.to_str().unwrap();
    let json_of = |args: &[&str]| {
        let mut all = vec!["--no-accuracy", "--format", "json", games];
        all.extend_from_slice(args);
        let (ok, stdout, stderr) = aboure(&all);
        assert!(ok, "{args:?}: {stderr}");
        serde_json::from_str::<serde_json::Value>(&stdout).unwrap()
    };
    for anchor in ["greedy=100+-50", "greedy=100±50"] {
        let json = json_of(&["--anchor", anchor]);
        assert_eq!(
            json["ratings"]["loose_anchors"],
            serde_json::json!([["greedy", 100.0, 50.0]])
        );
        assert_eq!(json["ratings"]["status"], "ok", "{json}");
    }
    let (ok, stdout, _) = aboure(&[
        "--no-accuracy",
        "--anchor",
        "random=0",
        "--anchor",
        "greedy=100+-50",
        games,
    ]);
    assert!(ok);
    assert!(
        stdout.contains("anchored at random = 0, greedy = 100 +/- 50 (loose)"),
        "{stdout}"
    );
    for (args, error) in [
        (&["--anchor", "greedy=100+-0"][..], "must be positive"),
        (&["--anchor", "greedy=100+-x"][..], "is not a number"),
        (
            &["--anchor", "greedy=100+-50", "--intervals", "likelihood"][..],
            "does not take loose anchors",
        ),
        (
            &["--intervals", "bootstrap", "--bootstrap-samples", "0"][..],
            "0",
        ),
    ] {
        let mut all = vec!["--no-accuracy", games];
        all.extend_from_slice(args);
        let (ok, _, stderr) = aboure(&all);
        assert!(!ok && stderr.contains(error), "{args:?}: {stderr}");
    }
    let boot = [
        "--intervals",
        "bootstrap",
        "--bootstrap-samples",
        "50",
        "--seed",
        "3",
    ];
    let json = json_of(&boot);
    assert_eq!(json["ratings"]["intervals"], "bootstrap");
    assert_eq!(
        json["ratings"]["bootstrap"],
        serde_json::json!({"samples": 50, "seed": 3})
    );
    assert_eq!(json, json_of(&boot), "the same seed, the same intervals");
}

/// The ratings of a JSON report, by bot.
fn elos(json: &str) -> Vec<(String, f64)> {
    let json: serde_json::Value = serde_json::from_str(json).unwrap();
    json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["elo"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The same games as JSON lines, as a cutechess-style PGN (move text,
/// comments, every tag a harness writes) and as CSV with quotes, a header
/// in another order, counts and comments rate the same.
#[test]
fn pgn_and_csv_rate_as_the_same_games_in_json_lines() {
    let games = fixture("round-robin/games.jsonl");
    let (ok, from_jsonl, stderr) =
        aboure(&["--format", "json", "--no-accuracy", games.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let pgn = fixture("pgn/round-robin.pgn");
    let (ok, from_pgn, stderr) =
        aboure(&["--format", "json", "--no-accuracy", pgn.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("1 unfinished game (result *) not counted"),
        "{stderr}"
    );
    let parsed: serde_json::Value = serde_json::from_str(&from_pgn).unwrap();
    assert_eq!(parsed["games"], 24);
    let (jsonl, pgn) = (elos(&from_jsonl), elos(&from_pgn));
    assert_eq!(jsonl.len(), 3);
    for ((a, x), (b, y)) in jsonl.iter().zip(&pgn) {
        assert_eq!(a, b);
        assert!(
            (x - y).abs() < 1e-6,
            "{a}: {x} from JSON lines, {y} from PGN"
        );
    }

    // The same results as CSV: one row per game, or one per kind of game
    // with its count; names quoted, a comma inside one.
    let all: Vec<serde_json::Value> = std::fs::read_to_string(&games)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let name = |n: &serde_json::Value| format!("\"{}, the bot\"", n.as_str().unwrap());
    let mut counted: Vec<(String, usize)> = Vec::new();
    for g in &all {
        let row = format!(
            "{},{},{}",
            g["result"].as_str().unwrap(),
            name(&g["north"]),
            name(&g["south"])
        );
        match counted.iter_mut().find(|(r, _)| *r == row) {
            Some((_, n)) => *n += 1,
            None => counted.push((row, 1)),
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("results.txt");
    let mut text = "# exported elsewhere\n\nResult, Black, White, Games\n".to_owned();
    for (row, n) in &counted {
        text.push_str(&format!("{row},{n}\r\n"));
    }
    std::fs::write(&csv, text).unwrap();
    let (ok, from_csv, stderr) =
        aboure(&["--format", "json", "--no-accuracy", csv.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert!(
        counted.len() < all.len(),
        "some rows stand for several games"
    );
    let csv = elos(&from_csv);
    for ((a, x), (b, y)) in jsonl.iter().zip(&csv) {
        assert_eq!(&format!("{a}, the bot"), b);
        assert!(
            (x - y).abs() < 1e-6,
            "{a}: {x} from JSON lines, {y} from CSV"
        );
    }
}

/// A file of no known format fails naming the formats; a file of mostly
/// malformed lines fails saying how many; a few malformed lines are
/// warnings with their line.
#[test]
fn unknown_and_mostly_malformed_files_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "\nthe games of Tuesday\n").unwrap();
    let (ok, stdout, stderr) = aboure(&["--no-accuracy", notes.to_str().unwrap()]);
    assert!(!ok && stdout.is_empty(), "{stdout}");
    let expected = format!(
        "{}:2: not a results file: expected JSON lines (games.jsonl, a line starting with {{), \
         CSV with a header row (south,north,result or white,black,result) or PGN",
        notes.display()
    );
    assert!(
        stderr.contains(&expected),
        "expected {expected:?} in: {stderr}"
    );

    let pgn = dir.path().join("broken.pgn");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
         [White \"a\"]\n[Result \"1-0\"]\n\n[Black \"b\"]\n[Result \"0-1\"]\n",
    )
    .unwrap();
    let (ok, stdout, stderr) = aboure(&["--no-accuracy", pgn.to_str().unwrap()]);
    assert!(!ok && stdout.is_empty(), "{stdout}");
    let expected = format!(
        "{}: 2 malformed lines against 1 game read: not a results file aboure can rate \
         (the first: {}:5: malformed line: game without its Black tag)",
        pgn.display(),
        pgn.display()
    );
    assert!(
        stderr.contains(&expected),
        "expected {expected:?} in: {stderr}"
    );

    let csv = dir.path().join("mostly-good.csv");
    std::fs::write(&csv, "white,black,result\na,b,1-0\nb,a,1-0\na,b,win\n").unwrap();
    let (ok, stdout, stderr) = aboure(&["--no-accuracy", csv.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(stdout.starts_with("2 games"), "{stdout}");
    let expected = format!(
        "warning: {}:4: malformed line: result \"win\" is not 1-0, 0-1 or 1/2-1/2",
        csv.display()
    );
    assert!(
        stderr.contains(&expected),
        "expected {expected:?} in: {stderr}"
    );
}

/// Spawns its arguments, waits with `wait4` and prints the child's peak
/// resident memory in kilobytes (or -1 if it failed). A child's peak counts
/// the pages of the process that spawned it, so the measuring parent must
/// be small and the same for every measure: this test binary is neither.
const PEAK: &str = "import os, sys\n\
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ,\n\
    file_actions=[(os.POSIX_SPAWN_OPEN, 1, '/dev/null', os.O_WRONLY, 0)])\n\
_, status, usage = os.wait4(pid, 0)\n\
print(usage.ru_maxrss if os.waitstatus_to_exitcode(status) == 0 else -1)\n";

/// `aboure report --no-accuracy` of `file`: its peak resident memory in MB.
fn peak_mb(file: &std::path::Path) -> f64 {
    let out = Command::new("python3")
        .args(["-c", PEAK, env!("CARGO_BIN_EXE_aboure")])
        .args(["report", "--no-accuracy", "--format", "json"])
        .arg(file)
        .output()
        .expect("python3 runs (apt-get install python3)");
    let text = String::from_utf8_lossy(&out.stdout);
    let kb: f64 = text.trim().parse().unwrap_or(-1.0);
    assert!(kb > 0.0, "aboure report {} failed: {text}", file.display());
    kb / 1024.0
}

/// CSV rows and PGN games take no memory of their own: ten times the
/// games, the same peak (within allocator noise; a kilobyte a game, as
/// before the streamed readers, would be 90 MB more).
#[test]
fn csv_and_pgn_stream_in_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    let players = ["Engine A", "Engine B", "Engine C", "Engine D"];
    let mut peaks = Vec::new();
    for games in [10_000usize, 100_000] {
        let (csv_file, pgn_file) = (
            dir.path().join(format!("{games}.csv")),
            dir.path().join(format!("{games}.pgn")),
        );
        let create =
            |p: &std::path::Path| std::io::BufWriter::new(std::fs::File::create(p).unwrap());
        let (mut csv, mut pgn) = (create(&csv_file), create(&pgn_file));
        writeln!(csv, "black,white,result").unwrap();
        for n in 0..games {
            let (w, b) = (players[n % 4], players[(n / 4 + 1 + n % 4) % 4]);
            let (w, b) = if w == b {
                (w, players[(n + 2) % 4])
            } else {
                (w, b)
            };
            let result = ["1-0", "0-1", "1/2-1/2", "1-0"][n % 7 % 4];
            writeln!(csv, "\"{b}\",\"{w}\",{result}").unwrap();
            write!(
                pgn,
                "[Event \"?\"]\n[Round \"{n}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{result}\"]\n\n{result}\n\n"
            )
            .unwrap();
        }
        csv.flush().unwrap();
        pgn.flush().unwrap();
        drop((csv, pgn));
        peaks.push((games, peak_mb(&csv_file), peak_mb(&pgn_file)));
    }
    let [(_, csv_small, pgn_small), (_, csv_large, pgn_large)] = peaks[..] else {
        unreachable!()
    };
    eprintln!("peak MB by games (CSV, PGN): {peaks:?}");
    assert!(csv_large - csv_small < 3.0, "CSV peaks: {peaks:?}");
    assert!(pgn_large - pgn_small < 3.0, "PGN peaks: {peaks:?}");
    assert!(csv_large < 32.0 && pgn_large < 32.0, "peaks: {peaks:?}");
}

#[test]
fn sprt_state_from_run_json() {
    // The run's folder stands for its games.jsonl.
    let folder = fixture("sprt");
    let (ok, stdout, stderr) = aboure(&["--no-accuracy", folder.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("LLR 0.050 in [-2.944, 2.944] after 12 pairs: continue"),
        "{stdout}"
    );
}

#[test]
fn accuracy_of_every_game_can_be_written_as_a_stream() {
    let games = fixture("round-robin/games.jsonl");
    let out = std::env::temp_dir().join(format!("aboure-acc-out-{}.jsonl", std::process::id()));
    let (ok, stdout, stderr) = aboure(&[
        "--format",
        "json",
        "--accuracy-games",
        "3",
        "--accuracy-games-out",
        out.to_str().unwrap(),
        games.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["accuracy"]["games"].as_array().unwrap().len(), 3);
    assert_eq!(json["accuracy"]["games_left_out"], 21);
    let all = std::fs::read_to_string(&out).unwrap();
    assert_eq!(all.lines().count(), 24);
    std::fs::remove_file(&out).ok();
}

/// `aboure bench report` writes the same synthetic file every time:
/// complete pairs of legal games, a few forfeits. (Its timings are
/// figures for the README, not assertions.)
#[test]
fn the_benchmark_file_is_deterministic_and_realistic() {
    let dir = std::env::temp_dir().join(format!("aboure-bench-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut written = Vec::new();
    for name in ["a.jsonl", "b.jsonl"] {
        let path = dir.join(name);
        let out = Command::new(env!("CARGO_BIN_EXE_aboure"))
            .args(["bench", "report", "--games", "800", "--file"])
            .arg(&path)
            .output()
            .expect("run aboure");
        assert!(
            out.status.success(),
            "{} (the baseline needs python3: apt-get install python3)",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("python's speed"), "{stdout}");
        // The rating comparison: each format measured, the fit close to the
        // true first-move advantage and draw parameter (30 and 62.4; 800
        // games leave a few Elo of noise), beside the labelled published figures.
        for format in ["JSON lines", "CSV", "PGN"] {
            let row = stdout
                .lines()
                .find(|l| l.starts_with(format))
                .unwrap_or_else(|| panic!("no {format} row in {stdout}"));
            let draw: f64 = row.rsplit(' ').next().unwrap().parse().unwrap();
            assert!((40.0..85.0).contains(&draw), "{row}");
        }
        assert!(
            stdout.contains("(published figures for 1,000,000 games, not run here)"),
            "{stdout}"
        );
        written.push(std::fs::read(&path).unwrap());
    }
    assert_eq!(written[0], written[1]);
    let (ok, stdout, stderr) = aboure(&[
        "--format",
        "json",
        "--no-accuracy",
        dir.join("a.jsonl").to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["games"], 800);
    assert_eq!(json["pairs"], 400);
    assert_eq!(json["players"].as_array().unwrap().len(), 5);
    let forfeits = json["failures"].as_array().unwrap().len();
    assert!((1..10).contains(&forfeits), "{forfeits} forfeits");
    // Stronger bots score more: the synthetic games are not noise.
    assert_eq!(json["players"][4]["name"], "random");
    // Every move replays with the engine.
    let games = legal_games(&written[0]);
    assert_eq!(games, 800);
    std::fs::remove_dir_all(&dir).ok();
}

/// The games of a results file whose moves all replay legally.
fn legal_games(bytes: &[u8]) -> usize {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .filter(|l| {
            let g: serde_json::Value = serde_json::from_slice(l).unwrap();
            let mut pos = aboure_engine::Position::startpos();
            g["moves"].as_array().unwrap().iter().all(|m| {
                m.as_str()
                    .and_then(|m| m.parse().ok())
                    .is_some_and(|m| pos.play(m).is_ok())
            })
        })
        .count()
}

/// A folder whose `run.json` records the sandbox layers shows them in every
/// format; one whose `run.json` does not shows no sandbox at all. Both are
/// `run.json` files as aboure wrote them before the manifest had a schema
/// version.
#[test]
fn sandbox_layers_from_run_json() {
    let base = std::env::temp_dir().join(format!("aboure-report-sandbox-{}", std::process::id()));
    let with = base.join("with");
    let without = base.join("without");
    for dir in [&with, &without] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::copy(fixture("round-robin/games.jsonl"), dir.join("games.jsonl")).unwrap();
    }
    let sandbox = serde_json::json!({
        "mode": "auto",
        "layers": [
            {"name": "namespaces", "active": true, "detail": "user, pid, net, mount"},
            {"name": "landlock", "active": true, "detail": "ABI 4: files and TCP"},
            {"name": "cgroup-memory", "active": false, "detail": "no cgroup v1 memory controller"}
        ]
    });
    let unversioned = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("crates/records/tests/fixtures/run-json-unversioned/round-robin.json");
    let mut run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&unversioned).unwrap()).unwrap();
    assert!(run.get("schema").is_none());
    run.as_object_mut().unwrap().remove("sandbox");
    std::fs::write(without.join("run.json"), run.to_string()).unwrap();
    run["sandbox"] = sandbox.clone();
    std::fs::write(with.join("run.json"), run.to_string()).unwrap();
    let line = "Sandbox: mode auto; on: namespaces, landlock; \
                off: cgroup-memory (no cgroup v1 memory controller)";

    let dir = with.to_str().unwrap();
    let (ok, text, stderr) = aboure(&["--no-accuracy", dir]);
    assert!(ok, "{stderr}");
    assert!(text.lines().any(|l| l == line), "{text}");
    let (ok, json, stderr) = aboure(&["--format", "json", "--no-accuracy", dir]);
    assert!(ok, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["sandbox"], sandbox);
    let (ok, html, stderr) = aboure(&["--format", "html", "--no-accuracy", dir]);
    assert!(ok, "{stderr}");
    assert!(
        html.contains("<section id=\"sandbox\"><h2>Sandbox</h2>"),
        "no section"
    );
    assert!(html.contains("off: cgroup-memory (no cgroup v1 memory controller)"));

    let dir = without.to_str().unwrap();
    let (ok, text, stderr) = aboure(&["--no-accuracy", dir]);
    assert!(ok, "{stderr}");
    assert!(!text.contains("Sandbox"), "{text}");
    let (ok, json, stderr) = aboure(&["--format", "json", "--no-accuracy", dir]);
    assert!(ok, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(json.get("sandbox").is_none(), "{json}");
    let (ok, html, stderr) = aboure(&["--format", "html", "--no-accuracy", dir]);
    assert!(ok, "{stderr}");
    assert!(!html.contains("id=\"sandbox\""));
    std::fs::remove_dir_all(&base).unwrap();
}

/// A `run.json` of a newer schema, or one that is not a run manifest, stops
/// the report with a message naming the file, instead of a report that
/// silently leaves the SPRT or the sandbox out.
#[test]
fn a_run_json_it_cannot_read_is_refused_naming_the_file() {
    let base = std::env::temp_dir().join(format!("aboure-report-manifest-{}", std::process::id()));
    std::fs::create_dir_all(&base).unwrap();
    std::fs::copy(fixture("round-robin/games.jsonl"), base.join("games.jsonl")).unwrap();
    let run_json = base.join("run.json");
    let dir = base.to_str().unwrap();
    std::fs::write(&run_json, r#"{"schema": 2, "what": "later"}"#).unwrap();
    let (ok, _, stderr) = aboure(&["--no-accuracy", dir]);
    assert!(!ok);
    let newer = format!(
        "{}: schema version 2 is newer than this aboure reads (1)",
        run_json.display()
    );
    assert!(stderr.contains(&newer), "expected {newer:?} in: {stderr}");
    std::fs::write(&run_json, r#"{"format": "round-robin"}"#).unwrap();
    let (ok, _, stderr) = aboure(&["--no-accuracy", dir]);
    assert!(!ok);
    let malformed = format!("{}: not a run manifest: missing field", run_json.display());
    assert!(
        stderr.contains(&malformed),
        "expected {malformed:?} in: {stderr}"
    );
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn names_with_terminal_escapes_are_printed_as_escapes() {
    let dir = std::env::temp_dir().join(format!("aboure-report-esc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("results.csv");
    // A name that would clear the screen and retitle the window, and one
    // that reverses the rest of its line.
    let evil = "evil\u{1b}[2J\u{1b}]0;owned\u{7}";
    let bidi = "rev\u{202e}sed";
    let rows: String = (0..4)
        .map(|_| format!("{evil},{bidi},1-0\n{bidi},{evil},1/2-1/2\n"))
        .collect();
    std::fs::write(&csv, format!("south,north,result\n{rows}")).unwrap();
    let (ok, stdout, stderr) = aboure(&["--no-accuracy", csv.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(
        !stdout.contains(['\u{1b}', '\u{7}', '\u{202e}']),
        "raw control characters: {stdout:?}"
    );
    assert!(
        stdout.contains("evil\\u{1b}[2J\\u{1b}]0;owned\\u{7}"),
        "{stdout}"
    );
    assert!(stdout.contains("rev\\u{202e}sed"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}
