//! The run's units as this worker process sees them: what every results
//! file of the folder recorded ([`Ledger`]), which units it holds, which
//! it saw held by others, and the claims it makes ([`aboure_workers`]).
//! Every call does blocking I/O: the tournament runs them on tokio's
//! blocking pool.
//!
//! What the run recorded, and how this worker learns of it, is in
//! [`known`]; this file is the claiming.
//!
//! Units the roster says a worker no longer alive still holds
//! ([`Queue::set_roster`]) are tried first, ahead of this worker's own
//! slice: a dead worker's pair is played again as soon as it is seen
//! dead, not when the others' slices run out. Units it says live workers
//! hold are not tried at all, and a unit seen held is not tried again
//! until the next probe; probes come rarely (4 s, doubling to 60 s while
//! they find nobody dead): they are left for the claim files the roster
//! cannot attribute (a worker that died between creating one and signing
//! it). A unit taken over brings the probes back to 4 s.
//!
//! A worker with nothing of its own left is where the tries go to waste:
//! counted at 1,000 workers (`aboure bench workers`), 98% of 154 tries a
//! pair found the pair held by a live worker, in every quarter of the run,
//! while 2 a pair found it recorded already. So such a worker takes from
//! the next slices in turn (`candidates`), skips what the roster says is
//! held, stops at the first unit of another's slice it finds held (claimed
//! since the roster was read: so may the rest be), and waits: 100 ms
//! doubling to 4 s (each times the crowd, above 50 workers), each wait drawn from half to one and a half of that so
//! that idle workers do not knock in step, started short again only when a
//! unit to take over appears or an SPRT's look-ahead moves on (a game
//! another worker recorded frees nothing). That brought the tries to 3.8 a
//! pair, against 1.0 at 10 workers.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::time::{Duration, Instant};

use aboure_records::GameRecord;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use aboure_workers::Siblings;

mod known;
#[cfg(test)]
mod tests;
mod work;
use crate::error::RunError;
use crate::schedule::{GameSpec, Schedule};
use aboure_workers::{
    acquire, candidates, signer_name, Claim, ClaimDir, ClaimFile, FinishedLog, Found, Ledger,
    RecordMarks, Refused, Reservation, RosterBrief, Slice, Unit, Whose, WorkerFile,
};
pub use work::SharingCounts;

/// How old a reading of the other workers' files may be when choosing a
/// unit (the unit chosen is read for again once acquired, whatever its age).
pub const REFRESH_AGE: Duration = Duration::from_millis(250);

const PROBE_FIRST: Duration = Duration::from_secs(4);
const PROBE_MOST: Duration = Duration::from_secs(60);
/// Units tried per claim, at most.
const TRIES: usize = 8;

/// How long a worker with nothing to claim waits before it looks again:
/// at first, and at most (doubling while nothing it could claim appears),
/// each wait drawn between half and one and a half of that.
pub const POLL_FIRST: Duration = Duration::from_millis(100);
pub const POLL_MOST: Duration = Duration::from_secs(4);

/// What a worker task does next.
pub enum Next {
    /// Play these games of the held unit (those not recorded anywhere).
    Play(Claim<ClaimFile>, Vec<GameSpec>),
    /// Nothing to claim now: others hold what is left (or, in an SPRT,
    /// everything up to the look-ahead); look again after this long.
    Wait(Duration),
    /// Every game is recorded.
    Done,
}

/// What a try of one unit found.
enum Tried {
    Play(Claim<ClaimFile>, Vec<GameSpec>),
    Refused(Refused),
    /// Acquired, but every game of it was recorded: released.
    Recorded,
}

/// What the check before a write found.
pub enum WriteCheck {
    /// Write the record.
    Write,
    /// Another file holds the game already: drop the record.
    Recorded,
    /// Another worker holds the unit now: drop the record and the claim.
    Lost,
}

/// A function that wraps an I/O error met on the shared files of the run
/// whose claims folder is `claims` (a claim, the log, the roster): a lost
/// claim ([`aboure_workers::Error::ClaimsLost`]) or a plain I/O error.
pub(crate) fn on_claims(
    claims: &std::path::Path,
    context: String,
) -> impl FnOnce(std::io::Error) -> RunError {
    let run = claims.parent().unwrap_or(claims).to_owned();
    move |e| aboure_workers::on_claims(&run, context)(e).into()
}

