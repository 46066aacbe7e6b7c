//! A tune's live page in a real browser: `aboure tune` runs (the built-in
//! alphabeta's row weight from the wrong sign, by the accuracy objective),
//! `aboure serve` follows its output folder, and headless Chromium reads
//! the page while the tune is held still (its process group stopped, so
//! the test does not race it), then again after it has run to its end: a
//! new iteration, the longer path in the report's plot, theta's trend, the
//! budget done and the final values, all in the same document (no
//! reload). Needs Chromium, as the other page tests.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use aboure_records::{read_tune_path, TuneFile};
use serde_json::Value;

use crate::harness::{write_config, ABOURE};
use crate::serve_live::DevTools;
use crate::served::{serve, Reaped};

/// Iterations of the tune.
const ITERATIONS: u64 = 6;

/// What the test reads from the page.
const READ: &str = "JSON.stringify({
    iterations: +document.body.dataset.iterations,
    state: document.body.dataset.tuneState,
    shown: document.getElementById('live-tune-iterations').textContent,
    theta: Array.from(document.querySelectorAll('#live-theta tbody tr')).map(r => r.textContent),
    points: document.querySelector('#path-row_weight polyline').getAttribute('points').split(' ').length,
    objective: !!document.getElementById('objective-plot'),
    values: (document.querySelector('#values pre') || {}).textContent,
    runHidden: document.getElementById('live-run').hidden,
    marker: window.stillTheSameDocument === 27,
})";

fn read(page: &mut DevTools) -> Value {
    serde_json::from_str(page.eval(READ).as_str().unwrap()).unwrap()
}

/// Sends `signal` to the tune's process group (the tune and its bots).
fn signal_group(child: &Reaped, signal: libc::c_int) {
    let group = child.0.id() as libc::pid_t;
    // SAFETY: a plain kill(2) of the group this test started.
    assert_eq!(unsafe { libc::kill(-group, signal) }, 0);
}

#[test]
fn the_live_page_follows_a_running_tune_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    // A generous clock: the stopped minutes count on a move in flight.
    let config = write_config(
        dir.path(),
        &format!(
            "[tournament]\nseed = 3\n[time-control]\nnodes = 300\ntimeout = \"600s\"\n\
             [[bot]]\nname = \"alphabeta\"\nbuiltin = \"alphabeta\"\noptions = {{ hash = 1 }}\n\
             [tune]\nbot = \"alphabeta\"\n\
             parameters = {{ row_weight = {{ start = -50, min = -1000, max = 1000, step = 10 }} }}\n\
             objective = \"accuracy\"\npositions = 30\niterations = {ITERATIONS}\n\
             spsa = {{ A = 1, r-end = 4 }}\n"
        ),
    );
    let out = dir.path().join("out");
    let tune = Reaped(
        Command::new(ABOURE)
            .args(["tune", config.to_str().unwrap(), "--out"])
            .arg(&out)
            .arg("-q")
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let t0 = Instant::now();
    while read_tune_path(&out).map_or(0, |p| p.len()) < 1 {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "no iteration written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    signal_group(&tune, libc::SIGSTOP);
    let held = read_tune_path(&out).unwrap().len() as u64;
    assert!(held < ITERATIONS, "the tune ended before it was held");

    let (_server, url) = serve(&[out.to_str().unwrap()]);
    let mut page = DevTools::open(&url, &dir.path().join("profile"));
    page.wait_for(&format!("+document.body.dataset.iterations === {held}"));
    let first = read(&mut page);
    page.eval("window.stillTheSameDocument = 27");
    assert_eq!(first["state"], "running", "{first}");
    assert_eq!(
        first["runHidden"], true,
        "a tune has no tournament figures: {first}"
    );
    assert_eq!(
        first["shown"],
        format!("{held} of {ITERATIONS}"),
        "the budget done: {first}"
    );
    // The start and one point an iteration, as the report draws it.
    assert_eq!(first["points"], held + 1, "{first}");
    assert_eq!(first["objective"], true, "{first}");
    let row = first["theta"][0].as_str().unwrap().to_owned();
    assert!(
        row.starts_with("row_weight") && row.contains(&format!(" in {held}")),
        "theta and its trend: {first}"
    );
    assert!(
        first["values"].is_null(),
        "no values before the end: {first}"
    );

    signal_group(&tune, libc::SIGCONT);
    page.wait_for("document.body.dataset.tuneState === 'finished'");
    let last = read(&mut page);
    assert_eq!(last["marker"], true, "the page was reloaded: {last}");
    assert_eq!(last["iterations"], ITERATIONS, "{last}");
    assert_eq!(last["points"], ITERATIONS + 1, "{last}");
    assert_ne!(last["theta"][0], first["theta"][0], "theta moved: {last}");
    let file = TuneFile::read_in(&out).unwrap().unwrap();
    let value = file.values["row_weight"];
    let values = last["values"].as_str().unwrap_or_default();
    assert!(
        values.contains(&format!("row_weight = {value}")),
        "the result: {last}"
    );
}
