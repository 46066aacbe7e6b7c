//! A scheduled format (round robin, gauntlet, SPRT) as the source of the
//! run loop's pairs ([`crate::seat`]): the schedule's game pairs, each a
//! unit of the run folder claimed through the queue ([`Queue`]), held back
//! by an SPRT (no pair claimed past the look-ahead, none once the test has
//! decided), each game written under its claim. Every call reads or
//! writes the folder, so the loop runs them on tokio's blocking pool.
//!
//! The look-ahead is 4 x (claims in the folder + this worker's
//! concurrency), at least 16 pairs: it grows with the workers that are
//! alive and playing, not with the tasks a cluster was asked for, so the
//! overrun past the deciding pair stays within a few pairs per live game.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use aboure_records::{GameRecord, GamesWriter, Tally};
use aboure_workers::{Claim, ClaimFile, Unit};

use super::queue::{Next, Queue, WriteCheck, REFRESH_AGE};
use crate::config::Config;
use crate::error::RunError;
use crate::event::Event;
use crate::output::Output;
use crate::seat::{Ask, PairSource, Recorded};
use crate::sprt::LiveSprt;

/// How long a look-ahead, made from the claims in the folder, holds.
const LOOK_AHEAD_FOR: Duration = Duration::from_secs(2);

/// One worker's view of a scheduled run, as the source of its pairs.
pub(super) struct ScheduleSource {
    pub(super) queue: Queue,
    writer: GamesWriter,
    pub(super) tally: Tally,
    pub(super) played: usize,
    pub(super) sprt: Option<LiveSprt>,
    /// Why the SPRT stopped the run, once it has.
    pub(super) stopped: Option<String>,
    concurrency: u64,
    /// The SPRT's look-ahead in pairs, and when it was made.
    look_ahead: (u64, Instant),
    /// The units this process holds.
    held: BTreeMap<Unit, Claim<ClaimFile>>,
    /// What to tell the observer next.
    events: Vec<Event>,
    /// The last ask found nothing to claim.
    waiting: bool,
}

/// The live test of an SPRT run in `output`'s folder, between the bots its
/// manifest names (the one rule the report follows too).
pub(super) fn live_sprt(config: &Config, output: &Output) -> Option<LiveSprt> {
    let pairing = output.manifest.identity.sprt_pairing()?;
    Some(LiveSprt::new(config.sprt(), pairing, &output.dir))
}

impl ScheduleSource {
    /// The source of a worker that has played nothing yet, with the
    /// standings and the test of the games known as it starts.
    pub(super) fn new(
        queue: Queue,
        writer: GamesWriter,
        (tally, sprt): (Tally, Option<LiveSprt>),
        concurrency: usize,
    ) -> ScheduleSource {
        ScheduleSource {
            queue,
            writer,
            tally,
            played: 0,
            sprt,
            stopped: None,
            concurrency: concurrency as u64,
            look_ahead: (0, Instant::now()),
            held: BTreeMap::new(),
            events: Vec::new(),
            waiting: false,
        }
    }

    /// Counts the other workers' games read since the last call; returns
    /// them.
    pub(super) fn absorb(&mut self) -> Vec<GameRecord> {
        let news = self.queue.take_fresh();
        for g in &news {
            self.tally.add(g);
            if let Some(sprt) = self.sprt.as_mut() {
                sprt.add(g);
            }
        }
        news
    }

    /// Counts the other workers' games read since the last call, to be
    /// told with the standings they changed.
    fn tell_news(&mut self) {
        let news = self.absorb();
        if news.is_empty() {
            return;
        }
        let told = news.into_iter().map(|g| Event::Recorded(Box::new(g)));
        self.events.extend(told);
        self.events.push(Event::Standings(self.tally.standings()));
    }

    fn decided(&self) -> bool {
        self.sprt.as_ref().is_some_and(|s| s.status().decided())
    }

    /// Stops the run if the SPRT has decided, writing the decision once.
    fn check_stop(&mut self) -> Result<(), RunError> {
        if self.stopped.is_some() || !self.decided() {
            return Ok(());
        }
        let Some(sprt) = self.sprt.as_mut() else {
            return Ok(());
        };
        sprt.write_decision()?;
        let reason = sprt.describe();
        self.stopped = Some(reason.clone());
        self.events.push(Event::Stopped(reason));
        Ok(())
    }