/// The claim queue of one worker process.
pub struct Queue {
    schedule: Schedule,
    claims: ClaimDir,
    ledger: Ledger,
    /// The games read from the log, or appended to it by this worker.
    logged: Ledger,
    log: FinishedLog,
    /// The marks of recorded games: who writes a game is decided by them.
    marks: RecordMarks,
    /// Games of units not (yet known to be) in the log, with their file:
    /// what this worker appends once such a unit it holds is complete.
    unlogged: BTreeMap<Unit, Vec<(String, GameRecord)>>,
    follower: Siblings,
    slice: Option<Slice>,
    busy: BTreeSet<Unit>,
    mine: BTreeSet<Unit>,
    /// Units a dead worker holds, as the roster last said: tried first.
    orphans: BTreeSet<Unit>,
    /// Units live workers hold, as the roster last said: not tried.
    held: BTreeSet<Unit>,
    /// The wait before looking again when nothing is free, and the end of
    /// the window last looked at (an SPRT's look-ahead that moves on
    /// brings new units: the wait starts again short).
    idle: Duration,
    window_end: Unit,
    /// How many times [`POLL_MOST`] the wait may grow to, for the live
    /// workers the roster last counted ([`aboure_workers::census::crowd`]).
    crowd: f64,
    rng: SmallRng,
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
    pub work: SharingCounts,
    /// This worker lost its claims (an NFS lease expired): it writes no
    /// more records.
    lost: bool,
    /// This worker joined a run (`--join`): it starts its tries at a
    /// place of its own (see [`Queue::spread_out`]).
    spread: bool,
}

impl Queue {
    /// The queue of `schedule` (the whole tournament) in the folder of
    /// `claims`, for the worker registered as `worker`, with `own` games
    /// already recorded in its file, `own_file`.
    pub fn new(
        schedule: Schedule,
        (claims, worker): (ClaimDir, WorkerFile),
        follower: Siblings,
        slice: Option<Slice>,
        (own_file, own): (String, &[GameRecord]),
    ) -> Queue {
        let mut queue = Queue {
            ledger: Ledger::new(schedule.units()),
            logged: Ledger::new(schedule.units()),
            log: FinishedLog::new(claims.dir()),
            marks: RecordMarks::new(claims.dir().parent().unwrap_or(claims.dir()), &own_file),
            unlogged: BTreeMap::new(),
            schedule,
            claims,
            follower,
            slice,
            busy: BTreeSet::new(),
            mine: BTreeSet::new(),
            orphans: BTreeSet::new(),
            held: BTreeSet::new(),
            idle: POLL_FIRST,
            window_end: 0,
            crowd: aboure_workers::census::crowd(slice.map_or(0, |s| s.count as usize)),
            rng: SmallRng::from_entropy(),
            probe_at: Instant::now() + PROBE_FIRST,
            probe_every: PROBE_FIRST,
            fresh: Vec::new(),
            refreshed: Instant::now() - PROBE_MOST,
            games_by_file: BTreeMap::new(),
            worker,
            work: SharingCounts::default(),
            own_file,
            lost: false,
            spread: false,
        };
        for g in own {
            queue.wrote(g);
        }
        queue
    }

    /// Plays only the units of `slice` (`--slice K/N`): the others count
    /// as done, in the ledgers only (no game is counted for them).
    pub fn only(&mut self, slice: Slice) {
        for unit in (0..self.ledger.units()).filter(|u| !slice.has(*u)) {
            for game in 0..2 {
                self.ledger.add(unit, game);
                self.logged.add(unit, game);
            }
        }
    }

    /// For a worker that joined (`--join`): each such worker starts its
    /// tries at a place of its own among the few lowest free units, rather
    /// than all knocking on the lowest. The run's own process, and a
    /// shard (which has a slice), take them in schedule order.
    pub fn spread_out(&mut self) {
        self.spread = true;
    }

    /// This worker's entry in the roster.
    pub fn worker(&self) -> &WorkerFile {
        &self.worker
    }

    /// Claims in the folder now (this worker's and the others').
    pub fn in_flight(&self) -> Result<usize, RunError> {
        let listed = self.claims.listed();
        let listed = listed.map_err(on_claims(
            self.claims.dir(),
            format!("cannot list {}", self.claims.dir().display()),
        ))?;
        Ok(listed.len())
    }

    /// What the roster says (`read` by a pass over `claims/`, or else
    /// from its brief): the units workers that died still hold (their
    /// locks are gone, so they are free), which [`Queue::next`] tries
    /// before any other, and those live workers hold, which it does not
    /// try.
    pub fn set_roster(&mut self, brief: &RosterBrief, passed: bool) {
        match passed {
            true => self.work.roster_passes += 1,
            false => self.work.brief_reads += 1,
        }
        let open = |u: &Unit| !self.ledger.complete(*u) && !self.mine.contains(u);
        let orphans: BTreeSet<Unit> = brief.orphans.iter().copied().filter(open).collect();
        if orphans.iter().any(|u| !self.orphans.contains(u)) {
            self.idle = POLL_FIRST; // a unit to take over: look again soon
        }
        self.held = brief.held.iter().copied().filter(open).collect();
        self.orphans = orphans;
        // At least the workers the run was split for (see `Pace`).
        let split = self.slice.map_or(0, |s| s.count as usize);
        self.crowd = aboure_workers::census::crowd(brief.alive.max(split));
    }

