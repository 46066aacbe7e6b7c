//! Every rule clause on hand-made positions, with the expected results worked
//! out by hand (RULES.md walks through several of them).

use aboure_engine::{Lap, Move, Pit, Position, Side};

fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

fn sow(i: usize) -> Move {
    Move::sow(i).unwrap()
}

fn pit(i: usize) -> Pit {
    Pit::new(i).unwrap()
}

fn after(text: &str, m: Move) -> String {
    let mut p = pos(text);
    p.play(m).unwrap();
    p.to_string()
}

#[test]
fn first_seed_goes_back_into_the_origin_and_an_empty_pit_ends_the_turn() {
    assert_eq!(
        after("2,0,0,0,0,0/0,0,0,0,0,0 s 24 22", sow(0)),
        "1,1,0,0,0,0/0,0,0,0,0,0 n 24 22"
    );
}

#[test]
fn singletons_and_empty_pits_cannot_move_nor_can_the_opponents_pits() {
    let p = pos("1,0,3,0,1,1/2,0,0,0,0,0 s 20 20");
    assert!(!p.is_legal(sow(0)));
    assert!(!p.is_legal(sow(1)));
    assert!(p.is_legal(sow(2)));
    assert!(!p.is_legal(sow(6)));
    assert_eq!(p.legal_moves().as_slice(), &[sow(2)]);
    let err = pos("1,0,3,0,1,1/2,0,0,0,0,0 s 20 20")
        .play(sow(0))
        .unwrap_err();
    assert_eq!(err.to_string(), "move 0 is not legal; legal moves: 2");
}

#[test]
fn relays_round_the_board_until_a_capture() {
    let mut p = Position::startpos();
    let d = p.play_detailed(sow(2)).unwrap();
    let lap = |from, seeds, last| Lap {
        from: pit(from),
        seeds,
        last: pit(last),
    };
    // 4 seeds from pit 2 end in pit 5 (held 4: relay), 5 from pit 5 end in 9
    // (held 4: relay), 5 from 9 end in 1 (held 4: relay), 5 from 1 end in 5,
    // which held 1: now 2, captured; pit 4 holds 6, so the chain stops.
    assert_eq!(
        d.laps,
        vec![lap(2, 4, 5), lap(5, 5, 9), lap(9, 5, 1), lap(1, 5, 5)]
    );
    assert_eq!(d.captures, vec![(pit(5), 2)]);
    assert_eq!(p.to_string(), "5,1,2,6,6,0/5,5,5,1,5,5 n 2 0");
}

#[test]
fn a_pit_that_held_two_relays() {
    // 3 seeds from pit 0 end in pit 2, which held 2: relay 3 seeds from pit 2,
    // ending in pit 4, which was empty.
    let mut p = pos("3,0,2,0,0,0/0,0,0,0,0,0 s 22 21");
    let d = p.play_detailed(sow(0)).unwrap();
    assert_eq!(d.laps.len(), 2);
    assert!(d.captures.is_empty());
    assert_eq!(p.to_string(), "1,1,1,1,1,0/0,0,0,0,0,0 n 22 21");
}

#[test]
fn capture_chain_crosses_into_the_other_row() {
    // South sows 5 from pit 3: the last seed makes pit 7 hold 2; walking back,
    // pit 6 holds 4 and pit 5 holds 2 (South's own row), pit 4 holds 3: stop.
    let mut p = pos("1,0,0,5,2,1/3,1,0,1,0,0 s 18 16");
    let d = p.play_detailed(sow(3)).unwrap();
    assert_eq!(d.captures, vec![(pit(7), 2), (pit(6), 4), (pit(5), 2)]);
    assert_eq!(p.to_string(), "1,0,0,1,3,0/0,0,0,1,0,0 n 26 16");
}

#[test]
fn capture_chain_wraps_from_pit_0_to_pit_11() {
    // North sows 5 from pit 8: the last seed makes pit 0 hold 2; the chain
    // goes on to pit 11 (4) and pit 10 (2) and stops at pit 9 (1).
    let mut p = pos("1,1,0,0,0,1/0,0,5,0,1,3 n 18 18");
    let d = p.play_detailed(sow(8)).unwrap();
    assert_eq!(d.captures, vec![(pit(0), 2), (pit(11), 4), (pit(10), 2)]);
    assert_eq!(p.to_string(), "0,1,0,0,0,1/0,0,1,1,0,0 s 18 26");
}

