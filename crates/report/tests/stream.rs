//! The streaming path (`read_files` into a `ReportTally`) against the
//! in-memory one (`load` then `Report::from_input`): the same files give
//! the same report, byte for byte, and the bounds say what they left out.

use std::path::{Path, PathBuf};

use aboure_records::{read_games, GameSummary};
use aboure_report::{load, read_files, AccuracyOptions, Report, ReportOptions, ReportTally};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aboure-stream-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn in_memory(files: &[PathBuf], options: &ReportOptions) -> Report {
    let (input, sprt) = load(files).unwrap();
    Report::from_input(
        &input,
        &ReportOptions {
            sprt,
            ..options.clone()
        },
    )
}

fn streamed(files: &[PathBuf], options: &ReportOptions, threads: usize) -> Report {
    let options = ReportOptions {
        sprt: aboure_report::sprt_of(files).unwrap(),
        ..options.clone()
    };
    let mut tally = ReportTally::new(options);
    read_files(&mut tally, files, threads, &mut |_| {}).unwrap();
    tally.finish()
}

fn assert_same(files: &[PathBuf], options: &ReportOptions) {
    let expected = in_memory(files, options);
    for threads in [1, 3] {
        let got = streamed(files, options, threads);
        assert_eq!(got.text(), expected.text(), "{files:?}, {threads} threads");
        assert_eq!(got.json_text(), expected.json_text(), "{files:?}");
        assert_eq!(got.html(), expected.html(), "{files:?}");
    }
}

#[test]
fn streaming_gives_the_in_memory_report() {
    let options = ReportOptions::default();
    assert_same(&[fixture("round-robin/games.jsonl")], &options);
    assert_same(&[fixture("sprt/games.jsonl")], &options);
}

