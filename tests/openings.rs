//! End-to-end tests of `aboure openings`: the book it writes is confirmed
//! position by position by `aboure solve`, a tournament plays from it, and
//! the report's openings section is on the live page too (in Chromium, as
//! the other page tests).

use crate::harness::*;

use aboure_engine::Position;

/// The book's openings: each line's position and the value in its comment.
fn book_lines(text: &str) -> Vec<(Position, i32)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (position, comment) = l.split_once('#').expect("a comment after the position");
            let value = comment
                .split_whitespace()
                .skip_while(|w| *w != "value")
                .nth(1)
                .expect("a value in the comment");
            (position.trim().parse().unwrap(), value.parse().unwrap())
        })
        .collect()
}

#[test]
fn a_book_holds_distinct_positions_whose_values_aboure_solve_confirms() {
    let dir = folder("openings-book");
    let book = dir.join("book.txt");
    let o = aboure(&[
        "openings",
        "--count",
        "12",
        "--value=-3..3",
        "--plies",
        "4",
        "--seed",
        "5",
        "--out",
        book.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("wrote 12 openings"),
        "{}",
        show(&o)
    );
    let lines = book_lines(&std::fs::read_to_string(&book).unwrap());
    assert_eq!(lines.len(), 12);
    let distinct: std::collections::HashSet<_> = lines.iter().map(|(p, _)| p).collect();
    assert_eq!(distinct.len(), 12);
    for (position, value) in &lines {
        assert!((-3..=3).contains(value));
        assert!(!position.is_game_over());
        // `aboure solve` counts the seeds still on the board; the book's
        // value adds the captures already made.
        let solved = aboure(&["solve", "--position", &position.to_string()]);
        assert!(solved.status.success(), "{}", show(&solved));
        let board: i32 = String::from_utf8_lossy(&solved.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("value ").map(|v| v.parse().unwrap()))
            .unwrap();
        let me = position.side_to_move();
        let held = i32::from(position.captured(me)) - i32::from(position.captured(!me));
        assert_eq!(held + board, *value, "{position}");
    }
}

#[test]
fn a_band_no_position_fits_is_refused_with_the_count_that_does() {
    let dir = folder("openings-refused");
    let book = dir.join("book.txt");
    let o = aboure(&[
        "openings",
        "--count",
        "5000",
        "--value=-3..3",
        "--plies",
        "2",
        "--out",
        book.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("5000 were asked for"), "{err}");
    assert!(!book.exists());
    let bad = aboure(&["openings", "--count", "5", "--value", "3..-3", "--out", "x"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("is empty"),
        "{}",
        show(&bad)
    );
}

/// A book of three openings written by `aboure openings`, and a
/// tournament of two bots played from it in `dir/out`: the book's path,
/// its lines and the output folder.
fn book_run(
    dir: &std::path::Path,
) -> (std::path::PathBuf, Vec<(Position, i32)>, std::path::PathBuf) {
    let book = dir.join("book.txt");
    let o = aboure(&[
        "openings",
        "--count",
        "3",
        "--value=4..12",
        "--plies",
        "4",
        "--out",
        book.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let lines = book_lines(&std::fs::read_to_string(&book).unwrap());
    let config = write_config(
        dir,
        &format!(
            "[tournament]\npairs = 3\nconcurrency = 1\n[time-control]\ndepth = 2\n\
             [openings]\nfile = {:?}\n\
             [[bot]]\nname = \"a\"\nbuiltin = \"alphabeta\"\n\
             [[bot]]\nname = \"g\"\nbuiltin = \"greedy\"\n",
            book.to_str().unwrap()
        ),
    );
    let out = dir.join("out");
    let run = run(&config, &out, &[]);
    assert!(run.status.success(), "{}", show(&run));
    (book, lines, out)
}

#[test]
fn a_tournament_plays_every_pair_from_the_book_in_order() {
    let dir = folder("openings-run");
    let (book, lines, out) = book_run(&dir);
    let games = games(&out);
    assert_eq!(games.len(), 6);
    for g in &games {
        let pair = g["pair"].as_u64().unwrap() as usize;
        assert_eq!(
            g["start"].as_str().unwrap(),
            lines[pair].0.to_string(),
            "{g}"
        );
    }

    // The report names the book and gives each opening's pair both ways.
    let book_name = book.to_str().unwrap();
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let openings = &report["openings"];
    assert_eq!(openings["file"], book_name, "{openings}");
    assert_eq!(openings["openings"], 3, "{openings}");
    let text = std::fs::read_to_string(out.join("report.txt")).unwrap();
    assert!(
        text.contains(&format!("\nOpenings: {book_name} (3 openings); ")),
        "{text}"
    );
    let pairs = openings["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3, "{openings}");
    let mut decided = 0;
    for (i, p) in pairs.iter().enumerate() {
        assert_eq!(p["opening"], i + 1, "{p}");
        let played: Vec<&serde_json::Value> = (0..2)
            .map(|k| {
                games
                    .iter()
                    .find(|g| g["pair"] == i && g["game"] == k)
                    .unwrap()
            })
            .collect();
        let winner = |g: &serde_json::Value| match g["result"].as_str().unwrap() {
            "1-0" => Some(g["south"].as_str().unwrap().to_owned()),
            "0-1" => Some(g["north"].as_str().unwrap().to_owned()),
            _ => None,
        };
        for (k, g) in played.iter().enumerate() {
            for key in ["south", "north", "result"] {
                assert_eq!(p["games"][k][key], g[key], "{p} against {g}");
            }
        }
        let verdict = match (winner(played[0]), winner(played[1])) {
            (Some(x), Some(y)) if x == y => {
                decided += 1;
                format!("{x} won both")
            }
            (Some(x), None) | (None, Some(x)) => format!("{x} won one, one drawn"),
            _ => "split".to_owned(),
        };
        assert_eq!(p["verdict"], verdict.as_str(), "{p}");
        let line = format!(
            "  #{:<4} {}: {}-{} {}, {}-{} {}; {verdict}",
            i + 1,
            p["position"].as_str().unwrap(),
            played[0]["south"].as_str().unwrap(),
            played[0]["north"].as_str().unwrap(),
            played[0]["result"].as_str().unwrap(),
            played[1]["south"].as_str().unwrap(),
            played[1]["north"].as_str().unwrap(),
            played[1]["result"].as_str().unwrap(),
        );
        assert!(text.contains(&line), "{line:?} in\n{text}");
    }
    assert_eq!(openings["decided"], decided, "{openings}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<section id=\"openings\"><h2>Openings</h2>"));
    // `aboure report` on the folder says the same.
    let again = aboure(&["report", out.to_str().unwrap(), "--no-accuracy"]);
    assert!(again.status.success(), "{}", show(&again));
    assert!(String::from_utf8_lossy(&again.stdout)
        .contains(&format!("Openings: {book_name} (3 openings)")));
}

#[test]
fn the_shipped_balanced_book_is_every_position_four_plies_deep_within_two_seeds_of_a_draw() {
    // Every SPRT and league without an [openings] table plays this book
    // (the binary embeds this file); it must be exactly what its header's
    // command writes, so that the figures measured on the recipe hold for
    // the book users get.
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/balanced-4.txt"
    ))
    .unwrap();
    let dir = folder("openings-shipped");
    let book = dir.join("book.txt");
    let o = aboure(&[
        "openings",
        "--count",
        "114",
        "--value=-2..2",
        "--plies",
        "4",
        "--seed",
        "1",
        "--out",
        book.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(std::fs::read_to_string(&book).unwrap(), shipped);
    let lines = book_lines(&shipped);
    assert_eq!(lines.len(), 114);
    assert!(lines.iter().all(|(_, v)| (-2..=2).contains(v)));
    // Every qualifying position is in: one more is refused.
    let more = aboure(&[
        "openings",
        "--count",
        "115",
        "--value=-2..2",
        "--plies",
        "4",
        "--out",
        dir.join("more.txt").to_str().unwrap(),
    ]);
    assert!(!more.status.success(), "{}", show(&more));
}

#[test]
fn an_sprt_without_an_openings_table_plays_the_built_in_balanced_book() {
    // The default of an SPRT (and of a league): the shipped book, pair p
    // from its line p; run.json, the run's output and `aboure report` name
    // it and say how to play random openings instead.
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/balanced-4.txt"
    ))
    .unwrap();
    let lines = book_lines(&shipped);
    let dir = folder("openings-default-book");
    let sprt = "[tournament]\nformat = \"sprt\"\npairs = 3\nconcurrency = 1\n\
                [time-control]\ndepth = 2\n\
                [[bot]]\nname = \"a\"\nbuiltin = \"alphabeta\"\n\
                [[bot]]\nname = \"g\"\nbuiltin = \"greedy\"\n";
    let config = write_config(&dir, sprt);
    let out = dir.join("out");
    // Not quiet: the run says which openings it plays before it starts.
    let o = aboure(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let played = games(&out);
    assert_eq!(played.len(), 6);
    for g in &played {
        let pair = g["pair"].as_u64().unwrap() as usize;
        assert_eq!(
            g["start"].as_str().unwrap(),
            lines[pair].0.to_string(),
            "{g}"
        );
    }
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(manifest["builtin_openings"], "balanced", "{manifest}");
    assert!(manifest.get("openings_file").is_none(), "{manifest}");
    assert_eq!(
        manifest["identity"]["openings"].as_array().map(Vec::len),
        Some(114),
        "{manifest}"
    );
    let headline = "\nOpenings: the built-in balanced book (114 openings; the default of an \
                    SPRT and a league, [openings] plies = 4 plays random openings instead); ";
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains(headline), "{stdout}");
    let said = "openings: the built-in balanced book (114 openings), the default of an SPRT \
                and a league; [openings] plies = 4 plays random openings instead\n";
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(said),
        "{}",
        show(&o)
    );
    let again = aboure(&["report", out.to_str().unwrap(), "--no-accuracy"]);
    assert!(again.status.success(), "{}", show(&again));
    assert!(String::from_utf8_lossy(&again.stdout).contains(headline));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["openings"]["builtin"], "balanced");

    // `[openings] plies = 4` plays random openings, and says nothing of a book.
    let random = write_config(&dir, &format!("{sprt}[openings]\nplies = 4\n"));
    let out = dir.join("random");
    let o = aboure(&[
        "run",
        random.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(manifest["identity"]["openings"]["random_plies"], 4);
    assert!(manifest.get("builtin_openings").is_none(), "{manifest}");
    assert!(games(&out).iter().all(|g| g["start"] == "startpos"));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("Openings:"));
    let said = "openings: random openings of 4 plies, from seed 1\n";
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(said),
        "{}",
        show(&o)
    );
}

/// The openings section of the page: its headline and each row's cells.
const OPENINGS: &str = "JSON.stringify({
    headline: (document.querySelector('#openings p') || {}).textContent,
    rows: Array.from(document.querySelectorAll('#openings tbody tr'))
        .map(r => Array.from(r.cells).map(c => c.textContent)),
    linked: !!document.querySelector('a[href=\"#openings\"]'),
})";

