//! The game record: what one line of `games.jsonl` holds.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One finished game, as written to `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Stable, unique game id (e.g. `r0003-p12-g1`).
    pub id: String,
    /// The two bot names in schedule order.
    pub pairing: [String; 2],
    /// Game pair number within the pairing.
    pub pair: u32,
    /// Game within the pair: 0, or 1 with colours swapped.
    pub game: u8,
    /// The opening both games of the pair started from.
    #[serde(default)]
    pub opening: OpeningRecord,
    /// Bot playing South.
    pub south: String,
    /// Bot playing North.
    pub north: String,
    /// Position the game began from: `startpos` or RULES.md notation.
    #[serde(default = "startpos")]
    pub start: String,
    /// Every move from `start`, opening plies and forced passes included.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Per-move data aligned with `moves`.
    #[serde(default)]
    pub plies: Vec<PlyRecord>,
    /// Final seeds of South and North (absent for CSV results).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[u8; 2]>,
    /// Result from South's view.
    pub result: GameResult,
    /// How the game ended.
    pub termination: Termination,
    /// The side that forfeited, for forfeits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loser: Option<SideName>,
    /// Human-readable detail: the offending line, the overrun, the exit status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// South's and North's time controls, as text.
    #[serde(default)]
    pub time_control: [String; 2],
    /// RFC 3339 UTC time the game started.
    #[serde(default)]
    pub started: String,
    /// Wall time of the game in milliseconds.
    #[serde(default)]
    pub duration_ms: f64,
}

fn startpos() -> String {
    "startpos".to_owned()
}

impl GameRecord {
    /// Points of the bot named `name` in this game (1, 0.5 or 0), or `None`
    /// if it did not play.
    pub fn points_of(&self, name: &str) -> Option<f64> {
        let south = match self.result {
            GameResult::SouthWins => 1.0,
            GameResult::NorthWins => 0.0,
            GameResult::Draw => 0.5,
        };
        if self.south == name {
            Some(south)
        } else if self.north == name {
            Some(1.0 - south)
        } else {
            None
        }
    }

    /// The name of the bot that forfeited, if the game was a forfeit.
    pub fn forfeited_by(&self) -> Option<&str> {
        match self.loser? {
            SideName::South => Some(&self.south),
            SideName::North => Some(&self.north),
        }
    }
}

/// The opening of a game pair.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// Index of the opening (in the opening file, or the random draw).
    pub index: u32,
    /// Moves played from the start position by the arbiter.
    #[serde(default)]
    pub moves: Vec<String>,
    /// A set-up position the opening starts from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

/// Data about one ply, aligned with [`GameRecord::moves`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyRecord {
    /// Who played it.
    pub by: Mover,
    /// Time the arbiter measured, in milliseconds (bot moves only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
    /// The mover's clock after the move, in milliseconds (Fischer only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<f64>,
    /// The last `info` the bot sent while thinking about this move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info: Option<InfoRecord>,
}

/// Who played a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mover {
    /// The arbiter, as part of the opening.
    Opening,
    /// A bot, answering `go`.
    Bot,
    /// The arbiter, a forced pass.
    Forced,
}

/// What a bot reported about its search (`info` lines), all optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InfoRecord {
    /// Depth reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Score in seeds from the mover's view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Nodes searched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Time the bot says it spent, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
    /// Principal variation: its first [`PV_KEPT`] moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<String>,
    /// The length of the principal variation the bot sent, when it was
    /// longer than [`PV_KEPT`] moves and `pv` holds only its start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv_sent: Option<usize>,
    /// The last `info string` text, cut to [`INFO_STRING_KEPT`] bytes (see
    /// [`InfoRecord::keep_string`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string: Option<String>,
}

/// Moves of a principal variation kept in a ply's record. A bot may send
/// thousands in one line; every ply of every game would keep them.
pub const PV_KEPT: usize = 32;

/// Bytes of an `info string` kept in a ply's record, for the same reason.
pub const INFO_STRING_KEPT: usize = 512;

impl InfoRecord {
    /// True if no field is set.
    pub fn is_empty(&self) -> bool {
        *self == InfoRecord::default()
    }

