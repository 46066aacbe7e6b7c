//! The SPRT's hold on a run: whether the next game may start (not past the
//! look-ahead, no decision yet), what the siblings' files say, and stopping
//! once the test has decided. Reading the siblings' files is blocking I/O,
//! so it runs on tokio's blocking pool, never on an async worker.

use std::sync::Arc;

use aboure_records::GameRecord;
use aboure_stats::OrderedStatus;

use super::{RunOptions, Shared};
use crate::config::Config;
use crate::error::RunError;
use crate::output::Output;
use crate::schedule::GameSpec;
use crate::sprt::LiveSprt;

/// What the SPRT allows for the next game.
pub(super) enum Gate {
    /// Start it.
    Start,
    /// Wait for this pair, a sibling's, to complete.
    Wait(u64),
    /// The test has decided: start nothing more.
    Stop,
}

/// The live test of an SPRT run, fed with the games already played here and
/// in the sibling shards' files.
pub(super) fn live_sprt(
    config: &Config,
    options: &RunOptions,
    output: &Output,
    concurrency: usize,
    previous: &[GameRecord],
) -> Result<Option<LiveSprt>, RunError> {
    let Some(pairing) = output.manifest.identity.sprt_pairing() else {
        return Ok(None);
    };
    let shards = options.shard.map_or(1, |s| u64::from(s.count));
    let mut live = LiveSprt::new(
        config.sprt(),
        pairing,
        &output.dir,
        &output.games_path,
        (4 * shards * concurrency as u64).max(16),
    );
    previous.iter().for_each(|g| live.add(g));
    live.refresh()?;
    Ok(Some(live))
}

fn with_sprt<T>(
    shared: &Shared,
    f: impl FnOnce(&mut LiveSprt) -> Result<T, RunError>,
) -> Result<Option<T>, RunError> {
    let mut state = shared
        .state
        .lock()
        .map_err(|_| RunError::Options("state lock poisoned".into()))?;
    state.sprt.as_mut().map(f).transpose()
}

fn gate(shared: &Shared, pair: u32, refresh: bool) -> Result<Gate, RunError> {
    let gate = with_sprt(shared, |sprt| {
        if refresh {
            sprt.refresh()?;
        }
        Ok(if sprt.status().decided() {
            Gate::Stop
        } else if sprt.may_start(pair) {
            Gate::Start
        } else {
            Gate::Wait(sprt.missing())
        })
    })?;
    Ok(gate.unwrap_or(Gate::Start))
}

fn blocking_failed(e: tokio::task::JoinError) -> RunError {
    RunError::Options(format!("SPRT task failed: {e}"))
}

/// The gate for `spec`, reading the siblings' files again when the test
/// holds the game back.
pub(super) async fn wait(shared: &Arc<Shared>, spec: &GameSpec) -> Result<Gate, RunError> {
    match gate(shared, spec.pair, false)? {
        Gate::Wait(_) => {
            let (shared, pair) = (shared.clone(), spec.pair);
            tokio::task::spawn_blocking(move || gate(&shared, pair, true))
                .await
                .map_err(blocking_failed)?
        }
        gate => Ok(gate),
    }
}

/// Reads what the siblings wrote since last time; the combined status.
pub(super) async fn refresh(shared: &Arc<Shared>) -> Result<Option<OrderedStatus>, RunError> {
    let shared = shared.clone();
    tokio::task::spawn_blocking(move || {
        with_sprt(&shared, |sprt| {
            sprt.refresh()?;
            Ok(sprt.status())
        })
    })
    .await
    .map_err(blocking_failed)?
}

/// Stops the run if the SPRT has decided (writing the decision once);
/// returns the reason the first time.
pub(super) fn check_stop(shared: &Shared) -> Result<Option<String>, RunError> {
    let mut state = shared
        .state
        .lock()
        .map_err(|_| RunError::Options("state lock poisoned".into()))?;
    let state = &mut *state;
    let Some(sprt) = state.sprt.as_mut() else {
        return Ok(None);
    };
    if state.stopped.is_some() || !sprt.status().decided() {
        return Ok(None);
    }
    sprt.write_decision()?;
    let reason = sprt.describe();
    state.stopped = Some(reason.clone());
    shared.stop.send_replace(true);
    Ok(Some(reason))
}
