//! A league's keys in `[tournament]` (`games`, `until`, `confidence`,
//! `tie-margin`, `focus`, `intervals`) and `retired` in `[[bot]]`: the league crate's
//! own parser ([`aboure_league::rule_from_table`]) checks their values, so
//! the bench and `aboure run` read the same keys the same way; this file
//! only hands it the table and puts the file, line and key on its errors.
//! The keys mean nothing to the other formats, which refuse them.

use toml::Spanned;

use super::bot_table::RawBot;
use super::tournament_table::RawTournament;
use super::{Format, Validator};
use crate::error::ConfigError;

impl Validator<'_> {
    /// The league's rule for `format = "league"`, `None` for the others.
    pub(super) fn league(
        &self,
        t: &RawTournament,
        format: Format,
        bots: &[Spanned<RawBot>],
    ) -> Result<Option<aboure_league::Rule>, ConfigError> {
        let keys = league_keys(t);
        if format != Format::League {
            if let Some((key, value)) = keys.first() {
                return Err(self.at(
                    value.span(),
                    &format!("tournament.{key}"),
                    "only applies to format = \"league\"",
                ));
            }
            for (i, bot) in bots.iter().enumerate() {
                if let Some(r) = &bot.get_ref().retired {
                    return Err(self.at(
                        r.span(),
                        &format!("bot[{i}].retired"),
                        "only applies to a league's entrants (format = \"league\")",
                    ));
                }
            }
            return Ok(None);
        }
        let format_span = t.format.as_ref().map_or(0..0, |f| f.span());
        if let Some(p) = self.given(&t.pairs) {
            return Err(self.at(
                p.span(),
                "tournament.pairs",
                "a league has no pairs per pairing: it stops at games = N and/or \
                 until = \"separated\"",
            ));
        }
        if let Some(r) = t.restart.as_ref().filter(|r| r.get_ref() == "never") {
            return Err(self.at(
                r.span(),
                "tournament.restart",
                "a league starts every game's bots afresh: restart = \"never\" is not \
                 supported for a league",
            ));
        }
        let mut table = toml::Table::new();
        table.insert("format".into(), toml::Value::String("league".into()));
        for (key, value) in &keys {
            table.insert((*key).into(), value.get_ref().clone());
        }
        let rule = aboure_league::rule_from_table(&table).map_err(|e| {
            let span = keys
                .iter()
                .find(|(key, _)| *key == e.key)
                .map_or(format_span.clone(), |(_, v)| v.span());
            self.at(span, &format!("tournament.{}", e.key), e.problem)
        })?;
        Ok(Some(rule))
    }
}

/// The league's keys the file gives, by name, in the table's order.
fn league_keys(t: &RawTournament) -> Vec<(&'static str, &Spanned<toml::Value>)> {
    [
        ("games", &t.games),
        ("until", &t.until),
        ("confidence", &t.confidence),
        ("tie-margin", &t.tie_margin),
        ("focus", &t.focus),
        ("intervals", &t.intervals),
    ]
    .into_iter()
    .filter_map(|(key, value)| value.as_ref().map(|v| (key, v)))
    .collect()
}
