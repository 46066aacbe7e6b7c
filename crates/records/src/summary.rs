//! The part of a game record that ratings and tables need, read straight
//! from the line without copying.
//!
//! A line of `games.jsonl` is about 1.7 KB, nearly all of it moves and
//! per-ply data that standings never look at. [`GameSummary`] names only the
//! keys a rating needs. A scanner that follows only strings and brackets
//! finds each key's value, and only the values kept are parsed (with
//! serde); the strings kept borrow from the line unless they have escapes.
//! A line the scanner does not follow is parsed whole by serde, which also
//! gives every error its column. Reading a line this way allocates nothing
//! and costs about half of what serde's skipping did, which is what lets a
//! report read a million games at the speed of the disk. A line whose skipped
//! values are damaged but keep their strings and brackets whole (`moves`
//! not a list, a number spelt wrong) is still counted; the full
//! [`crate::GameRecord`] is parsed only where moves are needed.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use serde::Deserialize;

use crate::record::{GameRecord, GameResult, SideName, Termination};

/// A string read from a line: borrowed from it unless it had escapes.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Text<'a>(#[serde(borrow)] pub Cow<'a, str>);

impl Deref for Text<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a report counts of one game: who played which side, the result and
/// how it ended. The other keys of the line are skipped unread.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct GameSummary<'a> {
    /// Stable, unique game id.
    #[serde(borrow)]
    pub id: Text<'a>,
    /// The two bot names in schedule order.
    #[serde(borrow)]
    pub pairing: [Text<'a>; 2],
    /// Game pair number within the pairing.
    pub pair: u32,
    /// Game within the pair: 0, or 1 with colours swapped.
    pub game: u8,
    /// Bot playing South.
    #[serde(borrow)]
    pub south: Text<'a>,
    /// Bot playing North.
    #[serde(borrow)]
    pub north: Text<'a>,
    /// Result from South's view.
    pub result: GameResult,
    /// How the game ended.
    pub termination: Termination,
    /// The side that forfeited, for forfeits.
    #[serde(default)]
    pub loser: Option<SideName>,
    /// Human-readable detail of the end.
    #[serde(default, borrow)]
    pub detail: Option<Text<'a>>,
}

impl<'a> GameSummary<'a> {
    /// Reads the summary of one line of `games.jsonl` (without its newline).
    ///
    /// The members are found by a scanner that follows only strings and
    /// brackets, and only the values the
    /// summary keeps are parsed, each with serde; a line the scanner does
    /// not follow, or with any error, is parsed again whole with serde,
    /// whose error (with its column) is the one returned.
    pub fn from_line(line: &'a [u8]) -> Result<GameSummary<'a>, serde_json::Error> {
        match fast(line) {
            Some(summary) => Ok(summary),
            None => serde_json::from_slice(line),
        }
    }

    /// The summary of a record already in memory (borrowing its strings).
    pub fn of(game: &'a GameRecord) -> GameSummary<'a> {
        let text = |s: &'a str| Text(Cow::Borrowed(s));
        GameSummary {
            id: text(&game.id),
            pairing: [text(&game.pairing[0]), text(&game.pairing[1])],
            pair: game.pair,
            game: game.game,
            south: text(&game.south),
            north: text(&game.north),
            result: game.result,
            termination: game.termination,
            loser: game.loser,
            detail: game.detail.as_deref().map(text),
        }
    }

    /// The same summary owning its strings, to outlive the line.
    pub fn into_owned(self) -> GameSummary<'static> {
        let own = |t: Text<'_>| Text(Cow::Owned(t.0.into_owned()));
        let [p0, p1] = self.pairing;
        GameSummary {
            id: own(self.id),
            pairing: [own(p0), own(p1)],
            pair: self.pair,
            game: self.game,
            south: own(self.south),
            north: own(self.north),
            result: self.result,
            termination: self.termination,
            loser: self.loser,
            detail: self.detail.map(own),
        }
    }

    /// A record of this summary alone: no moves, plies, opening moves,
    /// clocks or times (`start` is `startpos`); who played, the result and
    /// how the game ended are all there.
    pub fn to_record(&self) -> GameRecord {
        GameRecord {
            id: self.id.to_string(),
            pairing: [self.pairing[0].to_string(), self.pairing[1].to_string()],
            pair: self.pair,
            game: self.game,
            opening: Default::default(),
            south: self.south.to_string(),
            north: self.north.to_string(),
            start: "startpos".to_owned(),
            moves: Vec::new(),
            plies: Vec::new(),
            score: None,
            result: self.result,
            termination: self.termination,
            loser: self.loser,
            detail: self.detail.as_ref().map(|d| d.to_string()),
            time_control: Default::default(),
            started: String::new(),
            duration_ms: 0.0,
        }
    }

    /// The name of the bot that forfeited, if the game was a forfeit.
    pub fn forfeited_by(&self) -> Option<&str> {
        if !self.termination.is_forfeit() {
            return None;
        }
        match self.loser? {
            SideName::South => Some(&self.south),
            SideName::North => Some(&self.north),
        }
    }
}

/// [`GameSummary::from_line`]'s fast path: `None` where serde must decide.
fn fast(line: &[u8]) -> Option<GameSummary<'_>> {
    fn set<'a, T: Deserialize<'a>>(slot: &mut Option<T>, value: &'a [u8]) -> Option<()> {
        // A key given twice is serde's to refuse.
        if slot.is_some() {
            return None;
        }
        *slot = Some(serde_json::from_slice(value).ok()?);
        Some(())
    }
    fn set_text<'a>(slot: &mut Option<Text<'a>>, value: &'a [u8]) -> Option<()> {
        if slot.is_some() {
            return None;
        }
        *slot = Some(text(value)?);
        Some(())
    }
    let mut members = crate::scan::members(line)?;
    let (mut id, mut pairing, mut pair, mut game) = (None, None, None, None);
    let (mut south, mut north, mut result, mut termination) = (None, None, None, None);
    let (mut loser, mut detail) = (None::<Option<SideName>>, None::<Option<Text<'_>>>);
    while let Some((key, value)) = members.next_member().ok()? {
        match key {
            b"id" => set_text(&mut id, value)?,
            b"pairing" => set(&mut pairing, value)?,
            b"pair" => set(&mut pair, value)?,
            b"game" => set(&mut game, value)?,
            b"south" => set_text(&mut south, value)?,
            b"north" => set_text(&mut north, value)?,
            b"result" => set(&mut result, value)?,
            b"termination" => set(&mut termination, value)?,
            b"loser" => set(&mut loser, value)?,
            b"detail" => set(&mut detail, value)?,
            _ => {}
        }
    }
    Some(GameSummary {
        id: id?,
        pairing: pairing?,
        pair: pair?,
        game: game?,
        south: south?,
        north: north?,
        result: result?,
        termination: termination?,
        loser: loser.flatten(),
        detail: detail.flatten(),
    })
}

