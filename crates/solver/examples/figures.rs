//! Figures about the game from the start position, for RULES.md:
//!
//! ```text
//! cargo run --release -p aboure-solver --example figures
//! ```
//!
//! The value of the start and of each first move (exact solve), then a walk
//! of the whole game graph reachable from the start (about 49 million
//! positions; a few minutes and about 2 GB): the number of distinct positions
//! (board and side to move), whether any reachable position has an endless
//! sowing (a pit of two or more seeds of the mover that is not a legal move),
//! whether any position can repeat within a game (a cycle in the graph), and
//! the longest possible game in plies. The walk also computes the value of
//! every position by plain minimax over the graph, with neither pruning nor
//! bounds, and checks the solver's values of the start and of each first move
//! against it.

use std::collections::HashMap;
use std::time::Instant;

use aboure_engine::{Move, Position, Side};
use aboure_solver::Solver;

/// Marks a position whose walk is in progress: meeting it again is a cycle.
const ON_PATH: (u8, i8) = (u8::MAX, 0);

/// Board and side to move, one byte a pit.
fn key(pos: &Position) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(&pos.pits());
    bytes[12] = pos.side_to_move().index() as u8;
    u128::from_le_bytes(bytes)
}

struct Walk {
    /// Longest game from each position in plies, and its exact value (or
    /// `ON_PATH`).
    known: HashMap<u128, (u8, i8)>,
    cycle: Option<Position>,
    endless: Option<Position>,
    endless_count: u64,
}

impl Walk {
    fn visit(&mut self, pos: &Position) -> (u8, i8) {
        let k = key(pos);
        if let Some(&found) = self.known.get(&k) {
            if found == ON_PATH {
                self.cycle.get_or_insert(*pos);
            }
            return found;
        }
        self.known.insert(k, ON_PATH);
        let (moves, next, n) = pos.children();
        let first = pos.side_to_move().first_pit();
        let candidates = (first..first + 6).filter(|&p| pos.seeds(p) >= 2).count();
        let sowings = moves[..n].iter().filter(|&&m| m != Move::Pass).count();
        if sowings != candidates {
            self.endless_count += 1;
            self.endless.get_or_insert(*pos);
        }
        let me = pos.side_to_move();
        let mut plies = 0u8;
        let mut value = if n == 0 {
            pos.row_seeds(me) as i8 - pos.row_seeds(!me) as i8
        } else {
            i8::MIN
        };
        for child in &next[..n] {
            let (p, v) = self.visit(child);
            plies = plies.max(p + 1);
            let captured = (child.captured(me) - pos.captured(me)) as i8;
            value = value.max(captured - v);
        }
        self.known.insert(k, (plies, value));
        (plies, value)
    }
}

fn main() {
    let start = Position::startpos();
    let mut solver = Solver::new(256);
    let t = Instant::now();
    let value = solver.value(&start);
    let moves = solver.move_values(&start);
    println!(
        "start value {value} (South's final margin); it and the first moves solved in {:.3}s, {} nodes",
        t.elapsed().as_secs_f64(),
        solver.nodes()
    );
    for (m, v) in &moves {
        let verdict = match v.signum() {
            1 => "wins",
            0 => "draws",
            _ => "loses",
        };
        println!("first move {m} {v} ({verdict})");
    }

    let t = Instant::now();
    let mut walk = Walk {
        known: HashMap::with_capacity(52_000_000),
        cycle: None,
        endless: None,
        endless_count: 0,
    };
    let (longest, minimax) = walk.visit(&start);
    println!("reachable positions {}", walk.known.len());
    let verdict = |agrees: bool| if agrees { "agrees" } else { "DISAGREES" };
    println!(
        "start value by plain minimax over the graph {minimax} ({} with the solver)",
        verdict(minimax as i32 == value)
    );
    for (m, v) in &moves {
        let child = start.after(*m).expect("a legal first move");
        let captured = child.captured(Side::South) as i32;
        let by_minimax = captured - walk.known[&key(&child)].1 as i32;
        println!(
            "first move {m} by plain minimax {by_minimax} ({} with the solver)",
            verdict(by_minimax == *v)
        );
    }
    match walk.endless {
        None => println!("endless sowings reachable: none"),
        Some(p) => println!(
            "endless sowings reachable: in {} positions, e.g. {p}",
            walk.endless_count
        ),
    }
    match walk.cycle {
        None => {
            println!("repeated positions reachable: none (the game graph is acyclic)");
            println!("longest game {longest} plies");
        }
        Some(p) => println!("repeated positions reachable: yes, e.g. {p}"),
    }
    println!("graph walked in {:.1}s", t.elapsed().as_secs_f64());
}
