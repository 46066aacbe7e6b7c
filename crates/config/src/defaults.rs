//! The two layers of a tournament file, as nextest layers its config: the
//! embedded, commented `base.toml` is deserialized first, as the base
//! layer, and the user's file overlays it key by key (each element's
//! `over`). Every default is written once, in that file: a key the user
//! leaves out takes the base layer's value, and one the base layer lacks
//! has no default (`concurrency`, `solve-after`, a league's keys).
//!
//! The base layer is parsed as if it followed the user's text (after as
//! many spaces as the user's text has bytes, which TOML ignores), so each
//! value's span says which layer it came from ([`Validator::given`]), and
//! an error on a user's value keeps its line, column and key.

use serde::Deserialize;

use super::type_hint;
use super::validator::toml_message;
use super::Validator;
use crate::error::ConfigError;

/// Every default of a tournament file, as a commented tournament file (no
/// bots): the base layer every file overlays.
pub const DEFAULT_CONFIG: &str = include_str!("base.toml");

impl Validator<'_> {
    /// The user's text deserialized as `T`, its syntax errors at their
    /// line and column, and a value of the wrong type with its key and the
    /// line it should be ([`type_hint`]).
    pub(super) fn user_layer<T: for<'de> Deserialize<'de>>(&self) -> Result<T, ConfigError> {
        let de = toml::Deserializer::new(self.text);
        serde_path_to_error::deserialize(de).map_err(|err| {
            let key = type_hint::key_of(err.path());
            let err = err.into_inner();
            let span = err.span();
            let (line, column) = span.as_ref().map_or((0, 0), |s| self.line_col(s.start));
            let mut message = toml_message(&err);
            let value = span.and_then(|s| self.text.get(s));
            if let Some(hint) = value.and_then(|v| type_hint::hint(&key, v, &message)) {
                message = format!("{message}; {hint}");
            }
            ConfigError {
                path: self.path.to_owned(),
                line,
                column,
                key,
                message,
            }
        })
    }

    /// The base layer deserialized as `T`, its spans past the user's text.
    pub(super) fn base_layer<T: for<'de> Deserialize<'de>>(&self) -> Result<T, ConfigError> {
        // Padding made by hand: a format width stops at 65,535.
        let text = " ".repeat(self.text.len()) + DEFAULT_CONFIG;
        toml::from_str(&text).map_err(|err| {
            self.whole(
                "",
                format!(
                    "the built-in base.toml does not parse: {}",
                    toml_message(&err)
                ),
            )
        })
    }
}

/// The base layer's `[sandbox]` table alone: the sandbox of a tournament
/// file without one, and of `aboure check-bot`.
pub fn default_sandbox() -> Result<aboure_sandbox::Settings, ConfigError> {
    let v = Validator {
        text: "",
        path: std::path::Path::new("base.toml"),
    };
    let base: super::RawConfig = v.base_layer()?;
    v.sandbox(&base.sandbox)
}

/// The base layer's `time-control.margin`: a tournament's default margin,
/// and `aboure check-bot`'s.
pub fn default_margin() -> Result<std::time::Duration, ConfigError> {
    let v = Validator {
        text: "",
        path: std::path::Path::new("base.toml"),
    };
    let base: super::RawConfig = v.base_layer()?;
    let tc = v.time_control(&base.time_control, "time-control")?;
    Ok(tc.margin)
}
