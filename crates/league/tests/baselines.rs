//! The Swiss system and the round robin the league is measured against.

use std::collections::HashSet;

use aboure_league::{round_robin, swiss, Entrant, Field, PlayedPair};
use aboure_stats::PlayerResult::{Loss, Win};

fn play_rounds(entrants: &[Entrant], rounds: usize) -> (Vec<PlayedPair>, Vec<Vec<(usize, usize)>>) {
    let mut pairs = Vec::new();
    let mut all = Vec::new();
    for _ in 0..rounds {
        let round = swiss::next_round(&Field::new(entrants, &pairs).unwrap(), 9);
        for &(a, b) in &round {
            // The lower index wins both games: scores spread out.
            let result = if a < b { Win } else { Loss };
            pairs.push(PlayedPair {
                south_first: a,
                north_first: b,
                results: [result, result],
            });
        }
        all.push(round);
    }
    (pairs, all)
}

#[test]
fn swiss_never_repeats_a_pairing_while_another_exists() {
    let entrants = [Entrant::active(0); 8];
    let (pairs, rounds) = play_rounds(&entrants, 7);
    let mut seen = HashSet::new();
    for (r, round) in rounds.iter().enumerate() {
        assert_eq!(round.len(), 4, "round {r}: {round:?}");
        let mut boards: Vec<usize> = round.iter().flat_map(|&(a, b)| [a, b]).collect();
        boards.sort();
        assert_eq!(boards, (0..8).collect::<Vec<_>>(), "round {r}");
        for &(a, b) in round {
            assert!(
                seen.insert((a.min(b), a.max(b))),
                "round {r} repeats {a}-{b}"
            );
        }
    }
    let field = Field::new(&entrants, &pairs).unwrap();
    for (e, s) in field.south_first_counts().iter().enumerate() {
        assert!(
            s.abs_diff(7 - s) <= 3,
            "entrant {e} began {s} of 7 pairs as South"
        );
    }
    // Round 8: everyone has met everyone, so one repeat is allowed.
    let next = swiss::next_round(&field, 9);
    assert_eq!(next.len(), 4);
}

#[test]
fn swiss_pairs_the_leaders_together() {
    let entrants = [Entrant::active(0); 8];
    let (pairs, _) = play_rounds(&entrants, 1);
    let field = Field::new(&entrants, &pairs).unwrap();
    let points = field.points();
    let next = swiss::next_round(&field, 9);
    for &(a, b) in &next {
        assert_eq!(
            points[a], points[b],
            "{a} and {b} are in the same score group"
        );
    }
}

#[test]
fn swiss_byes_move_round_the_field() {
    let entrants = [Entrant::active(0); 7];
    let (pairs, rounds) = play_rounds(&entrants, 7);
    assert!(rounds.iter().all(|r| r.len() == 3));
    let counts = Field::new(&entrants, &pairs).unwrap().pair_counts();
    assert_eq!(counts, vec![6; 7], "each sat out once");
}

#[test]
fn round_robin_plays_each_pairing_once_a_cycle() {
    let cycle: HashSet<_> = (0..45).filter_map(|u| round_robin::pair(10, u)).collect();
    assert_eq!(cycle.len(), 45);
    assert_eq!(round_robin::pair(10, 45), Some((0, 1)));
}
