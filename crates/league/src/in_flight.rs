//! Which pair a league plays as its `n`th, from the records alone.
//!
//! The league crate's [`Rule::next`] decides from a field of finished
//! pairs. A run with several pairs in play at once must still decide
//! exactly as a resumed or an uninterrupted run would, whatever order its
//! games finish in, so "the games so far" is fixed by the pair number, not
//! by the clock: pair `n` is decided from the results of the pairs before
//! `n + 1 - in_flight`, and the pairs after those (decided, perhaps still in
//! play) count as two draws each. The decision waits until every pair it
//! reads has finished. With `in_flight = 1` this is the plain rule (every
//! earlier pair finished); with more, the pending pairs' draws keep the
//! placement counts and the pair counts honest (a newcomer already in two
//! pending pairs is not sent to a third placement, a pair in play is not
//! chosen again as if it had never met) and pull the two towards each
//! other. Whether the league stops is asked of the finished pairs alone
//! (a pending draw could bound a fit the games do not), and when those
//! settle it, the decision waits for every pair before `n` and stops only
//! if they all still settle it (else it plays on, decided from all of
//! them): the verdict a league writes, refitted from every recorded pair,
//! is then always the one it stopped on. `in_flight` is
//! fixed when the
//! league starts (its `run.json`), so a later run with another concurrency
//! still makes the same decisions.
//!
//! Entrants are seen as they were at pair `n`: those with `joined <= n`,
//! retired from `retired_from <= n` on, so a pair replayed after a crash is
//! decided with the field it had.

use std::collections::BTreeMap;

use aboure_stats::PlayerResult;

use crate::{Decision, Entrant, Field, LeagueError, PlayedPair, Rule};

/// When an entrant joined the league and left it, by pair number (the
/// records' entrant, without its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Membership {
    /// The first pair number it could be scheduled in.
    pub joined: u64,
    /// The first pair number it was no longer scheduled in, if retired.
    pub retired_from: Option<u64>,
}

/// A pair of the league: its two entrants and what is recorded of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Entrant who is South in game 0.
    pub south_first: usize,
    /// Entrant who is South in game 1.
    pub north_first: usize,
    /// Each game's result from `south_first`'s view, once recorded.
    pub results: [Option<PlayerResult>; 2],
}

impl Slot {
    /// A decided pair with nothing recorded.
    pub fn new(south_first: usize, north_first: usize) -> Slot {
        Slot {
            south_first,
            north_first,
            results: [None, None],
        }
    }

    /// Both games recorded.
    pub fn complete(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }

    /// The games still to play (0, 1 or both).
    pub fn missing(&self) -> Vec<u8> {
        (0..2u8)
            .filter(|&g| self.results[usize::from(g)].is_none())
            .collect()
    }

    fn played(&self) -> Option<PlayedPair> {
        Some(PlayedPair {
            south_first: self.south_first,
            north_first: self.north_first,
            results: [self.results[0]?, self.results[1]?],
        })
    }

    fn pending(&self) -> PlayedPair {
        PlayedPair {
            south_first: self.south_first,
            north_first: self.north_first,
            results: [PlayerResult::Draw; 2],
        }
    }
}

/// Every pair of the league decided so far, by pair number.
#[derive(Clone, Debug, Default)]
pub struct Book {
    slots: BTreeMap<u64, Slot>,
}

/// Why a pair's decision is not possible yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The earliest unfinished pair it must read.
    pub pair: u64,
}

impl Book {
    /// The pair `n`, if decided.
    pub fn get(&self, n: u64) -> Option<&Slot> {
        self.slots.get(&n)
    }

    /// Records pair `n` as decided (keeping what is recorded of it).
    pub fn decide(&mut self, n: u64, slot: Slot) {
        self.slots.entry(n).or_insert(slot);
    }

    /// Records game `game` of pair `n`, decided with these entrants; a
    /// game recorded twice keeps its first result.
    pub fn record(&mut self, n: u64, slot: Slot, game: u8, result: PlayerResult) {
        let entry = self.slots.entry(n).or_insert(slot);
        entry.results[usize::from(game)].get_or_insert(result);
    }

    /// Every complete pair, in pair order.
    pub fn finished(&self) -> Vec<PlayedPair> {
        self.slots.values().filter_map(Slot::played).collect()
    }

    /// Games recorded.
    pub fn games(&self) -> u64 {
        let recorded = |s: &Slot| s.results.iter().filter(|r| r.is_some()).count() as u64;
        self.slots.values().map(recorded).sum()
    }

