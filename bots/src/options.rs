//! The option plumbing the bots share: integer and float options defined
//! once, for their declaration and for reading their values back, with
//! errors that name the option and quote the value.

use aboure_protocol::{OptionKind, OptionSpec, SetOptionError};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The `seed` value that asks for a fresh, unpredictable seed.
pub const FRESH_SEED: i64 = 0;

/// An integer option, defined once: its declaration in the handshake and the
/// reading of its values come from the same name and range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IntOption {
    pub(crate) name: &'static str,
    pub(crate) default: i64,
    pub(crate) min: i64,
    pub(crate) max: i64,
}

impl IntOption {
    /// The declaration announced in the handshake.
    pub(crate) fn spec(&self) -> OptionSpec {
        OptionSpec {
            name: self.name.to_owned(),
            kind: OptionKind::Int {
                default: self.default,
                min: self.min,
                max: self.max,
            },
        }
    }

    /// Reads a value, checking its range.
    pub(crate) fn parse(&self, value: &str) -> Result<i64, SetOptionError> {
        let (min, max) = (self.min, self.max);
        let n: i64 = value
            .trim()
            .parse()
            .map_err(|_| bad_value(self.name, format!("`{value}` is not an integer")))?;
        if n < min || n > max {
            return Err(bad_value(
                self.name,
                format!("{n} is out of range (min {min}, max {max})"),
            ));
        }
        Ok(n)
    }
}

/// A float option, defined once like [`IntOption`]. Values are read with
/// the protocol's own check (its decimal syntax, no `inf` or `nan`), and
/// one out of range is refused, never clamped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FloatOption {
    pub(crate) name: &'static str,
    pub(crate) default: f64,
    pub(crate) min: f64,
    pub(crate) max: f64,
}

impl FloatOption {
    /// The declaration announced in the handshake.
    pub(crate) fn spec(&self) -> OptionSpec {
        OptionSpec {
            name: self.name.to_owned(),
            kind: OptionKind::Float {
                default: self.default,
                min: self.min,
                max: self.max,
            },
        }
    }

    /// Reads a value, checking its syntax and range.
    pub(crate) fn parse(&self, value: &str) -> Result<f64, SetOptionError> {
        let text = self
            .spec()
            .check_value(value.trim())
            .map_err(|e| bad_value(self.name, e.problem.to_string()))?;
        text.parse()
            .map_err(|_| bad_value(self.name, format!("`{value}` is not a number")))
    }
}

/// The `seed` option every randomised bot declares.
pub(crate) const SEED: IntOption = IntOption {
    name: "seed",
    default: FRESH_SEED,
    min: 0,
    max: i64::MAX,
};

/// The random number generator for a `seed` value: the same stream for the
/// same positive seed, a fresh one from the operating system for
/// [`FRESH_SEED`].
pub(crate) fn rng_for(seed: i64) -> SmallRng {
    if seed == FRESH_SEED {
        SmallRng::from_entropy()
    } else {
        SmallRng::seed_from_u64(seed as u64)
    }
}

/// The error for an option a bot does not have.
pub(crate) fn unknown(bot: &str, name: &str) -> SetOptionError {
    SetOptionError::NoSuchOption {
        player: bot.to_owned(),
        name: name.to_owned(),
    }
}

/// The error for a value an option cannot take.
pub(crate) fn bad_value(name: &str, problem: String) -> SetOptionError {
    SetOptionError::BadValue {
        name: name.to_owned(),
        problem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn parse_checks_range_and_syntax() {
        let depth = IntOption {
            name: "depth",
            default: 8,
            min: 1,
            max: 64,
        };
        assert_eq!(depth.parse(" 12 "), Ok(12));
        assert_eq!(
            depth.parse("0").unwrap_err().to_string(),
            "option depth: 0 is out of range (min 1, max 64)"
        );
        assert_eq!(
            depth.parse("x"),
            Err(bad_value("depth", "`x` is not an integer".to_owned()))
        );
        assert!(depth.parse("").is_err());
        // The declaration and the reading agree on the range.
        let OptionKind::Int { min, max, .. } = depth.spec().kind else {
            panic!("an integer option declares an integer");
        };
        assert_eq!((min, max), (1, 64));
    }

    #[test]
    fn a_float_is_read_exactly_and_refused_out_of_range() {
        let c = FloatOption {
            name: "exploration",
            default: 0.5,
            min: 0.0,
            max: 10.0,
        };
        assert_eq!(c.parse(" 0.7 "), Ok(0.7));
        assert_eq!(c.parse("1e-3"), Ok(0.001));
        assert_eq!(
            c.parse("10.5").unwrap_err().to_string(),
            "option exploration: 10.5 is outside 0..=10"
        );
        assert_eq!(
            c.parse("inf").unwrap_err().to_string(),
            "option exploration: value `inf` is not a decimal number"
        );
        assert_eq!(c.spec().validate(), Ok(()));
    }

    #[test]
    fn seeds_reproduce_and_fresh_ones_differ() {
        assert_eq!(rng_for(7).next_u64(), rng_for(7).next_u64());
        assert_ne!(rng_for(7).next_u64(), rng_for(8).next_u64());
        assert_ne!(
            rng_for(FRESH_SEED).next_u64(),
            rng_for(FRESH_SEED).next_u64()
        );
    }
}
