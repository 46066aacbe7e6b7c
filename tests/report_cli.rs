//! `aboure report` end to end: text, JSON, CSV input, merged files with a
//! duplicate, and errors.

use std::path::PathBuf;
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("crates/report/tests/fixtures")
        .join(name)
}

fn aboure(args: &[&str]) -> (bool, String, String) {
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
    let (ok, _, stderr) = aboure(&["--anchor", "nobody=0", csv.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("--anchor nobody"), "{stderr}");
    let (ok, _, stderr) = aboure(&[dir.join("missing.jsonl").to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("missing.jsonl"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
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
