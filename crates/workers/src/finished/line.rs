//! The lines of `claims/finished.log` after its header: a game in a
//! compact form, and the names (results files, bots) that games refer to.
//!
//! Every worker reads every line of the log, so a line is paid for once
//! per worker: with a game's whole summary on it (who played, the result,
//! how it ended, `unit` and `recorded_in`, about 305 bytes a game), 1,000
//! workers read 616 kB for each pair finished. A line now holds what the
//! log's one reader (the tournament's queue: its ledger, its standings
//! and SPRT, the games it tells of) takes from it, and the names a summary
//! repeats on every game are written once each, as a name line, to which a
//! game line refers by the byte offset at which that name line starts:
//!
//! ```text
//! {"name":"games.w1.jsonl"}
//! {"name":"a"}
//! {"name":"b"}
//! {"id":"r0-p0-g0","pair":0,"game":0,"bots":[26,40],"south":0,"result":"1-0","termination":"natural","in":0}
//! ```
//!
//! (`south` says which of `bots`, the pairing in its order, played South;
//! `loser` and `detail` follow `termination` for a forfeit.) An offset is
//! known to every reader, which reads the log from its start, and to a
//! writer, which holds the log's lock and so knows its length. A writer
//! writes a name line before the first game that needs it, unless it has
//! read or written that name in this log itself, so a name may be written
//! more than once (by workers that had not read each other's), never
//! referred to before it is complete. A game line whose name is unknown (a
//! log removed and made again under a worker that still held offsets of
//! the old one) is skipped like a cut line: it costs only itself, the game
//! is still in its results file. The log's identity (its inode) is kept
//! with the names, and a log found replaced is read again from its start;
//! a new log that happens to get the old one's inode number is not told
//! apart (removing the log under running workers was never supported: a
//! reader went on at the offset it had reached).
//!
//! Lines in the form before (the whole summary, `unit`, `recorded_in`)
//! are still read, so a run folder begun by an older aboure resumes with
//! its log; what is appended to it then is in the compact form. A game
//! whose sides are not its pairing's two bots is written in that long
//! form too.

use std::borrow::Cow;
use std::collections::HashMap;

use aboure_records::{GameRecord, GameResult, GameSummary, SideName, Termination, Text};
use serde::{Deserialize, Serialize};

/// A name written once, referred to by the offset of its line.
#[derive(Serialize, Deserialize)]
struct NameLine<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
}

/// A game, its names by offset.
#[derive(Serialize, Deserialize)]
struct GameLine<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    pair: u32,
    game: u8,
    /// The pairing's two bots in its order.
    bots: [u64; 2],
    /// Which of `bots` played South: 0 or 1.
    south: u8,
    result: GameResult,
    termination: Termination,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    loser: Option<SideName>,
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    detail: Option<Cow<'a, str>>,
    /// The results file that holds the record.
    #[serde(rename = "in")]
    recorded_in: u64,
}

/// A line in the form before: a summary with `recorded_in` added (and
/// `unit`, which no reader took).
#[derive(Serialize)]
struct LongLine<'a> {
    recorded_in: &'a str,
    #[serde(flatten)]
    game: &'a GameRecord,
}

/// The keys of a long line a summary does not have.
#[derive(Deserialize)]
struct Where {
    recorded_in: String,
}

/// Names a write adds, each with the offset of its line.
pub(super) type Added = Vec<(String, u64)>;

/// The names of one log as this worker knows them: read in it, or
/// written to it by this worker.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// The log they belong to (its inode), once known.
    file: Option<u64>,
    by_offset: HashMap<u64, String>,
    by_name: HashMap<String, u64>,
}

impl Names {
    /// Keeps the names only if they are of the log `file`; true if they
    /// were of another log.
    pub(super) fn of_file(&mut self, file: u64) -> bool {
        let other = self.file.is_some_and(|f| f != file);
        if other {
            self.by_offset.clear();
            self.by_name.clear();
        }
        self.file = Some(file);
        other
    }

    fn add(&mut self, name: &str, at: u64) {
        self.by_offset.insert(at, name.to_owned());
        self.by_name.entry(name.to_owned()).or_insert(at);
    }

