//! The one run loop of every format, whoever decides its pairs.
//!
//! A run plays on a number of seats at once. A seat asks a [`PairSource`]
//! for the next pair, plays the games of it that are missing, offers each
//! record back to the source, lets go of the pair, and asks again, until
//! the source says the run is over or the run is interrupted. The format
//! is only the source: a round robin or a gauntlet (`tournament/source.rs`:
//! the schedule's game pairs, claimed as units of the folder, held back by
//! an SPRT's look-ahead and stopped by its decision), a league played by
//! one process (`league/solo.rs`: pair `n` decided from its own records in
//! number order) or by workers sharing a folder (`league/desk.rs`). So
//! every format plays, records, resumes and tells its progress the same
//! way, as fastchess and cutechess feed one game manager from any format.
//!
//! A source's calls may do blocking I/O (reading other workers' files,
//! syncing a record), so a seat runs them on tokio's blocking pool, one at
//! a time per process (the source sits behind a mutex); after each call
//! the seat tells the observer the [`Event`]s the source has for it. A
//! seat with nothing to take waits the pause the source names, or else
//! for a seat of this process to record or release a pair (the only thing
//! that can change a solo league's answer) and, if the source
//! [`PairSource::POLLS`], at most a backoff of 100 ms doubling to 2 s.
//! The first seat to fail halts the others: they start no game more, and
//! the games in play finish and are offered (a run whose records cannot
//! be written must not go on playing, but a disk that has room again
//! keeps what was played).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use aboure_process::Launch;
use aboure_records::GameRecord;
use aboure_workers::Unit;
use rand::Rng;
use tokio::sync::watch;

use crate::config::Config;
use crate::error::RunError;
use crate::event::Event;
use crate::run_options::{Observer, RunOptions};
use crate::schedule::GameSpec;

mod bots;
pub(crate) mod kept;
use bots::Bots;
pub use kept::{KeptBots, QUIT_GRACE};

/// How long a polling seat with nothing to take waits: from `POLL_FIRST`,
/// doubling to `POLL_MOST`.
const POLL_FIRST: Duration = Duration::from_millis(100);
const POLL_MOST: Duration = Duration::from_secs(2);

/// What a seat does next.
#[derive(Debug)]
pub(crate) enum Ask {
    /// Play these games of pair `number`, held now.
    Play { number: Unit, games: Vec<GameSpec> },
    /// Nothing to take now (pairs are in flight, or held elsewhere): ask
    /// again after the pause given, or else when the seat's backoff says.
    Wait(Option<Duration>),
    /// The run is over for this seat (the source knows why).
    Stop,
}

/// What became of a game offered to [`PairSource::record`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Recorded {
    /// Written to this process's results file.
    Written,
    /// Another file holds it already: dropped.
    Duplicate,
    /// Another worker holds the pair now: dropped, with the claim.
    Lost,
}

/// Where a run's next pair comes from, and where its games go.
pub(crate) trait PairSource: Send + 'static {
    /// Whether others (other processes) can change the answer of
    /// [`PairSource::ask`], so that a waiting seat asks again after a
    /// while even if no seat of this process recorded anything.
    const POLLS: bool;

    /// The next pair for a seat, or why there is none.
    fn ask(&mut self) -> Result<Ask, RunError>;

    /// Keeps `record`, a game of the held pair `number`.
    fn record(&mut self, number: Unit, record: GameRecord) -> Result<Recorded, RunError>;

    /// Lets go of pair `number`, complete or not.
    fn release(&mut self, number: Unit) -> Result<(), RunError>;

    /// What to tell the observer since the last call, in order: games
    /// others recorded, this process's games written, the standings, a
    /// format's progress, its stop.
    fn events(&mut self) -> Vec<Event>;

    /// True once no seat should start another game (an SPRT decided).
    fn halted(&self) -> bool {
        false
    }
}

/// What every seat of a run shares.
pub(crate) struct Seat<S> {
    config: Arc<Config>,
    source: Arc<Mutex<S>>,
    launches: Arc<Vec<Launch>>,
    interrupt: watch::Receiver<bool>,
    observer: Observer,
    /// Bumped whenever a seat records or releases, to wake waiting seats.
    changed: Arc<watch::Sender<u64>>,
    /// Set when no seat may start a game more: the source halted, or a
    /// seat failed.
    halt: Arc<watch::Sender<bool>>,
    /// Processes kept across runs (`RunOptions::kept`).
    kept: Option<Arc<KeptBots>>,
}

impl<S> Seat<S> {
    /// The first seat of a run with `options`, asking `source` for its
    /// pairs; the others are its clones. `keep` says whether processes
    /// kept across runs are used (a league starts every game's bots
    /// afresh).
    pub(crate) fn first(
        config: &Config,
        source: Arc<Mutex<S>>,
        launches: Arc<Vec<Launch>>,
        options: &RunOptions,
        keep: bool,
    ) -> Self {
        Seat {
            config: Arc::new(config.clone()),
            source,
            launches,
            interrupt: options.interrupt.clone(),
            observer: options.observer.clone(),
            changed: Arc::new(watch::channel(0).0),
            halt: Arc::new(watch::channel(false).0),
            kept: options.kept.clone().filter(|_| keep),
        }
    }
}

