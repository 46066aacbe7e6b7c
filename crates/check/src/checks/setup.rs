//! Checks of what happens before and between games: the handshake, options,
//! robustness to bad input, pings and `newgame`.

use std::time::{Duration, Instant};

use aboure_protocol::{ArbiterMessage, BotMessage, OptionKind, OptionSpec};

use super::legal::{legal_answer, MOVETIME};
use crate::scenario;
use crate::session::{ms, Session, Step};

/// How many pings the ping check sends in a row.
const PINGS: usize = 20;

/// A handshake slower than this passes with a warning (a run says so too).
const SLOW_HANDSHAKE: Duration = aboure_process::SLOW_STARTUP;

pub(super) async fn handshake(s: &mut Session<'_>) -> Step<()> {
    let (id, took) = s.fresh_start().await?;
    s.headline(format!(
        "`{}` by `{}`, {} option{}",
        id.name,
        id.author,
        id.options.len(),
        if id.options.len() == 1 { "" } else { "s" }
    ));
    s.detail(format!(
        "id name `{}`, id author `{}`, aboureok after {}",
        id.name,
        id.author,
        ms(took)
    ));
    if took > SLOW_HANDSHAKE {
        s.warn(format!(
            "the handshake took {} (over {}): every game of a tournament waits for it, \
             and with restart = \"per-game\" each game starts the bot afresh; do slow \
             set-up work once, after `aboureok` or lazily",
            ms(took),
            ms(SLOW_HANDSHAKE)
        ));
    }
    let options: Vec<String> = id.options.iter().map(describe).collect();
    s.detail(match options.len() {
        0 => "no options".to_owned(),
        _ => format!("options: {}", options.join(", ")),
    });
    s.begin_exchange();
    s.ready().await?;
    Ok(())
}

fn describe(spec: &OptionSpec) -> String {
    let kind = match &spec.kind {
        OptionKind::Int { default, min, max } => format!("int {default} in {min}..={max}"),
        OptionKind::Float { default, min, max } => format!("float {default} in {min}..={max}"),
        OptionKind::Bool { default } => format!("bool {default}"),
        OptionKind::String { default } => format!("string `{default}`"),
        OptionKind::Choice { default, choices } => {
            format!("choice {default} of {}", choices.join("|"))
        }
    };
    format!("{} ({kind})", spec.name)
}

/// The default as `setoption` writes it.
fn default_value(spec: &OptionSpec) -> String {
    match &spec.kind {
        OptionKind::Int { default, .. } => default.to_string(),
        OptionKind::Float { default, .. } => default.to_string(),
        OptionKind::Bool { default } => default.to_string(),
        OptionKind::String { default } => default.clone(),
        OptionKind::Choice { default, .. } => default.clone(),
    }
}

/// A valid value other than the default, where the type has one.
fn other_value(spec: &OptionSpec) -> String {
    match &spec.kind {
        OptionKind::Int { default, min, max } => match (default < max, default > min) {
            (true, _) => (default + 1).to_string(),
            (false, true) => (default - 1).to_string(),
            _ => default.to_string(),
        },
        // Halfway to a bound (halving first: no overflow near the largest
        // doubles).
        OptionKind::Float { default, min, max } => {
            let toward = if default < max { max } else { min };
            (default / 2.0 + toward / 2.0).to_string()
        }
        OptionKind::Bool { default } => (!default).to_string(),
        OptionKind::String { default } if default.is_empty() => "aboure check".to_owned(),
        OptionKind::String { .. } => String::new(),
        OptionKind::Choice { default, choices } => choices
            .iter()
            .find(|c| *c != default)
            .unwrap_or(default)
            .clone(),
    }
}

/// A value the option's type refuses, where the type has one.
fn bad_value(spec: &OptionSpec) -> Option<String> {
    match &spec.kind {
        OptionKind::Int { max, .. } => Some(match max.checked_add(1) {
            Some(v) => v.to_string(),
            None => "many".to_owned(),
        }),
        OptionKind::Float { max, .. } => {
            let above = max + max.abs().max(1.0);
            Some(match above.is_finite() {
                true => above.to_string(),
                false => "many".to_owned(),
            })
        }
        OptionKind::Bool { .. } => Some("maybe".to_owned()),
        OptionKind::String { .. } => None,
        OptionKind::Choice { choices, .. } => {
            let mut bad = "none-of-these".to_owned();
            while choices.contains(&bad) {
                bad.push('x');
            }
            Some(bad)
        }
    }
}

async fn set(s: &mut Session<'_>, name: &str, value: String) -> Step<()> {
    s.begin_exchange();
    s.send(&ArbiterMessage::SetOption {
        name: name.to_owned(),
        value,
    })
    .await?;
    s.ready().await?;
    Ok(())
}

