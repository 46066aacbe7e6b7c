//! What the arbiter sends a bot, one line each. `Display` writes the exact
//! line; parsing is strict about known messages and turns anything else into
//! [`ArbiterMessage::Unknown`], so a bot never has to crash on input.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use aboure_engine::{IllegalMove, Move, Position, Side};

use crate::tokens::{millis, one_line, option_name, unsigned, Tokens};
use crate::{ClockState, ParseMessageError, SearchLimits};

/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// A message from the arbiter to a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArbiterMessage {
    /// `aboure VERSION`: starts the handshake.
    Aboure {
        /// The protocol version, [`PROTOCOL_VERSION`].
        version: u32,
    },
    /// `setoption name NAME value VALUE`.
    SetOption {
        /// The option's name.
        name: String,
        /// Its new value as text (the rest of the line, possibly empty).
        value: String,
    },
    /// `isready`: answer `readyok`.
    IsReady,
    /// `newgame`.
    NewGame,
    /// `position startpos|set ... [moves ...]`: the game so far.
    Position(GameSoFar),
    /// `go ...`: choose a move within these limits.
    Go(Go),
    /// `stop`: answer now.
    Stop,
    /// `quit`: exit.
    Quit,
    /// A line that is none of the above (without surrounding whitespace).
    Unknown(String),
}

/// Where a game started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the standard start.
    StartPos,
    /// `set POSITION`: a set-up position in the engine's notation.
    Set(Position),
}

impl Start {
    /// The position this start stands for.
    pub fn position(&self) -> Position {
        match self {
            Start::StartPos => Position::startpos(),
            Start::Set(p) => *p,
        }
    }
}

/// The game so far, as a `position` message carries it: a start and the
/// moves played since (forced passes included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSoFar {
    /// The first position.
    pub start: Start,
    /// The moves played from it.
    pub moves: Vec<Move>,
}

/// A move of a [`GameSoFar`] that is not legal where it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveAt {
    /// Index of the move in the list (0 = first move).
    pub index: usize,
    /// The position it was played in.
    pub position: Position,
    /// Why it is illegal.
    pub error: IllegalMove,
}

impl fmt::Display for IllegalMoveAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} of the game ({}) in {}: {}",
            self.index + 1,
            self.error.mv,
            self.position,
            self.error
        )
    }
}

impl std::error::Error for IllegalMoveAt {}

impl GameSoFar {
    /// Plays the moves from the start. Returns the current position and the
    /// positions before it, oldest first (what [`crate::Player::choose`] gets).
    pub fn replay(&self) -> Result<(Position, Vec<Position>), IllegalMoveAt> {
        let mut position = self.start.position();
        let mut history = Vec::with_capacity(self.moves.len());
        for (index, &m) in self.moves.iter().enumerate() {
            let next = position.after(m).map_err(|error| IllegalMoveAt {
                index,
                position,
                error,
            })?;
            history.push(position);
            position = next;
        }
        Ok((position, history))
    }
}

/// South's and North's clocks as the wire carries them, indexed by
/// [`Side::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    /// Time left, `[south, north]`.
    pub time: [Duration; 2],
    /// Increment per move, `[south, north]`.
    pub increment: [Duration; 2],
}

/// The limits of a `go` as the wire carries them. The clocks are given per
/// side; [`Go::limits`] turns them into the mover's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `stime MS ntime MS sinc MS ninc MS`.
    pub clocks: Option<Clocks>,
    /// `movetime MS`.
    pub movetime: Option<Duration>,
    /// `depth D`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
}

impl Go {
    /// The limits from the view of `mover`, the side to move.
    pub fn limits(&self, mover: Side) -> SearchLimits {
        let me = mover.index();
        let them = (!mover).index();
        SearchLimits {
            clock: self.clocks.map(|c| ClockState {
                time: c.time[me],
                increment: c.increment[me],
                opponent_time: c.time[them],
                opponent_increment: c.increment[them],
            }),
            movetime: self.movetime,
            depth: self.depth,
            nodes: self.nodes,
        }
    }

    /// The wire form of `limits` when `mover` is to move.
    pub fn from_limits(limits: &SearchLimits, mover: Side) -> Go {
        let me = mover.index();
        let them = (!mover).index();
        Go {
            clocks: limits.clock.map(|c| {
                let mut clocks = Clocks::default();
                clocks.time[me] = c.time;
                clocks.increment[me] = c.increment;
                clocks.time[them] = c.opponent_time;
                clocks.increment[them] = c.opponent_increment;
                clocks
            }),
            movetime: limits.movetime,
            depth: limits.depth,
            nodes: limits.nodes,
        }
    }
}

