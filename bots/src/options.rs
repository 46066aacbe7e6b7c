//! The option plumbing the bots share: declaring integer options and reading
//! their values back, with errors that name the option and quote the value.

use aboure_protocol::{OptionKind, OptionSpec};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The `seed` value that asks for a fresh, unpredictable seed.
pub const FRESH_SEED: i64 = 0;

/// An integer option's declaration.
pub(crate) fn int_option(name: &str, default: i64, min: i64, max: i64) -> OptionSpec {
    OptionSpec {
        name: name.to_owned(),
        kind: OptionKind::Int { default, min, max },
    }
}

/// The `seed` option every randomised bot declares.
pub(crate) fn seed_option() -> OptionSpec {
    int_option("seed", FRESH_SEED, 0, i64::MAX)
}

/// Reads an integer option value, checking its range.
pub(crate) fn parse_int(name: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    let n: i64 = value
        .trim()
        .parse()
        .map_err(|_| format!("option {name}: `{value}` is not an integer"))?;
    if n < min || n > max {
        return Err(format!(
            "option {name}: {n} is out of range (min {min}, max {max})"
        ));
    }
    Ok(n)
}

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
pub(crate) fn unknown(bot: &str, name: &str) -> String {
    format!("{bot} has no option {name}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn parse_int_checks_range_and_syntax() {
        assert_eq!(parse_int("depth", " 12 ", 1, 64), Ok(12));
        assert!(parse_int("depth", "0", 1, 64)
            .unwrap_err()
            .contains("out of range"));
        assert!(parse_int("depth", "x", 1, 64).unwrap_err().contains("`x`"));
        assert!(parse_int("depth", "", 1, 64).is_err());
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
