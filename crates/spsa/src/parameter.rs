//! One tuned parameter: where it starts, the range it must stay in, and its
//! step. The range is the bot's own (the `min` and `max` of its option); the
//! step is the perturbation at the end of the tune, fishtest's `c_end`.

use serde::{Deserialize, Serialize};

/// A parameter that SPSA moves. Its value is kept real while tuning, so that
/// many small steps add up even when the bot only takes integers; it is
/// rounded only when sent ([`Parameter::sent`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Parameter {
    /// The option's name, as the bot declares it.
    pub name: String,
    /// The value the tune starts from.
    pub start: f64,
    /// The smallest value the bot accepts.
    pub min: f64,
    /// The largest value the bot accepts.
    pub max: f64,
    /// The perturbation `c` at the last iteration (fishtest's `c_end`): about
    /// the change whose effect is just measurable.
    pub step: f64,
    /// Whether the bot takes only whole numbers (`type int`).
    pub integer: bool,
}

/// Why a parameter cannot be tuned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParameterError {
    /// `min` is not below `max`, or one is not finite.
    #[error("parameter {name}: the range {min}..={max} is empty or not finite")]
    EmptyRange {
        /// The parameter.
        name: String,
        /// Its lower bound.
        min: f64,
        /// Its upper bound.
        max: f64,
    },
    /// The start lies outside the range.
    #[error("parameter {name}: start {start} is outside {min}..={max}")]
    StartOutOfRange {
        /// The parameter.
        name: String,
        /// Its start.
        start: f64,
        /// Its lower bound.
        min: f64,
        /// Its upper bound.
        max: f64,
    },
    /// The step is not a positive finite number.
    #[error("parameter {name}: step {step} must be positive")]
    BadStep {
        /// The parameter.
        name: String,
        /// Its step.
        step: f64,
    },
    /// Two parameters share a name.
    #[error("parameter {name} is listed twice")]
    Duplicate {
        /// The name.
        name: String,
    },
    /// There is nothing to tune.
    #[error("no parameters to tune")]
    Empty,
}

impl Parameter {
    /// A real-valued parameter, checked.
    pub fn real(
        name: &str,
        start: f64,
        min: f64,
        max: f64,
        step: f64,
    ) -> Result<Self, ParameterError> {
        Self::checked(name, start, min, max, step, false)
    }

    /// A whole-number parameter (`type int`), checked.
    pub fn integer(
        name: &str,
        start: f64,
        min: f64,
        max: f64,
        step: f64,
    ) -> Result<Self, ParameterError> {
        Self::checked(name, start, min, max, step, true)
    }

    pub(crate) fn checked(
        name: &str,
        start: f64,
        min: f64,
        max: f64,
        step: f64,
        integer: bool,
    ) -> Result<Self, ParameterError> {
        let name = name.to_string();
        if !(min.is_finite() && max.is_finite() && min < max) {
            return Err(ParameterError::EmptyRange { name, min, max });
        }
        if !(start >= min && start <= max) {
            return Err(ParameterError::StartOutOfRange {
                name,
                start,
                min,
                max,
            });
        }
        if !(step.is_finite() && step > 0.0) {
            return Err(ParameterError::BadStep { name, step });
        }
        Ok(Self {
            name,
            start,
            min,
            max,
            step,
            integer,
        })
    }

    /// `value` held inside the range.
    pub fn clamp(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }

    /// The value the bot is given for `value`: clamped, and rounded to the
    /// nearest whole number (half away from zero) if the bot takes integers.
    pub fn sent(&self, value: f64) -> f64 {
        let value = self.clamp(value);
        if self.integer {
            // The range of an int option has integer ends, so rounding
            // inside it stays inside it.
            value.round().clamp(self.min.ceil(), self.max.floor())
        } else {
            value
        }
    }
}
