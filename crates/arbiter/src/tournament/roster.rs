//! Telling who works on the run: every few seconds the worker reads the
//! roster of `claims/` ([`crate::claim::roster`]) and sends it to the
//! observer; the first live worker by name also writes it to
//! `workers.json` in the run folder (whole or not at all), where the live
//! page and people can read it. Reading the roster probes each worker's
//! lock once, so it is done rarely: at the start, then every 5 s.

use std::path::PathBuf;
use std::time::Duration;

use super::Observer;
use crate::claim::{roster, WorkerState, CLAIMS_DIR};
use crate::event::Event;

/// The roster file in the run folder.
pub const WORKERS_FILE: &str = "workers.json";

const EVERY: Duration = Duration::from_secs(5);

/// Reads and tells the roster until aborted.
pub(super) async fn watch(dir: PathBuf, me: String, observer: Observer) {
    loop {
        let (dir, me) = (dir.clone(), me.clone());
        let read = tokio::task::spawn_blocking(move || {
            let workers = roster(&dir.join(CLAIMS_DIR))?;
            let first = workers.iter().find(|w| w.state == WorkerState::Alive);
            if first.is_some_and(|w| w.name == me) {
                let text = serde_json::to_string_pretty(&serde_json::json!({ "workers": workers }))
                    .unwrap_or_default();
                let temp = dir.join(format!(".{WORKERS_FILE}.{}", std::process::id()));
                std::fs::write(&temp, text + "\n")
                    .and_then(|()| std::fs::rename(&temp, dir.join(WORKERS_FILE)))?;
            }
            std::io::Result::Ok(workers)
        })
        .await;
        match read {
            Ok(Ok(workers)) => observer(&Event::Workers(workers)),
            Ok(Err(e)) => tracing::warn!("cannot read the workers of the run: {e}"),
            Err(_) => return,
        }
        tokio::time::sleep(EVERY).await;
    }
}
