//! What the run recorded, as this worker knows it: the [`Ledger`] of
//! games, which results file holds each, and the games of the other
//! workers learnt of since the caller last asked.
//!
//! The ledger is kept up to date from the shared log of finished units
//! ([`aboure_workers::FinishedLog`]: one file, read from the offset reached), not from the
//! siblings' results files. Those are read (by a [`super::Siblings`], from the
//! offset reached in each) only when the log may not tell everything: at
//! the start, when a unit acquired was signed by another worker (it died,
//! gave up or lost its lock, perhaps after recording a game), when the
//! claim of a unit held is found signed by another before a write, and at
//! the end, for the half-played units of the others.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use aboure_records::GameRecord;

use super::Queue;
use crate::error::RunError;
use aboure_workers::Ledger;

impl Queue {
    /// Counts a game of the run found in the results file `file`; false if
    /// it was already counted or is not one of the schedule's.
    pub(super) fn note(&mut self, game: &GameRecord, file: &str) -> bool {
        let Some((unit, g)) = self.schedule.locate(&game.id) else {
            return false;
        };
        let new = self.ledger.add(unit, g);
        if new {
            *self.games_by_file.entry(file.to_owned()).or_default() += 1;
            if !self.logged.has(unit, g) {
                let summary = aboure_records::GameSummary::of(game).to_record();
                let games = self.unlogged.entry(unit).or_default();
                games.push((file.to_owned(), summary));
            }
        }
        new
    }

    /// Counts a game this worker wrote to its own file.
    pub fn wrote(&mut self, game: &GameRecord) -> bool {
        let own = std::mem::take(&mut self.own_file);
        let new = self.note(game, &own);
        self.own_file = own;
        new
    }

    /// Games counted, by the name of the results file that holds them.
    pub fn games_by_file(&self) -> &BTreeMap<String, u64> {
        &self.games_by_file
    }

    /// As [`Queue::refresh`], unless the last one was less than `age` ago.
    pub fn refresh_older(&mut self, age: Duration) -> Result<usize, RunError> {
        match self.refreshed.elapsed() < age {
            true => Ok(0),
            false => self.refresh(),
        }
    }

    /// Reads the units the other workers finished since last time, from
    /// the log; the games new to this worker are kept for
    /// [`Queue::take_fresh`].
    pub fn refresh(&mut self) -> Result<usize, RunError> {
        self.refreshed = Instant::now();
        let io = super::on_claims(
            self.claims.dir(),
            format!("cannot read {}", self.log.path().display()),
        );
        let games = self.log.poll().map_err(io)?;
        let before = self.fresh.len();
        for (file, g) in games {
            // This worker's own games are what its own file holds (read at
            // its start, a line cut by a power cut cut away): the log's copy
            // of a game lost since is no record.
            let own_lost = file == self.own_file
                && self
                    .schedule
                    .locate(&g.id)
                    .is_some_and(|(unit, game)| !self.ledger.has(unit, game));
            if own_lost {
                continue;
            }
            if let Some((unit, game)) = self.schedule.locate(&g.id) {
                self.logged.add(unit, game);
                if self.logged.complete(unit) {
                    self.unlogged.remove(&unit);
                }
            }
            if self.note(&g, &file) {
                self.fresh.push(g);
            }
        }
        Ok(self.fresh.len() - before)
    }

    /// Reads what the run holds as this worker starts: the log, which is
    /// enough if it holds every finished unit since the run began, and
    /// otherwise the other workers' files too.
    pub fn start(&mut self, dir: &std::path::Path) -> Result<usize, RunError> {
        let has_games = || {
            let files = aboure_records::results_files(dir)?;
            Ok(files
                .iter()
                .any(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0)))
        };
        let io = super::on_claims(
            self.claims.dir(),
            format!("cannot open {}", self.log.path().display()),
        );
        match self.log.open_or_create(has_games).map_err(io)? {
            true => self.refresh(),
            false => self.refresh_all(),
        }
    }

    /// As [`Queue::refresh`], then everything appended to the other
    /// workers' results files since last time (games of units not
    /// finished, or finished by a worker that died before it logged them).
    pub fn refresh_all(&mut self) -> Result<usize, RunError> {
        let from_log = self.refresh()?;
        let games = self.follower.poll()?;
        let before = self.fresh.len();
        for (file, g) in games {
            if self.note(&g, &file) {
                self.fresh.push(g);
            }
        }
        Ok(from_log + self.fresh.len() - before)
    }

    /// The other workers' games learnt of since the last call.
    pub fn take_fresh(&mut self) -> Vec<GameRecord> {
        self.work.learned += self.fresh.len() as u64;
        std::mem::take(&mut self.fresh)
    }

    /// What is recorded.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }
}
