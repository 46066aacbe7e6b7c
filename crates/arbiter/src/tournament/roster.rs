//! Telling who works on the run: every few seconds the worker reads the
//! roster of `claims/` ([`crate::claim::roster`]), adds the games each
//! worker's results file holds (as far as this worker has read them), and
//! sends it to the observer; the first live worker by name also writes it
//! to `workers.json` in the run folder
//! ([`aboure_records::workers::WorkersFile`], whole or not at all), where
//! the live page and people read it. Reading the roster probes each
//! worker's lock once, so it is done rarely: at the start, then every 5 s,
//! and once more by each worker as it leaves (the last one to leave writes
//! the final file).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use aboure_records::workers::{WorkersFile, WORKERS_SCHEMA};

use super::{gate, Observer, Shared};
use crate::claim::{roster, WorkerEntry, WorkerState, CLAIMS_DIR};
use crate::event::Event;

const EVERY: Duration = Duration::from_secs(5);

/// Reads and tells the roster until aborted.
pub(super) async fn watch(dir: PathBuf, me: String, observer: Observer, shared: Arc<Shared>) {
    loop {
        let games = match gate::lock(&shared) {
            Ok(state) => state.queue.games_by_file().clone(),
            Err(_) => return,
        };
        let (dir, me) = (dir.clone(), me.clone());
        match tokio::task::spawn_blocking(move || read(&dir, &me, &games)).await {
            Ok(Ok(workers)) => observer(&Event::Workers(workers)),
            Ok(Err(e)) => tracing::warn!("cannot read the workers of the run: {e}"),
            Err(_) => return,
        }
        tokio::time::sleep(EVERY).await;
    }
}

/// Reads the roster with `games` (recorded games by results file name),
/// and writes `workers.json` if this worker, `me`, is the first live one,
/// or if none is alive (the last to leave).
pub(super) fn read(
    dir: &Path,
    me: &str,
    games: &BTreeMap<String, u64>,
) -> Result<Vec<WorkerEntry>, Box<dyn std::error::Error + Send + Sync>> {
    let mut workers = roster(&dir.join(CLAIMS_DIR))?;
    for w in &mut workers {
        w.games = games.get(&w.results).copied().unwrap_or(0);
    }
    let first = workers.iter().find(|w| w.state == WorkerState::Alive);
    if first.is_none_or(|w| w.name == me) {
        // A worker no longer alive was last seen alive when the file was
        // last written, if that is later than its own files say.
        match WorkersFile::read_in(dir) {
            Ok(Some(previous)) => {
                for w in workers.iter_mut().filter(|w| w.state != WorkerState::Alive) {
                    if let Some(seen) = previous.worker(&w.name).map(|p| &p.last_seen) {
                        if *seen > w.last_seen {
                            w.last_seen = seen.clone();
                        }
                    }
                }
            }
            Ok(None) => {}
            Err(e) => tracing::warn!("{e}: written anew"),
        }
        let file = WorkersFile {
            schema: WORKERS_SCHEMA,
            written: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            written_by: me.to_owned(),
            workers,
        };
        file.write_in(dir)?;
        return Ok(file.workers);
    }
    Ok(workers)
}
