//! `aboure tune CONFIG --join DIR`: a worker that plays a tune's games
//! beside the process that owns it.
//!
//! Each iteration of the `games` objective is an ordinary tournament in
//! `DIR/iterations/NNNNN/`, and a tournament folder is already a queue of
//! game pairs any number of workers claim ([`aboure_workers`]). So a worker
//! needs no queue of its own: it reads `tune-path.jsonl`, computes the next
//! iteration's two points exactly as the owner does (the perturbation of
//! iteration `k` depends only on the seed and `k`, theta is read back from
//! its bits), and joins that iteration's tournament as a `--join` worker;
//! then it waits for the owner to write the iteration, and goes on to the
//! next, and to the confirming SPRT at the end.
//!
//! Only the owner writes `tune-path.jsonl` and `tune.json`, so there is one
//! writer of theta. A worker killed mid-game loses nothing (its pair's
//! claim dies with it and another worker or the owner plays what it had
//! not recorded), and a game is recorded once whoever plays it; the owner,
//! killed, is resumed with `--resume` while the workers go on. The games of
//! an iteration do not depend on who played them, so with deterministic
//! bots the path is the one a single process takes (tested).
//!
//! The `accuracy` objective is not shared: its iterations are a second or
//! so of moves in a fixed sample, not split into units.

use std::time::Duration;

use aboure_records::{read_tune_path, TuneFile};

use super::{resumed, scoring, TuneError, TuneOptions, TuneProgress};
use aboure_arbiter::RunError;
use aboure_config::{Config, Objective, ProbeFormat, Tune};

/// How often a worker looks for the iteration the owner writes.
const POLL: Duration = Duration::from_millis(200);

/// Helps the tune of `config` in `options.out_dir` until it is finished
/// (its last iteration written and its confirming SPRT, if any, decided);
/// returns the iterations whose games it joined.
pub async fn join(config: &Config, options: TuneOptions) -> Result<u32, TuneError> {
    let tune = config
        .tune()
        .ok_or_else(|| TuneError::NoTune(config.path().to_owned()))?;
    if let Objective::Accuracy { .. } = tune.objective() {
        return Err(TuneError::NotShared(config.path().to_owned()));
    }
    let dir = &options.out_dir.clone();
    std::fs::create_dir_all(dir)
        .map_err(|e| RunError::io(format!("cannot create {}", dir.display()))(e))?;
    let options = TuneOptions {
        join: true,
        ..options
    };
    let mut runner = scoring::Runner::new(config, tune, &options)?;
    let joined = joined(config, tune, &mut runner, &options).await;
    runner.close().await;
    joined
}

/// The iterations joined, their games played through `runner`.
async fn joined(
    config: &Config,
    tune: &Tune,
    runner: &mut scoring::Runner<'_>,
    options: &TuneOptions,
) -> Result<u32, TuneError> {
    let dir = &options.out_dir;
    let path_file = dir.join(aboure_records::TUNE_PATH_FILE);
    let parameters = runner.check_declared().await?;
    let mut joined = 0;
    loop {
        if *options.interrupt.borrow() {
            return Err(TuneError::Interrupted(joined));
        }
        if TuneFile::read_in(dir)?.is_some_and(|f| !f.values.is_empty()) {
            return Ok(joined);
        }
        let steps = read_tune_path(dir)?;
        let spsa = resumed(tune, parameters.clone(), config.seed(), &steps, &path_file)?;
        if spsa.finished() {
            if let Some(sprt) = tune.confirm() {
                (options.progress)(&TuneProgress::Confirming);
                runner
                    .confirm(&spsa.sent(), ProbeFormat::Sprt(sprt))
                    .await?;
            }
            return Ok(joined);
        }
        let probe = spsa.probe();
        (options.progress)(&TuneProgress::Joining(probe.iteration));
        // Returns once every game of the iteration is recorded, by anyone.
        runner.score(&probe, None).await?;
        joined += 1;
        (options.progress)(&TuneProgress::Waiting(probe.iteration));
        while read_tune_path(dir)?.len() < probe.iteration as usize {
            if *options.interrupt.borrow() {
                return Err(TuneError::Interrupted(joined));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}
