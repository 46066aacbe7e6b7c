//! The run's units as this worker process sees them: what every results
//! file of the folder recorded ([`Ledger`], kept up to date by a
//! [`Follower`]), which units it holds, which it saw held by others, and
//! the claims it makes ([`crate::claim`]). Every call does blocking I/O:
//! the tournament runs them on tokio's blocking pool.
//!
//! A unit seen held is not tried again until the next probe, and probes
//! come less often while they find nobody dead (1 s, doubling to 16 s),
//! so live workers' locks are not knocked on at every claim; a unit taken
//! over from a dead worker brings the probes back to 1 s.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::time::{Duration, Instant};

use aboure_records::GameRecord;

use super::follow::Follower;
use crate::claim::{
    acquire, candidates, signer_name, Claim, ClaimDir, ClaimFile, Ledger, Slice, Unit, WorkerFile,
};
use crate::error::RunError;
use crate::schedule::{GameSpec, Schedule};

const PROBE_FIRST: Duration = Duration::from_secs(1);
const PROBE_MOST: Duration = Duration::from_secs(16);
/// Units tried per claim, at most.
const TRIES: usize = 8;

/// What a worker task does next.
pub(super) enum Next {
    /// Play these games of the held unit (those not recorded anywhere).
    Play(Claim<ClaimFile>, Vec<GameSpec>),
    /// Nothing to claim now: others hold what is left (or, in an SPRT,
    /// everything up to the look-ahead); poll again later.
    Wait,
    /// Every game is recorded.
    Done,
}

/// What the check before a write found.
pub(super) enum WriteCheck {
    /// Write the record.
    Write,
    /// Another file holds the game already: drop the record.
    Recorded,
    /// Another worker holds the unit now: drop the record and the claim.
    Lost,
}

/// The claim queue of one worker process.
pub(super) struct Queue {
    schedule: Schedule,
    claims: ClaimDir,
    ledger: Ledger,
    follower: Follower,
    slice: Option<Slice>,
    busy: BTreeSet<Unit>,
    mine: BTreeSet<Unit>,
    probe_at: Instant,
    probe_every: Duration,
    /// Games read from other files and not yet taken by the caller.
    fresh: Vec<GameRecord>,
    refreshed: Instant,
    /// Games counted, by the name of the results file that holds them.
    games_by_file: BTreeMap<String, u64>,
    /// This worker's results file's name.
    own_file: String,
    /// This worker's entry in the roster.
    worker: WorkerFile,
    /// What it cost, for the figures.
    pub(super) work: Work,
}

/// What a worker did to share the run: claims and reads of the others'
/// files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Units acquired and played.
    pub claimed: u64,
    /// Of those, units another worker had held (it died, or gave up).
    pub taken_over: u64,
    /// Acquire attempts (each: open, lock, check), successful or not.
    pub tries: u64,
    /// Reads of the other workers' files (each opens every file).
    pub polls: u64,
    /// Files opened by those reads.
    pub opens: u64,
    /// Bytes read from them.
    pub bytes: u64,
}

impl Queue {
    /// The queue of `schedule` (the whole tournament) in the folder of
    /// `claims`, for the worker registered as `worker`, with `own` games
    /// already recorded in its file, `own_file`.
    pub(super) fn new(
        schedule: Schedule,
        (claims, worker): (ClaimDir, WorkerFile),
        follower: Follower,
        slice: Option<Slice>,
        (own_file, own): (String, &[GameRecord]),
    ) -> Queue {
        let mut queue = Queue {
            ledger: Ledger::new(schedule.units()),
            schedule,
            claims,
            follower,
            slice,
            busy: BTreeSet::new(),
            mine: BTreeSet::new(),
            probe_at: Instant::now() + PROBE_FIRST,
            probe_every: PROBE_FIRST,
            fresh: Vec::new(),
            refreshed: Instant::now() - PROBE_MOST,
            games_by_file: BTreeMap::new(),
            worker,
            work: Work::default(),
            own_file,
        };
        for g in own {
            queue.wrote(g);
        }
        queue
    }

    /// Counts a game of the run found in the results file `file`; false if
    /// it was already counted or is not one of the schedule's.
    fn note(&mut self, game: &GameRecord, file: &str) -> bool {
        let new = self
            .schedule
            .locate(&game.id)
            .is_some_and(|(unit, g)| self.ledger.add(unit, g));
        if new {
            *self.games_by_file.entry(file.to_owned()).or_default() += 1;
        }
        new
    }

    /// Counts a game this worker wrote to its own file.
    pub(super) fn wrote(&mut self, game: &GameRecord) -> bool {
        let own = std::mem::take(&mut self.own_file);
        let new = self.note(game, &own);
        self.own_file = own;
        new
    }

    /// Games counted, by the name of the results file that holds them.
    pub(super) fn games_by_file(&self) -> &BTreeMap<String, u64> {
        &self.games_by_file
    }

    /// This worker's entry in the roster.
    pub(super) fn worker(&self) -> &WorkerFile {
        &self.worker
    }

    /// As [`Queue::refresh`], unless the last one was less than `age` ago.
    pub(super) fn refresh_older(&mut self, age: Duration) -> Result<usize, RunError> {
        match self.refreshed.elapsed() < age {
            true => Ok(0),
            false => self.refresh(),
        }
    }

