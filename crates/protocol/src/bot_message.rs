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

/// Why an [`OptionSpec`] cannot be announced.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OptionSpecError {
    /// The name is not one token of letters, digits, `-` and `_`.
    #[error("option name `{name}` may hold only letters, digits, `-` and `_`")]
    Name {
        /// The option's name.
        name: String,
    },
    /// An int option whose bounds are reversed.
    #[error("option {name}: min {min} > max {max}")]
    Bounds {
        /// The option's name.
        name: String,
        /// Its lower bound.
        min: i64,
        /// Its upper bound.
        max: i64,
    },
    /// An int option whose default is out of its bounds.
    #[error("option {name}: default {default} is outside {min}..={max}")]
    DefaultOutOfRange {
        /// The option's name.
        name: String,
        /// Its default.
        default: i64,
        /// Its lower bound.
        min: i64,
        /// Its upper bound.
        max: i64,
    },
    /// A float option whose bounds are reversed.
    #[error("option {name}: min {min} > max {max}")]
    FloatBounds {
        /// The option's name.
        name: String,
        /// Its lower bound.
        min: f64,
        /// Its upper bound.
        max: f64,
    },
    /// A float option whose default is out of its bounds.
    #[error("option {name}: default {default} is outside {min}..={max}")]
    FloatDefaultOutOfRange {
        /// The option's name.
        name: String,
        /// Its default.
        default: f64,
        /// Its lower bound.
        min: f64,
        /// Its upper bound.
        max: f64,
    },
    /// A float option's default or bound that is infinite or NaN.
    #[error("option {name}: its default and bounds must be finite numbers")]
    NotFinite {
        /// The option's name.
        name: String,
    },
    /// A string default that is not one line without surrounding blanks.
    #[error("option {name}: a string default must be one line without surrounding blanks")]
    StringDefault {
        /// The option's name.
        name: String,
    },
    /// A choice that is not a single word.
    #[error("option {name}: choice `{choice}` is not a single word")]
    Choice {
        /// The option's name.
        name: String,
        /// The offending choice.
        choice: String,
    },
    /// A default that is not one of the choices.
    #[error("option {name}: default `{default}` is not one of the choices")]
    DefaultNotChoice {
        /// The option's name.
        name: String,
        /// The default.
        default: String,
    },
}

