//! The SPRT stopping rule: after every complete game pair, the pentanomial
//! counts of the first bot against the second go to `aboure-stats`' SPRT; a
//! crossed bound ends the run. The statistics live in `aboure-stats`; this
//! module only counts pairs from records.

use std::collections::BTreeMap;

use aboure_records::GameRecord;
use aboure_stats::{EloModel, Pentanomial, Sprt, SprtDecision, SprtStatus};

use crate::config::{SprtConfig, SprtModel};
use crate::tournament::StopRule;

/// The pentanomial counts of bot `first` over complete pairs (both games
/// recorded) of `games`.
pub fn pentanomial(first: &str, games: &[GameRecord]) -> Pentanomial {
    let mut pairs: BTreeMap<(&[String; 2], u32), Vec<&GameRecord>> = BTreeMap::new();
    for g in games {
        pairs.entry((&g.pairing, g.pair)).or_default().push(g);
    }
    let mut counts = Pentanomial::default();
    for games in pairs.values() {
        if let [a, b] = games[..] {
            if let (Some(ra), Some(rb)) = (view(first, a), view(first, b)) {
                counts.add_pair(ra, rb);
            }
        }
    }
    counts
}

fn view(player: &str, game: &GameRecord) -> Option<aboure_stats::GameResult> {
    let points = game.points_of(player)?;
    Some(if points == 1.0 {
        aboure_stats::GameResult::Win
    } else if points == 0.0 {
        aboure_stats::GameResult::Loss
    } else {
        aboure_stats::GameResult::Draw
    })
}

/// The test a config describes.
pub fn test(config: &SprtConfig) -> Result<Sprt, String> {
    let model = match config.model {
        SprtModel::Normalized => EloModel::Normalized,
        SprtModel::Logistic => EloModel::Logistic,
    };
    Sprt::new(config.elo0, config.elo1, config.alpha, config.beta, model)
        .map_err(|e| format!("invalid SPRT parameters: {e:?}"))
}

/// Where the test of `first` stands after `games`.
pub fn status(sprt: &Sprt, first: &str, games: &[GameRecord]) -> (SprtStatus, Pentanomial) {
    let counts = pentanomial(first, games);
    (sprt.status_pentanomial(&counts), counts)
}

/// Words for a decision.
pub fn describe(sprt: &Sprt, first: &str, second: &str, status: &SprtStatus) -> String {
    let verdict = match status.decision {
        SprtDecision::AcceptH1 => format!(
            "H1 accepted: {first} is stronger than {second} (the Elo difference is nearer {} than {})",
            sprt.elo1(),
            sprt.elo0()
        ),
        SprtDecision::AcceptH0 => format!(
            "H0 accepted: {first} is not stronger than {second} by {} Elo (the difference is nearer {})",
            sprt.elo1(),
            sprt.elo0()
        ),
        SprtDecision::Continue => "no decision yet".to_owned(),
    };
    format!(
        "SPRT [{}, {}]: LLR {:.3} (bounds {:.3}, {:.3}); {verdict}",
        sprt.elo0(),
        sprt.elo1(),
        status.llr,
        status.lower,
        status.upper
    )
}

/// A stop rule ending the run when the test decides.
pub fn stop_rule(sprt: Sprt, first: String, second: String) -> StopRule {
    Box::new(move |games: &[GameRecord]| {
        let (status, _) = status(&sprt, &first, games);
        (status.decision != SprtDecision::Continue)
            .then(|| describe(&sprt, &first, &second, &status))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_records::parse_games;

    #[test]
    fn pairs_are_counted_from_the_first_bots_view() {
        let text = concat!(
            r#"{"id":"a","pairing":["x","y"],"pair":0,"game":0,"south":"x","north":"y","result":"1-0","termination":"natural"}"#,
            "\n",
            r#"{"id":"b","pairing":["x","y"],"pair":0,"game":1,"south":"y","north":"x","result":"1/2-1/2","termination":"natural"}"#,
            "\n",
            r#"{"id":"c","pairing":["x","y"],"pair":1,"game":0,"south":"x","north":"y","result":"0-1","termination":"natural"}"#,
            "\n",
        );
        let games = parse_games(text.as_bytes(), "g.jsonl".as_ref()).games;
        let p = pentanomial("x", &games);
        assert_eq!(p.pairs(), 1);
        assert_eq!(p.counts(), [0, 0, 0, 1, 0]);
    }
}
