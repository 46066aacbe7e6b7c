//! The league's book of recorded pairs as both of its sources keep it
//! (`solo.rs`, and the workers' `desk.rs`): what a record adds to it, what
//! the observer is told of it, and the verdict the book gives.

use std::collections::HashMap;

use aboure_league::in_flight::{self, Book, Membership, Slot};
use aboure_league::{Decision, Field, Intervals, Rule, Table, Verdict};
use aboure_records::{
    outcome, EntrantRecord, GameRecord, LeagueVerdict, NeighbourState, NeighbourVerdict,
    StopReason, Tally,
};

use super::pair::parse_game_id;
use crate::event::Event;

/// When each entrant joined and left, as the league's in-flight rule reads
/// them.
pub(crate) fn memberships(entrants: &[EntrantRecord]) -> Vec<Membership> {
    entrants
        .iter()
        .map(|e| Membership {
            joined: e.joined,
            retired_from: e.retired_from,
        })
        .collect()
}

/// Counts the recorded game `g` in `book` (`index`: each entrant's place
/// by name), or says why it is not a game of this league.
pub(crate) fn record_game(
    book: &mut Book,
    index: &HashMap<&str, usize>,
    g: &GameRecord,
) -> Result<(), &'static str> {
    let (n, game) = parse_game_id(&g.id).ok_or("not l{pair}-g{game}")?;
    let [first, second] = &g.pairing;
    let (Some(&a), Some(&b)) = (index.get(first.as_str()), index.get(second.as_str())) else {
        return Err("it names a bot that is not an entrant");
    };
    let south = if game == 0 { first } else { second };
    if &g.south != south || a == b {
        return Err("its sides do not fit its pairing");
    }
    if book
        .get(n)
        .is_some_and(|s| (s.south_first, s.north_first) != (a, b))
    {
        return Err("its pair's other game has other players");
    }
    book.record(n, Slot::new(a, b), game, outcome(g, first));
    Ok(())
}

pub(crate) fn stop_reason(decision: &Decision) -> StopReason {
    match decision {
        Decision::BudgetSpent => StopReason::BudgetSpent,
        Decision::Settled(_) => StopReason::Settled,
        Decision::NoOpponents | Decision::Play(_) => StopReason::NoOpponents,
    }
}

/// What to tell the observer of `record`, game of pair `number`, once
/// written and counted: the game, the standings, and, if the pair is
/// complete, how far the league is from its verdict.
pub(crate) fn written_events(
    (rule, book, entrants): (&Rule, &Book, &[EntrantRecord]),
    tally: &Tally,
    number: u64,
    record: GameRecord,
) -> Vec<Event> {
    let mut events = vec![
        Event::GameFinished(Box::new(record)),
        Event::Standings(tally.standings()),
    ];
    if book.get(number).is_some_and(Slot::complete) {
        events.extend(progress(rule, book, entrants));
    }
    events
}

/// What to tell the observer of `news`, games other workers recorded and
/// now counted: each game, then the standings.
pub(crate) fn news_events(news: Vec<GameRecord>, tally: &Tally) -> Vec<Event> {
    if news.is_empty() {
        return Vec::new();
    }
    let mut events: Vec<Event> = news
        .into_iter()
        .map(|g| Event::Recorded(Box::new(g)))
        .collect();
    events.push(Event::Standings(tally.standings()));
    events
}

/// How far a league stopped by its verdict is from it
/// ([`Event::League`]); `None` without `until`.
pub(crate) fn progress(rule: &Rule, book: &Book, entrants: &[EntrantRecord]) -> Option<Event> {
    rule.until?;
    let neighbours = verdict(rule, StopReason::Settled, book, entrants).neighbours;
    if neighbours.is_empty() {
        return None; // no table yet: the ratings cannot be fitted
    }
    let settled = neighbours
        .iter()
        .filter(|n| n.verdict != NeighbourState::Open)
        .count();
    Some(Event::League {
        settled,
        neighbours: neighbours.len(),
    })
}

