//! Bot processes kept from one run to the next (`aboure tune`'s games
//! objective): `restart = "never"` across runs, so that a caller who plays
//! many short runs of the same bots (an SPSA iteration is one game pair)
//! pays for games, not for process start-ups.
//!
//! A process is kept under its bot's name with the options it was last
//! given; a run that takes it sends only the options whose values differ
//! (`setoption` before `newgame`, in one round trip). A bot whose search
//! keeps state between games must drop what depends on a changed option
//! (the reference alphabeta clears its table when its evaluation changes).

use std::collections::HashMap;
use std::sync::Mutex;

use aboure_process::{BotProcess, Launch};

use super::QUIT_GRACE;

/// Idle bot processes by bot name, each with the options it holds.
#[derive(Default)]
pub struct KeptBots {
    idle: Mutex<HashMap<String, Vec<(BotProcess, Vec<(String, String)>)>>>,
}

/// A kept process taken for a game, and the options it must be sent to
/// play as `launch` says.
pub(crate) struct Taken {
    pub(crate) process: BotProcess,
    pub(crate) changed: Vec<(String, String)>,
}

impl KeptBots {
    /// An empty set.
    pub fn new() -> KeptBots {
        KeptBots::default()
    }

    /// An idle process of `launch`'s bot, if one is kept.
    pub(crate) fn take(&self, launch: &Launch) -> Option<Taken> {
        let mut idle = self.idle.lock().ok()?;
        let (process, held) = idle.get_mut(&launch.name)?.pop()?;
        Some(Taken {
            process,
            changed: changed(&held, &launch.options),
        })
    }

    /// Keeps `process`, which now holds the options of `launch`.
    pub(crate) fn put(&self, launch: &Launch, process: BotProcess) {
        if let Ok(mut idle) = self.idle.lock() {
            let entry = idle.entry(launch.name.clone()).or_default();
            entry.push((process, launch.options.clone()));
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
            Ok(mut idle) => idle.drain().flat_map(|(_, v)| v).map(|p| p.0).collect(),
            Err(_) => Vec::new(),
        };
        for process in all {
            process.quit(QUIT_GRACE).await;
        }
    }
}

/// The options of `wanted` whose values differ from (or are missing in)
/// `held`, in `wanted`'s order.
fn changed(held: &[(String, String)], wanted: &[(String, String)]) -> Vec<(String, String)> {
    wanted
        .iter()
        .filter(|w| !held.contains(w))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::changed;

    fn opts(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn only_the_options_whose_values_changed_are_sent_again() {
        let held = opts(&[
            ("hash", "1"),
            ("row_weight", "40"),
            ("mobility_weight", "3"),
        ]);
        let wanted = opts(&[
            ("hash", "1"),
            ("row_weight", "38"),
            ("mobility_weight", "3"),
        ]);
        assert_eq!(changed(&held, &wanted), opts(&[("row_weight", "38")]));
        assert!(changed(&held, &held).is_empty());
        assert_eq!(changed(&[], &wanted), wanted);
    }
}
