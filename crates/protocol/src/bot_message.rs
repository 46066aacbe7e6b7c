//! What a bot sends the arbiter, one line each. `Display` writes the exact
//! line; parsing is strict about known messages and turns anything else into
//! [`BotMessage::Unknown`], which the arbiter logs and ignores.

use std::fmt;
use std::str::FromStr;

use aboure_engine::Move;

use crate::tokens::{decimal, millis, one_line, option_name, signed, unsigned, Tokens};
use crate::{OptionKind, OptionSpec, ParseMessageError, SearchInfo};

/// A message from a bot to the arbiter.
#[derive(Clone, Debug, PartialEq)]
pub enum BotMessage {
    /// `id name NAME...`.
    Name(String),
    /// `id author AUTHOR...`.
    Author(String),
    /// `option name NAME type ...`: an option the bot accepts.
    Option(OptionSpec),
    /// `aboureok`: the end of the handshake.
    AboureOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `info ...` or `info string TEXT`.
    Info(SearchInfo),
    /// `bestmove M`.
    BestMove(Move),
    /// A line that is none of the above (without surrounding whitespace).
    Unknown(String),
}

impl fmt::Display for BotMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotMessage::Name(name) => write!(f, "id name {}", one_line(name)),
            BotMessage::Author(author) => write!(f, "id author {}", one_line(author)),
            BotMessage::Option(spec) => {
                write!(f, "option name {} type ", spec.name)?;
                match &spec.kind {
                    OptionKind::Int { default, min, max } => {
                        write!(f, "int default {default} min {min} max {max}")
                    }
                    OptionKind::Float { default, min, max } => {
                        write!(f, "float default {default} min {min} max {max}")
                    }
                    OptionKind::Bool { default } => write!(f, "bool default {default}"),
                    OptionKind::String { default } => {
                        f.write_str("string default")?;
                        if !default.is_empty() {
                            write!(f, " {}", one_line(default))?;
                        }
                        Ok(())
                    }
                    OptionKind::Choice { default, choices } => {
                        write!(f, "choice default {default}")?;
                        for c in choices {
                            write!(f, " var {c}")?;
                        }
                        Ok(())
                    }
                }
            }
            BotMessage::AboureOk => f.write_str("aboureok"),
            BotMessage::ReadyOk => f.write_str("readyok"),
            BotMessage::Info(info) => {
                f.write_str("info")?;
                if let Some(d) = info.depth {
                    write!(f, " depth {d}")?;
                }
                if let Some(s) = info.score {
                    write!(f, " score {s}")?;
                }
                if let Some(n) = info.nodes {
                    write!(f, " nodes {n}")?;
                }
                if let Some(t) = info.time {
                    write!(f, " time {}", t.as_millis())?;
                }
                if !info.pv.is_empty() {
                    f.write_str(" pv")?;
                    for m in &info.pv {
                        write!(f, " {m}")?;
                    }
                }
                if let Some(text) = &info.string {
                    f.write_str(" string")?;
                    if !text.is_empty() {
                        write!(f, " {}", one_line(text))?;
                    }
                }
                Ok(())
            }
            BotMessage::BestMove(m) => write!(f, "bestmove {m}"),
            BotMessage::Unknown(line) => f.write_str(&one_line(line)),
        }
    }
}

impl FromStr for BotMessage {
    type Err = ParseMessageError;

    /// Parses one line (surrounding whitespace and `\r` allowed).
    fn from_str(line: &str) -> Result<BotMessage, ParseMessageError> {
        let mut t = Tokens::new(line);
        let Some(keyword) = t.next() else {
            return Ok(BotMessage::Unknown(String::new()));
        };
        let parsed = match keyword {
            "id" => parse_id(&mut t),
            "option" => parse_option(&mut t).map(BotMessage::Option),
            "aboureok" => t.end().map(|()| BotMessage::AboureOk),
            "readyok" => t.end().map(|()| BotMessage::ReadyOk),
            "info" => parse_info(&mut t).map(BotMessage::Info),
            "bestmove" => parse_bestmove(&mut t),
            _ => return Ok(BotMessage::Unknown(Tokens::new(line).rest().to_owned())),
        };
        parsed.map_err(|problem| ParseMessageError::new(line, problem))
    }
}