#[test]
fn the_live_page_shows_the_openings_section_of_the_report() {
    let dir = folder("openings-live");
    let (book, _, out) = book_run(&dir);
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let text = std::fs::read_to_string(out.join("report.txt")).unwrap();

    let (_server, url) = crate::served::serve(&[out.to_str().unwrap()]);
    let mut page = crate::serve_live::DevTools::open(&url, &dir.join("profile"));
    page.wait_for("document.querySelectorAll('#openings tbody tr').length === 3");
    let shown: serde_json::Value =
        serde_json::from_str(page.eval(OPENINGS).as_str().unwrap()).unwrap();
    assert_eq!(shown["linked"], true, "{shown}");
    // The headline the text report prints, book and decided pairs included.
    let headline = shown["headline"].as_str().unwrap();
    assert!(
        headline.starts_with(&format!("{} (3 openings); ", book.display())),
        "{shown}"
    );
    assert!(
        text.contains(&format!("\nOpenings: {headline}\n")),
        "{headline:?} in\n{text}"
    );
    // Each row is the report's pair: opening, position, both games, verdict.
    let pairs = report["openings"]["pairs"].as_array().unwrap();
    let expected: Vec<Vec<String>> = pairs
        .iter()
        .map(|p| {
            let games: Vec<String> = (p["games"].as_array().unwrap().iter())
                .map(|g| {
                    let s = |k: &str| g[k].as_str().unwrap().to_owned();
                    format!("{}-{} {}", s("south"), s("north"), s("result"))
                })
                .collect();
            vec![
                p["opening"].to_string(),
                p["position"].as_str().unwrap().to_owned(),
                games.join(", "),
                p["verdict"].as_str().unwrap().to_owned(),
            ]
        })
        .collect();
    let rows: Vec<Vec<String>> = serde_json::from_value(shown["rows"].clone()).unwrap();
    assert_eq!(rows, expected, "the page against report.json");
}
