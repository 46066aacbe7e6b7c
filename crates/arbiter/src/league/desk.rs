//! What one league worker process knows of the shared folder, and the
//! claims it makes: every game the folder's results files hold (its
//! [`Book`]), the pairs it holds, and the three things it does under the
//! claim protocol ([`aboure_workers`]): [`Desk::ask`] for the next pair,
//! [`Desk::record`] a game of a held pair, [`Desk::release`] a pair.
//! Every call does blocking I/O (the worker runs them on tokio's blocking
//! pool, one at a time per process). How the pieces fit, and why, is in
//! `league/worker.rs`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use aboure_league::{Decision, Rule};
use aboure_records::{outcome, EntrantRecord, GameRecord, GamesWriter, StopReason, Tally};

use super::pair::{missing_games, parse_game_id};
use super::{memberships, news_events, record_game, stop_reason, written_events, LeagueRunError};
use crate::config::BotId;
use crate::error::RunError;
use crate::event::Event;
use crate::seat::{Ask, PairSource, Recorded};
use aboure_league::in_flight::{decide_shared, Book, Slot};
use aboure_workers::Siblings;
use aboure_workers::{
    acquire, Claim, ClaimDir, ClaimFile, RecordMarks, Reservation, Unit, WorkerFile,
};

/// A claim file's line that says which pair its unit is: `league-pair A B`,
/// the entrants' places in `run.json` (South in game 0, then in game 1).
const DECISION: &str = "league-pair ";

/// How many numbers a worker tries in one ask when others take them first.
const TRIES: usize = 8;

/// One worker process's view of a shared league folder.
pub(super) struct Desk {
    pub(super) rule: Rule,
    pub(super) seed: u64,
    pub(super) entrants: Vec<EntrantRecord>,
    /// Each entrant's bot.
    pub(super) bots: Vec<BotId>,
    /// Why the league stopped, once a seat was told it did.
    pub(super) stopped: Option<StopReason>,
    /// This process's games written since the caller last took them,
    /// told after the others' news.
    pub(super) told: Vec<Event>,
    pub(super) claims: ClaimDir,
    pub(super) follower: Siblings,
    pub(super) writer: GamesWriter,
    /// The marks of recorded games: who writes a game is decided by them.
    marks: RecordMarks,
    pub(super) worker: WorkerFile,
    /// Every game of the folder, by pair.
    pub(super) book: Book,
    /// The ids of those games.
    pub(super) recorded: BTreeSet<String>,
    pub(super) tally: Tally,
    /// Games this process wrote.
    pub(super) played: usize,
    /// Games others recorded since the caller last took them.
    pub(super) news: Vec<GameRecord>,
    /// The pairs this process holds, with their entrants.
    pub(super) held: BTreeMap<Unit, (Claim<ClaimFile>, Slot)>,
    /// The games counted, by the name of the results file that holds
    /// them, for the roster (`workers.json`).
    pub(super) games_by_file: BTreeMap<String, u64>,
}

impl Desk {
    /// A desk on the league of `rule` and `entrants`, with this worker's
    /// claims, its follower of the others' files, its results file and its
    /// entry in `claims/`; it has counted nothing yet.
    pub(super) fn new(
        (rule, seed): (Rule, u64),
        (entrants, bots): (Vec<EntrantRecord>, Vec<BotId>),
        (claims, follower, writer, worker): (ClaimDir, Siblings, GamesWriter, WorkerFile),
        tally: Tally,
    ) -> Self {
        let own = writer.path().file_name().map(|n| n.to_string_lossy());
        let run_dir = claims.dir().parent().unwrap_or(claims.dir());
        let marks = RecordMarks::new(run_dir, &own.unwrap_or_default());
        Desk {
            rule,
            seed,
            entrants,
            bots,
            stopped: None,
            told: Vec::new(),
            marks,
            claims,
            follower,
            writer,
            worker,
            book: Book::default(),
            recorded: BTreeSet::new(),
            tally,
            played: 0,
            news: Vec::new(),
            held: BTreeMap::new(),
            games_by_file: BTreeMap::new(),
        }
    }