    /// Every unit is finished: an SPRT reads what the others logged since
    /// its last look (its reads are spaced out), so that the worker that
    /// ends last counts every pair and writes the verdict.
    fn last_look(&mut self) -> Result<(), RunError> {
        if self.sprt.is_some() {
            self.queue.refresh()?;
            self.tell_news();
            self.check_stop()?;
        }
        Ok(())
    }

    fn look_ahead(&mut self) -> Result<u64, RunError> {
        let (cached, at) = self.look_ahead;
        if at.elapsed() < LOOK_AHEAD_FOR && cached > 0 {
            return Ok(cached);
        }
        let pairs = (4 * (self.queue.in_flight()? as u64 + self.concurrency)).max(16);
        self.look_ahead = (pairs, Instant::now());
        Ok(pairs)
    }

    /// Writes `record` under `claim` if the claim is still this worker's
    /// and no file holds the game yet; the claim if it is still held.
    fn write(
        &mut self,
        claim: Claim<ClaimFile>,
        record: GameRecord,
    ) -> Result<(Option<Claim<ClaimFile>>, Recorded), RunError> {
        match self.queue.may_write(&claim, &record)? {
            WriteCheck::Write => {}
            WriteCheck::Recorded => return Ok((Some(claim), Recorded::Duplicate)),
            WriteCheck::Lost => return Ok((None, Recorded::Lost)),
        }
        let before = self.writer.len();
        crate::results::write_result(&mut self.writer, &record, crate::results::RETRY)?;
        if !self.queue.confirm(&record)? {
            // Taken back: the mark, which readers follow, names another's.
            tracing::warn!(
                "game {} was recorded by another worker meanwhile",
                record.id
            );
            if let Ok(len) = before {
                let _ = self.writer.cut_back(len);
            }
            let dir = self.writer.path().parent().map(Path::to_owned);
            let what = format!(
                "the mark of game {} is another worker's (taken back)",
                record.id
            );
            return Err(aboure_workers::taken(&dir.unwrap_or_default(), what).into());
        }
        self.queue.wrote(&record);
        self.tally.add(&record);
        self.played += 1;
        if let Some(s) = self.sprt.as_mut() {
            s.add(&record);
        }
        self.tell_news();
        let sprt = self.sprt.as_ref().map(LiveSprt::status);
        self.events.push(Event::GameFinished(Box::new(record)));
        self.events.extend(sprt.map(Event::Sprt));
        self.events.push(Event::Standings(self.tally.standings()));
        Ok((Some(claim), Recorded::Written))
    }
}

impl PairSource for ScheduleSource {
    /// Other workers may share the folder.
    const POLLS: bool = true;

    /// Claims the next unit (or says why not), with the other workers'
    /// games learnt of meanwhile.
    fn ask(&mut self) -> Result<Ask, RunError> {
        self.queue.refresh_older(REFRESH_AGE)?;
        self.tell_news();
        if self.decided() {
            self.check_stop()?;
            return Ok(Ask::Stop);
        }
        let units = self.queue.ledger().units();
        let window = match self.sprt {
            None => 0..units,
            Some(_) => {
                let base = self.queue.ledger().complete_below();
                base..(base + self.look_ahead()?).min(units)
            }
        };
        Ok(match self.queue.next(window)? {
            Next::Play(claim, games) => {
                self.waiting = false;
                let number = claim.unit();
                self.held.insert(number, claim);
                Ask::Play { number, games }
            }
            Next::Wait(pause) => {
                if !self.waiting {
                    tracing::info!("nothing to claim now: waiting for the other workers");
                    self.waiting = true;
                }
                Ask::Wait(Some(pause))
            }
            Next::Done => {
                self.last_look()?;
                Ask::Stop
            }
        })
    }

    fn record(&mut self, number: Unit, record: GameRecord) -> Result<Recorded, RunError> {
        let recorded = match self.held.remove(&number) {
            Some(claim) => {
                let (held, recorded) = self.write(claim, record)?;
                self.held.extend(held.map(|c| (number, c)));
                recorded
            }
            None => Recorded::Lost,
        };
        self.tell_news();
        self.check_stop()?;
        Ok(recorded)
    }

    fn release(&mut self, number: Unit) -> Result<(), RunError> {
        match self.held.remove(&number) {
            Some(claim) => self.queue.release(claim),
            None => Ok(()),
        }
    }

    fn events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    fn halted(&self) -> bool {
        self.stopped.is_some()
    }
}