    /// Keeps the first [`PV_KEPT`] moves of `pv`, and its length if it was
    /// cut.
    pub fn keep_pv<T: ToString>(&mut self, pv: &[T]) {
        self.pv = pv.iter().take(PV_KEPT).map(ToString::to_string).collect();
        self.pv_sent = (pv.len() > PV_KEPT).then_some(pv.len());
    }

    /// Keeps `text` as the `info string`, cut to [`INFO_STRING_KEPT`] bytes
    /// (at a character boundary) with a note of its length.
    pub fn keep_string(&mut self, text: String) {
        if text.len() <= INFO_STRING_KEPT {
            self.string = Some(text);
            return;
        }
        let mut end = INFO_STRING_KEPT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.string = Some(format!(
            "{}... (cut from {} bytes)",
            &text[..end],
            text.len()
        ));
    }
}

/// A game's result from South's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// South won: `1-0`.
    #[serde(rename = "1-0")]
    SouthWins,
    /// North won: `0-1`.
    #[serde(rename = "0-1")]
    NorthWins,
    /// Draw: `1/2-1/2`.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    /// The result text: `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::SouthWins => "1-0",
            GameResult::NorthWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Parses `1-0`, `0-1` or `1/2-1/2`.
    pub fn parse(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::SouthWins),
            "0-1" => Some(GameResult::NorthWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// The result a final score gives: more seeds wins.
    pub fn from_score(score: [u8; 2]) -> GameResult {
        match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => GameResult::SouthWins,
            std::cmp::Ordering::Less => GameResult::NorthWins,
            std::cmp::Ordering::Equal => GameResult::Draw,
        }
    }

    /// The result when `loser` forfeits.
    pub fn forfeit_by(loser: SideName) -> GameResult {
        match loser {
            SideName::South => GameResult::NorthWins,
            SideName::North => GameResult::SouthWins,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A side, by name, as the records spell it (`south`, `north`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideName {
    /// South, who moves first from the start position.
    South,
    /// North.
    North,
}

impl From<aboure_engine::Side> for SideName {
    fn from(side: aboure_engine::Side) -> SideName {
        match side {
            aboure_engine::Side::South => SideName::South,
            aboure_engine::Side::North => SideName::North,
        }
    }
}

impl From<SideName> for aboure_engine::Side {
    fn from(side: SideName) -> aboure_engine::Side {
        match side {
            SideName::South => aboure_engine::Side::South,
            SideName::North => aboure_engine::Side::North,
        }
    }
}

/// How a game ended. The forfeits (every kind but `natural`, `max_plies`,
/// `repetition`, `solved` and `unknown`) are losses for the side in `loser`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// Neither side could sow: the rules scored the game.
    Natural,
    /// Adjudicated at the ply limit; scored as if it ended there.
    MaxPlies,
    /// Adjudicated on a repeated position; scored as if it ended there.
    Repetition,
    /// Adjudicated by the exact solver: scored with the final seeds perfect
    /// play by both sides reaches from the position where it ended.
    Solved,
    /// The bot did not answer within its time plus the margin.
    TimeForfeit,
    /// The bot's `bestmove` did not parse or was not legal.
    IllegalMove,
    /// The bot exited, crashed or closed its pipe.
    Crash,
    /// The bot sent something it must not (a `bestmove` nobody asked for, an
    /// overlong line).
    ProtocolViolation,
    /// The bot did not finish the handshake within the start-up limit, or
    /// could not be started.
    StartupFailure,
    /// The bot exceeded a resource limit.
    ResourceLimit,
    /// Unknown (results from elsewhere, or a later version of aboure).
    #[serde(other)]
    Unknown,
}

impl Termination {
    /// The snake_case name used in the records.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Natural => "natural",
            Termination::MaxPlies => "max_plies",
            Termination::Repetition => "repetition",
            Termination::Solved => "solved",
            Termination::TimeForfeit => "time_forfeit",
            Termination::IllegalMove => "illegal_move",
            Termination::Crash => "crash",
            Termination::ProtocolViolation => "protocol_violation",
            Termination::StartupFailure => "startup_failure",
            Termination::ResourceLimit => "resource_limit",
            Termination::Unknown => "unknown",
        }
    }

    /// True for the kinds that are a loss by forfeit for one bot.
    pub fn is_forfeit(self) -> bool {
        !matches!(
            self,
            Termination::Natural
                | Termination::MaxPlies
                | Termination::Repetition
                | Termination::Solved
                | Termination::Unknown
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