    /// Counts `g`, read from the results file `path`, unless it is there
    /// already (a record of a game counted before is left to the report).
    pub(super) fn count(&mut self, path: &Path, g: GameRecord) -> Result<bool, LeagueRunError> {
        if self.recorded.contains(&g.id) {
            return Ok(false);
        }
        let index: HashMap<&str, usize> = self
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.as_str(), i))
            .collect();
        record_game(&mut self.book, &index, &g).map_err(|problem| LeagueRunError::ForeignGame {
            path: path.to_owned(),
            id: g.id.clone(),
            problem: problem.to_owned(),
        })?;
        self.tally.add(&g);
        self.recorded.insert(g.id.clone());
        self.counted_in(path);
        Ok(true)
    }

    /// Counts one more game for the results file `path`.
    fn counted_in(&mut self, path: &Path) {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        *self
            .games_by_file
            .entry(name.unwrap_or_default())
            .or_default() += 1;
    }

    /// Reads what the other workers appended since the last look.
    fn refresh(&mut self) -> Result<(), RunError> {
        let dir = self.claims.dir().parent().map(Path::to_owned);
        for (file, g) in self.follower.poll()? {
            let path = dir.as_ref().map_or(PathBuf::from(&file), |d| d.join(&file));
            if self.count(&path, g.clone())? {
                self.news.push(g);
            }
        }
        Ok(())
    }

    /// The next pair for this worker: a pair left unfinished (by a dead
    /// worker, or a run cut short) first, else a new pair the rule
    /// decides; or why there is none.
    pub(super) fn ask(&mut self) -> Result<Ask, RunError> {
        for _ in 0..TRIES {
            self.refresh()?;
            let listed = self.listed()?;
            let mut open: BTreeSet<Unit> = listed.iter().copied().collect();
            open.extend(self.book.incomplete().map(|(n, _)| n));
            let mut elsewhere = false;
            open.retain(|n| !self.held.contains_key(n));
            for n in open {
                match self.take(n, None)? {
                    Taken::Play(ask) => return Ok(ask),
                    Taken::Held => elsewhere = true,
                    Taken::Done => {}
                }
            }
            let number = [self.book.last(), listed.last().copied()]
                .into_iter()
                .chain([self.held.keys().next_back().copied()])
                .flatten()
                .max()
                .map_or(0, |n| n + 1);
            let decided = self.decide(number)?;
            let Decision::Play(p) = decided else {
                if elsewhere || !self.held.is_empty() {
                    return Ok(Ask::Wait(None));
                }
                self.stopped = Some(stop_reason(&decided));
                return Ok(Ask::Stop);
            };
            if let Taken::Play(ask) =
                self.take(number, Some(Slot::new(p.south_first, p.north_first)))?
            {
                return Ok(ask);
            }
            // Another worker took the number first: look again.
        }
        Ok(Ask::Wait(None))
    }

    /// The rule's decision for pair `number`, from every finished pair and
    /// the pairs in flight.
    fn decide(&self, number: Unit) -> Result<Decision, RunError> {
        let in_flight = self.in_flight(&self.listed()?);
        let finished = self.book.finished();
        let decided = decide_shared(
            &self.rule,
            self.seed,
            &memberships(&self.entrants),
            &finished,
            &in_flight,
            number,
        );
        Ok(decided.map_err(LeagueRunError::Records)?)
    }

    /// The numbers with a claim file, as listed now.
    fn listed(&self) -> Result<Vec<Unit>, RunError> {
        self.claims.listed().map_err(RunError::io(format!(
            "cannot list {}",
            self.claims.dir().display()
        )))
    }

    /// The pairs in flight: decided, not complete, whoever holds them.
    fn in_flight(&self, listed: &[Unit]) -> Vec<Slot> {
        let mut slots: BTreeMap<Unit, Slot> =
            self.book.incomplete().map(|(n, s)| (n, *s)).collect();
        for (&n, (_, slot)) in &self.held {
            slots.insert(n, *slot);
        }
        for &n in listed {
            if slots.contains_key(&n) || self.book.get(n).is_some() {
                continue;
            }
            // A file removed since the listing was finished with.
            if let Some(text) = self.claims.read(n) {
                if let Some(slot) = self.decision_in(&text) {
                    slots.insert(n, slot);
                }
            }
        }
        slots.into_values().collect()
    }

    /// The pair a claim file's text names, if it names one of this
    /// league's (the last decision written wins).
    fn decision_in(&self, text: &str) -> Option<Slot> {
        let line = text.lines().rev().find_map(|l| l.strip_prefix(DECISION))?;
        let (a, b) = line.trim().split_once(' ')?;
        let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
        let known = a < self.entrants.len() && b < self.entrants.len() && a != b;
        known.then(|| Slot::new(a, b))
    }

    /// Tries to hold pair `number`: one unfinished (`fresh` is `None`), or
    /// a new one the rule just decided.
    fn take(&mut self, number: Unit, fresh: Option<Slot>) -> Result<Taken, RunError> {
        let claims = self.claims.dir().to_owned();
        let io = |what: &str| {
            crate::tournament::on_claims(&claims, format!("cannot {what} claim {number}"))
        };
        let Ok(claim) = acquire(&mut self.claims, number).map_err(io("try"))? else {
            return Ok(Taken::Held);
        };
        // Whatever its last holder recorded before it died is on disk now.
        self.refresh()?;
        let text = self.claims.read(number).unwrap_or_default();
        let (slot, decided) = match (self.book.get(number), self.decision_in(&text), fresh) {
            (Some(s), ..) if s.complete() => {
                claim.release(&mut self.claims).map_err(io("release"))?;
                return Ok(Taken::Done);
            }
            (Some(s), ..) => (*s, false),
            (None, Some(s), _) => (s, false),
            (None, None, Some(s)) => (s, true),
            // Claimed and left before it was decided: decide it now.
            (None, None, None) => match self.decide(number)? {
                Decision::Play(p) => (Slot::new(p.south_first, p.north_first), true),
                _ => {
                    claim.release(&mut self.claims).map_err(io("release"))?;
                    return Ok(Taken::Done);
                }
            },
        };
        // Signed as every format signs a claim it acquires; a decision goes
        // after that signature and is signed again, so the file still
        // starts and ends with the holder's name.
        self.claims.sign(claim.handle()).map_err(io("sign"))?;
        if decided {
            let line = format!("{DECISION}{} {}", slot.south_first, slot.north_first);
            self.claims
                .note(claim.handle(), &line)
                .map_err(io("write"))?;
            self.claims.sign(claim.handle()).map_err(io("sign"))?;
        }
        // Its last signer, whose decision may end the file if it died
        // between writing it and signing it again.
        let before = aboure_workers::last_signer(&text);
        if let Some((from, _)) = before.filter(|(_, s)| *s != self.claims.holder()) {
            // For the roster only: the game is safe without it.
            let _ = self.worker.took_over(number, from);
        }
        let games = missing_games(number, slot, &self.bots);
        self.held.insert(number, (claim, slot));
        Ok(Taken::Play(Ask::Play { number, games }))
    }

    /// Writes game `game` of the held pair `number`, unless another file
    /// holds it or another worker holds the pair now.
    pub(super) fn record(
        &mut self,
        number: Unit,
        record: GameRecord,
    ) -> Result<Recorded, RunError> {
        let game = record.game;
        self.refresh()?;
        if self.recorded.contains(&record.id) {
            return Ok(Recorded::Duplicate);
        }
        let claims = self.claims.dir().to_owned();
        let io = |what: &str| {
            crate::tournament::on_claims(&claims, format!("cannot {what} claim {number}"))
        };
        let Some((claim, slot)) = self.held.get(&number) else {
            return Ok(Recorded::Lost);
        };
        let mine = claim.still_held(&mut self.claims).map_err(io("check"))?
            && self.claims.signer(claim.handle()).map_err(io("read"))? == self.claims.holder();
        if !mine {
            self.held.remove(&number);
            let run = claims.parent().unwrap_or(&claims);
            let what = format!("the claim of pair {number} is another worker's now");
            return Err(aboure_workers::taken(run, what).into());
        }
        self.claims.sign(claim.handle()).map_err(io("sign"))?;
        let slot = *slot;
        // The server decides who writes it: see `aboure_workers::RecordMarks`.
        // A mark is part of recording the game: it waits for room as the
        // record does.
        let results = self.writer.path().to_owned();
        let marks = &self.marks;
        let reserve = || marks.reserve(&record.id);
        let retry = crate::results::RETRY;
        match crate::results::with_room(&record, &results, retry, reserve, io("mark a game of"))? {
            Reservation::Mine | Reservation::TakenOver(_) => {}
            Reservation::Elsewhere(file, g) => {
                let path = claims
                    .parent()
                    .map_or(PathBuf::from(&file), |d| d.join(&file));
                if self.count(&path, (*g).clone())? {
                    self.news.push(*g);
                }
                return Ok(Recorded::Duplicate);
            }
        }
        self.write_marked(&claims, number, &record)?;
        debug_assert_eq!(parse_game_id(&record.id), Some((number, game)));
        let first = record.pairing[0].clone();
        self.book
            .record(number, slot, game, outcome(&record, &first));
        self.tally.add(&record);
        self.recorded.insert(record.id.clone());
        let own = self.writer.path().to_owned();
        self.counted_in(&own);
        self.played += 1;
        let league = (&self.rule, &self.book, self.entrants.as_slice());
        let told = written_events(league, &self.tally, number, record);
        self.told.extend(told);
        Ok(Recorded::Written)
    }

    /// Writes `record`, whose mark this worker made (retried while the
    /// disk is full, as every result is), and checks the mark is still its
    /// own once the record is synced: taken over while this worker was cut
    /// off, the record is taken back and the worker stops.
    fn write_marked(
        &mut self,
        claims: &Path,
        number: Unit,
        record: &GameRecord,
    ) -> Result<(), RunError> {
        let before = self.writer.len();
        crate::results::write_result(&mut self.writer, record, crate::results::RETRY)?;
        let check = format!("cannot check the mark of claim {number}");
        let mine = (self.marks.is_mine(&record.id))
            .map_err(crate::tournament::on_claims(claims, check))?;
        if mine {
            return Ok(());
        }
        if let Ok(len) = before {
            let _ = self.writer.cut_back(len);
        }
        let run = claims.parent().unwrap_or(claims);
        let what = format!(
            "the mark of game {} is another worker's (taken back)",
            record.id
        );
        Err(aboure_workers::taken(run, what).into())
    }

    /// Lets go of pair `number`: removes its claim file if both its games
    /// are recorded, else leaves it for another worker to take over.
    pub(super) fn release(&mut self, number: Unit) -> Result<(), RunError> {
        let Some((claim, _)) = self.held.remove(&number) else {
            return Ok(());
        };
        if self.book.get(number).is_some_and(Slot::complete) {
            claim
                .release(&mut self.claims)
                .map_err(crate::tournament::on_claims(
                    self.claims.dir(),
                    format!("cannot release claim {number}"),
                ))?;
        }
        Ok(())
    }
}

/// What a try to hold a pair found.
enum Taken {
    Play(Ask),
    /// Another live worker holds it.
    Held,
    /// Complete (its file removed now), or not decided by its dead holder.
    Done,
}

impl PairSource for Desk {
    /// Other workers record and release pairs too.
    const POLLS: bool = true;

    fn ask(&mut self) -> Result<Ask, RunError> {
        Desk::ask(self)
    }

    fn record(&mut self, number: Unit, record: GameRecord) -> Result<Recorded, RunError> {
        Desk::record(self, number, record)
    }

    fn release(&mut self, number: Unit) -> Result<(), RunError> {
        Desk::release(self, number)
    }

    fn events(&mut self) -> Vec<Event> {
        let mut events = news_events(std::mem::take(&mut self.news), &self.tally);
        events.append(&mut self.told);
        events
    }
}
