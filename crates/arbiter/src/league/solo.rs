//! A league played by one process: the pairs come from its own records,
//! decided in number order by [`aboure_league::in_flight::decide`], so that
//! pair `n` is a function of the records of the pairs before
//! `n + 1 - in_flight` and a resumed league plays the same pairs as one
//! never stopped. The loop that plays them is the one every format runs
//! ([`crate::seat`]); this file prepares the folder, is the loop's
//! [`PairSource`], and writes the verdict when the league stops.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use aboure_league::in_flight::{self, Book, Membership, Slot};
use aboure_league::{Decision, Rule};
use aboure_records::{outcome, results_file, EntrantRecord, GameRecord, StopReason, Tally};
use aboure_sandbox::Layers;
use aboure_workers::Unit;

use super::pair::{missing_games, parse_game_id};
use super::LeagueRunError;
use super::{entrants, memberships, record_game, stop_reason, verdict, written_events};
use crate::config::{BotId, Config};
use crate::error::RunError;
use crate::event::Event;
use crate::outcome::RunOutcome;
use crate::output::{prepare, schedule_identity, Output};
use crate::run_options::RunOptions;
use crate::seat::{seats, Ask, PairSource, Recorded, Seat};
use crate::tournament::{launches, sandbox};

/// Runs the league of `config` (its rule `rule`) in this process alone.
pub(super) async fn run(
    config: &Config,
    rule: Rule,
    options: RunOptions,
) -> Result<RunOutcome, RunError> {
    let (sandbox, layers) = sandbox(config, &options)?;
    let mut output = open(config, &options, &layers)?;
    let concurrency = options.concurrency_for(config) as u64;
    let previous = std::mem::take(&mut output.previous);
    let next_pair = next_pair(&previous, &output)?;
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let (bots, league) = entrants::admit(
        &output.dir,
        &mut output.manifest,
        config,
        &schedule_identity(config),
        next_pair,
        concurrency,
        &now,
    )?;
    output.manifest.scheduled_games = rule.games.map(|g| g as u64);
    output.manifest.write_in(&output.dir)?;
    let book = book_of(&previous, &league.entrants, &output)?;
    let mut tally = Tally::new(config.bots().iter().map(|b| b.name()));
    previous.iter().for_each(|g| tally.add(g));
    (options.observer)(&Event::Started {
        total: rule.games.unwrap_or(previous.len()),
        previous: previous.len(),
    });
    (options.observer)(&Event::Standings(tally.standings()));
    let launches = Arc::new(launches(config, &options, &output.logs, sandbox)?);
    let tasks = concurrency.min(league.in_flight) as usize;
    let solo = Solo {
        bots,
        events: Vec::new(),
        rule,
        seed: config.seed(),
        memberships: league.entrants.iter().map(membership).collect(),
        entrants: league.entrants,
        in_flight: league.in_flight,
        book,
        tally,
        output,
        in_play: BTreeSet::new(),
        low: 0,
        stopped: None,
        previous: previous.len(),
        played: 0,
    };
    let source = Arc::new(Mutex::new(solo));
    let seat = Seat::first(config, source.clone(), launches.clone(), &options, false);
    let ended = seats(seat, tasks).await;
    for l in launches.iter() {
        l.logs.flush();
    }
    ended?;
    let mut solo = source.lock().unwrap_or_else(|p| p.into_inner());
    solo.finish(&options)
}

/// The output folder of the league, ready for this run, with the games
/// workers recorded there counted among the earlier runs' games.
fn open(config: &Config, options: &RunOptions, layers: &Layers) -> Result<Output, RunError> {
    let games_path = results_file(&options.out_dir, None);
    let mut output = prepare(
        &options.out_dir,
        config,
        options.resume,
        None,
        games_path,
        layers,
    )?;
    for note in &output.notes {
        tracing::warn!("{note}");
    }
    refuse_if_workers(&output.dir)?;
    // Games workers recorded in the folder (`league/worker.rs`) count too.
    let siblings = aboure_workers::Siblings::new(&output.dir, &output.games_path).poll()?;
    output.previous.extend(siblings.into_iter().map(|(_, g)| g));
    Ok(output)
}

/// When an entrant joined and left, as the league's in-flight rule reads
/// them.
fn membership(e: &EntrantRecord) -> Membership {
    memberships(std::slice::from_ref(e))[0]
}

/// Refuses a plain run of a league that workers are playing: it takes no
/// claims, so it would play their pairs again.
fn refuse_if_workers(dir: &std::path::Path) -> Result<(), LeagueRunError> {
    match aboure_workers::held_unit(dir) {
        Some(unit) => Err(LeagueRunError::WorkersPlaying {
            dir: dir.to_owned(),
            unit,
        }),
        None => Ok(()),
    }
}

/// The pair number after every recorded one.
fn next_pair(previous: &[GameRecord], output: &Output) -> Result<u64, LeagueRunError> {
    let mut next = 0;
    for g in previous {
        let (n, _) =
            parse_game_id(&g.id).ok_or_else(|| foreign(output, g, "not l{pair}-g{game}"))?;
        next = next.max(n + 1);
    }
    Ok(next)
}

