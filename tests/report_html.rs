//! The HTML report in a real browser: headless Chromium loads the page,
//! runs its script, and the rendered DOM must show the standings, the rating
//! plot and a game viewer whose board equals the engine's position after the
//! requested ply. Screenshots of each part are kept in
//! `<target dir>/report-screenshots/` for a person to look at.
//!
//! Needs Chromium (`apt-get install -y chromium`; `ABOURE_CHROMIUM` may name
//! another binary). Without it the test fails and says so.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use aboure_engine::{Move, Position, Side};
use aboure_records::{read_games, GameRecord, Mover};

use crate::served;
use served::{chromium, HEADLESS};

fn fixture(name: &str) -> PathBuf {
    crate::harness::report_fixture(name)
}

fn scratch() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "report-html-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("report-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the HTML report of `files` made by the `aboure` binary.
fn make_report(files: &[PathBuf]) -> PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_aboure"))
        .args(["report", "--format", "html"])
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = String::from_utf8(out.stdout).unwrap();
    // Self-contained: nothing is fetched.
    for needle in ["http://", "https://", "<link", " src="] {
        assert!(!html.contains(needle), "the page refers to {needle}");
    }
    let path = scratch().join("report.html");
    std::fs::write(&path, html).unwrap();
    path
}

/// Runs headless Chromium on `page#fragment` with `extra` arguments.
fn browse(page: &Path, fragment: &str, extra: &[&str]) -> String {
    let profile = scratch();
    let url = format!("file://{}{}", page.display(), fragment);
    let out = Command::new(chromium())
        .args(HEADLESS)
        .args([
            "--disable-quic",
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(&url)
        .output()
        .expect("run chromium");
    std::fs::remove_dir_all(&profile).ok();
    assert!(
        out.status.success(),
        "chromium failed on {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn dump_dom(page: &Path, fragment: &str) -> String {
    browse(page, fragment, &["--dump-dom"])
}

fn screenshot(page: &Path, fragment: &str, name: &str, size: &str, extra: &[&str]) {
    let path = screenshot_dir().join(name);
    std::fs::remove_file(&path).ok();
    let mut args = vec![
        format!("--screenshot={}", path.display()),
        format!("--window-size={size}"),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    browse(page, fragment, &args);
    let len = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    assert!(
        len > 5000,
        "{} is missing or blank ({len} bytes)",
        path.display()
    );
}

/// The seed counts of the rendered board, by pit, and its data attributes.
fn rendered_board(dom: &str) -> ([u8; 12], String, usize) {
    let start = dom
        .find("id=\"board\"")
        .expect("the viewer's board is in the DOM");
    let board = &dom[start..];
    let attr = |name: &str| {
        let at = board.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        board[at..at + board[at..].find('"').unwrap()].to_owned()
    };
    let mut pits = [u8::MAX; 12];
    let mut rest = board;
    for _ in 0..12 {
        let at = rest.find("data-pit=\"").expect("12 pits") + 10;
        rest = &rest[at..];
        let pit: usize = rest[..rest.find('"').unwrap()].parse().unwrap();
        let seeds_at = rest.find("class=\"seeds\">").unwrap() + 14;
        let seeds = &rest[seeds_at..];
        pits[pit] = seeds[..seeds.find('<').unwrap()].parse().unwrap();
    }
    (pits, attr("data-game"), attr("data-ply").parse().unwrap())
}

fn position_after(game: &GameRecord, plies: usize) -> Position {
    let mut pos: Position = game.start.parse().unwrap();
    for m in &game.moves[..plies] {
        pos.play(m.parse::<Move>().unwrap()).unwrap();
    }
    pos
}

#[test]
fn standings_plot_and_game_list_render() {
    let games_file = fixture("round-robin/games.jsonl");
    let page = make_report(std::slice::from_ref(&games_file));
    let dom = dump_dom(&page, "");
    assert!(dom.contains("id=\"standings\""));
    let plot = &dom[dom.find("id=\"rating-plot\"").expect("rating plot")..];
    let plot = &plot[..plot.find("</svg>").unwrap()];
    assert_eq!(
        plot.matches("class=\"point\"").count(),
        3,
        "one point per bot"
    );
    assert_eq!(
        plot.matches("class=\"bar\"").count(),
        3,
        "one interval per bot"
    );
    for bot in ["greedy", "slow", "random"] {
        assert!(
            plot.contains(&format!("data-bot=\"{bot}\"")),
            "{bot} in the plot"
        );
    }
    // Best first in the plot, as in the standings.
    let (g, s, r) = (
        plot.find(">greedy<").unwrap(),
        plot.find(">slow<").unwrap(),
        plot.find(">random<").unwrap(),
    );
    assert!(g < s && s < r);
    assert!(
        dom.contains("id=\"crosstable\"")
            && dom.contains("id=\"los\"")
            && dom.contains("id=\"failures\"")
    );
    assert!(
        dom.contains("href=\"#game=r0001-p01-g0\""),
        "failure links to its game"
    );
    // The script filled the game list: one row per game.
    let games = read_games(&games_file).unwrap().games;
    assert_eq!(dom.matches("<tr data-game=").count(), games.len());
    assert!(dom.contains(&format!("{} of {} games", games.len(), games.len())));
    assert!(
        dom.contains("id=\"viewer\" hidden"),
        "no game opened without a fragment"
    );

    // The filters, set from the fragment.
    let rows = |fragment: &str| dump_dom(&page, fragment).matches("<tr data-game=").count();
    assert_eq!(rows("#bot=slow&termination=time_forfeit"), 1);
    let lost_by_slow = games
        .iter()
        .filter(|g| g.points_of("slow") == Some(0.0))
        .count();
    assert_eq!(rows("#bot=slow&result=loss"), lost_by_slow);
    assert_eq!(rows("#bot=random"), 16);

    screenshot(&page, "", "full-page.png", "1200,3000", &[]);
    screenshot(&page, "#only=standings", "standings.png", "1000,700", &[]);
    screenshot(&page, "#only=crosstable", "crosstable.png", "1000,700", &[]);
    screenshot(&page, "#only=los", "los.png", "800,400", &[]);
    screenshot(&page, "#only=failures", "failures.png", "800,300", &[]);
    screenshot(&page, "#only=accuracy", "accuracy.png", "800,350", &[]);
    screenshot(
        &page,
        "#only=standings",
        "standings-dark.png",
        "1000,700",
        &["--force-dark-mode"],
    );
    screenshot(&page, "", "phone.png", "390,1600", &[]);
}

#[test]
fn the_viewer_shows_the_engine_positions() {
    let games_file = fixture("round-robin/games.jsonl");
    let games = read_games(&games_file).unwrap().games;
    let page = make_report(&[games_file]);
    // A plain game at several plies (start, a capture, the end), a game with
    // a forced pass, and a forfeit.
    let first = &games[0];
    let capture = (1..=first.moves.len())
        .find(|&n| {
            first.plies[n - 1].by == Mover::Bot && {
                let before = position_after(first, n - 1);
                let after = position_after(first, n);
                after.captured(before.side_to_move()) > before.captured(before.side_to_move())
            }
        })
        .expect("a capture in the first game");
    let with_pass = games
        .iter()
        .find(|g| g.plies.iter().any(|p| p.by == Mover::Forced))
        .expect("a game with a forced pass");
    let pass_ply = with_pass
        .plies
        .iter()
        .position(|p| p.by == Mover::Forced)
        .unwrap()
        + 1;
    let forfeit = games.iter().find(|g| g.id == "r0001-p01-g0").unwrap();
    let cases = [
        (first, 0),
        (first, capture),
        (first, first.moves.len()),
        (with_pass, pass_ply),
        (forfeit, forfeit.moves.len()),
    ];
    for (game, ply) in cases {
        let dom = dump_dom(&page, &format!("#game={}&ply={ply}", game.id));
        let (pits, id, shown_ply) = rendered_board(&dom);
        let pos = position_after(game, ply);
        assert_eq!((id.as_str(), shown_ply), (game.id.as_str(), ply));
        assert_eq!(
            pits,
            pos.pits(),
            "{} after {ply} plies: page vs engine {pos}",
            game.id
        );
        for (side, label) in [(Side::South, "South: "), (Side::North, "North: ")] {
            let at = dom[dom.find("id=\"board\"").unwrap()..]
                .find(label)
                .unwrap();
            let text = &dom[dom.find("id=\"board\"").unwrap() + at..];
            let expected = format!("captured {} ", pos.captured(side));
            assert!(
                text[..text.find("</div>").unwrap()].contains(&expected),
                "{label}{expected}"
            );
        }
        if ply > 0 {
            assert!(
                dom.contains(&format!("Ply {ply}: ")),
                "the move is described"
            );
        }
    }
    // The captured pits are marked at the capture.
    let dom = dump_dom(&page, &format!("#game={}&ply={capture}", first.id));
    assert!(
        dom.contains("pit captured") || dom.contains("captured\""),
        "captured pit marked"
    );
    assert!(
        dom.contains("Search: depth 1"),
        "the bot's search info is shown"
    );

    screenshot(
        &page,
        &format!("#only=games&game={}&ply={capture}", first.id),
        "viewer-capture.png",
        "1000,1100",
        &[],
    );
    screenshot(
        &page,
        &format!("#only=games&game={}&ply={pass_ply}", with_pass.id),
        "viewer-pass.png",
        "1000,1100",
        &[],
    );
    screenshot(
        &page,
        &format!("#only=games&game={}&ply={capture}", first.id),
        "viewer-phone.png",
        "390,1200",
        &["--force-dark-mode"],
    );
}

#[test]
fn sprt_chart_renders() {
    let page = make_report(&[fixture("sprt/games.jsonl")]);
    let dom = dump_dom(&page, "");
    let chart = &dom[dom.find("id=\"sprt-plot\"").expect("SPRT chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    assert_eq!(chart.matches("class=\"bound\"").count(), 2);
    let points = chart.split("points=\"").nth(1).unwrap();
    let points = &points[..points.find('"').unwrap()];
    assert_eq!(
        points.split(' ').count(),
        13,
        "the start and one point per pair"
    );
    assert!(dom.contains("after 12 pairs"));
    screenshot(&page, "#only=sprt", "sprt.png", "1000,750", &[]);
}

#[test]
fn direction_controls_in_names_are_shown_written_out_and_kept_exact_in_json() {
    // A name that would show as another: an override reverses the rest of
    // its line, isolates and marks reorder what is next to them.
    let evil = "gr\u{202e}ydee\u{2066}x\u{2069}\u{200e}\u{200f}\u{61c}";
    let written = "gr\\u{202e}ydee\\u{2066}x\\u{2069}\\u{200e}\\u{200f}\\u{61c}";
    let text = std::fs::read_to_string(fixture("round-robin/games.jsonl")).unwrap();
    let games = scratch().join("games.jsonl");
    let name = serde_json::to_string(evil).unwrap();
    std::fs::write(&games, text.replace("\"greedy\"", &name)).unwrap();
    let is_direction = |c: char| {
        ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
            || ['\u{200e}', '\u{200f}', '\u{61c}'].contains(&c)
    };
    // The JSON report keeps the name exact.
    let json = Command::new(env!("CARGO_BIN_EXE_aboure"))
        .args(["report", "--format", "json", "--no-accuracy"])
        .arg(&games)
        .output()
        .unwrap();
    assert!(
        json.status.success(),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let names: Vec<&str> = (json["players"].as_array().unwrap().iter())
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&evil), "{names:?}");
    // The text report writes it out.
    let text = Command::new(env!("CARGO_BIN_EXE_aboure"))
        .args(["report", "--no-accuracy"])
        .arg(&games)
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(!text.contains(is_direction), "{text:?}");
    assert!(text.contains(written), "{text}");
    // The page, as made and as the browser renders it (its script fills
    // the game list and the filters), shows it written out; only the data
    // the script reads holds it exact.
    let page = make_report(&[games]);
    let outside_data = |html: &str| {
        let start = html.find("id=\"report-data\"").expect("the page's data");
        let end = start + html[start..].find("</script>").unwrap();
        format!("{}{}", &html[..start], &html[end..])
    };
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!outside_data(&html).contains(is_direction));
    assert!(html.contains(written));
    let dom = dump_dom(&page, "");
    // The filter's values are the exact names (what it compares), never
    // shown.
    let values = format!("<option value={name}>");
    let shown = outside_data(&dom).replace(&values, "<option>");
    assert!(
        !shown.contains(is_direction),
        "raw direction controls shown"
    );
    let list = &shown[shown.find("id=\"game-list\"").expect("game list")..];
    assert!(list.contains(written), "{list}");
    let filter = &shown[shown.find("id=\"filter-bot\"").expect("bot filter")..];
    assert!(filter[..filter.find("</select>").unwrap()].contains(written));
}
