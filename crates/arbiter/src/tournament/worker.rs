//! One game task of a worker process: claims a unit, plays its games
//! (keeping idle bot processes for reuse when `restart = "never"`),
//! records each under the claim, releases the unit and claims the next,
//! until nothing is left, the SPRT has decided, or the run is interrupted.

use std::collections::HashMap;
use std::sync::Arc;

use aboure_engine::Side;
use aboure_process::{BotFailure, BotProcess, Launch};
use aboure_records::GameRecord;
use tokio::sync::watch;

use super::gate::{self, check_stop, Step};
use super::kept::KeptBots;
use super::{Observer, Shared, QUIT_GRACE};
use crate::config::{BotId, Config, Restart};
use crate::error::RunError;
use crate::event::Event;
use crate::game::{forfeit_at_start, play, GameSetup};
use crate::schedule::GameSpec;

pub(super) struct Worker {
    pub(super) config: Arc<Config>,
    pub(super) launches: Arc<Vec<Launch>>,
    pub(super) shared: Arc<Shared>,
    pub(super) interrupt: watch::Receiver<bool>,
    pub(super) observer: Observer,
    /// Idle processes kept for reuse (`restart = "never"`).
    pub(super) pool: HashMap<BotId, BotProcess>,
    /// Processes kept across runs: taken when the pool has none, and
    /// given the pool's at the end.
    pub(super) kept: Option<Arc<KeptBots>>,
}

impl Worker {
    pub(super) async fn run(mut self) -> Result<(), RunError> {
        let result = self.units().await;
        for (id, bot) in self.pool.drain() {
            match &self.kept {
                Some(kept) => kept.put(&self.launches[id.index()], bot),
                None => bot.quit(QUIT_GRACE).await,
            }
        }
        result
    }

    fn stopping(&self) -> bool {
        *self.interrupt.borrow() || *self.shared.stop.borrow()
    }

    async fn units(&mut self) -> Result<(), RunError> {
        let mut waiting = false;
        loop {
            if self.stopping() {
                return Ok(());
            }
            let (step, news) = gate::next(&self.shared).await?;
            self.tell(news);
            let (claim, games) = match step {
                Step::Done => return Ok(()),
                Step::Stop => {
                    if let Some(reason) = check_stop(&self.shared).await? {
                        (self.observer)(&Event::Stopped(reason));
                    }
                    return Ok(());
                }
                Step::Wait(pause) => {
                    if !waiting {
                        tracing::info!("nothing to claim now: waiting for the other workers");
                        waiting = true;
                    }
                    let mut interrupt = self.interrupt.clone();
                    tokio::select! {
                        _ = tokio::time::sleep(pause) => {}
                        _ = interrupt.wait_for(|&i| i) => {}
                    }
                    continue;
                }
                Step::Play(claim, games) => (claim, games),
            };
            waiting = false;
            let mut claim = Some(claim);
            for spec in games {
                if self.stopping() {
                    break;
                }
                let Some(record) = self.play_one(&spec).await else {
                    return Ok(()); // interrupted: the claim is dropped
                };
                let (held, written, news) =
                    gate::record(&self.shared, claim.take(), record).await?;
                claim = held;
                let mine = written.is_some();
                self.tell(news);
                if let Some(status) = written {
                    (self.observer)(&Event::GameFinished(Box::new(status.record)));
                    if let Some(sprt) = status.sprt {
                        (self.observer)(&Event::Sprt(sprt));
                    }
                }
                if mine {
                    self.standings();
                }
                if let Some(reason) = check_stop(&self.shared).await? {
                    (self.observer)(&Event::Stopped(reason));
                }
                if claim.is_none() {
                    break; // lost: another worker holds the unit now
                }
            }
            if let Some(claim) = claim {
                gate::release(&self.shared, claim).await?;
            }
        }
    }

    /// Tells the observer of games other workers recorded, and of the
    /// standings they changed.
    fn tell(&self, news: Vec<GameRecord>) {
        if news.is_empty() {
            return;
        }
        for g in news {
            (self.observer)(&Event::Recorded(Box::new(g)));
        }
        self.standings();
    }

    /// Tells the observer the run's standings (the tally is counted under
    /// the lock; reading it copies a few rows and writes nothing).
    fn standings(&self) {
        if let Ok(state) = gate::lock(&self.shared) {
            let standings = state.tally.standings();
            drop(state);
            (self.observer)(&Event::Standings(standings));
        }
    }

    /// Plays `spec`; `None` if the run was interrupted meanwhile.
    async fn play_one(&mut self, spec: &GameSpec) -> Option<GameRecord> {
        (self.observer)(&Event::GameStarted {
            id: spec.id.clone(),
            south: self.config.bot(spec.south).name().to_owned(),
            north: self.config.bot(spec.north).name().to_owned(),
        });
        let mut seats: [Option<BotProcess>; 2] = [None, None];
        let mut interrupt = self.interrupt.clone();
        let record = tokio::select! {
            record = self.game(spec, &mut seats) => Some(record),
            _ = interrupt.wait_for(|&i| i) => None,
        };
        if record.is_none() {
            for bot in seats.into_iter().flatten() {
                bot.quit(QUIT_GRACE).await;
            }
            return None;
        }
        // Return healthy processes to the pool, or shut them down.
        for (bot, seat) in [spec.south, spec.north].into_iter().zip(seats) {
            if let Some(process) = seat {
                if self.config.restart() == Restart::Never || self.kept.is_some() {
                    self.pool.insert(bot, process);
                } else {
                    process.quit(QUIT_GRACE).await;
                }
            }
        }
        record
    }

    /// An idle process of bot `id` (this worker's, else one kept from an
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
                Ok(process) => seats[side.index()] = Some(process),
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

/// A process taken for a game, and the options to send it first.
struct Reused {
    process: BotProcess,
    options: Vec<(String, String)>,
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
