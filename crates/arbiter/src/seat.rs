//! The one run loop of a league, whoever decides its pairs.
//!
//! A league runs `tasks` seats at once. A seat asks a [`PairSource`] for
//! the next pair, plays the games of it that are missing, offers each
//! record back to the source, lets go of the pair, and asks again, until
//! the source says the league stopped or the run is interrupted. Two
//! sources feed it: a league played by one process (`solo.rs`), which
//! decides pair `n` from its own records in number order, and a worker
//! sharing a folder (`desk.rs`), which decides from every worker's records
//! and claims each pair. The loop is the same, so both play, count and
//! report a game the same way.
//!
//! A source's calls may do blocking I/O (reading other workers' files,
//! syncing a record), so a seat runs them on tokio's blocking pool, one at
//! a time per process (the source sits behind a mutex). A seat with
//! nothing to take waits: for a seat of this process to record or release
//! a pair (the only thing that can change a solo league's answer), and, if
//! the source [`PairSource::POLLS`], at most a backoff of 100 ms doubling
//! to 2 s (other processes record too). The first seat to fail stops the
//! others: a run whose records cannot be written must not go on playing.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use aboure_league::in_flight::{Book, Slot};
use aboure_league::Rule;
use aboure_process::Launch;
use aboure_records::{EntrantRecord, GameRecord, StopReason, Tally};
use aboure_workers::Unit;
use rand::Rng;
use tokio::sync::watch;

use super::play::{game_spec, one_game};
use crate::config::{BotId, Config};
use crate::error::RunError;
use crate::event::Event;
use crate::tournament::Observer;

/// How long a polling seat with nothing to take waits: from `POLL_FIRST`,
/// doubling to `POLL_MOST`.
const POLL_FIRST: Duration = Duration::from_millis(100);
const POLL_MOST: Duration = Duration::from_secs(2);

/// What a seat does next.
#[derive(Debug)]
pub(super) enum Ask {
    /// Play these games (0, 1 or both) of pair `number`, held now.
    Play {
        number: Unit,
        slot: Slot,
        games: Vec<u8>,
    },
    /// Nothing to take now: pairs are in flight and the next cannot be
    /// decided before they finish; ask again later.
    Wait,
    /// The league is over (the rule's reason).
    Stop(StopReason),
}

/// What became of a game offered to [`PairSource::record`].
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Recorded {
    /// Written to this process's results file.
    Written,
    /// Another file holds it already: dropped.
    Duplicate,
    /// Another worker holds the pair now: dropped, with the claim.
    Lost,
}

/// Where a league's next pair comes from, and where its games go.
pub(super) trait PairSource: Send + 'static {
    /// Whether others (other processes) can change the answer of
    /// [`PairSource::ask`], so that a waiting seat asks again after a
    /// while even if no seat of this process recorded anything.
    const POLLS: bool;

    /// The next pair for a seat, or why there is none.
    fn ask(&mut self) -> Result<Ask, RunError>;

    /// Keeps game `game` of the held pair `number`.
    fn record(&mut self, number: Unit, game: u8, record: GameRecord) -> Result<Recorded, RunError>;

    /// Lets go of pair `number`, complete or not.
    fn release(&mut self, number: Unit) -> Result<(), RunError>;

    /// The games others recorded since the last call.
    fn news(&mut self) -> Vec<GameRecord> {
        Vec::new()
    }

    /// The league as recorded so far: its rule, its pairs, its entrants.
    fn league(&self) -> (&Rule, &Book, &[EntrantRecord]);

    /// The standings of every game counted.
    fn tally(&self) -> &Tally;
}

/// What every seat of a league shares.
pub(super) struct Seat<S> {
    pub config: Arc<Config>,
    pub source: Arc<Mutex<S>>,
    /// Each entrant's bot.
    pub bots: Arc<Vec<BotId>>,
    pub launches: Arc<Vec<Launch>>,
    pub interrupt: watch::Receiver<bool>,
    pub observer: Observer,
    /// Bumped whenever a seat records or releases, to wake waiting seats.
    pub changed: Arc<watch::Sender<u64>>,
}

impl<S> Seat<S> {
    /// The first seat of a league run with `options`, asking `source` for
    /// its pairs; the others are its clones.
    pub(super) fn first(
        config: &Config,
        source: Arc<Mutex<S>>,
        bots: Vec<BotId>,
        launches: Arc<Vec<Launch>>,
        options: &crate::tournament::RunOptions,
    ) -> Self {
        Seat {
            config: Arc::new(config.clone()),
            source,
            bots: Arc::new(bots),
            launches,
            interrupt: options.interrupt.clone(),
            observer: options.observer.clone(),
            changed: Arc::new(watch::channel(0).0),
        }
    }
}

impl<S> Clone for Seat<S> {
    fn clone(&self) -> Self {
        Seat {
            config: self.config.clone(),
            source: self.source.clone(),
            bots: self.bots.clone(),
            launches: self.launches.clone(),
            interrupt: self.interrupt.clone(),
            observer: self.observer.clone(),
            changed: self.changed.clone(),
        }
    }
}