/// The verdict on the final table: every finished pair refitted, each
/// neighbour pair the focus covers judged (with `until = "separated"`).
pub(crate) fn verdict(
    rule: &Rule,
    reason: StopReason,
    book: &Book,
    entrants: &[EntrantRecord],
) -> LeagueVerdict {
    let pairs = book.finished();
    let field_entrants = in_flight::entrants_at(&memberships(entrants), u64::MAX);
    let table = Field::new(&field_entrants, &pairs)
        .ok()
        .and_then(|field| Table::with_prior(&field));
    let neighbours = match (rule.until, table) {
        (Some(separation), Some(table)) => separation
            .neighbours(&table, rule.focus)
            .into_iter()
            .map(|n| NeighbourVerdict {
                rank: n.rank as u64,
                upper: entrants[n.upper].name.clone(),
                lower: entrants[n.lower].name.clone(),
                difference: n.difference,
                error: n.error,
                los: n.los,
                bound: (separation.intervals == Intervals::Anytime).then(|| {
                    let alpha = 1.0 - separation.confidence;
                    separation.intervals.one_sided(alpha, n.error) * n.error
                }),
                verdict: match n.verdict {
                    Verdict::Separated => NeighbourState::Separated,
                    Verdict::WithinMargin => NeighbourState::WithinMargin,
                    Verdict::Open => NeighbourState::Open,
                },
            })
            .collect(),
        _ => Vec::new(),
    };
    LeagueVerdict {
        reason,
        pairs: pairs.len() as u64,
        games: book.games(),
        neighbours,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_league::Separation;
    use aboure_stats::PlayerResult::{Draw, Loss, Win};

    fn entrant(name: &str) -> EntrantRecord {
        EntrantRecord {
            name: name.to_owned(),
            joined: 0,
            joined_at: String::new(),
            retired_from: None,
        }
    }

    /// `pairs` pairs of each of (0, 1), (1, 2) and (0, 2), the first named
    /// (South first in every other pair) scoring 5.5 of 8 games.
    fn book(pairs: u64) -> Book {
        let mut book = Book::default();
        let flip = |r| match r {
            Win => Loss,
            Loss => Win,
            Draw => Draw,
        };
        for k in 0..pairs {
            for (i, (a, b)) in [(0, 1), (1, 2), (0, 2)].into_iter().enumerate() {
                let n = 3 * k + i as u64;
                let results = [[Win, Loss], [Draw, Win], [Win, Win], [Loss, Draw]][k as usize % 4];
                let (slot, results) = match k % 2 {
                    0 => (Slot::new(a, b), results),
                    _ => (Slot::new(b, a), results.map(flip)),
                };
                book.record(n, slot, 0, results[0]);
                book.record(n, slot, 1, results[1]);
            }
        }
        book
    }

    #[test]
    fn a_leagues_progress_counts_its_settled_neighbour_pairs() {
        let entrants = [entrant("a"), entrant("b"), entrant("c")];
        let until = Rule {
            until: Some(Separation {
                confidence: 0.9,
                tie_margin: 0.0,
                intervals: aboure_league::Intervals::FixedSample,
            }),
            ..Rule::default()
        };
        let settled = |book: &Book| match progress(&until, book, &entrants) {
            Some(Event::League {
                settled,
                neighbours,
            }) => Some((settled, neighbours)),
            _ => None,
        };
        // No table yet (no game, or one side won everything): no count.
        assert_eq!(settled(&Book::default()), None);
        assert_eq!(
            settled(&book(4)),
            Some((0, 2)),
            "a few pairs settle nothing"
        );
        assert_eq!(settled(&book(200)), Some((2, 2)));
        // Without `until` a league has no verdict to count towards.
        assert!(progress(&Rule::default(), &book(200), &entrants).is_none());
    }
}