    /// The highest pair number decided, if any.
    pub fn last(&self) -> Option<u64> {
        self.slots.keys().next_back().copied()
    }

    /// The decided pairs not complete, by number.
    pub fn incomplete(&self) -> impl Iterator<Item = (u64, &Slot)> {
        self.slots
            .iter()
            .filter(|(_, s)| !s.complete())
            .map(|(&n, s)| (n, s))
    }

    /// Complete game pairs.
    #[cfg(test)]
    pub fn complete_pairs(&self) -> usize {
        self.slots.values().filter(|s| s.complete()).count()
    }

    /// The field pair `n` is decided from: finished pairs before `end`,
    /// then decided pairs from `end` to `n` as two draws each.
    fn field_for(&self, n: u64, end: u64) -> Result<Vec<PlayedPair>, Waiting> {
        let mut pairs = Vec::new();
        for k in 0..n {
            let slot = self.slots.get(&k);
            match slot {
                Some(s) if k < end => pairs.push(s.played().ok_or(Waiting { pair: k })?),
                Some(s) => pairs.push(s.pending()),
                None => return Err(Waiting { pair: k }),
            }
        }
        Ok(pairs)
    }
}

/// The entrants as the decision for pair `n` sees them.
pub fn entrants_at(entrants: &[Membership], n: u64) -> Vec<Entrant> {
    entrants
        .iter()
        .take_while(|e| e.joined <= n)
        .map(|e| Entrant {
            joined: e.joined as usize,
            retired: e.retired_from.is_some_and(|r| r <= n),
        })
        .collect()
}

/// The decision for pair `n`, or the pair it waits for.
pub fn decide(
    rule: &Rule,
    seed: u64,
    entrants: &[Membership],
    book: &Book,
    n: u64,
    in_flight: u64,
) -> Result<Result<Decision, LeagueError>, Waiting> {
    if rule.games.is_some_and(|g| 2 * n >= g as u64) {
        return Ok(Ok(Decision::BudgetSpent));
    }
    let end = (n + 1).saturating_sub(in_flight.max(1));
    let pairs = book.field_for(n, end)?;
    let entrants = entrants_at(entrants, n);
    let unbudgeted = Rule {
        games: None,
        ..*rule
    };
    if end == n {
        let field = match Field::new(&entrants, &pairs) {
            Ok(field) => field,
            Err(e) => return Ok(Err(e)),
        };
        return Ok(Ok(unbudgeted.next(&field, seed)));
    }
    match with_pending(&unbudgeted, seed, &entrants, &pairs, end as usize) {
        // The finished pairs settle the league, but the pairs still in
        // play may unsettle it: wait for them, and stop only if every pair
        // before this one says so, so the verdict the league writes (on
        // every recorded pair) is the one it stopped on. Still a function
        // of the pairs before `n` alone.
        Ok(Decision::Settled(_)) => {
            let all = book.field_for(n, n)?;
            Ok(Field::new(&entrants, &all).map(|field| unbudgeted.next(&field, seed)))
        }
        decided => Ok(decided),
    }
}

/// The decision for pair `n` of a league whose pairs are played by
/// workers sharing its folder: from every `finished`
/// pair, whatever its number, and the pairs `in_flight` (decided, not
/// complete: held by a worker, or left by a dead one), which count as two
/// draws each, as [`decide`]'s pending pairs do.
pub fn decide_shared(
    rule: &Rule,
    seed: u64,
    entrants: &[Membership],
    finished: &[PlayedPair],
    in_flight: &[Slot],
    n: u64,
) -> Result<Decision, LeagueError> {
    if rule.games.is_some_and(|g| 2 * n >= g as u64) {
        return Ok(Decision::BudgetSpent);
    }
    let entrants = entrants_at(entrants, n);
    let unbudgeted = Rule {
        games: None,
        ..*rule
    };
    let mut pairs = finished.to_vec();
    pairs.extend(in_flight.iter().map(Slot::pending));
    with_pending(&unbudgeted, seed, &entrants, &pairs, finished.len())
}

