//! A live web page of running aboure tournaments: `aboure serve DIR...` and
//! `aboure run --serve`.
//!
//! A long run is watched for hours, and a run split over machines has no
//! single terminal to watch. This crate follows the results files of the
//! given folders as they grow (every `*.jsonl` in each: one `games.jsonl`,
//! or one file per shard), keeps the report of each run up to date, and
//! serves it as the HTML report's page, updated in the browser by
//! server-sent events: standings with intervals, crosstable, the SPRT's LLR
//! path, each opening's pairs for a run played from a book, pace and time
//! left, failures as they happen, the newest games in the game viewer. A tune's folder gets the tune's page instead: each
//! parameter's path and the objective as the tune's report draws them,
//! theta and its trend, the budget done, the result and its confirming SPRT.
//!
//! It only reads: results files are never opened for writing. It listens on
//! 127.0.0.1 unless told otherwise, and then demands a random token on
//! every request; its routes are fixed, so no part of a request names a
//! file.
//!
//! - [`aboure_records::Follower`]: one file, followed by polling (works over NFS).
//! - [`folder`]: one folder's files and `run.json`.
//! - [`live`]: the run's state and the snapshot the page shows.
//! - [`tune`]: a tune's folder (`aboure tune`), followed instead of a run.
//! - `server`, `page`, `token`: the HTTP side.
#![deny(missing_docs)]

pub mod folder;
pub mod live;
mod page;
mod server;
mod token;
pub mod tune_page;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::watch;

pub use folder::Folder;
pub use live::{LiveRun, RunInfo, Snapshot};
pub use server::Published;

/// How to serve.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The run folders, one page each.
    pub folders: Vec<PathBuf>,
    /// Show all the folders as one run (its shards, each in its own folder).
    pub combine: bool,
    /// Address to listen on; anything but 127.0.0.1 needs `allow_remote`.
    pub address: IpAddr,
    /// Port; 0 for any free one.
    pub port: u16,
    /// Allow an address other than 127.0.0.1 (a token is then required).
    pub allow_remote: bool,
    /// How often the files are polled.
    pub poll: Duration,
    /// Least time between two snapshots of a run (each rebuilds its report).
    pub min_update: Duration,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            folders: Vec::new(),
            combine: false,
            address: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            allow_remote: false,
            poll: Duration::from_millis(500),
            min_update: Duration::from_secs(1),
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A folder given does not exist or is not a folder.
    #[error("{0}: not a folder (give the run's output folder, e.g. out/NAME)")]
    NotAFolder(PathBuf),
    /// No folder given.
    #[error("no folder to serve")]
    NoFolder,
    /// A non-local address without the flag that allows it.
    #[error("listening on {0} would show the runs to other machines: add --allow-remote (a random token is then required in the URL)")]
    RemoteNotAllowed(IpAddr),
    /// The address or port cannot be bound.
    #[error("cannot listen on {address}: {source}")]
    Bind {
        /// The address and port.
        address: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// A server that is running; it stops (and its folder watchers with it) when
/// dropped, or when its task ends.
pub struct Running {
    /// The URL to open, token included.
    pub url: String,
    /// The address bound.
    pub address: SocketAddr,
    task: tokio::task::JoinHandle<()>,
    stop: Arc<AtomicBool>,
}

impl Running {
    /// Serves until the process ends.
    pub async fn wait(mut self) {
        let _ = (&mut self.task).await;
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.task.abort();
    }
}

/// Binds, starts a watcher thread per folder and the HTTP server on the
/// current tokio runtime, and returns at once.
pub async fn start(options: ServeOptions) -> Result<Running, ServeError> {
    if options.folders.is_empty() {
        return Err(ServeError::NoFolder);
    }
    if let Some(dir) = options.folders.iter().find(|d| !d.is_dir()) {
        return Err(ServeError::NotAFolder(dir.clone()));
    }
    let local = options.address == IpAddr::V4(Ipv4Addr::LOCALHOST);
    if !local && !options.allow_remote {
        return Err(ServeError::RemoteNotAllowed(options.address));
    }
    let wanted = SocketAddr::new(options.address, options.port);
    let listener = tokio::net::TcpListener::bind(wanted)
        .await
        .map_err(|source| ServeError::Bind {
            address: wanted,
            source,
        })?;
    let address = listener.local_addr().map_err(|source| ServeError::Bind {
        address: wanted,
        source,
    })?;
    let token = (!local).then(token::new_token);
    let stop = Arc::new(AtomicBool::new(false));
    let groups: Vec<Vec<PathBuf>> = match options.combine {
        true => vec![options.folders.clone()],
        false => options.folders.iter().map(|d| vec![d.clone()]).collect(),
    };
    let folders: Vec<Folder> = groups.iter().map(|g| Folder::new(g)).collect();
    let runs: Vec<String> = folders
        .iter()
        .map(|f| f.name().display().to_string())
        .collect();
    let snapshots = folders
        .into_iter()
        .map(|folder| watch_folder(folder, &options, stop.clone()))
        .collect();
    let state = server::AppState {
        runs: Arc::new(runs),
        snapshots: Arc::new(snapshots),
        token: token.as_deref().map(Arc::from),
        hosts: Arc::new(server::local_hosts(address)),
    };
    let app = server::router(state);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!("the live page's server stopped: {e}");
        }
    });
    let url = match &token {
        Some(t) => format!("http://{address}/?token={t}"),
        None => format!("http://{address}/"),
    };
    Ok(Running {
        url,
        address,
        task,
        stop,
    })
}

/// Follows one folder on its own thread (file reads and report building
/// are blocking work), publishing a snapshot when something changed, at
/// most once per `min_update`.
fn watch_folder(
    mut folder: Folder,
    options: &ServeOptions,
    stop: Arc<AtomicBool>,
) -> watch::Receiver<Arc<Published>> {
    let first = publish(&mut folder, 0);
    let (tx, rx) = watch::channel(Arc::new(first));
    let (poll, min_update) = (options.poll, options.min_update);
    std::thread::Builder::new()
        .name("follow".to_owned())
        .spawn(move || {
            let mut seq = 1;
            let mut dirty = false;
            let mut last = Instant::now();
            // A snapshot rebuilds the report (an SPRT's LLR path is
            // recomputed over every pair): at least twice its cost passes
            // between two, so following a long run never takes over a core.
            let mut gap = min_update;
            while !stop.load(Ordering::Relaxed) && !tx.is_closed() {
                let polled = folder.poll();
                dirty |= polled.changed;
                if dirty && !polled.more && last.elapsed() >= gap {
                    seq += 1;
                    let started = Instant::now();
                    let _ = tx.send(Arc::new(publish(&mut folder, seq)));
                    gap = min_update.max(2 * started.elapsed());
                    dirty = false;
                    last = Instant::now();
                }
                if !polled.more {
                    std::thread::sleep(poll);
                }
            }
        })
        .map_or_else(
            |e| tracing::error!("cannot start a thread to follow a folder: {e}"),
            drop,
        );
    rx
}

fn publish(folder: &mut Folder, seq: u64) -> Published {
    if seq == 0 {
        // The first page shows what is there already, read in full.
        while folder.poll().more {}
    }
    let Snapshot { live, body } = folder.snapshot();
    let json = json!({
        "seq": seq,
        "dir": folder.name().display().to_string(),
        "live": live,
        "body": body,
    })
    .to_string();
    Published { seq, json, body }
}