    /// Reads the complete line `line`, which starts at byte `at` of the
    /// log: a game with the name of the results file that holds it, or
    /// nothing (a header, a name, now learnt, or a line that cannot be
    /// read: cut short, or naming what is not known).
    pub(super) fn read(&mut self, line: &[u8], at: u64) -> Option<(String, GameRecord)> {
        if let Ok(game) = serde_json::from_slice::<GameLine>(line) {
            return self.game(&game);
        }
        if let Ok(name) = serde_json::from_slice::<NameLine>(line) {
            self.add(&name.name, at);
            return None;
        }
        let summary = GameSummary::from_line(line).ok()?;
        let place = serde_json::from_slice::<Where>(line).ok()?;
        Some((place.recorded_in, summary.to_record()))
    }

    fn game(&self, line: &GameLine) -> Option<(String, GameRecord)> {
        let name = |at: &u64| {
            self.by_offset
                .get(at)
                .map(|n| Text(Cow::Borrowed(n.as_str())))
        };
        let pairing = [name(&line.bots[0])?, name(&line.bots[1])?];
        if line.south > 1 {
            return None;
        }
        let south = usize::from(line.south);
        let summary = GameSummary {
            id: Text(Cow::Borrowed(&line.id)),
            south: pairing[south].clone(),
            north: pairing[1 - south].clone(),
            pairing: pairing.clone(),
            pair: line.pair,
            game: line.game,
            result: line.result,
            termination: line.termination,
            loser: line.loser,
            detail: line.detail.as_deref().map(|d| Text(Cow::Borrowed(d))),
        };
        let recorded_in = self.by_offset.get(&line.recorded_in)?.clone();
        Some((recorded_in, summary.to_record()))
    }

    /// The lines of `games` (each with its results file), to be written
    /// at byte `start` of the log, with the name lines they need first;
    /// and the names those lines add once they are written.
    pub(super) fn write(
        &self,
        games: &[(String, GameRecord)],
        start: u64,
    ) -> serde_json::Result<(Vec<u8>, Added)> {
        let mut text = Vec::new();
        let mut added: Added = Vec::new();
        let mut offset_of = |name: &str, text: &mut Vec<u8>| -> serde_json::Result<u64> {
            let known = self.by_name.get(name).copied();
            let new = added.iter().find(|(n, _)| n == name).map(|&(_, at)| at);
            if let Some(at) = known.or(new) {
                return Ok(at);
            }
            let at = start + text.len() as u64;
            let name_line = NameLine {
                name: Cow::Borrowed(name),
            };
            serde_json::to_writer(&mut *text, &name_line)?;
            text.push(b'\n');
            added.push((name.to_owned(), at));
            Ok(at)
        };
        let mut lines = Vec::new();
        for (recorded_in, game) in games {
            let south = game.pairing.iter().position(|b| *b == game.south);
            let north = game.pairing.iter().position(|b| *b == game.north);
            let line = match (south, north) {
                (Some(s), Some(n)) if s != n => {
                    let bots = [
                        offset_of(&game.pairing[0], &mut text)?,
                        offset_of(&game.pairing[1], &mut text)?,
                    ];
                    serde_json::to_vec(&GameLine {
                        id: Cow::Borrowed(&game.id),
                        pair: game.pair,
                        game: game.game,
                        bots,
                        south: s as u8,
                        result: game.result,
                        termination: game.termination,
                        loser: game.loser,
                        detail: game.detail.as_deref().map(Cow::Borrowed),
                        recorded_in: offset_of(recorded_in, &mut text)?,
                    })?
                }
                _ => long_line(recorded_in, game)?,
            };
            lines.push(line);
        }
        for line in lines {
            text.extend_from_slice(&line);
            text.push(b'\n');
        }
        Ok((text, added))
    }

    /// Learns the names a write that succeeded added.
    pub(super) fn written(&mut self, added: Added) {
        for (name, at) in added {
            self.add(&name, at);
        }
    }
}

/// A game in the form before, for one a compact line cannot tell.
fn long_line(recorded_in: &str, game: &GameRecord) -> serde_json::Result<Vec<u8>> {
    let game = &GameSummary::of(game).to_record();
    serde_json::to_vec(&LongLine { recorded_in, game })
}
