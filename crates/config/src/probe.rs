//! A tune's probe match ([`Config::probe_match`]): this file's tournament
//! with the tuned bot's variants as its bots.

use std::collections::BTreeMap;

use crate::bot_table::BotConfig;
use crate::format::{BotId, Format};
use crate::tune_table::ProbeFormat;
use crate::Config;

impl Config {
    /// A tournament between `bots` (each the tuned bot under a new name with
    /// some options replaced), and the opponent if given: a round robin of
    /// `pairs` pairs, a gauntlet of the opponent against each, or an SPRT;
    /// with the seed `seed`. Everything else is this file's.
    pub fn probe_match(
        &self,
        bots: Vec<(String, BTreeMap<String, String>)>,
        opponent: Option<BotId>,
        format: ProbeFormat,
        seed: u64,
    ) -> Config {
        let Some(tune) = &self.tune else {
            return self.clone();
        };
        let tuned = self.bot(tune.bot());
        let mut list: Vec<BotConfig> = bots
            .into_iter()
            .map(|(name, options)| tuned.renamed_with(name, options))
            .collect();
        let mut derived = self.clone();
        derived.format = Format::RoundRobin;
        if let Some(o) = opponent {
            list.push(self.bot(o).clone());
            derived.format = Format::Gauntlet(BotId(list.len() - 1));
        }
        match format {
            ProbeFormat::Pairs(pairs) => derived.pairs = pairs,
            ProbeFormat::Sprt(sprt) => {
                derived.format = Format::Sprt;
                derived.sprt = sprt;
                derived.pairs = sprt.max_pairs().map_or(self.pairs, |m| m as u32);
            }
        }
        derived.bots = list;
        derived.seed = seed;
        derived.tune = None;
        derived
    }
}
