//! The part of a game record that ratings and tables need, read straight
//! from the line without copying.
//!
//! A line of `games.jsonl` is about 1.4 KB, nearly all of it moves and
//! per-ply data that standings never look at. [`GameSummary`] names only the
//! keys a rating needs; serde skips the others without building them, and
//! the strings it keeps borrow from the line (a copy is made only for a
//! string with escapes). Parsing a line this way costs a few microseconds
//! and allocates nothing, which is what lets a report read a million games
//! at the speed of the disk. A line that is valid JSON but has a damaged
//! key the summary does not read (`moves` not a list) is still counted;
//! the full [`crate::GameRecord`] is parsed only where moves are needed.

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
    pub fn from_line(line: &'a [u8]) -> Result<GameSummary<'a>, serde_json::Error> {
        serde_json::from_slice(line)
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
    fn a_missing_key_is_an_error() {
        assert!(GameSummary::from_line(br#"{"id":"x","pair":0}"#).is_err());
    }
}
