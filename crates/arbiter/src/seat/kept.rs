//! Bot processes kept from one run to the next (`aboure tune`'s games
//! objective): `restart = "never"` across runs, so that a caller who plays
//! many short runs of the same bots (an SPSA iteration is one game pair)
//! pays for games, not for process start-ups.
//!
//! A kept process is told all of its bot's options again before every
//! game (`setoption` before `newgame`, in one round trip): what it plays
//! with is then the launch's, whatever the last run gave it, and a bot
//! that resets what depends on its options when they are set (the
//! reference alphabeta clears its table) plays each game as a process
//! just started would, so that a tune's path stays a function of its seed
//! whether it was interrupted or shared between workers or not.
//!
//! The grace a bot gets to quit ([`QUIT_GRACE`]) is here too, for the
//! kept processes and the seat's own.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use aboure_process::{BotProcess, Launch};

/// Time a bot gets to exit after `quit` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Idle bot processes by bot name.
#[derive(Default)]
pub struct KeptBots {
    idle: Mutex<HashMap<String, Vec<BotProcess>>>,
}

impl KeptBots {
    /// An empty set.
    pub fn new() -> KeptBots {
        KeptBots::default()
    }

    /// An idle process of `launch`'s bot, if one is kept.
    pub(crate) fn take(&self, launch: &Launch) -> Option<BotProcess> {
        self.idle.lock().ok()?.get_mut(&launch.name)?.pop()
    }

    /// Keeps `process` of `launch`'s bot.
    pub(crate) fn put(&self, launch: &Launch, process: BotProcess) {
        if let Ok(mut idle) = self.idle.lock() {
            idle.entry(launch.name.clone()).or_default().push(process);
        }
    }

    /// Idle processes kept.
    pub fn len(&self) -> usize {
        self.idle
            .lock()
            .map_or(0, |idle| idle.values().map(Vec::len).sum())
    }

    /// True when no process is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Quits every kept process (`quit`, a grace period, then kill).
    pub async fn quit_all(&self) {
        let all: Vec<BotProcess> = match self.idle.lock() {
            Ok(mut idle) => idle.drain().flat_map(|(_, v)| v).collect(),
            Err(_) => Vec::new(),
        };
        for process in all {
            process.quit(QUIT_GRACE).await;
        }
    }
}
