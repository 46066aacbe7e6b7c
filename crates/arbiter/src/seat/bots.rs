//! The bot processes a seat plays with: started for each game, or kept
//! idle between games for reuse when `restart = "never"` (and taken from,
//! and given back to, the processes kept across runs, [`KeptBots`]). A
//! kept process is held (see `aboure_process::hold`) from the end of its
//! game until its next `newgame` releases it, as it is while its opponent
//! thinks: the bot whose move ended a game would otherwise run through
//! the games of others until its next one, `ponder = true` or not. A
//! process that failed is killed; one healthy and not to be reused is
//! told `quit`, with a grace period before it is killed.

use std::collections::HashMap;
use std::sync::Arc;

use aboure_engine::Side;
use aboure_process::{BotFailure, BotProcess, Launch};
use aboure_records::GameRecord;
use tokio::sync::watch;

use super::kept::{KeptBots, QUIT_GRACE};
use crate::config::{BotId, Config, Restart};
use crate::event::Event;
use crate::game::{forfeit_at_start, play, GameSetup};
use crate::run_options::Observer;
use crate::schedule::GameSpec;

/// One seat's processes.
pub(super) struct Bots {
    config: Arc<Config>,
    launches: Arc<Vec<Launch>>,
    /// Whether a healthy process is kept after its game.
    reuse: bool,
    /// Idle processes kept for reuse.
    pool: HashMap<BotId, BotProcess>,
    /// Processes kept across runs: taken when the pool has none, and
    /// given the pool's at the end.
    kept: Option<Arc<KeptBots>>,
    /// Told of each fresh start ([`Event::BotStarted`]).
    observer: Observer,
}

/// A process taken for a game, and the options to send it first.
struct Reused {
    process: BotProcess,
    options: Vec<(String, String)>,
}

impl Bots {
    pub(super) fn new(
        config: &Arc<Config>,
        launches: Arc<Vec<Launch>>,
        kept: Option<Arc<KeptBots>>,
        observer: Observer,
    ) -> Bots {
        Bots {
            reuse: config.restart() == Restart::Never || kept.is_some(),
            config: config.clone(),
            launches,
            pool: HashMap::new(),
            kept,
            observer,
        }
    }

    /// Hands the idle processes on to the next run, or shuts them down.
    pub(super) async fn close(&mut self) {
        for (id, bot) in self.pool.drain() {
            match &self.kept {
                Some(kept) => kept.put(&self.launches[id.index()], bot),
                None => bot.quit(QUIT_GRACE).await,
            }
        }
    }

    /// Plays `spec`; `None` if the run was interrupted meanwhile (the
    /// game's processes are shut down then).
    pub(super) async fn play(
        &mut self,
        spec: &GameSpec,
        mut interrupt: watch::Receiver<bool>,
    ) -> Option<GameRecord> {
        let mut seats: [Option<BotProcess>; 2] = [None, None];
        let record = tokio::select! {
            record = self.game(spec, &mut seats) => Some(record),
            _ = interrupt.wait_for(|&i| i) => None,
        };
        if record.is_none() {
            seats.iter_mut().flatten().for_each(BotProcess::retire);
            for bot in seats.into_iter().flatten() {
                bot.quit(QUIT_GRACE).await;
            }
            return None;
        }
        // Return healthy processes to the pool, held until their next
        // `newgame` (the games of others go on meanwhile), or shut them
        // down, both given the least CPU weight before either is asked to
        // quit (one quits while the other waits its turn).
        if !self.reuse {
            seats.iter_mut().flatten().for_each(BotProcess::retire);
        }
        for (bot, seat) in [spec.south, spec.north].into_iter().zip(seats) {
            if let Some(mut process) = seat {
                match self.reuse {
                    true => {
                        process.hold().await;
                        self.pool.insert(bot, process);
                    }
                    false => process.quit(QUIT_GRACE).await,
                }
            }
        }
        record
    }

    /// An idle process of bot `id` (this seat's, else one kept from an
    /// earlier run), with the options to send it before the game: all of
    /// them for a process kept across runs (see [`KeptBots`]).
    fn reused(&mut self, id: BotId) -> Option<Reused> {
        let launch = &self.launches[id.index()];
        let process = match self.pool.remove(&id) {
            Some(p) => p,
            None => self.kept.as_ref()?.take(launch)?,
        };
        let options = match self.kept {
            Some(_) => launch.options.clone(),
            None => Vec::new(),
        };
        Some(Reused { process, options })
    }

    /// Starts (or reuses) both bots and plays the game. The processes are
    /// left in `seats` unless they failed (then they are killed here).
    async fn game(&mut self, spec: &GameSpec, seats: &mut [Option<BotProcess>; 2]) -> GameRecord {
        let ids = [spec.south, spec.north];
        let reused = ids.map(|i| self.reused(i));
        let config = &self.config;
        let opening = config.openings().opening(config.seed(), spec.pair);
        let setup = GameSetup::of(config, spec, &opening);
        let [south, north] = reused;
        let (south, north) = tokio::join!(
            ready(south, &self.launches[ids[0].index()], setup.ponder[0]),
            ready(north, &self.launches[ids[1].index()], setup.ponder[1]),
        );
        let mut failure = None;
        for (side, started) in [(Side::South, south), (Side::North, north)] {
            match started {
                Ok(mut process) => {
                    if let Some(took) = process.take_startup() {
                        (self.observer)(&Event::BotStarted {
                            bot: process.name().to_owned(),
                            took,
                        });
                    }
                    seats[side.index()] = Some(process);
                }
                Err(f) => {
                    failure.get_or_insert((side, f));
                }
            }
        }
        if let Some((side, f)) = failure {
            return forfeit_at_start(setup, side, f);
        }
        let [Some(south), Some(north)] = seats else {
            unreachable!("both seats are filled when neither failed")
        };
        let (record, failed) = play(setup, [south, north]).await;
        if let Some(side) = failed {
            if let Some(mut bot) = seats[side.index()].take() {
                bot.kill().await;
            }
        }
        record
    }
}

/// A bot ready for a new game: a reused process told its options (if it
/// must be) and `newgame`, or a fresh one after its handshake; then held
/// (unless it may `ponder`) while its opponent's handshake goes on, until
/// it is next spoken to.
async fn ready(
    reused: Option<Reused>,
    launch: &Launch,
    ponder: bool,
) -> Result<BotProcess, BotFailure> {
    let (mut process, options) = match reused {
        Some(r) => (r.process, r.options),
        None => (BotProcess::start(launch).await?, Vec::new()),
    };
    match process.new_game_with(&options).await {
        Ok(()) => {
            if !ponder {
                process.hold().await;
            }
            Ok(process)
        }
        Err(f) => {
            process.kill().await;
            Err(f)
        }
    }
}