/// Plays `tasks` seats until each stops; the league's stop reason, if one
/// saw it, or the first error (which ends the other seats).
pub(super) async fn seats<S: PairSource>(
    seat: Seat<S>,
    tasks: usize,
) -> Result<Option<StopReason>, RunError> {
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..tasks {
        set.spawn(seat.clone().run());
    }
    drop(seat);
    let mut stop = None;
    while let Some(ended) = set.join_next().await {
        let ended = ended.map_err(|source| RunError::TaskFailed {
            what: "league seat",
            source,
        });
        match ended {
            Ok(Ok(reason)) => stop = stop.or(reason),
            Ok(Err(e)) | Err(e) => {
                set.abort_all();
                return Err(e);
            }
        }
    }
    Ok(stop)
}

impl<S: PairSource> Seat<S> {
    /// Plays pairs; the league's stop reason, or `None` if interrupted.
    async fn run(self) -> Result<Option<StopReason>, RunError> {
        let mut pause = POLL_FIRST;
        let mut changes = self.changed.subscribe();
        loop {
            if *self.interrupt.borrow() {
                return Ok(None);
            }
            changes.borrow_and_update();
            match self.with_source(S::ask).await? {
                Ask::Stop(reason) => return Ok(Some(reason)),
                Ask::Wait => {
                    let wait = pause.mul_f64(rand::thread_rng().gen_range(0.5..1.5));
                    pause = (pause * 2).min(POLL_MOST);
                    self.wait(&mut changes, wait).await;
                }
                Ask::Play {
                    number,
                    slot,
                    games,
                } => {
                    pause = POLL_FIRST;
                    let bots = [self.bots[slot.south_first], self.bots[slot.north_first]];
                    let played = self.play(number, bots, games).await;
                    let released = self.with_source(move |s| s.release(number)).await;
                    self.changed.send_modify(|n| *n += 1);
                    played?;
                    released?;
                }
            }
        }
    }

    /// Waits for a change made by a seat of this process, an interrupt,
    /// or (if the source polls) `poll`.
    async fn wait(&self, changes: &mut watch::Receiver<u64>, poll: Duration) {
        let mut interrupt = self.interrupt.clone();
        let poll = async {
            match S::POLLS {
                true => tokio::time::sleep(poll).await,
                false => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = poll => {}
            _ = changes.changed() => {}
            _ = interrupt.wait_for(|&i| i) => {}
        }
    }

    /// Plays `games` of the held pair `number`, offering each record.
    async fn play(&self, number: Unit, bots: [BotId; 2], games: Vec<u8>) -> Result<(), RunError> {
        for game in games {
            if *self.interrupt.borrow() {
                return Ok(());
            }
            let spec = game_spec(number, bots, game);
            (self.observer)(&Event::GameStarted {
                id: spec.id.clone(),
                south: self.config.bot(spec.south).name().to_owned(),
                north: self.config.bot(spec.north).name().to_owned(),
            });
            let mut interrupt = self.interrupt.clone();
            let record = tokio::select! {
                record = one_game(&self.config, &self.launches, &spec) => record,
                _ = interrupt.wait_for(|&i| i) => return Ok(()),
            };
            let kept = record.clone();
            let (written, progress, standings) = self
                .with_source(move |s| {
                    let written = s.record(number, game, record)?;
                    let (rule, book, entrants) = s.league();
                    let complete = book.get(number).is_some_and(Slot::complete);
                    let progress = complete
                        .then(|| super::progress(rule, book, entrants))
                        .flatten();
                    Ok((written, progress, s.tally().standings()))
                })
                .await?;
            self.changed.send_modify(|n| *n += 1);
            match written {
                Recorded::Written => {
                    (self.observer)(&Event::GameFinished(Box::new(kept)));
                    (self.observer)(&Event::Standings(standings));
                    if let Some(event) = progress {
                        (self.observer)(&event);
                    }
                }
                Recorded::Duplicate => {}
                Recorded::Lost => return Ok(()),
            }
        }
        Ok(())
    }

    /// Runs `f` on the source on tokio's blocking pool, then tells the
    /// observer of the games others recorded.
    async fn with_source<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut S) -> Result<T, RunError> + Send + 'static,
    ) -> Result<T, RunError> {
        let source = self.source.clone();
        let (value, news, standings) = tokio::task::spawn_blocking(move || {
            let mut source = source.lock().unwrap_or_else(|p| p.into_inner());
            let value = f(&mut source);
            let news = source.news();
            let standings = (!news.is_empty()).then(|| source.tally().standings());
            (value, news, standings)
        })
        .await
        .map_err(|source| RunError::TaskFailed {
            what: "league seat",
            source,
        })?;
        for g in news {
            (self.observer)(&Event::Recorded(Box::new(g)));
        }
        if let Some(standings) = standings {
            (self.observer)(&Event::Standings(standings));
        }
        value
    }
}
