//! A tune's probe match ([`Config::probe_match`]): this file's tournament
//! with the tuned bot's variants as its bots, and the openings its format
//! plays by default when the file names none.

use std::collections::BTreeMap;

use crate::bot_table::BotConfig;
use crate::format::{BotId, Format};
use crate::openings_table::format_default;
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
        // A file without `[openings]` plays its format's default: the
        // confirming SPRT plays an SPRT's (the balanced book), the probes
        // of pairs the file's own.
        if derived.openings_default {
            if let Some((openings, name)) = format_default(derived.format) {
                derived.openings = openings;
                derived.openings_name = name;
            }
        }
        derived.bots = list;
        derived.seed = seed;
        derived.tune = None;
        derived
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::opening::{OpeningSource, OpeningsName};
    use crate::{balanced_book, parse};

    fn tune_file(openings: &str) -> Config {
        let text = format!(
            "{openings}[[bot]]\nname = \"a\"\nbuiltin = \"alphabeta\"\n\
             [tune]\nbot = \"a\"\n\
             parameters = {{ row_weight = {{ start = 50, min = 0, max = 100, step = 5 }} }}\n\
             iterations = 2\nconfirm = {{ elo0 = 0, elo1 = 10 }}\n"
        );
        parse(&text, Path::new("t.toml")).unwrap()
    }

    fn probe(config: &Config, format: ProbeFormat) -> (OpeningSource, OpeningsName) {
        let bots = vec![("x".to_owned(), BTreeMap::new()); 2];
        let derived = config.probe_match(bots, None, format, 1);
        (derived.openings().clone(), derived.openings_name().clone())
    }

    #[test]
    fn the_confirming_sprt_plays_the_balanced_book_unless_the_file_names_openings() {
        let book = (
            OpeningSource::File(balanced_book()),
            OpeningsName::BalancedBook,
        );
        let random = |plies| {
            (
                OpeningSource::Random { plies },
                OpeningsName::Random { plies },
            )
        };
        let plain = tune_file("");
        let sprt = ProbeFormat::Sprt(plain.tune().unwrap().confirm().unwrap());
        assert_eq!(probe(&plain, sprt), book);
        assert_eq!(probe(&plain, ProbeFormat::Pairs(4)), random(4));
        let named = tune_file("[openings]\nplies = 6\n");
        assert_eq!(probe(&named, sprt), random(6));
        assert_eq!(probe(&named, ProbeFormat::Pairs(4)), random(6));
    }
}
