//! A conformance suite for aboure bots: runs a bot as a real subprocess
//! through scripted protocol exchanges and says, check by check, where it
//! breaks the protocol, before a tournament finds out the hard way.
//!
//! A bot author runs `aboure check-bot -- COMMAND [ARGS...]`; this crate does
//! the work and returns a [`SuiteReport`]: one [`CheckOutcome`] per
//! [`Check`], each with its status, warnings, observations and the
//! [`Transcript`] of what was said, timed from the start of the check.
//!
//! The bot is started the way the arbiter starts it, by the same code
//! (`aboure-process`: its own process group, death with the parent, the
//! same resource limits, stderr drained, lines bounded by the same rule),
//! and its replies are heard and timed by the arbiter's rule
//! ([`aboure_process::Turn`]: an answer's time runs to the instant its line
//! was read; each answer is fenced by an `isready`). A check that passes
//! and leaves the bot idle with its options untouched hands it to the next
//! check (which pings it first), so a slow-starting bot is not started
//! twenty times; after a failure, or a check that changes options or ends
//! the bot, the next check starts a new one, so one failure never hides
//! behind another. If the handshake check fails, the others are skipped:
//! none of them can start.
//!
//! ```no_run
//! use std::time::Duration;
//! use aboure_check::{run, CheckConfig};
//!
//! let margin = Duration::from_millis(50);
//! let config = CheckConfig::new(["python3", "bots/python/bot.py"], margin).unwrap();
//! let report = run(&config, |outcome| println!("{} {:?}", outcome.name, outcome.status)).unwrap();
//! assert!(report.all_passed());
//! ```
#![deny(missing_docs)]

mod check;
mod checks;
mod config;
mod handshake;
mod identity;
mod link;
mod outcome;
mod replies;
mod scenario;
mod session;
mod transcript;
// The suite against tiny shell-script bots, in the library's unit-test
// binary: a separate integration-test binary would link the crate again.
#[cfg(test)]
mod shell_bots_tests;

pub use check::{Check, UnknownCheck};
pub use config::{CheckConfig, EmptyCommand, SharedLauncher, DEFAULT_TIMEOUT};
pub use outcome::{CheckOutcome, Status, SuiteReport};
pub use transcript::{Direction, Entry, Transcript};

use session::Session;

/// Runs the configured checks in order, calling `on_outcome` as each one
/// ends (for progress output).
pub async fn run_async(
    config: &CheckConfig,
    mut on_outcome: impl FnMut(&CheckOutcome),
) -> SuiteReport {
    let mut report = SuiteReport::default();
    let mut handshake_failed = false;
    let mut spare = None;
    for &check in &config.checks {
        let outcome = if handshake_failed {
            CheckOutcome {
                name: check.name(),
                status: Status::Skip {
                    reason: "the handshake check failed".to_owned(),
                },
                headline: None,
                details: Vec::new(),
                warnings: Vec::new(),
                startups: Vec::new(),
                transcript: Transcript::default(),
                stderr: Vec::new(),
            }
        } else {
            let mut session = Session::new(config, spare.take());
            let result = check.run(&mut session).await;
            let (outcome, left) = session
                .finish(check.name(), result, check.leaves_bot_reusable())
                .await;
            spare = left;
            outcome
        };
        if check == Check::Handshake && outcome.failed() {
            handshake_failed = true;
        }
        on_outcome(&outcome);
        report.outcomes.push(outcome);
    }
    if let Some(left) = spare {
        left.kill().await;
    }
    report
}

/// [`run_async`] on a runtime of its own.
pub fn run(
    config: &CheckConfig,
    on_outcome: impl FnMut(&CheckOutcome),
) -> std::io::Result<SuiteReport> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(run_async(config, on_outcome)))
}
