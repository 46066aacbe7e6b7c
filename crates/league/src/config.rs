//! The league's keys in a tournament file's `[tournament]` table, checked
//! into a [`Rule`], so the arbiter only has to hand the table over:
//!
//! ```toml
//! [tournament]
//! format = "league"
//! games = 4000            # stop after this many games, and/or
//! until = "separated"     # when every neighbour pair is settled
//! confidence = 0.95       # of each verdict (default 0.95)
//! tie-margin = "10 Elo"   # neighbours this close may be a tie (default 0)
//! focus = "top-8"         # or "all" (default)
//! intervals = "anytime"   # or "fixed" (default): honest when it stops on them
//! ```
//!
//! Other keys of the table belong to the arbiter and are left alone. A
//! league needs `games` or `until`, or it would never end.

use crate::focus::Focus;
use crate::intervals::Intervals;
use crate::schedule::Rule;
use crate::stopping::Separation;

/// A `[tournament]` key the league cannot use, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tournament.{key}: {problem}")]
pub struct LeagueConfigError {
    /// The key, without the `tournament.` prefix.
    pub key: &'static str,
    /// What is wrong with it.
    pub problem: String,
}

fn error(key: &'static str, problem: impl Into<String>) -> LeagueConfigError {
    LeagueConfigError {
        key,
        problem: problem.into(),
    }
}

/// The league's settings, from a `[tournament]` table whose `format` is
/// `"league"`.
pub fn rule_from_table(table: &toml::Table) -> Result<Rule, LeagueConfigError> {
    match table.get("format") {
        Some(toml::Value::String(f)) if f == "league" => {}
        Some(other) => return Err(error("format", format!("{other} is not \"league\""))),
        None => {
            return Err(error(
                "format",
                "missing: a league says format = \"league\"",
            ))
        }
    }
    let games = match table.get("games") {
        None => None,
        Some(toml::Value::Integer(g)) if *g >= 2 => Some(*g as usize),
        Some(other) => {
            return Err(error(
                "games",
                format!("{other} is not a whole number of games, at least 2"),
            ))
        }
    };
    let separated = match table.get("until") {
        None => false,
        Some(toml::Value::String(u)) if u == "separated" => true,
        Some(other) => return Err(error("until", format!("{other} is not \"separated\""))),
    };
    let (confidence, tie_margin, intervals) = separation_keys(table)?;
    let focus = match table.get("focus") {
        None => Focus::All,
        Some(v) => focus(v).ok_or_else(|| {
            error(
                "focus",
                format!("{v} is not \"all\" or \"top-K\" (K at least 1)"),
            )
        })?,
    };
    if !separated {
        for key in ["confidence", "tie-margin", "intervals"] {
            if table.contains_key(key) {
                return Err(error(
                    key,
                    "only means something with until = \"separated\"",
                ));
            }
        }
    }
    if games.is_none() && !separated {
        return Err(error(
            "games",
            "a league needs games = N or until = \"separated\", or it never ends",
        ));
    }
    Ok(Rule {
        focus,
        games,
        until: separated.then_some(Separation {
            confidence,
            tie_margin,
            intervals,
        }),
        ..Rule::default()
    })
}

/// The keys that tune `until = "separated"`: its confidence, its tie
/// margin and its kind of intervals, each with its default.
fn separation_keys(table: &toml::Table) -> Result<(f64, f64, Intervals), LeagueConfigError> {
    let confidence = match table.get("confidence") {
        None => 0.95,
        Some(v) => match v.as_float().or_else(|| v.as_integer().map(|i| i as f64)) {
            Some(c) if c > 0.5 && c < 1.0 => c,
            _ => {
                return Err(error(
                    "confidence",
                    format!("{v} is not a number between 0.5 and 1"),
                ))
            }
        },
    };
    let tie_margin = match table.get("tie-margin") {
        None => 0.0,
        Some(v) => elo(v)
            .ok_or_else(|| error("tie-margin", format!("{v} is not a margin like \"10 Elo\"")))?,
    };
    let intervals = match table.get("intervals") {
        None => Intervals::FixedSample,
        Some(toml::Value::String(i)) if i == "fixed" => Intervals::FixedSample,
        Some(toml::Value::String(i)) if i == "anytime" => Intervals::Anytime,
        Some(other) => {
            return Err(error(
                "intervals",
                format!("{other} is not \"fixed\" or \"anytime\""),
            ))
        }
    };
    Ok((confidence, tie_margin, intervals))
}

/// `"10 Elo"`, `"10"` or `10`: a non-negative finite number of Elo.
fn elo(v: &toml::Value) -> Option<f64> {
    let x = match v {
        toml::Value::String(s) => {
            let s = s.trim();
            let number = s
                .strip_suffix("Elo")
                .or_else(|| s.strip_suffix("elo"))
                .unwrap_or(s);
            number.trim().parse::<f64>().ok()?
        }
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        _ => return None,
    };
    (x.is_finite() && x >= 0.0).then_some(x)
}

/// `"all"` or `"top-K"`.
fn focus(v: &toml::Value) -> Option<Focus> {
    let s = v.as_str()?.trim();
    if s == "all" {
        return Some(Focus::All);
    }
    let k: usize = s.strip_prefix("top-")?.parse().ok()?;
    (k >= 1).then_some(Focus::Top(k))
}