fn foreign(output: &Output, g: &GameRecord, problem: &str) -> LeagueRunError {
    LeagueRunError::ForeignGame {
        path: output.games_path.clone(),
        id: g.id.clone(),
        problem: problem.to_owned(),
    }
}

/// The league's pairs as the results file records them.
fn book_of(
    previous: &[GameRecord],
    entrants: &[EntrantRecord],
    output: &Output,
) -> Result<Book, LeagueRunError> {
    let index: HashMap<&str, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.name.as_str(), i))
        .collect();
    let mut book = Book::default();
    for g in previous {
        record_game(&mut book, &index, g).map_err(|problem| foreign(output, g, problem))?;
    }
    Ok(book)
}

/// A league played by one process, as the source of its pairs.
struct Solo {
    /// Each entrant's bot.
    bots: Vec<BotId>,
    /// What to tell the observer next.
    events: Vec<Event>,
    rule: Rule,
    seed: u64,
    entrants: Vec<EntrantRecord>,
    memberships: Vec<Membership>,
    /// The league's recorded in-flight bound (its first run's concurrency).
    in_flight: u64,
    book: Book,
    tally: Tally,
    output: Output,
    /// The pairs a seat holds.
    in_play: BTreeSet<u64>,
    /// Every pair below it is complete.
    low: u64,
    /// The rule's reason, once it stopped the league.
    stopped: Option<StopReason>,
    /// Games recorded before this run.
    previous: usize,
    /// Games this run recorded.
    played: usize,
}

impl PairSource for Solo {
    /// Only this process's seats change its records.
    const POLLS: bool = false;

    /// The lowest pair neither complete nor held: one decided before a
    /// crash is finished first, else the rule decides it (or says wait
    /// for the pairs before it, or stop).
    fn ask(&mut self) -> Result<Ask, RunError> {
        if self.stopped.is_some() {
            return Ok(Ask::Stop);
        }
        while self.book.get(self.low).is_some_and(Slot::complete) {
            self.low += 1;
        }
        let open =
            |n: &u64| !self.in_play.contains(n) && !self.book.get(*n).is_some_and(Slot::complete);
        let n = (self.low..).find(open).unwrap_or(u64::MAX);
        let slot = match self.book.get(n) {
            Some(slot) => *slot,
            None => {
                let decided = in_flight::decide(
                    &self.rule,
                    self.seed,
                    &self.memberships,
                    &self.book,
                    n,
                    self.in_flight,
                );
                match decided {
                    Err(_waiting) => return Ok(Ask::Wait(None)),
                    Ok(Err(e)) => return Err(LeagueRunError::Records(e).into()),
                    Ok(Ok(Decision::Play(p))) => {
                        let slot = Slot::new(p.south_first, p.north_first);
                        self.book.decide(n, slot);
                        slot
                    }
                    Ok(Ok(other)) => {
                        self.stopped = Some(stop_reason(&other));
                        return Ok(Ask::Stop);
                    }
                }
            }
        };
        self.in_play.insert(n);
        Ok(Ask::Play {
            number: n,
            games: missing_games(n, slot, &self.bots),
        })
    }

    /// Writes the game (synced before the next is written, a full disk
    /// waited out) and counts it.
    fn record(&mut self, number: Unit, record: GameRecord) -> Result<Recorded, RunError> {
        // A full disk is waited out as in every other run.
        crate::results::write_result(&mut self.output.writer, &record, crate::results::RETRY)?;
        self.tally.add(&record);
        if let Some(&slot) = self.book.get(number) {
            let first = &record.pairing[0];
            self.book
                .record(number, slot, record.game, outcome(&record, first));
        }
        self.played += 1;
        let league = (&self.rule, &self.book, self.entrants.as_slice());
        let told = written_events(league, &self.tally, number, record);
        self.events.extend(told);
        Ok(Recorded::Written)
    }

    fn release(&mut self, number: Unit) -> Result<(), RunError> {
        self.in_play.remove(&number);
        Ok(())
    }

    fn events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }
}

impl Solo {
    /// Ends the run: writes the verdict if the league stopped (and was not
    /// interrupted), and says how the run went.
    fn finish(&mut self, options: &RunOptions) -> Result<RunOutcome, RunError> {
        let interrupted = *options.interrupt.borrow();
        if interrupted {
            (options.observer)(&Event::Interrupted);
        }
        let output = &mut self.output;
        let stopped = match self.stopped.filter(|_| !interrupted) {
            Some(reason) => {
                let verdict = verdict(&self.rule, reason, &self.book, &self.entrants);
                let lines = verdict.lines().join("\n");
                (options.observer)(&Event::Stopped(lines.clone()));
                if let Some(l) = output.manifest.league.as_mut() {
                    l.verdict = Some(verdict);
                }
                output.manifest.write_in(&output.dir)?;
                Some(lines)
            }
            None => None,
        };
        let finished = self.previous + self.played;
        Ok(RunOutcome {
            sprt: None,
            standings: self.tally.standings(),
            finished,
            scheduled: self.rule.games.unwrap_or(finished),
            played: self.played,
            work: Default::default(),
            interrupted,
            stopped,
            notes: std::mem::take(&mut output.notes),
            games_path: output.games_path.clone(),
            out_dir: output.dir.clone(),
        })
    }
}
