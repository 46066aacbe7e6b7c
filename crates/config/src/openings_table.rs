//! `[openings]`: random openings of some plies, or a file of openings;
//! without the table, the built-in balanced book for an SPRT or a league
//! (`balanced_book.rs` says why) and the base layer's random openings for
//! the other formats.

use serde::Deserialize;
use toml::Spanned;

use super::Validator;
use crate::balanced_book::balanced_book;
use crate::error::ConfigError;
use crate::opening::{parse_opening_file, OpeningSource, OpeningsName};
use crate::Format;

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

    /// True when the table gives no source (or the file has no table).
    pub(super) fn is_empty(&self) -> bool {
        self.plies.is_none() && self.file.is_none()
    }
}

/// The openings of a tournament of `format` whose file gives no
/// `[openings]` source, when the format has its own: the built-in balanced
/// book for an SPRT or a league (also a tune's confirming SPRT,
/// [`crate::Config::probe_match`]); `None` for the others, which play the
/// base layer's.
pub(super) fn format_default(format: Format) -> Option<(OpeningSource, OpeningsName)> {
    matches!(format, Format::Sprt | Format::League).then(|| {
        (
            OpeningSource::File(balanced_book()),
            OpeningsName::BalancedBook,
        )
    })
}

impl Validator<'_> {
    /// The openings of a tournament of `format` from the user's table over
    /// the base layer's, and how the run names them.
    pub(super) fn openings(
        &self,
        user: RawOpenings,
        base: RawOpenings,
        format: Format,
    ) -> Result<(OpeningSource, OpeningsName), ConfigError> {
        if user.is_empty() {
            if let Some(default) = format_default(format) {
                return Ok(default);
            }
        }
        let raw = user.over(base);
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
                let name = OpeningsName::File(f.get_ref().clone());
                Ok((OpeningSource::File(openings), name))
            }
            (Some(p), None) => {
                let plies = self.range(p, "openings.plies", 0, 40)? as u32;
                Ok((
                    OpeningSource::Random { plies },
                    OpeningsName::Random { plies },
                ))
            }
            (None, None) => Err(self.whole(
                "openings",
                "has no source, and the built-in defaults give none",
            )),
        }
    }
}
