//! `aboure tune`: SPSA ([`aboure_spsa`]) over a bot's int and float options, each
//! iteration scored through the bot's own processes, under the file's time
//! control and sandbox:
//!
//! - `objective = "games"`: the two points play game pairs against each
//!   other (or each against the file's other bot) as an ordinary tournament
//!   in `iterations/NNNNN/` of the output folder ([`aboure_arbiter::run`]), so its
//!   games are durable, resumable and shared by any `aboure tune --join`
//!   workers ([`join`]) like any run's;
//! - `objective = "accuracy"`: each point's bot is started once and asked
//!   for its move in every position of a fixed sample of informative
//!   positions ([`sample`]), each move charged the seeds it loses against
//!   the solver's values.
//!
//! Every iteration is appended to `tune-path.jsonl` and synced before the
//! next starts; the perturbation of iteration `k` depends only on the seed
//! and `k`, and the games of iteration `k` on the seed plus `k`, so
//! `--resume` after a kill continues on the same path. At the end,
//! `tune.json` holds the parameters, the path and the final values, and the
//! optional `confirm` SPRT of the tuned values against the start ones,
//! played in `confirm/`.

#![deny(missing_docs)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use aboure_records::{
    TuneConfirm, TuneFile, TuneFileError, TunePath, TuneStep, TunedParameter, TUNE_SCHEMA,
};
use aboure_spsa::{Parameter, Probe, Spsa, SpsaError, SpsaState};
use tokio::sync::watch;

use aboure_arbiter::RunError;
use aboure_config::{Config, ProbeFormat, Tune};

mod check;
mod join;
mod sample;
mod scoring;

pub use check::check_declared;
pub use join::join;
pub use sample::{opening as random_opening, sample, sample_with, Sample, Scored};

/// How to run a tune (everything that is not in the file).
pub struct TuneOptions {
    /// The output folder.
    pub out_dir: PathBuf,
    /// Continue the tune in `out_dir`.
    pub resume: bool,
    /// Help the tune in `out_dir` as a worker ([`join`]) rather than own it.
    pub join: bool,
    /// The `aboure` binary, for built-in bots.
    pub aboure_exe: PathBuf,
    /// Set to true to stop: a `games` iteration's tournament is interrupted
    /// (its games are kept, and `--resume` finishes it), an `accuracy`
    /// iteration finishes and is written first.
    pub interrupt: watch::Receiver<bool>,
    /// Told of every iteration as it is written.
    pub progress: Arc<dyn Fn(&TuneProgress) + Send + Sync>,
}

/// What a tune tells its progress observer.
#[derive(Clone, Debug)]
pub enum TuneProgress {
    /// Resuming after this many written iterations, of this many.
    Resumed(u32, u32),
    /// An iteration was written.
    Step(TuneStep),
    /// The confirming SPRT started.
    Confirming,
    /// A worker ([`join`]) starts on the games of this iteration.
    Joining(u32),
    /// A worker waits for the tune's owner to write this iteration.
    Waiting(u32),
}

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

/// How a tune ended.
#[derive(Clone, Debug)]
pub struct TuneOutcome {
    /// The final values, as sent to the bot, in name order.
    pub values: Vec<(String, f64)>,
    /// Everything written to `tune.json`.
    pub file: TuneFile,
}

/// Runs the tune of `config`'s `[tune]` table.
pub async fn tune(config: &Config, options: TuneOptions) -> Result<TuneOutcome, TuneError> {
    let tune = config
        .tune()
        .ok_or_else(|| TuneError::NoTune(config.path().to_owned()))?;
    std::fs::create_dir_all(&options.out_dir)
        .map_err(|e| RunError::io(format!("cannot create {}", options.out_dir.display()))(e))?;
    let path_file = options.out_dir.join(aboure_records::TUNE_PATH_FILE);
    if !options.resume && std::fs::metadata(&path_file).is_ok_and(|m| m.len() > 0) {
        return Err(TuneError::Exists(options.out_dir.clone()));
    }
    let mut runner = scoring::Runner::new(config, tune, &options)?;
    let outcome = tune_with(config, tune, &mut runner, &options).await;
    runner.close().await;
    outcome
}

