//! `[adjudication]`: when a game is ended before its natural end.

use serde::Deserialize;
use toml::Spanned;

use super::Validator;
use crate::adjudication_rules::Adjudication;
use crate::error::ConfigError;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawAdjudication {
    max_plies: Option<Spanned<i64>>,
    repetitions: Option<Spanned<i64>>,
    solve_after: Option<Spanned<i64>>,
    solve_nodes: Option<Spanned<i64>>,
}

impl RawAdjudication {
    /// The user's table over the base layer's, key by key.
    pub(super) fn over(self, base: RawAdjudication) -> RawAdjudication {
        RawAdjudication {
            max_plies: self.max_plies.or(base.max_plies),
            repetitions: self.repetitions.or(base.repetitions),
            solve_after: self.solve_after.or(base.solve_after),
            solve_nodes: self.solve_nodes.or(base.solve_nodes),
        }
    }
}

impl Validator<'_> {
    pub(super) fn adjudication(&self, raw: &RawAdjudication) -> Result<Adjudication, ConfigError> {
        let max_plies = self.required(&raw.max_plies, "adjudication.max-plies")?;
        let max_plies = self.range(max_plies, "adjudication.max-plies", 1, 100_000)? as u32;
        let repetitions = self.required(&raw.repetitions, "adjudication.repetitions")?;
        let repetitions = self.range(repetitions, "adjudication.repetitions", 2, 1000)? as u32;
        let nodes = self.required(&raw.solve_nodes, "adjudication.solve-nodes")?;
        let nodes = self.range(nodes, "adjudication.solve-nodes", 1, 1_000_000_000_000)? as u64;
        let solve = match &raw.solve_after {
            Some(after) => Some(crate::adjudication_rules::SolveRule {
                after_plies: self.range(after, "adjudication.solve-after", 0, 100_000)? as u32,
                nodes,
            }),
            None => None,
        };
        Ok(Adjudication {
            max_plies,
            repetitions,
            solve,
        })
    }
}
