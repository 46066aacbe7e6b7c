//! Every reference bot, called in-process: legal moves everywhere, limits
//! and `stop` honoured, options checked.

use crate::common;

use aboure_bots::{builtin, BUILTIN};
use aboure_engine::{Move, Position, Side};
use aboure_protocol::{Player, SearchLimits};
use common::{opening, Local};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Positions to ask for moves: random play from the start at every length,
/// so early, middle and end positions all appear.
fn positions(count: usize, seed: u64) -> Vec<(Position, Vec<Position>)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos();
        let mut history = Vec::new();
        while !pos.is_game_over() && history.len() < 200 {
            let moves = pos.legal_moves();
            if moves.as_slice() != [Move::Pass] && rng.gen_bool(0.3) {
                out.push((pos, history.clone()));
            }
            history.push(pos);
            pos.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
    }
    out.truncate(count);
    out
}

/// A few milliseconds or a few thousand nodes: each bot's quick mode.
fn quick() -> SearchLimits {
    SearchLimits {
        nodes: Some(3000),
        ..SearchLimits::default()
    }
}

fn bot(name: &str) -> Box<dyn Player + Send> {
    let mut b = builtin(name).unwrap();
    if b.options().iter().any(|o| o.name == "seed") {
        b.set_option("seed", "42").unwrap();
    }
    b
}

#[test]
fn every_bot_plays_legal_moves_everywhere() {
    let cases = positions(300, 1);
    for name in BUILTIN {
        let mut b = bot(name);
        for (pos, history) in &cases {
            let m = b.choose(pos, history, &quick(), &mut Local::new());
            assert!(
                pos.is_legal(m),
                "{name} played {m} in {pos}; legal: {}",
                pos.legal_moves()
            );
            assert_ne!(m, Move::Pass, "{name} passed in {pos}");
        }
    }
}

#[test]
fn every_bot_plays_the_only_move() {
    // South has one sowing (pit 0); the rest is North's.
    let pos: Position = "2,0,0,0,0,0/1,1,1,1,1,1 s 20 20".parse().unwrap();
    assert_eq!(pos.legal_moves().as_slice(), [Move::sow(0).unwrap()]);
    // Near the end: one sowing left on the whole board.
    let end: Position = "0,0,0,0,0,0/0,0,0,2,0,0 n 22 24".parse().unwrap();
    assert_eq!(end.legal_moves().len(), 1);
    for name in BUILTIN {
        for p in [pos, end] {
            let mut b = bot(name);
            let m = b.choose(&p, &[], &quick(), &mut Local::new());
            assert_eq!(m, p.legal_moves()[0], "{name} in {p}");
        }
    }
}

#[test]
fn every_bot_answers_at_once_when_stopped() {
    // No limits at all: only `stop` ends the search.
    for name in BUILTIN {
        for stop_after in [0, 1, 5, 50] {
            let mut b = bot(name);
            let mut search = Local::new();
            search.stop_after_polls = Some(stop_after);
            let pos = Position::startpos();
            let m = b.choose(&pos, &[], &SearchLimits::default(), &mut search);
            assert!(pos.is_legal(m), "{name} played {m}");
            // Once `stopped()` said true, the bot may look once more at most
            // (e.g. the outer loop), never keep searching.
            let polls = search.polls.get();
            assert!(
                polls <= stop_after + 2,
                "{name} kept polling after stop: {polls} polls for a stop after {stop_after}"
            );
        }
    }
}

#[test]
fn every_bot_answers_when_stopped_from_another_thread() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    struct Flag(Arc<AtomicBool>, std::time::Instant);
    impl aboure_protocol::Search for Flag {
        fn started(&self) -> std::time::Instant {
            self.1
        }
        fn stopped(&self) -> bool {
            self.0.load(Ordering::Relaxed)
        }
        fn info(&mut self, _: &aboure_protocol::SearchInfo) {}
    }
    for name in BUILTIN {
        let flag = Arc::new(AtomicBool::new(false));
        let setter = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(30));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let mut b = bot(name);
        let pos = Position::startpos();
        let m = b.choose(
            &pos,
            &[],
            &SearchLimits::default(),
            &mut Flag(flag, std::time::Instant::now()),
        );
        assert!(pos.is_legal(m));
        setter.join().unwrap();
    }
}

#[test]
fn movetime_zero_still_gives_a_legal_move() {
    let limits = SearchLimits {
        movetime: Some(std::time::Duration::ZERO),
        ..SearchLimits::default()
    };
    for name in BUILTIN {
        let mut b = bot(name);
        let pos = Position::startpos();
        let m = b.choose(&pos, &[], &limits, &mut Local::new());
        assert!(pos.is_legal(m), "{name}: {m}");
    }
}

#[test]
fn seeded_bots_repeat_themselves() {
    let cases = positions(40, 2);
    for name in BUILTIN {
        let (mut a, mut b) = (bot(name), bot(name));
        for (pos, history) in &cases {
            let ma = a.choose(pos, history, &quick(), &mut Local::new());
            let mb = b.choose(pos, history, &quick(), &mut Local::new());
            assert_eq!(ma, mb, "{name} in {pos}");
        }
    }
}

#[test]
fn options_are_declared_and_checked() {
    for name in BUILTIN {
        let mut b = builtin(name).unwrap();
        assert!(b.name().contains(name));
        assert!(b.set_option("no_such_option", "1").is_err());
        for o in b.options() {
            if let aboure_protocol::OptionKind::Int { default, min, max } = o.kind {
                assert!(min <= default && default <= max, "{name} {}", o.name);
                // Sizes in MB are tried at their minimum, not their maximum.
                let fine = if o.name == "hash" { min } else { max };
                assert!(
                    b.set_option(&o.name, &fine.to_string()).is_ok(),
                    "{name} {}",
                    o.name
                );
                assert!(b.set_option(&o.name, "not a number").is_err());
                if max < i64::MAX {
                    assert!(b
                        .set_option(&o.name, &(max as i128 + 1).to_string())
                        .is_err());
                }
            }
        }
    }
    assert!(builtin("nobody").is_none());
}

#[test]
fn random_openings_are_playable() {
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..100 {
        let pos = opening(&mut rng, 4);
        assert!(!pos.is_game_over());
        assert!(pos.side_to_move() == Side::South || pos.side_to_move() == Side::North);
    }
}

#[test]
fn the_list_of_built_in_bots_is_what_builtin_knows() {
    for name in BUILTIN {
        assert!(builtin(name).is_some(), "{name} is listed but not built in");
    }
    assert!(builtin("stockfish").is_none());
    let mut names = BUILTIN.to_vec();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), BUILTIN.len(), "a name listed twice");
}
