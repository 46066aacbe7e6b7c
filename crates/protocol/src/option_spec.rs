//! What a bot may declare: an [`OptionSpec`] checked before it is
//! announced ([`OptionSpec::validate`]), and a `setoption` value checked
//! against it ([`OptionSpec::check_value`]), one rule per option type.

use crate::tokens::{decimal, option_name, signed};
use crate::{OptionKind, OptionSpec};

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
    pub fn check_value(&self, value: &str) -> Result<String, OptionValueError> {
        let refuse = |problem| OptionValueError {
            name: self.name.clone(),
            problem,
        };
        let out_of_range = |v: String, min: String, max: String| {
            refuse(ValueProblem::OutOfRange { value: v, min, max })
        };
        match &self.kind {
            OptionKind::Int { min, max, .. } => {
                let v: i64 =
                    signed("value", value).map_err(|m| refuse(ValueProblem::Malformed(m)))?;
                if v < *min || v > *max {
                    return Err(out_of_range(
                        v.to_string(),
                        min.to_string(),
                        max.to_string(),
                    ));
                }
                Ok(v.to_string())
            }
            OptionKind::Float { min, max, .. } => {
                let v = decimal("value", value).map_err(|m| refuse(ValueProblem::Malformed(m)))?;
                if v < *min || v > *max {
                    return Err(out_of_range(
                        v.to_string(),
                        min.to_string(),
                        max.to_string(),
                    ));
                }
                Ok(v.to_string())
            }
            OptionKind::Bool { .. } => match value {
                "true" | "false" => Ok(value.to_owned()),
                _ => Err(refuse(ValueProblem::NotBool(value.to_owned()))),
            },
            OptionKind::String { .. } => Ok(value.to_owned()),
            OptionKind::Choice { choices, .. } => match choices.iter().any(|c| c == value) {
                true => Ok(value.to_owned()),
                false => Err(refuse(ValueProblem::NotAChoice {
                    value: value.to_owned(),
                    choices: choices.clone(),
                })),
            },
        }
    }
}

/// Why a `setoption` value does not fit its option: `option NAME: PROBLEM`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("option {name}: {problem}")]
pub struct OptionValueError {
    /// The option's name.
    pub name: String,
    /// What is wrong with the value.
    pub problem: ValueProblem,
}

/// What is wrong with a `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueProblem {
    /// Not a number of the option's type as the protocol writes numbers
    /// (the wire rules' own message: `value `x` is not a whole number`).
    #[error("{0}")]
    Malformed(String),
    /// A number outside the option's bounds.
    #[error("{value} is outside {min}..={max}")]
    OutOfRange {
        /// The value, in its canonical text.
        value: String,
        /// The lower bound.
        min: String,
        /// The upper bound.
        max: String,
    },
    /// A check option's value other than `true` or `false`.
    #[error("`{0}` is neither `true` nor `false`")]
    NotBool(String),
    /// A combo option's value not among its choices.
    #[error("`{value}` is not one of {}", choices.join(", "))]
    NotAChoice {
        /// The value.
        value: String,
        /// The option's choices.
        choices: Vec<String>,
    },
}

fn is_word(text: &str) -> bool {
    !text.is_empty() && !text.contains(char::is_whitespace)
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
        let e = explore.check_value("10.5").unwrap_err();
        assert!(matches!(e.problem, ValueProblem::OutOfRange { ref value, .. } if value == "10.5"));
        assert_eq!(e.to_string(), "option explore: 10.5 is outside 0..=10");
        let e = explore.check_value(".5").unwrap_err();
        assert!(matches!(e.problem, ValueProblem::Malformed(_)));
        assert_eq!(
            e.to_string(),
            "option explore: value `.5` is not a decimal number"
        );
        let flag = spec("ponder", OptionKind::Bool { default: false });
        let e = flag.check_value("yes").unwrap_err();
        assert_eq!(e.problem, ValueProblem::NotBool("yes".to_owned()));
        assert_eq!(
            e.to_string(),
            "option ponder: `yes` is neither `true` nor `false`"
        );
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
