//! `[adjudication]`: when a game is ended before its natural end.

use serde::Deserialize;
use toml::Spanned;

use super::{defaults, Validator};
use crate::adjudication::Adjudication;
use crate::error::ConfigError;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawAdjudication {
    max_plies: Option<Spanned<i64>>,
    repetitions: Option<Spanned<i64>>,
    solve_after: Option<Spanned<i64>>,
    solve_nodes: Option<Spanned<i64>>,
}

impl Validator<'_> {
    pub(super) fn adjudication(&self, raw: &RawAdjudication) -> Result<Adjudication, ConfigError> {
        let mut a = Adjudication::default();
        if let Some(m) = &raw.max_plies {
            a.max_plies = self.range(m, "adjudication.max-plies", 1, 100_000)? as u32;
        }
        if let Some(r) = &raw.repetitions {
            a.repetitions = self.range(r, "adjudication.repetitions", 2, 1000)? as u32;
        }
        let nodes = match &raw.solve_nodes {
            Some(n) => self.range(n, "adjudication.solve-nodes", 1, 1_000_000_000_000)? as u64,
            None => defaults::SOLVE_NODES,
        };
        if let Some(after) = &raw.solve_after {
            a.solve = Some(crate::adjudication::SolveRule {
                after_plies: self.range(after, "adjudication.solve-after", 0, 100_000)? as u32,
                nodes,
            });
        }
        Ok(a)
    }
}
