//! Splitting a wire line into tokens, with access to "the rest of the line"
//! for the free-text fields (names, option values, `info string`), and the
//! strict number readers every message shares.

use std::time::Duration;

/// Spaces and tabs separate tokens; `\r` and `\n` may end a line.
fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

/// A cursor over the tokens of one line.
pub(crate) struct Tokens<'a> {
    rest: &'a str,
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(line: &'a str) -> Tokens<'a> {
        Tokens {
            rest: line.trim_matches(is_blank),
        }
    }

    /// The next token, if any.
    pub(crate) fn next(&mut self) -> Option<&'a str> {
        let s = self.rest.trim_start_matches(is_blank);
        if s.is_empty() {
            self.rest = s;
            return None;
        }
        let end = s.find(is_blank).unwrap_or(s.len());
        let (token, rest) = s.split_at(end);
        self.rest = rest;
        Some(token)
    }

    /// The next token, or an error naming what was expected.
    pub(crate) fn require(&mut self, what: &str) -> Result<&'a str, String> {
        self.next().ok_or_else(|| format!("{what} is missing"))
    }

    /// The next token, which must be exactly `keyword`.
    pub(crate) fn keyword(&mut self, keyword: &str) -> Result<(), String> {
        match self.next() {
            Some(t) if t == keyword => Ok(()),
            Some(t) => Err(format!("expected `{keyword}`, found `{t}`")),
            None => Err(format!("expected `{keyword}`, found the end of the line")),
        }
    }

    /// The next token, without consuming it.
    pub(crate) fn peek(&self) -> Option<&'a str> {
        Tokens { rest: self.rest }.next()
    }

    /// Everything after the current token, without surrounding blanks.
    pub(crate) fn rest(&mut self) -> &'a str {
        let s = self.rest.trim_start_matches(is_blank);
        self.rest = "";
        s
    }

    /// Fails if anything is left on the line.
    pub(crate) fn end(&mut self) -> Result<(), String> {
        match self.next() {
            None => Ok(()),
            Some(t) => Err(format!("unexpected `{t}` where the line should end")),
        }
    }
}

/// An unsigned decimal: digits only, no sign.
pub(crate) fn unsigned<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} `{text}` is not an unsigned number"));
    }
    text.parse()
        .map_err(|_| format!("{what} `{text}` is out of range"))
}

/// A signed decimal: an optional `-`, then digits.
pub(crate) fn signed<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} `{text}` is not a whole number"));
    }
    text.parse()
        .map_err(|_| format!("{what} `{text}` is out of range"))
}

/// A float as PROTOCOL.md writes it: an optional `-`, digits, optionally
/// `.` and digits, optionally `e`/`E`, a sign and digits; finite. Rust's
/// own parser accepts more (`+1`, `.5`, `inf`), so the shape is checked
/// first.
pub(crate) fn decimal(what: &str, text: &str) -> Result<f64, String> {
    let bad = || format!("{what} `{text}` is not a decimal number");
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    if !digits(whole) || !fraction.is_none_or(digits) || !exponent_ok {
        return Err(bad());
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("{what} `{text}` is out of range")),
    }
}

/// Milliseconds on the wire.
pub(crate) fn millis(what: &str, text: &str) -> Result<Duration, String> {
    unsigned::<u64>(what, text).map(Duration::from_millis)
}

/// An option name: one token of letters, digits, `-` and `_`.
pub(crate) fn option_name(text: &str) -> Result<&str, String> {
    if is_option_name(text) {
        Ok(text)
    } else {
        Err(format!(
            "option name `{text}` may hold only letters, digits, `-` and `_`"
        ))
    }
}

/// True when `text` is a valid option name.
pub(crate) fn is_option_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Free text as one wire line: line breaks become spaces, so a message never
/// spills onto a second line whatever a bot puts in it.
pub(crate) fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains(['\n', '\r']) {
        text.replace(['\n', '\r'], " ").into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_rest() {
        let mut t = Tokens::new("  id \t name  Deep  Sower \r");
        assert_eq!(t.next(), Some("id"));
        assert_eq!(t.next(), Some("name"));
        assert_eq!(t.rest(), "Deep  Sower");
        assert_eq!(t.next(), None);
    }

    #[test]
    fn numbers_are_strict() {
        assert_eq!(unsigned::<u32>("depth", "12"), Ok(12));
        assert!(unsigned::<u32>("depth", "+12").is_err());
        assert!(unsigned::<u32>("depth", "-1").is_err());
        assert!(unsigned::<u32>("depth", "99999999999").is_err());
        assert_eq!(signed::<i32>("score", "-7"), Ok(-7));
        assert!(signed::<i32>("score", "+7").is_err());
        assert!(signed::<i32>("score", "-").is_err());
    }

    #[test]
    fn decimals_are_strict_and_finite() {
        for (text, value) in [
            ("0.5", 0.5),
            ("-3", -3.0),
            ("1e-05", 1e-5),
            ("2.5E+3", 2500.0),
            ("-0.25e2", -25.0),
            ("1.4142135623730951", std::f64::consts::SQRT_2),
        ] {
            assert_eq!(decimal("default", text), Ok(value), "{text}");
        }
        for text in [
            "+1", ".5", "5.", "1e", "1e+", "inf", "NaN", "-", "", "1,5", "0x1", "1.2.3",
        ] {
            let e = decimal("default", text).unwrap_err();
            assert!(e.contains("is not a decimal number"), "{text}: {e}");
        }
        let e = decimal("max", "1e999").unwrap_err();
        assert_eq!(e, "max `1e999` is out of range");
    }
}
