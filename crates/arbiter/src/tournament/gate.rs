//! What a game task may do next, and writing what it played: the claim
//! queue under the SPRT's hold (no pair claimed past the look-ahead, none
//! once the test has decided), the write under the claim, and stopping
//! once the test has decided. Everything here reads or writes the folder,
//! so it runs on tokio's blocking pool, never on an async worker.
//!
//! The look-ahead is 4 x (claims in the folder + this worker's
//! concurrency), at least 16 pairs: it grows with the workers that are
//! alive and playing, not with the tasks a cluster was asked for, so the
//! overrun past the deciding pair stays within a few pairs per live game.

use std::path::Path;
use std::sync::{Arc, MutexGuard};
use std::time::{Duration, Instant};

use aboure_records::GameRecord;
use aboure_stats::OrderedStatus;

use super::queue::{Next, WriteCheck};
use super::{Shared, State};
use crate::config::Config;
use crate::error::RunError;
use crate::output::Output;
use crate::schedule::GameSpec;
use crate::sprt::LiveSprt;
use aboure_workers::{Claim, ClaimFile};

/// How old a reading of the other workers' files may be when choosing a
/// unit (the unit chosen is read for again once acquired, whatever its age).
pub(super) const REFRESH_AGE: Duration = Duration::from_millis(250);

/// How long a look-ahead, made from the claims in the folder, holds.
const LOOK_AHEAD_FOR: Duration = Duration::from_secs(2);

/// What a game task does next.
pub(super) enum Step {
    /// Play these games of the held unit.
    Play(Claim<ClaimFile>, Vec<GameSpec>),
    /// Nothing to claim now; look again after this long.
    Wait(Duration),
    /// Every game is recorded.
    Done,
    /// The test has decided: start nothing more.
    Stop,
}

/// A game just written.
pub(super) struct Written {
    pub(super) record: GameRecord,
    pub(super) sprt: Option<OrderedStatus>,
}

/// The live test of an SPRT run in `output`'s folder, between the bots its
/// manifest names (the one rule the report follows too).
pub(super) fn live_sprt(config: &Config, output: &Output) -> Option<LiveSprt> {
    let pairing = output.manifest.identity.sprt_pairing()?;
    Some(LiveSprt::new(config.sprt(), pairing, &output.dir))
}

pub(super) fn lock(shared: &Shared) -> Result<MutexGuard<'_, State>, RunError> {
    shared.state.lock().map_err(|_| RunError::StatePoisoned)
}

/// Counts the other workers' games read since the last call; returns them.
pub(super) fn absorb(state: &mut State) -> Vec<GameRecord> {
    let news = state.queue.take_fresh();
    for g in &news {
        state.tally.add(g);
        if let Some(sprt) = state.sprt.as_mut() {
            sprt.add(g);
        }
    }
    news
}

fn blocking<T: Send + 'static>(
    shared: &Arc<Shared>,
    f: impl FnOnce(&mut State) -> Result<T, RunError> + Send + 'static,
) -> impl std::future::Future<Output = Result<T, RunError>> {
    let shared = shared.clone();
    async move {
        tokio::task::spawn_blocking(move || f(&mut *lock(&shared)?))
            .await
            .map_err(|source| RunError::TaskFailed {
                what: "claim",
                source,
            })?
    }
}

/// Claims the next unit (or says why not), with the other workers' games
/// learnt of meanwhile.
pub(super) async fn next(shared: &Arc<Shared>) -> Result<(Step, Vec<GameRecord>), RunError> {
    blocking(shared, |state| {
        state.queue.refresh_older(REFRESH_AGE)?;
        let news = absorb(state);
        if state.sprt.as_ref().is_some_and(|s| s.status().decided()) {
            return Ok((Step::Stop, news));
        }
        let units = state.queue.ledger().units();
        let window = match state.sprt {
            None => 0..units,
            Some(_) => {
                let base = state.queue.ledger().complete_below();
                base..(base + look_ahead(state)?).min(units)
            }
        };
        let step = match state.queue.next(window)? {
            Next::Play(claim, games) => Step::Play(claim, games),
            Next::Wait(pause) => Step::Wait(pause),
            Next::Done => Step::Done,
        };
        Ok((step, news))
    })
    .await
}