    /// The wait before looking again, drawn around the current one, which
    /// starts at [`POLL_FIRST`] and doubles up to [`POLL_MOST`], both times
    /// the crowd: a thousand idle workers neither knock in step nor more
    /// often, all together, than fifty.
    fn pause(&mut self) -> Duration {
        let current = self.idle.max(POLL_FIRST.mul_f64(self.crowd));
        let wait = current.mul_f64(self.rng.gen_range(0.5..1.5));
        self.idle = (current * 2).min(POLL_MOST.mul_f64(self.crowd));
        wait
    }

    /// Claims the best free unit of `window`: a dead worker's first.
    pub fn next(&mut self, window: Range<Unit>) -> Result<Next, RunError> {
        if self.ledger.all_done() {
            return Ok(Next::Done);
        }
        if Instant::now() >= self.probe_at {
            self.busy.clear();
            self.probe_every = (self.probe_every * 2).min(PROBE_MOST);
            self.probe_at = Instant::now() + self.probe_every;
        }
        if window.end != self.window_end {
            self.window_end = window.end;
            self.idle = POLL_FIRST;
        }
        for (unit, whose) in self.choose(window) {
            if self.ledger.complete(unit) {
                continue; // learnt of since the list was made
            }
            match self.try_unit(unit, whose)? {
                Tried::Play(claim, games) => {
                    self.idle = POLL_FIRST;
                    return Ok(Next::Play(claim, games));
                }
                // Claimed since the roster was read: so may the others
                // be. Look again later rather than knock on each.
                Tried::Refused(Refused::Held) if whose == Whose::Other => break,
                // Just finished: what else finished is in the log.
                Tried::Refused(Refused::Removed) => _ = self.refresh()?,
                Tried::Refused(Refused::Held) | Tried::Recorded => {}
            }
        }
        self.work.tried.empty += 1;
        Ok(if self.ledger.all_done() {
            Next::Done
        } else {
            Next::Wait(self.pause())
        })
    }

    /// The units to try, best first, and whose each is: the dead
    /// workers', then the candidates among those nobody is known to hold.
    fn choose(&mut self, window: Range<Unit>) -> Vec<(Unit, Whose)> {
        let orphans: Vec<Unit> = std::mem::take(&mut self.orphans)
            .into_iter()
            .filter(|u| window.contains(u) && !self.ledger.complete(*u) && !self.mine.contains(u))
            .collect();
        let skip: BTreeSet<Unit> = (self.busy.iter().chain(&self.mine).chain(&self.held))
            .chain(&orphans)
            .copied()
            .collect();
        let mut units = candidates(window, &self.ledger, &skip, self.slice, TRIES);
        if self.spread && !units.is_empty() {
            let at = std::process::id() as usize % units.len();
            units.rotate_left(at);
        }
        let slice = self.slice;
        let orphans = orphans.into_iter().map(|u| (u, Whose::Orphan));
        orphans
            .chain(units.into_iter().map(|u| (u, Whose::of(u, slice))))
            .collect()
    }

    /// Tries to acquire `unit` (`whose` it is, for the figures): the
    /// games of it to play if it was free and not all recorded.
    fn try_unit(&mut self, unit: Unit, whose: Whose) -> Result<Tried, RunError> {
        let io = on_claims(
            self.claims.dir(),
            format!(
                "cannot claim unit {unit} in {}",
                self.claims.dir().display()
            ),
        );
        let progress = (self.ledger.games(), 2 * self.ledger.units());
        self.work.tries += 1;
        let claim = match acquire(&mut self.claims, unit).map_err(io)? {
            Ok(claim) => claim,
            Err(why) => {
                self.work.tried.add(whose, why.into(), progress);
                self.busy.insert(unit);
                return Ok(Tried::Refused(why));
            }
        };
        let io = on_claims(
            self.claims.dir(),
            format!("cannot sign the claim of unit {unit}"),
        );
        let before = self.claims.sign(claim.handle()).map_err(io)?;
        // Signed by another: it may have recorded a game of the unit (or
        // all, and died before logging them).
        match before.is_empty() {
            true => self.refresh()?,
            false => self.refresh_all()?,
        };
        let games: Vec<GameSpec> = self
            .schedule
            .unit_games(unit)
            .into_iter()
            .filter(|g| !self.ledger.has(unit, g.game))
            .collect();
        if games.is_empty() {
            self.work.tried.add(whose, Found::Recorded, progress);
            self.release(claim)?;
            return Ok(Tried::Recorded);
        }
        self.work.tried.add(whose, Found::Claimed, progress);
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
        Ok(Tried::Play(claim, games))
    }

