//! A league's live page in a real browser: `aboure serve` follows a league
//! folder, headless Chromium reads its leaderboard (when each entrant
//! joined, who retired) and the plot of each entrant's rating over time;
//! then the league grows by a resumed run while the page stays open, and
//! the same document (no reload) shows the newcomer, its line in the plot
//! and the new verdict; a league two workers played (`--join`) shows its
//! workers beside the leaderboard. Needs Chromium, as the other page
//! tests.

use std::time::Duration;

use crate::harness::{run, run_command, show, write_config};
use crate::serve_live::{DevTools, WORKERS};
use crate::served::serve;

fn league(dir: &std::path::Path, games: u32, extra: &str) -> std::path::PathBuf {
    let bot = |name: &str, builtin: &str| {
        format!("[[bot]]\nname = \"{name}\"\nbuiltin = \"{builtin}\"\noptions = {{ seed = 2 }}\n")
    };
    write_config(
        dir,
        &format!(
            "[tournament]\nformat = \"league\"\ngames = {games}\nseed = 2\nconcurrency = 2\n\
             [openings]\nplies = 2\n[time-control]\nbase = \"60s\"\n{}{}{}{extra}",
            bot("random", "random"),
            bot("greedy", "greedy"),
            bot("mcts", "mcts") + "time-control = { nodes = 20 }\n",
        ),
    )
}

/// What the test reads from the page.
const READ: &str = "JSON.stringify({
    rows: Array.from(document.querySelectorAll('#league tbody tr')).map(r => r.textContent),
    lines: Array.from(document.querySelectorAll('#league-history polyline')).map(l => l.dataset.entrant),
    verdict: (document.querySelector('#league .verdict') || {}).textContent,
    games: +document.body.dataset.games,
    marker: window.stillTheSameDocument === 7,
})";

#[test]
fn the_live_page_shows_a_growing_leagues_leaderboard_and_ratings_over_time() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = run(&league(dir.path(), 16, ""), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));

    let (_server, url) = serve(&[out.to_str().unwrap()]);
    let profile = dir.path().join("profile");
    let mut page = DevTools::open(&url, &profile);
    page.wait_for("document.querySelectorAll('#league tbody tr').length === 3");
    let first: serde_json::Value = serde_json::from_str(page.eval(READ).as_str().unwrap()).unwrap();
    page.eval("window.stillTheSameDocument = 7");
    let rows = first["rows"].as_array().unwrap();
    assert!(
        rows.iter().all(|r| r.as_str().unwrap().contains("founder")),
        "{first}"
    );
    assert_eq!(first["lines"].as_array().unwrap().len(), 3, "{first}");
    assert!(
        first["verdict"]
            .as_str()
            .unwrap()
            .contains("league stopped after 16 games"),
        "{first}"
    );

    // A newcomer joins and greedy retires, in a resumed run.
    let newcomer =
        "[[bot]]\nname = \"ab-2\"\nbuiltin = \"alphabeta\"\ntime-control = { depth = 2 }\n";
    let text = std::fs::read_to_string(league(dir.path(), 32, newcomer)).unwrap();
    let config = write_config(
        dir.path(),
        &text.replace(
            "builtin = \"greedy\"\n",
            "builtin = \"greedy\"\nretired = true\n",
        ),
    );
    std::thread::sleep(Duration::from_millis(1100)); // a new mtime for run.json
    let output = run(&config, &out, &["--resume"]);
    assert!(output.status.success(), "{}", show(&output));
    page.wait_for(
        "document.querySelectorAll('#league tbody tr').length === 4 && +document.body.dataset.games === 32",
    );
    page.wait_for(
        "(document.querySelector('#league .verdict') || {}).textContent.includes('after 32 games')",
    );
    let last: serde_json::Value = serde_json::from_str(page.eval(READ).as_str().unwrap()).unwrap();
    assert_eq!(last["marker"], true, "the page was reloaded: {last}");
    let rows: Vec<&str> = last["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let row = |name: &str| {
        rows.iter()
            .find(|r| r.contains(name))
            .unwrap_or_else(|| panic!("{name}: {last}"))
    };
    assert!(row("ab-2").contains("pair 8 ("), "{last}");
    assert!(row("greedy").contains("retired from pair 8"), "{last}");
    let lines = last["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4, "{last}");
    assert!(lines.iter().any(|l| l == "ab-2"), "{last}");
    // The page rates the league as its report does: with BayesElo's prior.
    let prior = page.eval("(document.querySelector('.prior') || {}).textContent || ''");
    assert!(
        prior
            .as_str()
            .unwrap()
            .starts_with("prior: 2 virtual draws per bot (BayesElo"),
        "{prior}"
    );
}

#[test]
fn the_live_page_of_a_league_played_by_workers_lists_them_beside_the_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = league(dir.path(), 8, "");
    let workers: Vec<_> = (0..2)
        .map(|_| {
            run_command(&config, &out, &["--join", "--concurrency", "1"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for w in workers {
        let output = w.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", show(&output));
    }
    let file = aboure_records::workers::WorkersFile::read_in(&out)
        .unwrap()
        .expect("workers.json");

    let (_server, url) = serve(&[out.to_str().unwrap()]);
    let profile = dir.path().join("profile");
    let mut page = DevTools::open(&url, &profile);
    page.wait_for(
        "document.querySelectorAll('#league tbody tr').length === 3 && \
         document.querySelectorAll('#live-workers tbody tr').length === 2",
    );
    let shown: serde_json::Value =
        serde_json::from_str(page.eval(WORKERS).as_str().unwrap()).unwrap();
    assert_eq!(shown["hidden"], false, "{shown}");
    assert_eq!(shown["count"], "0 alive, 2 ended, 0 dead", "{shown}");
    assert_eq!(shown["taken"], "No pair taken over from a dead worker.");
    let rows: Vec<[String; 4]> = file
        .workers
        .iter()
        .map(|w| {
            let lines = std::fs::read_to_string(out.join(&w.results)).unwrap();
            assert_eq!(w.games, lines.lines().count() as u64, "{w:?}");
            [&w.name, "ended", "0", &w.games.to_string()].map(str::to_owned)
        })
        .collect();
    let on_page: Vec<[String; 4]> = shown["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| std::array::from_fn(|i| r[i].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(on_page, rows, "{shown}");
    let games: u64 = file.workers.iter().map(|w| w.games).sum();
    assert_eq!(games, 8, "{:?}", file.workers);
}
