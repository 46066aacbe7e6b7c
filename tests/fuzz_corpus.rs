//! The fuzz corpus as a regression suite on stable: every kept input under
//! `fuzz/corpus/TARGET/` and every crash input under `fuzz/regressions/TARGET/`
//! goes through the same check as the fuzz target `TARGET` (the checks are
//! shared, see `fuzz/src/checks/`).

use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use crate::checks;

/// The files of `fuzz/KIND/TARGET/`, sorted (none if the folder is absent).
fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable corpus folder").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `check` on every input of `target` in `kinds`; fails naming every
/// input that panics.
fn replay(target: &str, kinds: &[&str], check: fn(&[u8])) -> usize {
    let mut failures = Vec::new();
    let mut count = 0;
    for kind in kinds {
        for file in inputs(kind, target) {
            let data = fs::read(&file).expect("a readable corpus file");
            count += 1;
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check(&data))) {
                let why = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)");
                failures.push(format!(
                    "{}: {why}\n  input: {:?}",
                    file.display(),
                    String::from_utf8_lossy(&data)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} inputs fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    count
}

/// The kept corpus and the crash inputs.
const ALL: &[&str] = &["corpus", "regressions"];

#[test]
fn position() {
    assert!(replay("position", ALL, checks::position::check) > 0);
}

#[test]
fn moves() {
    assert!(replay("moves", ALL, checks::moves::check) > 0);
}

#[test]
fn arbiter_message() {
    assert!(replay("arbiter_message", ALL, checks::message::check_arbiter) > 0);
}

#[test]
fn bot_message() {
    assert!(replay("bot_message", ALL, checks::message::check_bot) > 0);
}

#[test]
fn serve() {
    assert!(replay("serve", ALL, checks::serve::check) > 0);
}

#[test]
fn records() {
    assert!(replay("records", ALL, checks::records::check) > 0);
}

#[test]
fn config() {
    assert!(replay("config", ALL, checks::config::check) > 0);
}