fn parse_id(t: &mut Tokens) -> Result<BotMessage, String> {
    let field = t.require("`name` or `author`")?;
    let text = t.rest();
    let make: fn(String) -> BotMessage = match field {
        "name" => BotMessage::Name,
        "author" => BotMessage::Author,
        other => return Err(format!("expected `name` or `author`, found `{other}`")),
    };
    if text.is_empty() {
        return Err(format!("the {field} is missing"));
    }
    Ok(make(text.to_owned()))
}

/// Choices a `choice` option may declare: a longer list is refused as
/// unreadable (a 64 KB line would otherwise hold thousands, each a string
/// the arbiter keeps for the whole run).
pub const MAX_CHOICES: usize = 64;

fn parse_option(t: &mut Tokens) -> Result<OptionSpec, String> {
    t.keyword("name")?;
    let name = option_name(t.require("the option name")?)?.to_owned();
    t.keyword("type")?;
    let kind = match t.require("the option type")? {
        "int" => {
            t.keyword("default")?;
            let default = signed("default", t.require("the default")?)?;
            t.keyword("min")?;
            let min = signed("min", t.require("the minimum")?)?;
            t.keyword("max")?;
            let max = signed("max", t.require("the maximum")?)?;
            t.end()?;
            OptionKind::Int { default, min, max }
        }
        "float" => {
            t.keyword("default")?;
            let default = decimal("default", t.require("the default")?)?;
            t.keyword("min")?;
            let min = decimal("min", t.require("the minimum")?)?;
            t.keyword("max")?;
            let max = decimal("max", t.require("the maximum")?)?;
            t.end()?;
            OptionKind::Float { default, min, max }
        }
        "bool" => {
            t.keyword("default")?;
            let default = match t.require("the default")? {
                "true" => true,
                "false" => false,
                other => return Err(format!("bool default `{other}` is neither true nor false")),
            };
            t.end()?;
            OptionKind::Bool { default }
        }
        "string" => {
            t.keyword("default")?;
            OptionKind::String {
                default: t.rest().to_owned(),
            }
        }
        "choice" => {
            t.keyword("default")?;
            let default = t.require("the default")?.to_owned();
            let mut choices = Vec::new();
            while let Some(word) = t.next() {
                if word != "var" {
                    return Err(format!("expected `var`, found `{word}`"));
                }
                if choices.len() == MAX_CHOICES {
                    return Err(format!("more than {MAX_CHOICES} choices"));
                }
                choices.push(t.require("the choice after `var`")?.to_owned());
            }
            if choices.is_empty() {
                return Err("a choice option needs at least one `var`".into());
            }
            OptionKind::Choice { default, choices }
        }
        other => {
            return Err(format!(
                "option type `{other}` is none of int, float, bool, string, choice"
            ))
        }
    };
    let spec = OptionSpec { name, kind };
    spec.validate().map_err(|e| e.to_string())?;
    Ok(spec)
}

fn parse_info(t: &mut Tokens) -> Result<SearchInfo, String> {
    let mut info = SearchInfo::default();
    while let Some(word) = t.next() {
        let twice = || format!("`{word}` is given twice");
        match word {
            "string" => {
                info.string = Some(t.rest().to_owned());
            }
            "pv" => {
                if !info.pv.is_empty() {
                    return Err(twice());
                }
                // The moves run to the end of the line or to `string`.
                while let Some(m) = t.peek().filter(|&w| w != "string") {
                    info.pv.push(m.parse::<Move>().map_err(|e| e.to_string())?);
                    t.next();
                }
                if info.pv.is_empty() {
                    return Err("`pv` without moves".into());
                }
            }
            "depth" | "score" | "nodes" | "time" => {
                if !info.pv.is_empty() {
                    return Err(format!("`{word}` after `pv`: the pv runs to the end"));
                }
                let value = t.require(&format!("the value of `{word}`"))?;
                let dup = match word {
                    "depth" => info.depth.replace(unsigned(word, value)?).is_some(),
                    "score" => info.score.replace(signed(word, value)?).is_some(),
                    "nodes" => info.nodes.replace(unsigned(word, value)?).is_some(),
                    _ => info.time.replace(millis(word, value)?).is_some(),
                };
                if dup {
                    return Err(twice());
                }
            }
            other => return Err(format!("unknown info field `{other}`")),
        }
    }
    Ok(info)
}

fn parse_bestmove(t: &mut Tokens) -> Result<BotMessage, String> {
    let m = t.require("the move")?;
    let m = m.parse::<Move>().map_err(|e| e.to_string())?;
    t.end()?;
    Ok(BotMessage::BestMove(m))
}
