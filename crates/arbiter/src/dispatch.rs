//! The one entry of a run: a league decides its pairs as it goes
//! ([`crate::league`]), every other format plays a schedule
//! ([`crate::tournament`]). Both build on the tournament module's pieces
//! (options, sandbox, launches), so the choice is made above both.

use crate::config::Config;
use crate::error::RunError;
use crate::outcome::RunOutcome;
use crate::run_options::RunOptions;

/// Runs the tournament `config` with `options`.
pub async fn run(config: &Config, options: RunOptions) -> Result<RunOutcome, RunError> {
    if options.slice {
        let format = match (config.league(), config.format()) {
            (Some(_), _) => Some("a league"),
            (None, crate::config::Format::Sprt) => Some("an SPRT"),
            _ => None,
        };
        if let Some(format) = format {
            return Err(RunError::SliceRefused(format));
        }
    }
    match config.league() {
        Some(&rule) => crate::league::run(config, rule, options).await,
        None => crate::tournament::run(config, options).await,
    }
}
