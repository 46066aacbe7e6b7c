//! The validator's tools: where a value is in the file (line and column
//! from its span), which layer a value came from, errors that name the
//! file, line, column and key, and the checks shared by every element
//! (durations, positive durations, ranges).
//!
//! The base layer (`base.toml`) is read as if it followed the user's
//! text ([`super::defaults`]), so a span tells the layers apart: one that
//! starts inside the user's text is the user's value, one past its end the
//! base layer's. A base value is valid by construction (tested), so an
//! error never points into it; should one, it names the key, not a line.

use std::path::Path;
use std::time::Duration;

use toml::Spanned;

use crate::error::ConfigError;

pub use aboure_process::MAX_DURATION;

/// The message of a TOML syntax error; some (a lone carriage return) come
/// with none of their own.
pub(super) fn toml_message(err: &toml::de::Error) -> String {
    let message = err.message().trim();
    if message.is_empty() {
        "invalid TOML here (a stray character, such as a carriage return without a newline?)"
            .to_owned()
    } else {
        message.to_owned()
    }
}

pub(super) struct Validator<'a> {
    pub(super) text: &'a str,
    pub(super) path: &'a Path,
}

impl Validator<'_> {
    /// The folder of the tournament file (`.` for a bare file name).
    pub(super) fn dir(&self) -> &Path {
        match self.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        }
    }

    /// `value` if the user's file gives it, `None` if it is absent or comes
    /// from the base layer (for the rules about what a user wrote: a key
    /// that does not apply to the format, a pair of keys that conflict).
    pub(super) fn given<'v, T>(&self, value: &'v Option<Spanned<T>>) -> Option<&'v Spanned<T>> {
        value.as_ref().filter(|v| v.span().start < self.text.len())
    }

    /// A value the base layer gives, so present after layering; a base
    /// layer that lost it is a refused file, not a panic.
    pub(super) fn required<'v, T>(
        &self,
        value: &'v Option<Spanned<T>>,
        key: &str,
    ) -> Result<&'v Spanned<T>, ConfigError> {
        value
            .as_ref()
            .ok_or_else(|| self.whole(key, "has no value, and the built-in defaults give none"))
    }

    pub(super) fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text.as_bytes()[..offset.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        (line, column)
    }

    pub(super) fn at(
        &self,
        span: std::ops::Range<usize>,
        key: &str,
        message: impl Into<String>,
    ) -> ConfigError {
        if span.start >= self.text.len() {
            return self.whole(key, message);
        }
        let (line, column) = self.line_col(span.start);
        ConfigError {
            path: self.path.to_owned(),
            line,
            column,
            key: key.to_owned(),
            message: message.into(),
        }
    }

    pub(super) fn whole(&self, key: &str, message: impl Into<String>) -> ConfigError {
        ConfigError {
            path: self.path.to_owned(),
            line: 0,
            column: 0,
            key: key.to_owned(),
            message: message.into(),
        }
    }

    pub(super) fn duration(
        &self,
        value: &Spanned<String>,
        key: &str,
    ) -> Result<Duration, ConfigError> {
        aboure_process::parse_duration(value.get_ref())
            .map_err(|e| self.at(value.span(), key, e.to_string()))
    }

    pub(super) fn positive_duration(
        &self,
        value: &Spanned<String>,
        key: &str,
    ) -> Result<Duration, ConfigError> {
        let d = self.duration(value, key)?;
        if d.is_zero() {
            return Err(self.at(value.span(), key, "must be positive"));
        }
        Ok(d)
    }

    /// The value `value` names among `choices` (its words and values).
    pub(super) fn choice<T: Copy>(
        &self,
        value: &Spanned<String>,
        key: &str,
        choices: &[(&str, T)],
    ) -> Result<T, ConfigError> {
        if let Some(&(_, v)) = choices.iter().find(|(word, _)| word == value.get_ref()) {
            return Ok(v);
        }
        let words: Vec<String> = choices.iter().map(|(w, _)| format!("{w:?}")).collect();
        let listed = match words.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => words.concat(),
        };
        Err(self.at(
            value.span(),
            key,
            format!("{:?} is not {listed}", value.get_ref()),
        ))
    }

    pub(super) fn range(
        &self,
        value: &Spanned<i64>,
        key: &str,
        min: i64,
        max: i64,
    ) -> Result<i64, ConfigError> {
        let n = *value.get_ref();
        if n < min || n > max {
            return Err(self.at(
                value.span(),
                key,
                format!("{n} is out of range: must be between {min} and {max}"),
            ));
        }
        Ok(n)
    }
}
