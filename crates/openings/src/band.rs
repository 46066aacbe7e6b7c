//! A closed band of values, written `LO..HI` on a command line.

use std::fmt;
use std::str::FromStr;

/// The values from `lo` to `hi`, both included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band<T> {
    lo: T,
    hi: T,
}

/// A band that cannot be read or is empty.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BandError {
    /// Not `LO..HI`.
    #[error("`{0}` is not a band: write LO..HI, for example -2..2")]
    Syntax(String),
    /// An end is not a number.
    #[error("`{text}` in band `{band}` is not a number")]
    Number {
        /// The band as given.
        band: String,
        /// The end that did not parse.
        text: String,
    },
    /// `LO` is above `HI` (or an end is not a number at all, NaN).
    #[error("band {0} is empty: its low end must not be above its high end")]
    Empty(String),
}

impl<T: PartialOrd + Copy + fmt::Display> Band<T> {
    /// The band from `lo` to `hi`, refused if `lo > hi`.
    pub fn new(lo: T, hi: T) -> Result<Band<T>, BandError> {
        match lo.partial_cmp(&hi) {
            Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal) => Ok(Band { lo, hi }),
            _ => Err(BandError::Empty(format!("{lo}..{hi}"))),
        }
    }

    /// Whether `x` lies in the band.
    pub fn contains(&self, x: T) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// The low end.
    pub fn lo(&self) -> T {
        self.lo
    }

    /// The high end.
    pub fn hi(&self) -> T {
        self.hi
    }
}

impl<T: fmt::Display> fmt::Display for Band<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.lo, self.hi)
    }
}

impl<T: FromStr + PartialOrd + Copy + fmt::Display> FromStr for Band<T> {
    type Err = BandError;

    fn from_str(s: &str) -> Result<Self, BandError> {
        let (lo, hi) = s
            .trim()
            .split_once("..")
            .ok_or_else(|| BandError::Syntax(s.to_owned()))?;
        let number = |text: &str| {
            text.trim().parse::<T>().map_err(|_| BandError::Number {
                band: s.to_owned(),
                text: text.to_owned(),
            })
        };
        Band::new(number(lo)?, number(hi)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_read_with_signs_and_spaces() {
        let b: Band<i32> = " -4..-1 ".parse().unwrap();
        assert_eq!((b.lo(), b.hi()), (-4, -1));
        assert!(b.contains(-4) && b.contains(-1) && !b.contains(0));
        let f: Band<f64> = "0.5..2".parse().unwrap();
        assert!(f.contains(0.5) && !f.contains(2.01));
        assert_eq!(f.to_string(), "0.5..2");
    }

    #[test]
    fn bad_bands_are_refused_with_what_is_wrong() {
        assert_eq!(
            "3".parse::<Band<i32>>(),
            Err(BandError::Syntax("3".to_owned()))
        );
        assert!(matches!(
            "a..3".parse::<Band<i32>>(),
            Err(BandError::Number { text, .. }) if text == "a"
        ));
        assert_eq!(
            "3..-3".parse::<Band<i32>>(),
            Err(BandError::Empty("3..-3".to_owned()))
        );
        assert!(matches!(
            "NaN..1".parse::<Band<f64>>(),
            Err(BandError::Empty(_))
        ));
    }
}