impl fmt::Display for ArbiterMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArbiterMessage::Aboure { version } => write!(f, "aboure {version}"),
            ArbiterMessage::SetOption { name, value } => {
                write!(f, "setoption name {name} value")?;
                if !value.is_empty() {
                    write!(f, " {}", one_line(value))?;
                }
                Ok(())
            }
            ArbiterMessage::IsReady => f.write_str("isready"),
            ArbiterMessage::NewGame => f.write_str("newgame"),
            ArbiterMessage::Position(game) => {
                match game.start {
                    Start::StartPos => f.write_str("position startpos")?,
                    Start::Set(p) => write!(f, "position set {p}")?,
                }
                if !game.moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in &game.moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            ArbiterMessage::Go(go) => {
                f.write_str("go")?;
                if let Some(c) = go.clocks {
                    write!(
                        f,
                        " stime {} ntime {} sinc {} ninc {}",
                        c.time[0].as_millis(),
                        c.time[1].as_millis(),
                        c.increment[0].as_millis(),
                        c.increment[1].as_millis()
                    )?;
                }
                if let Some(t) = go.movetime {
                    write!(f, " movetime {}", t.as_millis())?;
                }
                if let Some(d) = go.depth {
                    write!(f, " depth {d}")?;
                }
                if let Some(n) = go.nodes {
                    write!(f, " nodes {n}")?;
                }
                Ok(())
            }
            ArbiterMessage::Stop => f.write_str("stop"),
            ArbiterMessage::Quit => f.write_str("quit"),
            ArbiterMessage::Unknown(line) => f.write_str(&one_line(line)),
        }
    }
}

impl FromStr for ArbiterMessage {
    type Err = ParseMessageError;

    /// Parses one line (surrounding whitespace and `\r` allowed).
    fn from_str(line: &str) -> Result<ArbiterMessage, ParseMessageError> {
        let mut t = Tokens::new(line);
        let Some(keyword) = t.next() else {
            return Ok(ArbiterMessage::Unknown(String::new()));
        };
        let parsed = match keyword {
            "aboure" => parse_aboure(&mut t),
            "setoption" => parse_setoption(&mut t),
            "isready" => t.end().map(|()| ArbiterMessage::IsReady),
            "newgame" => t.end().map(|()| ArbiterMessage::NewGame),
            "position" => parse_position(&mut t).map(ArbiterMessage::Position),
            "go" => parse_go(&mut t).map(ArbiterMessage::Go),
            "stop" => t.end().map(|()| ArbiterMessage::Stop),
            "quit" => t.end().map(|()| ArbiterMessage::Quit),
            _ => return Ok(ArbiterMessage::Unknown(Tokens::new(line).rest().to_owned())),
        };
        parsed.map_err(|problem| ParseMessageError::new(line, problem))
    }
}

fn parse_aboure(t: &mut Tokens) -> Result<ArbiterMessage, String> {
    let version = unsigned("protocol version", t.require("the protocol version")?)?;
    t.end()?;
    Ok(ArbiterMessage::Aboure { version })
}

fn parse_setoption(t: &mut Tokens) -> Result<ArbiterMessage, String> {
    t.keyword("name")?;
    let name = option_name(t.require("the option name")?)?.to_owned();
    t.keyword("value")?;
    let value = t.rest().to_owned();
    Ok(ArbiterMessage::SetOption { name, value })
}

fn parse_position(t: &mut Tokens) -> Result<GameSoFar, String> {
    let start = match t.require("`startpos` or `set`")? {
        "startpos" => Start::StartPos,
        "set" => {
            let mut fields = Vec::with_capacity(4);
            for what in [
                "the board",
                "the side to move",
                "South's captures",
                "North's captures",
            ] {
                fields.push(t.require(what)?);
            }
            let p = fields
                .join(" ")
                .parse::<Position>()
                .map_err(|e| format!("bad position: {e}"))?;
            Start::Set(p)
        }
        other => return Err(format!("expected `startpos` or `set`, found `{other}`")),
    };
    let mut moves = Vec::new();
    if let Some(word) = t.next() {
        if word != "moves" {
            return Err(format!("expected `moves`, found `{word}`"));
        }
        while let Some(m) = t.next() {
            moves.push(m.parse::<Move>().map_err(|e| e.to_string())?);
        }
    }
    Ok(GameSoFar { start, moves })
}

fn parse_go(t: &mut Tokens) -> Result<Go, String> {
    let mut go = Go::default();
    // The four clock fields, [stime, ntime, sinc, ninc].
    let mut clock: [Option<Duration>; 4] = [None; 4];
    const CLOCK: [&str; 4] = ["stime", "ntime", "sinc", "ninc"];
    while let Some(word) = t.next() {
        let value = t.require(&format!("the value of `{word}`"));
        let twice = || format!("`{word}` is given twice");
        match word {
            "movetime" | "depth" | "nodes" | "stime" | "ntime" | "sinc" | "ninc" => {}
            other => return Err(format!("unknown `go` limit `{other}`")),
        }
        let value = value?;
        match word {
            "movetime" => {
                if go.movetime.replace(millis(word, value)?).is_some() {
                    return Err(twice());
                }
            }
            "depth" => {
                if go.depth.replace(unsigned(word, value)?).is_some() {
                    return Err(twice());
                }
            }
            "nodes" => {
                if go.nodes.replace(unsigned(word, value)?).is_some() {
                    return Err(twice());
                }
            }
            _ => {
                let i = CLOCK.iter().position(|&c| c == word).unwrap_or(0);
                if clock[i].replace(millis(word, value)?).is_some() {
                    return Err(twice());
                }
            }
        }
    }
    match clock {
        [None, None, None, None] => {}
        [Some(st), Some(nt), Some(si), Some(ni)] => {
            go.clocks = Some(Clocks {
                time: [st, nt],
                increment: [si, ni],
            })
        }
        _ => {
            let missing: Vec<&str> = CLOCK
                .iter()
                .zip(clock)
                .filter(|(_, v)| v.is_none())
                .map(|(name, _)| *name)
                .collect();
            return Err(format!(
                "`stime ntime sinc ninc` come as a group of four; missing {}",
                missing.join(", ")
            ));
        }
    }
    Ok(go)
}