/// A string value without escapes or control characters, borrowed as it
/// is; `None` for anything else (serde reads those).
fn text(value: &[u8]) -> Option<Text<'_>> {
    let inner = value.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if inner.iter().any(|&b| b == b'\\' || b < 0x20 || b == b'"') {
        return None;
    }
    Some(Text(Cow::Borrowed(std::str::from_utf8(inner).ok()?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borrows_plain_strings_and_skips_the_rest() {
        let line = br#"{"id":"g\"1","pairing":["a","b"],"pair":3,"game":1,"south":"b","north":"a","moves":["1","2"],"plies":[{"by":"bot"}],"result":"0-1","termination":"crash","loser":"south","detail":"exit 1"}"#;
        let s = GameSummary::from_line(line).unwrap();
        assert!(matches!(s.south.0, Cow::Borrowed("b")));
        assert_eq!(&*s.id, "g\"1");
        assert!(matches!(s.id.0, Cow::Owned(_)));
        assert_eq!((s.pair, s.game), (3, 1));
        assert_eq!(s.forfeited_by(), Some("b"));
        let full: GameRecord = serde_json::from_slice(line).unwrap();
        assert_eq!(GameSummary::of(&full), s);
    }

    #[test]
    fn a_written_record_takes_the_fast_path() {
        let line = br#"{"id":"r0001-p9-g0","pairing":["random","alphabeta"],"pair":9,"game":0,"opening":{"index":9,"moves":["5","11"]},"south":"random","north":"alphabeta","start":"startpos","moves":["5","11","pass"],"plies":[{"by":"opening"},{"by":"bot","time_ms":16.2,"clock_ms":993.7,"info":{"depth":12,"score":-8,"pv":["5"]}},{"by":"forced"}],"score":[31,17],"result":"1-0","termination":"time_forfeit","loser":"north","detail":"no reply","time_control":["1+0.01","1+0.01"],"started":"2026-11-30T00:03:01Z","duration_ms":0.0}"#;
        let summary = fast(line).expect("the fast path reads a written record");
        assert_eq!(summary, serde_json::from_slice(line).unwrap());
        // Escapes are left to serde.
        assert!(fast(br#"{"id":"a\u0041","pairing":["a","b"],"pair":0,"game":0,"south":"a","north":"b","result":"1-0","termination":"natural"}"#).is_none());
    }

    #[test]
    fn a_missing_key_is_an_error() {
        assert!(GameSummary::from_line(br#"{"id":"x","pair":0}"#).is_err());
    }
}