    /// Reads what the other workers recorded since last time; the games
    /// new to this worker are kept for [`Queue::take_fresh`].
    pub(super) fn refresh(&mut self) -> Result<usize, RunError> {
        self.refreshed = Instant::now();
        let games = self.follower.poll()?;
        let before = self.fresh.len();
        for (file, g) in games {
            if self.note(&g, &file) {
                self.fresh.push(g);
            }
        }
        Ok(self.fresh.len() - before)
    }

    /// The other workers' games learnt of since the last call.
    pub(super) fn take_fresh(&mut self) -> Vec<GameRecord> {
        std::mem::take(&mut self.fresh)
    }

    /// What is recorded.
    pub(super) fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Claims in the folder now (this worker's and the others').
    pub(super) fn in_flight(&self) -> Result<usize, RunError> {
        let listed = self.claims.listed();
        let listed = listed.map_err(RunError::io(format!(
            "cannot list {}",
            self.claims.dir().display()
        )))?;
        Ok(listed.len())
    }

    /// Claims the best free unit of `window`.
    pub(super) fn next(&mut self, window: Range<Unit>) -> Result<Next, RunError> {
        if self.ledger.all_done() {
            return Ok(Next::Done);
        }
        if Instant::now() >= self.probe_at {
            self.busy.clear();
            self.probe_every = (self.probe_every * 2).min(PROBE_MOST);
            self.probe_at = Instant::now() + self.probe_every;
        }
        let skip: BTreeSet<Unit> = self.busy.union(&self.mine).copied().collect();
        let mut units = candidates(window, &self.ledger, &skip, self.slice, TRIES);
        if self.slice.is_none() && !units.is_empty() {
            // Workers without a slice (`--join`) would all knock on the
            // lowest free unit first: each starts at its own place among
            // the few lowest.
            let at = std::process::id() as usize % units.len();
            units.rotate_left(at);
        }
        for unit in units {
            let io = RunError::io(format!(
                "cannot claim unit {unit} in {}",
                self.claims.dir().display()
            ));
            self.work.tries += 1;
            let Some(claim) = acquire(&mut self.claims, unit).map_err(io)? else {
                self.busy.insert(unit);
                continue;
            };
            let io = RunError::io(format!("cannot sign {}", self.claims.dir().display()));
            let before = self.claims.sign(claim.handle()).map_err(io)?;
            self.refresh()?;
            let games: Vec<GameSpec> = self
                .schedule
                .unit_games(unit)
                .into_iter()
                .filter(|g| !self.ledger.has(unit, g.game))
                .collect();
            if games.is_empty() {
                self.release(claim)?;
                continue;
            }
            self.work.claimed += 1;
            if !before.is_empty() {
                // Its holder died: the kernel dropped the lock it signed.
                self.work.taken_over += 1;
                self.probe_every = PROBE_FIRST;
                tracing::info!("took over unit {unit} from {before}");
                let from = signer_name(&before).unwrap_or(&before);
                if let Err(e) = self.worker.took_over(unit, from) {
                    tracing::warn!("cannot note the unit taken over in the roster: {e}");
                }
            }
            self.mine.insert(unit);
            return Ok(Next::Play(claim, games));
        }
        Ok(if self.ledger.all_done() {
            Next::Done
        } else {
            Next::Wait
        })
    }

    /// Whether game `game` of the held unit may be written now: the claim
    /// must still be this worker's, and no results file hold the game.
    pub(super) fn may_write(
        &mut self,
        claim: &Claim<ClaimFile>,
        game: u8,
    ) -> Result<WriteCheck, RunError> {
        let unit = claim.unit();
        let io = || RunError::io(format!("cannot check the claim of unit {unit}"));
        if !claim.still_held(&mut self.claims).map_err(io())? {
            tracing::warn!("lost the claim of unit {unit}: its game {game} is not written");
            self.mine.remove(&unit);
            return Ok(WriteCheck::Lost);
        }
        // Signed by this worker still: nobody else held the unit since it
        // was acquired (a taker signs before it plays), so no other file
        // can hold its game. Otherwise a lost lock was taken, and perhaps
        // used: read the others' files first.
        if self.claims.signer(claim.handle()).map_err(io())? != self.claims.holder() {
            self.refresh()?;
        }
        Ok(match self.ledger.has(unit, game) {
            true => WriteCheck::Recorded,
            false => WriteCheck::Write,
        })
    }

    /// Gives a unit up: finished (its name is removed), or abandoned.
    pub(super) fn release(&mut self, claim: Claim<ClaimFile>) -> Result<(), RunError> {
        let unit = claim.unit();
        self.mine.remove(&unit);
        if self.ledger.complete(unit) {
            let io = RunError::io(format!("cannot release unit {unit}"));
            claim.finish(&mut self.claims).map_err(io)?;
        }
        Ok(())
    }

    /// What sharing the run cost so far.
    pub(super) fn work(&self) -> Work {
        let (polls, opens, bytes) = self.follower.counts();
        Work {
            polls,
            opens,
            bytes,
            ..self.work
        }
    }
}