pub(super) async fn options(s: &mut Session<'_>) -> Step<()> {
    let id = s.start().await?;
    s.ready().await?;
    if id.options.is_empty() {
        s.detail("no options declared: nothing to set");
    }
    for spec in &id.options {
        let (default, other) = (default_value(spec), other_value(spec));
        set(s, &spec.name, default.clone()).await?;
        set(s, &spec.name, other.clone()).await?;
        s.detail(format!(
            "{}: set to `{default}` and to `{other}`",
            spec.name
        ));
    }
    legal_answer(s, &scenario::startpos(), MOVETIME).await?;
    Ok(())
}

pub(super) async fn bad_input(s: &mut Session<'_>) -> Step<()> {
    let id = s.start().await?;
    s.ready().await?;
    s.begin_exchange();
    s.send_text("hello aboure").await?;
    s.ready().await?;
    set(s, "aboure-check-no-such-option", "1".to_owned()).await?;
    if let Some((spec, value)) = id
        .options
        .iter()
        .find_map(|spec| Some((spec, bad_value(spec)?)))
    {
        set(s, &spec.name, value.clone()).await?;
        s.detail(format!(
            "survived `setoption name {} value {value}`",
            spec.name
        ));
    }
    s.begin_exchange();
    s.send_text("").await?;
    s.send_text(" \tisready  ").await?;
    s.wait_for(
        "readyok to ` \\tisready  `",
        Instant::now() + s.config().timeout,
        |m| *m == BotMessage::ReadyOk,
    )
    .await?;
    legal_answer(s, &scenario::startpos(), MOVETIME).await?;
    Ok(())
}

pub(super) async fn ping(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    s.begin_exchange();
    let first = s.ready().await?;
    s.begin_exchange();
    let started = s.send(&ArbiterMessage::IsReady).await?;
    for _ in 1..PINGS {
        s.send(&ArbiterMessage::IsReady).await?;
    }
    let deadline = Instant::now() + s.config().timeout;
    let mut last = started;
    for i in 0..PINGS {
        let what = format!("readyok {} of {PINGS}", i + 1);
        (last, _) = s
            .wait_for(&what, deadline, |m| *m == BotMessage::ReadyOk)
            .await?;
    }
    s.detail(format!(
        "readyok after {}; {PINGS} in a row answered in {}",
        ms(first),
        ms(last.saturating_duration_since(started))
    ));
    Ok(())
}

pub(super) async fn new_game(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    let games = [
        scenario::startpos(),
        scenario::set(scenario::SETUPS[0]),
        scenario::startpos(),
    ];
    for game in &games {
        s.begin_exchange();
        s.send(&ArbiterMessage::NewGame).await?;
        s.ready().await?;
        legal_answer(s, game, MOVETIME).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(kind: OptionKind) -> OptionSpec {
        OptionSpec {
            name: "x".into(),
            kind,
        }
    }

    #[test]
    fn other_values_are_valid_and_differ_where_they_can() {
        let int = |default, min, max| spec(OptionKind::Int { default, min, max });
        let float = |default, min, max| spec(OptionKind::Float { default, min, max });
        let choice = spec(OptionKind::Choice {
            default: "b".into(),
            choices: vec!["b".into(), "c".into()],
        });
        let cases = [
            (int(3, 0, 9), "4"),
            (int(9, 0, 9), "8"),
            (int(5, 5, 5), "5"),
            (spec(OptionKind::Bool { default: true }), "false"),
            (
                spec(OptionKind::String {
                    default: String::new(),
                }),
                "aboure check",
            ),
            (
                spec(OptionKind::String {
                    default: "a b".into(),
                }),
                "",
            ),
            (choice, "c"),
            (float(0.5, 0.0, 10.0), "5.25"),
            (float(10.0, 0.0, 10.0), "5"),
            (float(-1.5, -1.5, -1.5), "-1.5"),
        ];
        for (spec, want) in cases {
            let value = other_value(&spec);
            assert_eq!(value, want);
            assert_eq!(spec.check_value(&value).as_deref(), Ok(want));
            assert!(spec.check_value(&default_value(&spec)).is_ok());
        }
    }

    #[test]
    fn bad_values_are_refused_by_the_type() {
        let kinds = [
            OptionKind::Int {
                default: 0,
                min: 0,
                max: 9,
            },
            OptionKind::Int {
                default: 0,
                min: 0,
                max: i64::MAX,
            },
            OptionKind::Float {
                default: 0.5,
                min: 0.0,
                max: 10.0,
            },
            OptionKind::Float {
                default: -1.0,
                min: -2.0,
                max: -1.0,
            },
            OptionKind::Float {
                default: 0.0,
                min: 0.0,
                max: f64::MAX,
            },
            OptionKind::Bool { default: false },
            OptionKind::Choice {
                default: "none-of-these".into(),
                choices: vec!["none-of-these".into()],
            },
        ];
        for kind in kinds {
            let spec = spec(kind);
            let bad = bad_value(&spec).unwrap();
            assert!(spec.check_value(&bad).is_err(), "{bad}");
        }
        assert_eq!(
            bad_value(&spec(OptionKind::String {
                default: String::new()
            })),
            None
        );
    }
}
