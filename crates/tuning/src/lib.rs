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
use std::time::Instant;

use aboure_records::{TuneConfirm, TuneFile, TunePath, TuneStep, TunedParameter, TUNE_SCHEMA};
use aboure_spsa::{Probe, Spsa, SpsaState};

use aboure_arbiter::RunError;
use aboure_config::{Config, ProbeFormat, Tune};

mod check;
mod error;
mod join;
mod options;
mod sample;
mod scoring;

pub use check::check_declared;
pub use error::TuneError;
pub use join::join;
pub use options::{TuneOptions, TuneProgress};
pub use sample::{opening as random_opening, sample, sample_with, Sample, Scored};

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