fn look_ahead(state: &mut State) -> Result<u64, RunError> {
    let (cached, at) = state.look_ahead;
    if at.elapsed() < LOOK_AHEAD_FOR && cached > 0 {
        return Ok(cached);
    }
    let pairs = (4 * (state.queue.in_flight()? as u64 + state.concurrency)).max(16);
    state.look_ahead = (pairs, Instant::now());
    Ok(pairs)
}

/// Writes `record` if the claim is still this worker's and no file holds
/// the game yet (then the claim comes back); the other workers' games
/// learnt of meanwhile.
pub(super) async fn record(
    shared: &Arc<Shared>,
    claim: Option<Claim<ClaimFile>>,
    record: GameRecord,
) -> Result<(Option<Claim<ClaimFile>>, Option<Written>, Vec<GameRecord>), RunError> {
    let written = blocking(shared, move |state| {
        let Some(claim) = claim else {
            return Ok((None, None, absorb(state)));
        };
        match state.queue.may_write(&claim, &record)? {
            WriteCheck::Write => {}
            WriteCheck::Recorded => return Ok((Some(claim), None, absorb(state))),
            WriteCheck::Lost => return Ok((None, None, absorb(state))),
        }
        let before = state.writer.len();
        crate::results::write_result(&mut state.writer, &record, crate::results::RETRY)?;
        if !state.queue.confirm(&record)? {
            // Taken back: the mark, which readers follow, names another's.
            tracing::warn!(
                "game {} was recorded by another worker meanwhile",
                record.id
            );
            if let Ok(len) = before {
                let _ = state.writer.cut_back(len);
            }
            let dir = state.writer.path().parent().map(Path::to_owned);
            let what = format!(
                "the mark of game {} is another worker's (taken back)",
                record.id
            );
            return Err(aboure_workers::taken(&dir.unwrap_or_default(), what).into());
        }
        state.queue.wrote(&record);
        state.tally.add(&record);
        state.played += 1;
        if let Some(s) = state.sprt.as_mut() {
            s.add(&record);
        }
        let news = absorb(state);
        let sprt = state.sprt.as_ref().map(LiveSprt::status);
        Ok((Some(claim), Some(Written { record, sprt }), news))
    })
    .await;
    if let Err(
        RunError::ResultNotWritten { .. }
        | RunError::Workers(aboure_workers::Error::ClaimsLost { .. }),
    ) = &written
    {
        // No game more: the others in progress finish and are written if
        // the disk allows.
        shared.stop.send_replace(true);
    }
    written
}

/// Gives up a unit (finished or not).
pub(super) async fn release(shared: &Arc<Shared>, claim: Claim<ClaimFile>) -> Result<(), RunError> {
    blocking(shared, move |state| state.queue.release(claim)).await
}

/// Stops the run if the SPRT has decided (writing the decision once);
/// returns the reason the first time. Whether it has is read under the
/// lock at once (no I/O); the decision file is written, under the lock so
/// that one task writes it, on the blocking pool, not on a runtime worker.
pub(super) async fn check_stop(shared: &Arc<Shared>) -> Result<Option<String>, RunError> {
    let undecided = |state: &State| {
        state.stopped.is_some() || !state.sprt.as_ref().is_some_and(|s| s.status().decided())
    };
    if undecided(&*lock(shared)?) {
        return Ok(None);
    }
    let stop = shared.clone();
    tokio::task::spawn_blocking(move || {
        let mut state = lock(&stop)?;
        let state = &mut *state;
        if undecided(state) {
            return Ok(None); // another task stopped the run meanwhile
        }
        let Some(sprt) = state.sprt.as_mut() else {
            return Ok(None);
        };
        sprt.write_decision()?;
        let reason = sprt.describe();
        state.stopped = Some(reason.clone());
        stop.stop.send_replace(true);
        Ok(Some(reason))
    })
    .await
    .map_err(|source| RunError::TaskFailed {
        what: "the SPRT's decision",
        source,
    })?
}
