//! Running `aboure check-bot` as a real process and reading its report, for
//! the check-bot tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The `aboure` binary under test.
pub const ABOURE: &str = env!("CARGO_BIN_EXE_aboure");

/// Flags for runs where only a misbehaviour should fail a check: timed
/// answers get a margin no loaded machine needs, so timing never decides.
pub const PATIENT: [&str; 4] = ["--margin", "2000", "--timeout", "20000"];

/// A finished `aboure check-bot` run.
pub struct Run {
    /// Exit code.
    pub code: Option<i32>,
    /// Everything it printed on stdout.
    pub stdout: String,
    /// Everything it printed on stderr.
    pub stderr: String,
}

/// Runs `aboure check-bot FLAGS -- BOT...`.
pub fn check_bot(flags: &[&str], bot: &[&str]) -> Run {
    let output = Command::new(ABOURE)
        .arg("check-bot")
        .args(flags)
        .arg("--")
        .args(bot)
        .output()
        .expect("run aboure check-bot");
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The path of a misbehaving bot in `tests/check_bot_fixtures/`.
pub fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/check_bot_fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

impl Run {
    /// The report's line for `check`: `PASS name`, `FAIL name: reason`, ...
    pub fn line(&self, check: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| {
                let mut words = l.split_whitespace();
                matches!(words.next(), Some("PASS" | "FAIL" | "SKIP"))
                    && words.next().map(|w| w.trim_end_matches(':')) == Some(check)
            })
            .unwrap_or_else(|| panic!("no line for check {check} in:\n{}", self.stdout))
    }

    /// `PASS`, `FAIL` or `SKIP` for `check`.
    pub fn status(&self, check: &str) -> &str {
        &self.line(check)[..4]
    }

    /// The names of the checks with this status, in report order.
    pub fn with_status(&self, status: &str) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| l.starts_with(status))
            .filter_map(|l| l.split_whitespace().nth(1))
            .map(|w| w.trim_end_matches(':'))
            .collect()
    }

    /// The summary line.
    pub fn summary(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }

    /// Everything, for assertion messages.
    pub fn dump(&self) -> String {
        format!(
            "exit code {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}
