//! The validator's tools: where a value is in the file (line and column
//! from its span), errors that name the file, line, column and key, and the
//! checks shared by every element (durations, positive durations, ranges).

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
