//! Which record of a game id counts: each id once, and of two records of
//! one id in two files of a run folder, the one
//! [`aboure_records::RecordChoice`] picks (the one the game's mark names).
//! A tally cannot take a count back: a record that replaces one counted
//! makes it start over ([`ReportTally::restart`]), the choice kept.

use std::hash::BuildHasher;
use std::path::{Path, PathBuf};

use aboure_records::{GameSummary, Offered};

use super::{Pushed, ReportTally, Source};
use crate::analysis::Analysis;
use crate::ids::{IdKey, LAST_FILE};

impl ReportTally {
    /// The games that follow come from the results file `path`, though
    /// they count as part of the file begun last: for a reader that counts
    /// several files as one run (the live page), so that which record of
    /// an id read twice counts is chosen by file all the same.
    pub fn from_file(&mut self, path: &Path) {
        self.origin = match self.origins.iter().position(|p| p == path) {
            Some(i) => i,
            None => {
                self.origins.push(path.to_owned());
                self.origins.len() - 1
            }
        };
    }

    /// Starts over with nothing counted, keeping the options, the stream
    /// of analyses (written again from its start) and the choices made
    /// between records of one id: after [`Pushed::Replaced`], feed every
    /// file again.
    pub fn restart(&mut self) {
        let sink = self.analysis.as_mut().and_then(Analysis::take_sink);
        let mut fresh = ReportTally::new(self.options.clone());
        fresh.choice = std::mem::take(&mut self.choice);
        if let (Some(analysis), Some(sink)) = (&mut fresh.analysis, sink) {
            analysis.rewind_sink(sink);
        }
        *self = fresh;
    }

    /// True once a record was [`Pushed::Replaced`] since the tally began.
    pub fn needs_restart(&self) -> bool {
        self.replaced
    }

    /// Counts `game` if its record is the one of its id that counts, as
    /// far as the files read so far tell.
    pub(super) fn push_from(&mut self, game: &GameSummary<'_>, source: Source<'_>) -> Pushed {
        let key = Self::key(&game.id, self.origin);
        let first = self.ids.get(&key).map(|k| k.file());
        match self.offer(&game.id, first) {
            Offered::Count => {
                self.ids.insert(key);
                self.count(game, source, true)
            }
            Offered::Replace => {
                self.replaced = true;
                Pushed::Replaced
            }
            Offered::Skip => match first {
                Some(first) => self.duplicate(first, &game.id),
                None => {
                    self.left_out.0 += 1;
                    if self.left_out.1.len() < 3 {
                        self.left_out.1.push(game.id.to_string());
                    }
                    Pushed::LeftOut
                }
            },
        }
    }

    /// What [`RecordChoice`] says of a record of `id` from the current
    /// file, the one counted before being from origin `first`.
    fn offer(&mut self, id: &str, first: Option<usize>) -> Offered {
        let Some(here) = self.origins.get(self.origin) else {
            // Games in memory, of no file: the first counts.
            return if first.is_some() {
                Offered::Skip
            } else {
                Offered::Count
            };
        };
        // Past the 255th file, the key no longer says which: the first counts.
        let known = |f: usize| f < LAST_FILE || self.origins.len() <= LAST_FILE + 1;
        match first {
            Some(f) if !known(f) => Offered::Skip,
            Some(f) => self
                .choice
                .offer(id, here, self.origins.get(f).map(PathBuf::as_path)),
            None => self.choice.offer(id, here, None),
        }
    }

    /// A record of an id counted from origin `first` already.
    fn duplicate(&mut self, first: usize, id: &str) -> Pushed {
        match self.duplicates.iter_mut().find(|(f, _, _)| *f == first) {
            Some((_, n, ids)) => {
                *n += 1;
                if ids.len() < 3 {
                    ids.push(id.to_string());
                }
            }
            None => self.duplicates.push((first, 1, vec![id.to_string()])),
        }
        Pushed::Duplicate
    }

    /// The key of `id` read from origin `origin`.
    fn key(id: &str, origin: usize) -> IdKey {
        // A fixed seed: which ids count as one never varies between runs.
        let hash = foldhash::quality::FixedState::with_seed(0).hash_one(id);
        IdKey::new(hash, origin)
    }

    /// The warning about the records of the current file left out.
    pub(super) fn left_out_warning(&self) -> Option<String> {
        let (n, ids) = &self.left_out;
        (*n > 0).then(|| {
            let more = if *n > 3 { ", ..." } else { "" };
            format!(
                "{}: {n} game id{} recorded in another file, whose record counts ({}{more}): left out",
                self.file_name(),
                if *n == 1 { "" } else { "s" },
                ids.join(", "),
            )
        })
    }

    pub(super) fn duplicate_warnings(&self) -> Vec<String> {
        self.duplicates
            .iter()
            .map(|(first, n, ids)| {
                let more = if *n > 3 { ", ..." } else { "" };
                // Past the 255th file, the key no longer says which.
                let known = *first < LAST_FILE || self.origins.len() <= LAST_FILE + 1;
                let first = match self.origins.get(*first) {
                    Some(p) if known => p.display().to_string(),
                    _ => "an earlier file".to_owned(),
                };
                format!(
                    "{}: {n} game id{} already read from {first} ({}{more}): counted once",
                    self.file_name(),
                    if *n == 1 { "" } else { "s" },
                    ids.join(", "),
                )
            })
            .collect()
    }
}