/// The tune itself, its probes scored by `runner`.
async fn tune_with(
    config: &Config,
    tune: &Tune,
    runner: &mut scoring::Runner<'_>,
    options: &TuneOptions,
) -> Result<TuneOutcome, TuneError> {
    let path_file = options.out_dir.join(aboure_records::TUNE_PATH_FILE);
    let parameters = runner.check_declared().await?;
    let (mut log, steps) = TunePath::open(&options.out_dir)?;
    let mut spsa = resumed(tune, parameters, config.seed(), &steps, &path_file)?;
    if !steps.is_empty() {
        (options.progress)(&TuneProgress::Resumed(
            spsa.state().iteration,
            tune.spsa().iterations,
        ));
    }
    record(config, tune, &spsa, steps.clone()).write_in(&options.out_dir)?;
    let mut path = steps;
    let sample = runner.sample().await?;
    while !spsa.finished() {
        if *options.interrupt.borrow() {
            return Err(TuneError::Interrupted(spsa.state().iteration));
        }
        let probe = spsa.probe();
        let started = Instant::now();
        let score = runner.score(&probe, sample.as_deref()).await?;
        spsa.update(&probe, score.gain)
            .map_err(|source| TuneError::State {
                path: path_file.clone(),
                source,
            })?;
        let step = step_of(&probe, &score, started, spsa.state());
        log.append(&step)?;
        (options.progress)(&TuneProgress::Step(step.clone()));
        path.push(step);
    }
    let sent = spsa.sent();
    let confirm = match tune.confirm() {
        Some(sprt) => {
            (options.progress)(&TuneProgress::Confirming);
            Some(runner.confirm(&sent, ProbeFormat::Sprt(sprt)).await?)
        }
        None => None,
    };
    finish(config, tune, spsa, path, confirm, options)
}

/// The tune from its start, or from the last written step.
fn resumed(
    tune: &Tune,
    parameters: Vec<aboure_spsa::Parameter>,
    seed: u64,
    steps: &[TuneStep],
    path_file: &std::path::Path,
) -> Result<Spsa, TuneError> {
    let fault = |source| TuneError::State {
        path: path_file.to_owned(),
        source,
    };
    let settings = tune.spsa().clone();
    match steps.last() {
        None => Spsa::new(parameters, settings, seed).map_err(fault),
        Some(last) => {
            let state = SpsaState {
                seed,
                iteration: last.iteration,
                theta: last.exact_theta(),
            };
            Spsa::resume(parameters, settings, state).map_err(fault)
        }
    }
}

fn step_of(probe: &Probe, score: &scoring::Score, started: Instant, state: &SpsaState) -> TuneStep {
    TuneStep {
        iteration: probe.iteration,
        delta: probe.delta.clone(),
        c: probe.c.clone(),
        plus: probe.plus.clone(),
        minus: probe.minus.clone(),
        gain: score.gain,
        loss: score.loss,
        games: score.games,
        seconds: started.elapsed().as_secs_f64(),
        theta: state.theta.clone(),
        theta_bits: state.theta.iter().map(|t| t.to_bits()).collect(),
    }
}

fn finish(
    config: &Config,
    tune: &Tune,
    spsa: Spsa,
    path: Vec<TuneStep>,
    confirm: Option<TuneConfirm>,
    options: &TuneOptions,
) -> Result<TuneOutcome, TuneError> {
    let values: Vec<(String, f64)> = spsa
        .parameters()
        .iter()
        .map(|p| p.name.clone())
        .zip(spsa.sent())
        .collect();
    let mut file = record(config, tune, &spsa, path);
    file.values = values.iter().cloned().collect::<BTreeMap<_, _>>();
    file.confirm = confirm;
    file.write_in(&options.out_dir)?;
    Ok(TuneOutcome { values, file })
}

/// `tune.json` without its values: what is written when the tune starts
/// (so a running tune can be reported), and completed at the end.
fn record(config: &Config, tune: &Tune, spsa: &Spsa, path: Vec<TuneStep>) -> TuneFile {
    TuneFile {
        schema: TUNE_SCHEMA,
        bot: config.bot(tune.bot()).name().to_owned(),
        objective: tune.objective().name().to_owned(),
        seed: config.seed(),
        iterations: Some(tune.spsa().iterations),
        parameters: spsa
            .parameters()
            .iter()
            .map(|p| TunedParameter {
                name: p.name.clone(),
                start: p.start,
                min: p.min,
                max: p.max,
                step: p.step,
            })
            .collect(),
        path,
        values: BTreeMap::new(),
        confirm: None,
    }
}

/// The options that give a bot the values `values` of `parameters`: an
/// int's rounded value (`0`, never `-0`), a float's in the shortest decimal
/// that reads back as the same double (`0.7`).
fn options_for(parameters: &[Parameter], values: &[f64]) -> BTreeMap<String, String> {
    parameters
        .iter()
        .zip(values)
        .map(|(p, v)| {
            let sent = p.sent(*v);
            let text = match p.integer {
                true => (sent as i64).to_string(),
                false => sent.to_string(),
            };
            (p.name.clone(), text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_int_is_sent_rounded_and_a_float_exactly() {
        let int = Parameter {
            integer: true,
            ..Parameter::real("w", 0.0, -10.0, 10.0, 1.0).unwrap()
        };
        let float = Parameter::real("c", 0.5, 0.0, 10.0, 0.1).unwrap();
        let odd = 0.1 + 0.2;
        let sent = options_for(&[int, float], &[-0.3, odd]);
        assert_eq!(sent["w"], "0");
        assert_eq!(sent["c"].parse::<f64>().unwrap().to_bits(), odd.to_bits());
        assert_eq!(sent["c"], "0.30000000000000004");
    }
}