#[test]
fn damaged_lines_and_duplicate_files_are_reported_alike() {
    let dir = scratch("damaged");
    let mut bytes = std::fs::read(fixture("round-robin/games.jsonl")).unwrap();
    bytes.splice(0..0, b"{not json}\n\n".iter().copied());
    bytes.extend_from_slice(br#"{"id":"cut","pairing":["#);
    let damaged = dir.join("damaged.jsonl");
    std::fs::write(&damaged, &bytes).unwrap();
    let files = [fixture("round-robin/games.jsonl"), damaged.clone()];
    assert_same(&files, &ReportOptions::default());
    let report = streamed(&files, &ReportOptions::default(), 2);
    assert_eq!(report.games, 24);
    let warnings = report.warnings.join("\n");
    assert!(
        warnings.contains("damaged.jsonl:1: malformed line"),
        "{warnings}"
    );
    assert!(
        warnings.contains("damaged.jsonl:27: truncated last line"),
        "{warnings}"
    );
    assert!(
        warnings.contains("24 game ids already read from"),
        "{warnings}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_snapshot_counts_the_games_pushed_so_far() {
    let path = fixture("round-robin/games.jsonl");
    let bytes = std::fs::read(&path).unwrap();
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let mut tally = ReportTally::new(ReportOptions::default());
    tally.begin_file(&path);
    for line in &lines[..10] {
        tally.push(&GameSummary::from_line(line).unwrap(), line);
    }
    let early = tally.report();
    assert_eq!((early.games, early.pairs), (10, 5));
    for line in &lines[10..] {
        tally.push(&GameSummary::from_line(line).unwrap(), line);
    }
    let late = tally.report();
    let whole = in_memory(&[path], &ReportOptions::default());
    assert_eq!(late.text(), whole.text());
    assert_eq!(tally.finish().json_text(), whole.json_text());
}

#[test]
fn per_game_accuracy_is_bounded_and_all_of_it_can_be_streamed() {
    let path = fixture("round-robin/games.jsonl");
    let games = read_games(&path).unwrap().games;
    let options = ReportOptions {
        accuracy: Some(AccuracyOptions {
            games: 5,
            threads: 2,
            ..AccuracyOptions::default()
        }),
        viewer_games: Some(0),
        ..ReportOptions::default()
    };
    let dir = scratch("accuracy");
    let all = dir.join("all.jsonl");
    let mut tally = ReportTally::new(options);
    tally.write_all_analyses_to(std::fs::File::create(&all).unwrap());
    read_files(&mut tally, std::slice::from_ref(&path), 1, &mut |_| {}).unwrap();
    let (report, error) = tally.finish_with_stream();
    assert!(error.is_none());
    let a = report.accuracy.as_ref().unwrap();
    assert_eq!(a.analysed_games, 24);
    // The two forfeits, then the three most recent other games, in file order.
    let kept: Vec<&str> = a.games.iter().map(|g| g.game.as_str()).collect();
    let forfeits: Vec<usize> = (0..24)
        .filter(|&i| games[i].termination.is_forfeit())
        .collect();
    assert_eq!(forfeits.len(), 2);
    let recent = (0..24).rev().filter(|i| !forfeits.contains(i)).take(3);
    let mut expected: Vec<usize> = forfeits.iter().copied().chain(recent).collect();
    expected.sort();
    let expected: Vec<&str> = expected.iter().map(|&i| games[i].id.as_str()).collect();
    assert_eq!(kept, expected);
    assert_eq!(a.games_left_out, 19);
    assert_eq!(report.json()["accuracy"]["games_left_out"], 19);
    // The stream holds every game, the same per-move figures.
    let text = std::fs::read_to_string(&all).unwrap();
    let streamed: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(streamed.len(), 24);
    for g in &a.games {
        let same = streamed
            .iter()
            .find(|s| s["game"] == g.game.as_str())
            .unwrap();
        assert_eq!(*same, serde_json::to_value(g).unwrap());
    }
    // Below the bound, the JSON has no such key.
    let full = Report::build(
        &games,
        &ReportOptions {
            accuracy: Some(AccuracyOptions::default()),
            ..ReportOptions::default()
        },
    );
    assert!(full.json()["accuracy"].get("games_left_out").is_none());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn games_left_off_the_page_are_all_counted() {
    let path = fixture("round-robin/games.jsonl");
    for (most, shown) in [(0, 0), (1, 1), (30, 24)] {
        let options = ReportOptions {
            viewer_games: Some(most),
            ..ReportOptions::default()
        };
        let report = streamed(std::slice::from_ref(&path), &options, 1);
        assert_eq!(report.records.len(), shown, "most {most}");
        assert_eq!(report.records_left_out, 24 - shown as u64, "most {most}");
    }
    // With room for one, the first forfeit.
    let one = streamed(
        std::slice::from_ref(&path),
        &ReportOptions {
            viewer_games: Some(1),
            ..ReportOptions::default()
        },
        1,
    );
    assert_eq!(one.shown_games().next().unwrap().id, "r0001-p01-g0");
}

#[test]
fn the_json_s_per_game_accuracy_is_bounded_whatever_the_page_shows() {
    let path = fixture("round-robin/games.jsonl");
    let report = |viewer_games| {
        let options = ReportOptions {
            accuracy: Some(AccuracyOptions {
                games: 5,
                threads: 2,
                ..AccuracyOptions::default()
            }),
            viewer_games: Some(viewer_games),
            ..ReportOptions::default()
        };
        streamed(std::slice::from_ref(&path), &options, 1)
    };
    let (alone, with_page) = (report(0), report(12));
    // One report makes all three formats: a page of 12 games does not
    // widen the JSON's five.
    // (The solver's node count varies with how the threads share a table.)
    let section = |r: &Report| {
        let mut a = r.json()["accuracy"].clone();
        a.as_object_mut().unwrap().remove("nodes");
        a
    };
    assert_eq!(
        section(&alone),
        section(&with_page),
        "the JSON's accuracy section"
    );
    assert_eq!(
        with_page.json()["accuracy"]["games"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    assert_eq!(with_page.json()["accuracy"]["games_left_out"], 19);
    // The page still has the per-move accuracy of each game it shows.
    let a = with_page.accuracy.as_ref().unwrap();
    assert_eq!(with_page.records.len(), 12);
    for game in with_page.shown_games() {
        assert!(a.game(&game.id).is_some(), "{}", game.id);
    }
}

#[test]
fn a_left_over_record_read_first_is_read_again_out_of_the_report_and_its_stream() {
    let games = std::fs::read_to_string(fixture("round-robin/games.jsonl")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    let dir = scratch("left-over");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, lines: &[&str]| {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(dir.join(name), text).unwrap();
    };
    write("games-1-of-2.jsonl", &lines[..12]);
    write("games-2-of-2.jsonl", &lines[12..]);
    let options = ReportOptions {
        accuracy: Some(AccuracyOptions {
            threads: 2,
            ..AccuracyOptions::default()
        }),
        ..ReportOptions::default()
    };
    let folder = [dir.clone()];
    let mut expected = streamed(&folder, &options, 2).json();
    // A game of 2-of-2, marked as its, left over in 1-of-2 (read first)
    // with its result turned round.
    let marked = lines[12..]
        .iter()
        .find(|l| l.contains("\"result\":\"1-0\""))
        .unwrap();
    let id = serde_json::from_str::<serde_json::Value>(marked).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let marks = aboure_records::mark::marks_dir(&dir);
    std::fs::create_dir_all(&marks).unwrap();
    let mark = aboure_records::mark::mark_text("games-2-of-2.jsonl");
    std::fs::write(marks.join(&id), mark).unwrap();
    let mut first: Vec<String> = lines[..12].iter().map(|l| l.to_string()).collect();
    first.push(marked.replacen("\"result\":\"1-0\"", "\"result\":\"0-1\"", 1));
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    write("games-1-of-2.jsonl", &first);

    let all = dir.join("all.jsonl");
    let mut tally = ReportTally::new(options.clone());
    tally.write_all_analyses_to(std::fs::File::create(&all).unwrap());
    read_files(&mut tally, &folder, 2, &mut |_| {}).unwrap();
    let (report, error) = tally.finish_with_stream();
    assert!(error.is_none());
    let mut got = report.json();
    let warnings = got["warnings"].take();
    expected["warnings"].take();
    // Nodes searched depend on which solver thread took which game.
    got["accuracy"]["nodes"].take();
    expected["accuracy"]["nodes"].take();
    assert_eq!(got, expected, "as without the left-over");
    assert!(warnings.to_string().contains(&id), "{warnings}");
    // The in-memory path agrees.
    let (input, _) = load(&folder).unwrap();
    assert_eq!(input.games.len(), 24);
    let kept = input.games.iter().find(|g| g.id == id).unwrap();
    assert_eq!(format!("{:?}", kept.result), "SouthWins");
    // The stream, written again from its start, holds each game once.
    let text = std::fs::read_to_string(&all).unwrap();
    let mut ids: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["game"].to_string())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!((text.lines().count(), ids.len()), (24, 24));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_tally_started_over_writes_its_stream_of_analyses_again_from_its_start() {
    let path = fixture("round-robin/games.jsonl");
    let options = ReportOptions {
        accuracy: Some(AccuracyOptions {
            threads: 2,
            ..AccuracyOptions::default()
        }),
        ..ReportOptions::default()
    };
    let dir = scratch("restart");
    let all = dir.join("all.jsonl");
    let files = [path];
    let mut tally = ReportTally::new(options);
    tally.write_all_analyses_to(std::fs::File::create(&all).unwrap());
    read_files(&mut tally, &files, 1, &mut |_| {}).unwrap();
    // Every game's analysis written to the stream before it starts over.
    let t0 = std::time::Instant::now();
    while tally.analysed() != Some(24) {
        assert!(t0.elapsed().as_secs() < 60, "{:?}", tally.analysed());
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    tally.restart();
    assert_eq!(tally.games(), 0);
    read_files(&mut tally, &files, 1, &mut |_| {}).unwrap();
    let (report, error) = tally.finish_with_stream();
    assert!(error.is_none());
    assert_eq!(report.games, 24);
    let text = std::fs::read_to_string(&all).unwrap();
    assert_eq!(text.lines().count(), 24, "each game once");
    std::fs::remove_dir_all(&dir).ok();
}