#[test]
fn a_lap_of_thirteen_seeds_ends_in_its_origin() {
    // 13 seeds: one into pit 0, one into each of the eleven others, and the
    // thirteenth back into pit 0, which held 1: capture 2, then pit 11 (2),
    // stop at pit 10 (1).
    let mut p = pos("13,0,0,0,0,0/0,0,0,0,0,1 s 18 16");
    let d = p.play_detailed(sow(0)).unwrap();
    assert_eq!(
        d.laps,
        vec![Lap {
            from: pit(0),
            seeds: 13,
            last: pit(0)
        }]
    );
    assert_eq!(d.captures, vec![(pit(0), 2), (pit(11), 2)]);
    assert_eq!(p.to_string(), "0,1,1,1,1,1/1,1,1,1,1,0 n 22 16");
    assert!(p.is_game_over());
    assert_eq!(p.outcome().unwrap().score, [27, 21]);
    assert_eq!(p.outcome().unwrap().winner(), Some(Side::South));
}

#[test]
fn capture_never_takes_a_pit_twice() {
    // 13 seeds from pit 0 leave every pit with 2: the chain takes all twelve
    // once, ending where it began.
    let mut p = pos("13,1,1,1,1,1/1,1,1,1,1,1 s 12 12");
    let d = p.play_detailed(sow(0)).unwrap();
    assert_eq!(d.captures.len(), 12);
    assert_eq!(d.captures[0], (pit(0), 2));
    assert_eq!(d.captures[1], (pit(11), 2));
    assert_eq!(d.captured(), 24);
    assert_eq!(p.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 n 36 12");
    assert_eq!(p.outcome().unwrap().score, [36, 12]);
}

#[test]
fn forced_pass_then_a_natural_end_in_a_draw() {
    let mut p = pos("1,0,1,0,1,1/2,0,0,0,0,0 s 20 22");
    assert_eq!(p.legal_moves().as_slice(), &[Move::Pass]);
    assert!(!p.is_game_over());
    assert!(p.play(sow(0)).is_err());
    p.play(Move::Pass).unwrap();
    assert_eq!(p.to_string(), "1,0,1,0,1,1/2,0,0,0,0,0 n 20 22");
    // Passing is only legal when forced.
    assert!(p.play(Move::Pass).is_err());
    p.play(sow(6)).unwrap();
    assert_eq!(p.to_string(), "1,0,1,0,1,1/1,1,0,0,0,0 s 20 22");
    assert!(p.is_game_over());
    assert!(p.legal_moves().is_empty());
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.score, [24, 24]);
    assert_eq!(outcome.winner(), None);
    assert_eq!(outcome.result_str(), "1/2-1/2");
    let err = p.play(sow(0)).unwrap_err();
    assert_eq!(err.to_string(), "move 0 is not legal: the game is over");
}

#[test]
fn an_endless_sowing_is_not_legal() {
    // The example of RULES.md: South's pit 5 relays for ever.
    let p = pos("4,3,4,1,2,3/1,4,3,2,1,5 s 8 7");
    assert!(!p.is_legal(sow(5)));
    assert_eq!(p.legal_moves().to_string(), "0 1 2 4");
    let err = p.after(sow(5)).unwrap_err();
    assert_eq!(err.to_string(), "move 5 is not legal; legal moves: 0 1 2 4");
}

#[test]
fn a_side_whose_only_sowings_are_endless_passes() {
    // South's only pit with two or more seeds is pit 4, and its sowing relays
    // for ever: South has no legal sowing and must pass.
    let mut p = pos("1,0,1,0,8,1/5,6,5,4,5,6 s 3 3");
    assert!(!p.is_legal(sow(4)));
    assert_eq!(p.legal_moves().as_slice(), &[Move::Pass]);
    p.play(Move::Pass).unwrap();
    assert_eq!(p.side_to_move(), Side::North);
}

#[test]
fn moves_parse_strictly() {
    assert_eq!("7".parse::<Move>().unwrap(), sow(7));
    assert_eq!(" pass\r".parse::<Move>().unwrap(), Move::Pass);
    for bad in ["12", "-1", "07", "+3", "", "PASS", "3 4", "x"] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?} parsed");
    }
}
