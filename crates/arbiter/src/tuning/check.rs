//! A tune's parameters against the options its bot declares in the
//! handshake: each must be an int option whose range holds the parameter's.
//! Checked before the first iteration, so a typo or a range the bot would
//! refuse is an error naming the parameter and the bot, not a failed game.

use aboure_protocol::{BotMessage, OptionKind, OptionSpec};
use aboure_tune::Parameter;

use super::TuneError;

/// Checks `parameters` of `bot` against its `declared` options.
pub fn check_declared(
    bot: &str,
    parameters: &[Parameter],
    declared: &[OptionSpec],
) -> Result<(), TuneError> {
    for p in parameters {
        let error = |message: String| TuneError::Parameter {
            bot: bot.to_owned(),
            parameter: p.name.clone(),
            message,
        };
        let Some(spec) = declared.iter().find(|o| o.name == p.name) else {
            let ints: Vec<&str> = declared
                .iter()
                .filter(|o| matches!(o.kind, OptionKind::Int { .. }))
                .map(|o| o.name.as_str())
                .collect();
            return Err(error(format!(
                "the bot declares no such option (its int options: {})",
                if ints.is_empty() {
                    "none".to_owned()
                } else {
                    ints.join(", ")
                }
            )));
        };
        let OptionKind::Int { min, max, .. } = spec.kind else {
            return Err(error(format!(
                "the bot declares it as `{}`, not as an int option",
                BotMessage::Option(spec.clone())
            )));
        };
        let (lo, hi) = (min as f64, max as f64);
        if p.min < lo || p.max > hi {
            return Err(error(format!(
                "the range {}..={} exceeds the bot's min {min} and max {max}",
                p.min, p.max
            )));
        }
    }
    Ok(())
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
        ]
    }

    fn message(name: &str, min: f64, max: f64) -> String {
        let p = Parameter::integer(name, min, min, max, 1.0).unwrap();
        match check_declared("ab", &[p], &declared()) {
            Ok(()) => "ok".to_owned(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_parameter_must_be_a_declared_int_option_within_its_range() {
        assert_eq!(message("w", -100.0, 100.0), "ok");
        assert_eq!(
            message("x", 0.0, 5.0),
            "bot ab: parameter x: the bot declares no such option (its int options: w)"
        );
        assert!(
            message("q", 0.0, 1.0).contains("not as an int option"),
            "{}",
            message("q", 0.0, 1.0)
        );
        assert_eq!(
            message("w", -100.0, 101.0),
            "bot ab: parameter w: the range -100..=101 exceeds the bot's min -100 and max 100"
        );
    }
}
