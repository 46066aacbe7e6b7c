//! Why a tune stopped before its end.

use std::path::PathBuf;

use aboure_arbiter::RunError;
use aboure_records::TuneFileError;
use aboure_spsa::SpsaError;

/// Why a tune stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The file has no `[tune]` table.
    #[error("{0}: no [tune] table: `aboure tune` needs one (see configs/README.md)")]
    NoTune(PathBuf),
    /// A parameter does not fit the options the bot declares.
    #[error("bot {bot}: parameter {parameter}: {message}")]
    Parameter {
        /// The bot.
        bot: String,
        /// The parameter.
        parameter: String,
        /// What does not fit.
        message: String,
    },
    /// A probe bot failed (start-up, crash, time-out, an illegal move).
    #[error("bot {bot} (iteration {iteration}): {detail}")]
    Bot {
        /// The probe's name.
        bot: String,
        /// The iteration.
        iteration: u32,
        /// What happened.
        detail: String,
    },
    /// A tournament of the tune failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The tune's files.
    #[error(transparent)]
    File(#[from] TuneFileError),
    /// The output folder already holds a tune, and `--resume` was not given.
    #[error("{0} already holds a tune: resume it with --resume, or choose another --out")]
    Exists(PathBuf),
    /// The saved path does not fit the file's tune.
    #[error("{path}: {source}")]
    State {
        /// The path file.
        path: PathBuf,
        /// Why it does not fit.
        source: SpsaError,
    },
    /// Interrupted.
    #[error("interrupted after {0} iterations; resume with --resume")]
    Interrupted(u32),
    /// `--join` of a tune whose iterations are not split into claimable
    /// units.
    #[error("{0}: a tune by accuracy cannot be joined (its iterations are not split into units workers claim): --join needs objective = \"games\"")]
    NotShared(PathBuf),
}
