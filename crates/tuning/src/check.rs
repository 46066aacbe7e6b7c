//! A tune's parameters against the options its bot declares in the
//! handshake: each must be an int or a float option whose range holds the
//! parameter's. Checked before the first iteration, so a typo or a range
//! the bot would refuse is an error naming the parameter and the bot, not a
//! failed game. The declaration also types the parameter: an int's start
//! and range must be whole and its values are rounded when sent; a float's
//! are sent as they are.

use aboure_protocol::{BotMessage, OptionKind, OptionSpec};
use aboure_spsa::Parameter;

use super::TuneError;

/// Checks `parameters` of `bot` against its `declared` options, and returns
/// them typed as the bot declares them.
pub fn check_declared(
    bot: &str,
    parameters: &[Parameter],
    declared: &[OptionSpec],
) -> Result<Vec<Parameter>, TuneError> {
    parameters
        .iter()
        .map(|p| {
            let error = |message: String| TuneError::Parameter {
                bot: bot.to_owned(),
                parameter: p.name.clone(),
                message,
            };
            let Some(spec) = declared.iter().find(|o| o.name == p.name) else {
                return Err(error(format!(
                    "the bot declares no such option (its int and float options: {})",
                    tunable(declared)
                )));
            };
            let line = || BotMessage::Option(spec.clone()).to_string();
            let (lo, hi, integer) = match spec.kind {
                OptionKind::Int { min, max, .. } => (min as f64, max as f64, true),
                OptionKind::Float { min, max, .. } => (min, max, false),
                _ => {
                    return Err(error(format!(
                        "the bot declares it as `{}`, not as an int or float option",
                        line()
                    )))
                }
            };
            if integer {
                let named = [("start", p.start), ("min", p.min), ("max", p.max)];
                if let Some((key, v)) = named.iter().find(|(_, v)| v.fract() != 0.0) {
                    return Err(error(format!(
                        "{key} {v} is not a whole number, and the bot declares `{}`",
                        line()
                    )));
                }
            }
            if p.min < lo || p.max > hi {
                return Err(error(format!(
                    "the range {}..={} exceeds the bot's min {lo} and max {hi}",
                    p.min, p.max
                )));
            }
            Ok(Parameter {
                integer,
                ..p.clone()
            })
        })
        .collect()
}

/// The names of the options a tune can move, or `none`.
fn tunable(declared: &[OptionSpec]) -> String {
    let names: Vec<&str> = declared
        .iter()
        .filter(|o| matches!(o.kind, OptionKind::Int { .. } | OptionKind::Float { .. }))
        .map(|o| o.name.as_str())
        .collect();
    match names.is_empty() {
        true => "none".to_owned(),
        false => names.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: "w".into(),
                kind: OptionKind::Int {
                    default: 0,
                    min: -100,
                    max: 100,
                },
            },
            OptionSpec {
                name: "q".into(),
                kind: OptionKind::Bool { default: true },
            },
            OptionSpec {
                name: "c".into(),
                kind: OptionKind::Float {
                    default: 0.5,
                    min: 0.0,
                    max: 10.0,
                },
            },
        ]
    }

    fn message(name: &str, start: f64, min: f64, max: f64) -> String {
        let p = Parameter::real(name, start, min, max, 1.0).unwrap();
        match check_declared("ab", &[p], &declared()) {
            Ok(typed) => format!("ok, integer {}", typed[0].integer),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_parameter_must_be_a_declared_int_or_float_option_within_its_range() {
        assert_eq!(message("w", 0.0, -100.0, 100.0), "ok, integer true");
        assert_eq!(message("c", 0.75, 0.25, 2.5), "ok, integer false");
        assert_eq!(
            message("x", 0.0, 0.0, 5.0),
            "bot ab: parameter x: the bot declares no such option (its int and float options: w, c)"
        );
        assert!(
            message("q", 0.0, 0.0, 1.0).contains("not as an int or float option"),
            "{}",
            message("q", 0.0, 0.0, 1.0)
        );
        assert_eq!(
            message("w", 0.0, -100.0, 101.0),
            "bot ab: parameter w: the range -100..=101 exceeds the bot's min -100 and max 100"
        );
        assert_eq!(
            message("c", 1.0, 0.0, 10.5),
            "bot ab: parameter c: the range 0..=10.5 exceeds the bot's min 0 and max 10"
        );
        assert_eq!(
            message("w", 1.5, 0.0, 4.0),
            "bot ab: parameter w: start 1.5 is not a whole number, and the bot declares \
             `option name w type int default 0 min -100 max 100`"
        );
    }
}
