//! The README's quick start, run as a new user would: its shell blocks and
//! its tournament file, in order, in a folder of their own that holds only
//! the starter kit it copies, with `aboure` on the PATH. Needs `python3`.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::docs::markdown::blocks;
use crate::support::ABOURE;

/// The quick start's blocks, as (info string, text), in order.
fn quick_start() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let start = readme.find("## Quick start").expect("a quick start");
    let section = &readme[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    blocks(&section[..end])
        .into_iter()
        .map(|b| (b.info, b.text))
        .collect()
}

/// Runs one shell block in `dir` with `aboure` first on the PATH.
fn run_sh(dir: &Path, script: &str) -> (bool, String) {
    let aboure_dir = Path::new(ABOURE).parent().unwrap();
    let path = format!(
        "{}:{}",
        aboure_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("sh")
        .args(["-e", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("run sh");
    let shown = format!(
        "$ {script}\nstatus {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), shown)
}

#[test]
fn the_readme_quick_start_checks_a_kit_and_finishes_a_tournament() {
    let steps = quick_start();
    let kinds: Vec<&str> = steps.iter().map(|(info, _)| info.as_str()).collect();
    assert_eq!(kinds, ["sh", "toml", "sh"], "the quick start's blocks");

    // A folder as a fresh clone has it, as far as the quick start reads:
    // the Python kit under bots/.
    let dir = tempfile::tempdir().unwrap();
    // As root the sandbox runs bots as a uid of their own (tempfile makes
    // folders 0700).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/python");
    std::fs::create_dir(dir.path().join("bots")).unwrap();
    let copied = Command::new("cp")
        .arg("-r")
        .arg(&kit)
        .arg(dir.path().join("bots/python"))
        .status()
        .unwrap();
    assert!(copied.success());

    let (ok, shown) = run_sh(dir.path(), &steps[0].1);
    assert!(ok, "{shown}");
    assert!(shown.contains(" passed, 0 failed"), "{shown}");

    std::fs::write(dir.path().join("my.toml"), &steps[1].1).unwrap();
    let (ok, shown) = run_sh(dir.path(), &steps[2].1);
    assert!(ok, "{shown}");
    let out = dir.path().join("out/my");
    let games = crate::harness::games(&out);
    // Two bots, 10 game pairs: 20 games, none forfeited.
    assert_eq!(games.len(), 20, "{shown}");
    for g in &games {
        assert!(g["loser"].is_null(), "a forfeit: {g}\n{shown}");
    }
    for report in ["report.txt", "report.json", "report.html"] {
        assert!(out.join(report).is_file(), "no {report}\n{shown}");
    }
    assert!(
        shown.contains("mine") && shown.contains("greedy"),
        "{shown}"
    );
}