/// The unbudgeted rule's decision from `pairs`, of which the first
/// `finished` are real results and the rest pending pairs' draws.
fn with_pending(
    unbudgeted: &Rule,
    seed: u64,
    entrants: &[Entrant],
    pairs: &[PlayedPair],
    finished: usize,
) -> Result<Decision, LeagueError> {
    let field = Field::new(entrants, pairs)?;
    // Only real results may stop a league: the pending pairs' draws could
    // bound a fit, or separate nobody, that the games do not.
    if unbudgeted.until.is_some() {
        let settled = unbudgeted.next(&Field::new(entrants, &pairs[..finished])?, seed);
        if let Decision::Settled(_) = settled {
            return Ok(settled);
        }
    }
    Ok(match unbudgeted.next(&field, seed) {
        Decision::Settled(_) => Rule {
            until: None,
            ..*unbudgeted
        }
        .next(&field, seed),
        decision => decision,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reason;

    fn entrant(joined: u64, retired_from: Option<u64>) -> Membership {
        Membership {
            joined,
            retired_from,
        }
    }

    /// Plays a league of `strength`-ordered entrants to `pairs` pairs, the
    /// stronger always winning, finishing games in the order `finish`
    /// gives among those in play.
    fn play(in_flight: u64, pairs: u64, reverse_finish: bool) -> Vec<(usize, usize)> {
        let entrants: Vec<_> = (0..4).map(|_| entrant(0, None)).collect();
        let rule = Rule::default();
        let mut book = Book::default();
        let mut running: Vec<u64> = Vec::new();
        let mut n = 0;
        while book.complete_pairs() < pairs as usize {
            while n < pairs && (running.len() as u64) < in_flight {
                match decide(&rule, 5, &entrants, &book, n, in_flight) {
                    Ok(Ok(Decision::Play(p))) => {
                        book.decide(n, Slot::new(p.south_first, p.north_first));
                        running.push(n);
                        n += 1;
                    }
                    Ok(other) => panic!("{other:?}"),
                    Err(_) => break,
                }
            }
            let k = if reverse_finish {
                running.pop().unwrap()
            } else {
                running.remove(0)
            };
            let slot = *book.get(k).unwrap();
            let win = if slot.south_first < slot.north_first {
                PlayerResult::Win
            } else {
                PlayerResult::Loss
            };
            book.record(k, slot, 0, win);
            book.record(k, slot, 1, win);
        }
        let played = book.finished();
        played
            .iter()
            .map(|p| (p.south_first, p.north_first))
            .collect()
    }

    #[test]
    fn the_pairs_do_not_depend_on_the_order_games_finish_in() {
        for in_flight in [1, 2, 3] {
            assert_eq!(
                play(in_flight, 12, false),
                play(in_flight, 12, true),
                "in flight {in_flight}"
            );
        }
    }

    #[test]
    fn pending_pairs_count_so_two_in_flight_are_not_the_same_placement() {
        let pairs = play(2, 2, false);
        assert_ne!(pairs[0], pairs[1]);
        // The second pair's newcomer is one the first pair did not place.
        let mut seen: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        seen.sort();
        seen.dedup();
        assert!(seen.len() >= 3, "{pairs:?}");
    }

    #[test]
    fn a_decision_waits_for_the_pairs_it_reads() {
        let entrants: Vec<_> = (0..3).map(|_| entrant(0, None)).collect();
        let mut book = Book::default();
        book.decide(0, Slot::new(0, 1));
        let rule = Rule::default();
        assert_eq!(
            decide(&rule, 1, &entrants, &book, 1, 1).unwrap_err(),
            Waiting { pair: 0 }
        );
        assert!(decide(&rule, 1, &entrants, &book, 1, 2).is_ok());
        assert_eq!(
            decide(&rule, 1, &entrants, &book, 2, 2).unwrap_err(),
            Waiting { pair: 0 }
        );
        let slot = *book.get(0).unwrap();
        book.record(0, slot, 0, PlayerResult::Win);
        book.record(0, slot, 1, PlayerResult::Draw);
        assert_eq!(book.games(), 2);
        assert_eq!(
            decide(&rule, 1, &entrants, &book, 2, 2).unwrap_err(),
            Waiting { pair: 1 },
            "pair 1 is not decided yet"
        );
        assert!(decide(&rule, 1, &entrants, &book, 1, 1).is_ok());
    }

    #[test]
    fn a_league_stops_only_on_the_verdict_of_every_pair_before_it() {
        let entrants: Vec<_> = (0..2).map(|_| entrant(0, None)).collect();
        let rule = Rule {
            until: Some(crate::Separation {
                confidence: 0.9,
                tie_margin: 0.0,
                intervals: crate::Intervals::FixedSample,
            }),
            ..Rule::default()
        };
        // Ten pairs, the first entrant winning every game but a loss and a
        // draw: separated.
        let mut book = Book::default();
        let score = |book: &mut Book, k: u64, results: [PlayerResult; 2]| {
            let slot = Slot::new(0, 1);
            book.decide(k, slot);
            book.record(k, slot, 0, results[0]);
            book.record(k, slot, 1, results[1]);
        };
        score(&mut book, 0, [PlayerResult::Loss, PlayerResult::Draw]);
        for k in 1..10 {
            score(&mut book, k, [PlayerResult::Win, PlayerResult::Win]);
        }
        let settled = |book: &Book, n| {
            let (at, finished) = (entrants_at(&entrants, n), book.finished());
            let field = Field::new(&at, &finished).unwrap();
            Rule {
                games: None,
                ..rule
            }
            .next(&field, 3)
        };
        let first = settled(&book, 10);
        assert!(matches!(first, Decision::Settled(_)), "{first:?}");
        // Pair 10 in play: pair 11, with two at once, reads the ten, which
        // are settled, and waits for pair 10 rather than stop on them.
        book.decide(10, Slot::new(0, 1));
        assert_eq!(
            decide(&rule, 3, &entrants, &book, 11, 2).unwrap_err(),
            Waiting { pair: 10 }
        );
        // Once it is in, the decision is the rule's on all eleven.
        let slot = *book.get(10).unwrap();
        book.record(10, slot, 0, PlayerResult::Loss);
        book.record(10, slot, 1, PlayerResult::Win);
        let decided = decide(&rule, 3, &entrants, &book, 11, 2).unwrap().unwrap();
        assert_eq!(decided, settled(&book, 11));
    }

    #[test]
    fn a_shared_league_counts_the_pairs_in_flight_and_stops_only_on_finished_ones() {
        let entrants: Vec<_> = (0..4).map(|_| entrant(0, None)).collect();
        let rule = Rule {
            games: Some(8),
            ..Rule::default()
        };
        let decide =
            |in_flight: &[Slot], n| match decide_shared(&rule, 5, &entrants, &[], in_flight, n)
                .unwrap()
            {
                Decision::Play(p) => Some((p.south_first, p.north_first)),
                _ => None,
            };
        let first = decide(&[], 0).unwrap();
        let second = decide(&[Slot::new(first.0, first.1)], 1).unwrap();
        assert_ne!(
            [first.0.min(first.1), first.0.max(first.1)],
            [second.0.min(second.1), second.0.max(second.1)],
            "a pair in flight is not chosen again as if it had never met"
        );
        // Pair 4 of a budget of 8 games is past it, whatever is in flight.
        assert_eq!(
            decide_shared(&rule, 5, &entrants, &[], &[], 4).unwrap(),
            Decision::BudgetSpent
        );
        // Draws in flight never settle a league: 40 of them put every
        // neighbour within a wide margin, but no pair is finished.
        let until = Rule {
            games: None,
            until: Some(crate::Separation {
                confidence: 0.9,
                tie_margin: 1000.0,
                intervals: crate::Intervals::FixedSample,
            }),
            ..Rule::default()
        };
        let pending: Vec<Slot> = (0..40).map(|k| Slot::new(k % 4, (k + 1) % 4)).collect();
        let decided = decide_shared(&until, 5, &entrants, &[], &pending, 40).unwrap();
        assert!(matches!(decided, Decision::Play(_)), "{decided:?}");
    }

    #[test]
    fn entrants_are_seen_as_they_were_at_the_pair() {
        let entrants = [entrant(0, Some(4)), entrant(0, None), entrant(3, None)];
        let at = |n| entrants_at(&entrants, n);
        assert_eq!(at(2).len(), 2);
        assert!(!at(3)[0].retired);
        assert_eq!(at(3).len(), 3);
        assert!(at(4)[0].retired);
        let book = Book::default();
        let rule = Rule {
            games: Some(6),
            ..Rule::default()
        };
        let Ok(Ok(Decision::Play(p))) = decide(&rule, 1, &entrants[..2], &book, 0, 1) else {
            panic!()
        };
        assert_eq!(p.reason, Reason::Placement);
        assert_eq!(
            decide(&rule, 1, &entrants, &book, 3, 1).unwrap().unwrap(),
            Decision::BudgetSpent
        );
    }
}