impl<S> Clone for Seat<S> {
    fn clone(&self) -> Self {
        Seat {
            config: self.config.clone(),
            source: self.source.clone(),
            launches: self.launches.clone(),
            interrupt: self.interrupt.clone(),
            observer: self.observer.clone(),
            changed: self.changed.clone(),
            halt: self.halt.clone(),
            kept: self.kept.clone(),
        }
    }
}

/// Plays `tasks` seats until each stops; the first error, once every seat
/// has ended (a failure halts the others).
pub(crate) async fn seats<S: PairSource>(seat: Seat<S>, tasks: usize) -> Result<(), RunError> {
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..tasks {
        set.spawn(seat.clone().run());
    }
    let mut first = Ok(());
    while let Some(ended) = set.join_next().await {
        let ended = ended.map_err(|source| RunError::TaskFailed {
            what: "seat",
            source,
        });
        if let Err(e) | Ok(Err(e)) = ended {
            seat.halt.send_replace(true);
            if first.is_ok() {
                first = Err(e);
            }
        }
    }
    first
}

impl<S: PairSource> Seat<S> {
    /// Plays pairs until the source stops, the run halts or it is
    /// interrupted; then hands its idle processes on or shuts them down.
    async fn run(self) -> Result<(), RunError> {
        let mut bots = Bots::new(
            &self.config,
            self.launches.clone(),
            self.kept.clone(),
            self.observer.clone(),
        );
        let result = self.pairs(&mut bots).await;
        bots.close().await;
        result
    }

    fn stopping(&self) -> bool {
        *self.interrupt.borrow() || *self.halt.borrow()
    }

    async fn pairs(&self, bots: &mut Bots) -> Result<(), RunError> {
        let mut pause = POLL_FIRST;
        let mut changes = self.changed.subscribe();
        loop {
            if self.stopping() {
                return Ok(());
            }
            changes.borrow_and_update();
            match self.with_source(S::ask).await? {
                Ask::Stop => return Ok(()),
                Ask::Wait(given) => {
                    let backoff = pause.mul_f64(rand::thread_rng().gen_range(0.5..1.5));
                    pause = (pause * 2).min(POLL_MOST);
                    self.wait(&mut changes, given, backoff).await;
                }
                Ask::Play { number, games } => {
                    pause = POLL_FIRST;
                    let played = self.play(bots, number, games).await;
                    let released = self.with_source(move |s| s.release(number)).await;
                    self.changed.send_modify(|n| *n += 1);
                    played?;
                    released?;
                }
            }
        }
    }

    /// Waits `given` (or an interrupt) if the source named a pause; else
    /// for a change made by a seat of this process, an interrupt, or (if
    /// the source polls) `backoff`.
    async fn wait(
        &self,
        changes: &mut watch::Receiver<u64>,
        given: Option<Duration>,
        backoff: Duration,
    ) {
        let mut interrupt = self.interrupt.clone();
        if let Some(pause) = given {
            tokio::select! {
                _ = tokio::time::sleep(pause) => {}
                _ = interrupt.wait_for(|&i| i) => {}
            }
            return;
        }
        let poll = async {
            match S::POLLS {
                true => tokio::time::sleep(backoff).await,
                false => std::future::pending().await,
            }
        };
        let mut halt = self.halt.subscribe();
        tokio::select! {
            _ = poll => {}
            _ = changes.changed() => {}
            _ = interrupt.wait_for(|&i| i) => {}
            _ = halt.wait_for(|&h| h) => {}
        }
    }

    /// Plays `games` of the held pair `number`, offering each record.
    async fn play(
        &self,
        bots: &mut Bots,
        number: Unit,
        games: Vec<GameSpec>,
    ) -> Result<(), RunError> {
        for spec in games {
            if self.stopping() {
                return Ok(());
            }
            (self.observer)(&Event::GameStarted {
                id: spec.id.clone(),
                south: self.config.bot(spec.south).name().to_owned(),
                north: self.config.bot(spec.north).name().to_owned(),
            });
            let Some(record) = bots.play(&spec, self.interrupt.clone()).await else {
                return Ok(()); // interrupted: the pair is let go unfinished
            };
            let recorded = self.with_source(move |s| s.record(number, record)).await?;
            self.changed.send_modify(|n| *n += 1);
            if recorded == Recorded::Lost {
                return Ok(()); // another worker holds the pair now
            }
        }
        Ok(())
    }

    /// Runs `f` on the source on tokio's blocking pool, then tells the
    /// observer what the source has to tell, and halts the seats if the
    /// source says so.
    async fn with_source<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut S) -> Result<T, RunError> + Send + 'static,
    ) -> Result<T, RunError> {
        let source = self.source.clone();
        let (value, events, halted) = tokio::task::spawn_blocking(move || {
            let mut source = source.lock().unwrap_or_else(|p| p.into_inner());
            let value = f(&mut source);
            (value, source.events(), source.halted())
        })
        .await
        .map_err(|source| RunError::TaskFailed {
            what: "seat",
            source,
        })?;
        for event in &events {
            (self.observer)(event);
        }
        if halted || value.is_err() {
            self.halt.send_replace(true);
        }
        value
    }
}
