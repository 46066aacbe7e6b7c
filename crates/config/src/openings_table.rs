//! `[openings]`: random openings of some plies, or a file of openings.

use serde::Deserialize;
use toml::Spanned;

use super::Validator;
use crate::error::ConfigError;
use crate::opening::{parse_opening_file, OpeningSource};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawOpenings {
    plies: Option<Spanned<i64>>,
    file: Option<Spanned<String>>,
}

impl RawOpenings {
    /// The user's table over the base layer's: the source is one choice,
    /// so a table that gives `plies` or `file` replaces the base layer's.
    pub(super) fn over(self, base: RawOpenings) -> RawOpenings {
        match (&self.plies, &self.file) {
            (None, None) => base,
            _ => self,
        }
    }

    /// The file, as written, if the openings come from one.
    pub(super) fn file_name(&self) -> Option<String> {
        self.file.as_ref().map(|f| f.get_ref().clone())
    }
}

impl Validator<'_> {
    pub(super) fn openings(&self, raw: &RawOpenings) -> Result<OpeningSource, ConfigError> {
        match (&raw.plies, &raw.file) {
            (Some(p), Some(_)) => Err(self.at(
                p.span(),
                "openings",
                "give either plies (random openings) or file, not both",
            )),
            (_, Some(f)) => {
                let base = self.dir();
                let file = base.join(f.get_ref());
                let text = std::fs::read_to_string(&file).map_err(|e| {
                    self.at(
                        f.span(),
                        "openings.file",
                        format!("cannot read {}: {e}", file.display()),
                    )
                })?;
                let openings = parse_opening_file(&text).map_err(|e| {
                    self.at(
                        f.span(),
                        "openings.file",
                        format!("{}:{}: {e}", file.display(), e.line),
                    )
                })?;
                Ok(OpeningSource::File(openings))
            }
            (Some(p), None) => Ok(OpeningSource::Random {
                plies: self.range(p, "openings.plies", 0, 40)? as u32,
            }),
            (None, None) => Err(self.whole(
                "openings",
                "has no source, and the built-in defaults give none",
            )),
        }
    }
}