    /// Whether game `game` of the held unit may be written now: the claim
    /// must still be this worker's, and no results file hold the game.
    pub fn may_write(
        &mut self,
        claim: &Claim<ClaimFile>,
        record: &GameRecord,
    ) -> Result<WriteCheck, RunError> {
        if self.lost {
            return Ok(WriteCheck::Lost);
        }
        let checked = self.check_write(claim, record);
        self.lost = matches!(
            checked,
            Err(RunError::Workers(aboure_workers::Error::ClaimsLost { .. }))
        );
        checked
    }

    /// [`Queue::may_write`], once the worker is not known to have lost
    /// its claims.
    fn check_write(
        &mut self,
        claim: &Claim<ClaimFile>,
        record: &GameRecord,
    ) -> Result<WriteCheck, RunError> {
        let (unit, game) = (claim.unit(), record.game);
        let claims = self.claims.dir().to_owned();
        let context = format!("cannot check the claim of unit {unit}");
        let io = || on_claims(&claims, context.clone());
        if !claim.still_held(&mut self.claims).map_err(io())? {
            self.mine.remove(&unit);
            if !claims.is_dir() {
                let gone = std::io::Error::from_raw_os_error(libc::ENOENT);
                return Err(io()(gone));
            }
            let run = claims.parent().unwrap_or(&claims);
            let what = format!(
                "the claim of unit {unit} is another worker's now (its game {game} is not written)"
            );
            return Err(aboure_workers::taken(run, what).into());
        }
        // Signed last by this worker: nobody else acquired the unit or
        // was about to write a game of it since this worker signed (a
        // taker signs as it acquires, and every worker signs again before
        // each write), so no other file can hold a game this worker has
        // not read. Otherwise a lost lock was taken, and perhaps used:
        // read the others' files first. Then sign again, for the others.
        if self.claims.signer(claim.handle()).map_err(io())? != self.claims.holder() {
            self.refresh_all()?;
        }
        self.claims.sign(claim.handle()).map_err(io())?;
        if self.ledger.has(unit, game) {
            return Ok(WriteCheck::Recorded);
        }
        // The server decides who writes it: see `aboure_workers::RecordMarks`.
        let run = claims.parent().unwrap_or(&claims);
        let results = run.join(self.marks.own_file());
        let marks = &self.marks;
        let reserve = || marks.reserve(&record.id);
        let reserved =
            crate::results::with_room(record, &results, crate::results::RETRY, reserve, io())?;
        match reserved {
            Reservation::Mine | Reservation::TakenOver(_) => Ok(WriteCheck::Write),
            Reservation::Elsewhere(file, g) => {
                tracing::warn!("game {} is recorded in {file}: not written", g.id);
                if self.note(&g, &file) {
                    self.fresh.push(*g);
                }
                Ok(WriteCheck::Recorded)
            }
        }
    }

    /// True if the game's mark still names this worker's file now that
    /// its record is synced; false if another worker took the mark over
    /// meanwhile (this worker was cut off past its lease), and then this
    /// worker has lost its claims.
    pub fn confirm(&mut self, record: &GameRecord) -> Result<bool, RunError> {
        let context = format!("cannot check the mark of game {}", record.id);
        let mine = self
            .marks
            .is_mine(&record.id)
            .map_err(on_claims(self.claims.dir(), context))?;
        self.lost |= !mine;
        Ok(mine)
    }

    /// Gives a unit up: finished (its games logged if nobody did, then
    /// its name removed), or abandoned.
    pub fn release(&mut self, claim: Claim<ClaimFile>) -> Result<(), RunError> {
        let unit = claim.unit();
        self.mine.remove(&unit);
        if !self.ledger.complete(unit) {
            return Ok(());
        }
        if !self.logged.complete(unit) {
            // Before the name goes: a unit without a claim file is in the log.
            let games = self.unlogged.remove(&unit).unwrap_or_default();
            let io = on_claims(
                self.claims.dir(),
                format!("cannot append to {}", self.log.path().display()),
            );
            self.log.append(unit, &games).map_err(io)?;
            for (_, g) in &games {
                self.logged.add(unit, g.game);
            }
        }
        let io = on_claims(self.claims.dir(), format!("cannot release unit {unit}"));
        claim.release(&mut self.claims).map_err(io)
    }

    /// What sharing the run cost so far.
    pub fn work(&self) -> SharingCounts {
        let (polls, opens, bytes) = self.follower.counts();
        let (log_reads, log_bytes, logged) = self.log.counts();
        SharingCounts {
            polls,
            opens,
            bytes,
            log_reads,
            log_bytes,
            logged,
            ..self.work
        }
    }
}