impl OptionSpec {
    /// Checks that the spec can be announced: a one-word name, a default
    /// within range, choices that are single words and include the default.
    pub fn validate(&self) -> Result<(), OptionSpecError> {
        let name = || self.name.clone();
        if option_name(&self.name).is_err() {
            return Err(OptionSpecError::Name { name: name() });
        }
        match &self.kind {
            OptionKind::Int { default, min, max } => {
                let (default, min, max) = (*default, *min, *max);
                if min > max {
                    return Err(OptionSpecError::Bounds {
                        name: name(),
                        min,
                        max,
                    });
                }
                if default < min || default > max {
                    return Err(OptionSpecError::DefaultOutOfRange {
                        name: name(),
                        default,
                        min,
                        max,
                    });
                }
            }
            OptionKind::Float { default, min, max } => {
                let (default, min, max) = (*default, *min, *max);
                if ![default, min, max].iter().all(|v| v.is_finite()) {
                    return Err(OptionSpecError::NotFinite { name: name() });
                }
                if min > max {
                    return Err(OptionSpecError::FloatBounds {
                        name: name(),
                        min,
                        max,
                    });
                }
                if default < min || default > max {
                    return Err(OptionSpecError::FloatDefaultOutOfRange {
                        name: name(),
                        default,
                        min,
                        max,
                    });
                }
            }
            OptionKind::Bool { .. } => {}
            OptionKind::String { default } => {
                if default.contains(['\n', '\r']) || default.trim() != default {
                    return Err(OptionSpecError::StringDefault { name: name() });
                }
            }
            OptionKind::Choice { default, choices } => {
                if let Some(bad) = choices.iter().find(|c| !is_word(c)) {
                    return Err(OptionSpecError::Choice {
                        name: name(),
                        choice: bad.clone(),
                    });
                }
                if !choices.contains(default) {
                    return Err(OptionSpecError::DefaultNotChoice {
                        name: name(),
                        default: default.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Checks a `setoption` value against this spec and returns it in its
    /// canonical text (e.g. `true`, `-3`, `0.7`: a float as the shortest
    /// decimal that reads back as the same double).
    pub fn check_value(&self, value: &str) -> Result<String, String> {
        let name = &self.name;
        match &self.kind {
            OptionKind::Int { min, max, .. } => {
                let v: i64 = signed(&format!("option {name}: value"), value)?;
                if v < *min || v > *max {
                    return Err(format!("option {name}: {v} is outside {min}..={max}"));
                }
                Ok(v.to_string())
            }
            OptionKind::Float { min, max, .. } => {
                let v = decimal(&format!("option {name}: value"), value)?;
                if v < *min || v > *max {
                    return Err(format!("option {name}: {v} is outside {min}..={max}"));
                }
                Ok(v.to_string())
            }
            OptionKind::Bool { .. } => match value {
                "true" | "false" => Ok(value.to_owned()),
                _ => Err(format!(
                    "option {name}: `{value}` is neither `true` nor `false`"
                )),
            },
            OptionKind::String { .. } => Ok(value.to_owned()),
            OptionKind::Choice { choices, .. } => {
                if choices.iter().any(|c| c == value) {
                    Ok(value.to_owned())
                } else {
                    Err(format!(
                        "option {name}: `{value}` is not one of {}",
                        choices.join(", ")
                    ))
                }
            }
        }
    }
}

fn is_word(text: &str) -> bool {
    !text.is_empty() && !text.contains(char::is_whitespace)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, kind: OptionKind) -> OptionSpec {
        OptionSpec {
            name: name.to_owned(),
            kind,
        }
    }

    #[test]
    fn a_spec_that_cannot_be_announced_says_why_in_a_variant() {
        let int = |default, min, max| OptionKind::Int { default, min, max };
        assert_eq!(spec("depth", int(3, 1, 9)).validate(), Ok(()));
        let e = spec("two words", int(3, 1, 9)).validate().unwrap_err();
        assert!(matches!(e, OptionSpecError::Name { ref name } if name == "two words"));
        let e = spec("depth", int(3, 9, 1)).validate().unwrap_err();
        assert_eq!(e.to_string(), "option depth: min 9 > max 1");
        let e = spec("depth", int(12, 1, 9)).validate().unwrap_err();
        assert!(matches!(
            e,
            OptionSpecError::DefaultOutOfRange { default: 12, .. }
        ));
        assert_eq!(e.to_string(), "option depth: default 12 is outside 1..=9");
        let choice = |default: &str, choices: &[&str]| OptionKind::Choice {
            default: default.to_owned(),
            choices: choices.iter().map(|c| c.to_string()).collect(),
        };
        let e = spec("style", choice("wild", &["calm", "sharp"])).validate();
        assert!(matches!(e, Err(OptionSpecError::DefaultNotChoice { .. })));
        let e = spec("style", choice("calm", &["calm", "two words"])).validate();
        assert!(
            matches!(e, Err(OptionSpecError::Choice { ref choice, .. }) if choice == "two words")
        );
        let text = OptionKind::String {
            default: " padded".to_owned(),
        };
        let e = spec("book", text).validate();
        assert!(matches!(e, Err(OptionSpecError::StringDefault { .. })));
    }

    #[test]
    fn a_float_is_checked_for_range_and_sent_in_its_shortest_form() {
        let float = |default, min, max| OptionKind::Float { default, min, max };
        let explore = spec("explore", float(1.4, 0.0, 10.0));
        assert_eq!(explore.validate(), Ok(()));
        assert_eq!(explore.check_value("0.70"), Ok("0.7".to_owned()));
        assert_eq!(explore.check_value("1e1"), Ok("10".to_owned()));
        assert_eq!(
            explore.check_value("10.5"),
            Err("option explore: 10.5 is outside 0..=10".to_owned())
        );
        let e = explore.check_value(".5").unwrap_err();
        assert_eq!(e, "option explore: value `.5` is not a decimal number");
        let e = spec("explore", float(11.0, 0.0, 10.0)).validate();
        assert_eq!(
            e.unwrap_err().to_string(),
            "option explore: default 11 is outside 0..=10"
        );
        let e = spec("explore", float(1.0, 2.0, 0.5)).validate();
        assert!(matches!(e, Err(OptionSpecError::FloatBounds { .. })));
        let e = spec("explore", float(f64::NAN, 0.0, 1.0)).validate();
        assert!(matches!(e, Err(OptionSpecError::NotFinite { .. })));
        // The shortest form reads back as the same double.
        let odd: f64 = 0.1 + 0.2;
        let text = spec("x", float(0.0, 0.0, 1.0))
            .check_value(&odd.to_string())
            .unwrap();
        assert_eq!(text.parse::<f64>().unwrap().to_bits(), odd.to_bits());
    }
}
