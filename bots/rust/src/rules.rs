//! The rules of Djenon-aboure (RULES.md), on their own: positions, sowing
//! with relays, captures, endless sowings, legal moves and forced passes.
//! Nothing here reads or writes anything, so the search and the tests can
//! trust it.

use std::collections::HashSet;
use std::fmt;

/// Pits 0..5 are South's row, 6..11 North's, in sowing order.
pub const PITS: usize = 12;
const ROW: usize = 6;
const TOTAL: u32 = 48;

/// A move: the pit to sow, or a forced pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Sow(usize),
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Sow(pit) => write!(f, "{pit}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// The seeds in each pit, the side to move (0 South, 1 North) and each
/// side's captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub pits: [u32; PITS],
    pub side: usize,
    pub captured: [u32; 2],
}

/// A legal move, the position after it and the seeds it captured.
#[derive(Clone, Copy, Debug)]
pub struct Child {
    pub mv: Move,
    pub position: Position,
    pub taken: u32,
}

impl Position {
    pub fn start() -> Position {
        Position {
            pits: [4; PITS],
            side: 0,
            captured: [0, 0],
        }
    }

    /// Reads the four fields `S0,..,S5/N6,..,N11 SIDE CAPS CAPN`; the error
    /// says which field is wrong.
    pub fn parse(fields: &[&str]) -> Result<Position, String> {
        if fields.len() != 4 {
            return Err(format!("a position has 4 fields, found {}", fields.len()));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 2 || rows.iter().any(|r| r.split(',').count() != ROW) {
            return Err(format!("board {} is not two rows of six pits", fields[0]));
        }
        let side = match fields[1] {
            "s" => 0,
            "n" => 1,
            other => return Err(format!("side {other} is neither s nor n")),
        };
        let cells = rows
            .iter()
            .flat_map(|r| r.split(','))
            .chain(fields[2..].iter().copied());
        let mut counts = Vec::with_capacity(PITS + 2);
        for cell in cells {
            match cell.parse::<u32>() {
                Ok(n) if n <= TOTAL && n.to_string() == cell => counts.push(n),
                _ => return Err(format!("seed count {cell} is not a number from 0 to 48")),
            }
        }
        if counts.iter().sum::<u32>() != TOTAL {
            return Err("the seeds do not add up to 48".into());
        }
        let mut pits = [0; PITS];
        pits.copy_from_slice(&counts[..PITS]);
        Ok(Position {
            pits,
            side,
            captured: [counts[PITS], counts[PITS + 1]],
        })
    }

    /// The position after the mover sows `pit`, or `None` when that is not a
    /// legal sowing (not the mover's pit, fewer than two seeds, or endless).
    pub fn child(&self, pit: usize) -> Option<Child> {
        if pit >= PITS || pit / ROW != self.side || self.pits[pit] < 2 {
            return None;
        }
        let mut next = *self;
        let taken = sow(&mut next.pits, pit)?;
        next.captured[self.side] += taken;
        next.side = 1 - self.side;
        Some(Child {
            mv: Move::Sow(pit),
            position: next,
            taken,
        })
    }

    /// The legal sowings, in pit order.
    pub fn children(&self) -> Vec<Child> {
        (self.side * ROW..self.side * ROW + ROW)
            .filter_map(|pit| self.child(pit))
            .collect()
    }

    /// The same position with the other side to move.
    pub fn passed(&self) -> Position {
        Position {
            side: 1 - self.side,
            ..*self
        }
    }

    /// The sowings, or a single pass when the mover has none but the
    /// opponent has, or nothing when the game is over.
    pub fn legal_moves(&self) -> Vec<Child> {
        let sowings = self.children();
        if !sowings.is_empty() {
            return sowings;
        }
        let passed = self.passed();
        if passed.children().is_empty() {
            return Vec::new();
        }
        vec![Child {
            mv: Move::Pass,
            position: passed,
            taken: 0,
        }]
    }

    /// Each side's captures plus the seeds in its own row.
    pub fn score(&self) -> [u32; 2] {
        let south: u32 = self.pits[..ROW].iter().sum();
        let north: u32 = self.pits[ROW..].iter().sum();
        [self.captured[0] + south, self.captured[1] + north]
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |r: &[u32]| r.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let side = if self.side == 0 { 's' } else { 'n' };
        let [s, n] = self.captured;
        write!(
            f,
            "{}/{} {side} {s} {n}",
            row(&self.pits[..ROW]),
            row(&self.pits[ROW..])
        )
    }
}

/// Sows from `pit` with relays; the seeds captured, or `None` when the
/// sowing never ends. Within one move no seed leaves the board, so a sowing
/// that does not end comes back to a state it has been in (same board, same
/// pit to sow): the set of states seen finds it.
fn sow(board: &mut [u32; PITS], mut pit: usize) -> Option<u32> {
    let mut seen = HashSet::new();
    loop {
        if !seen.insert((*board, pit)) {
            return None;
        }
        let seeds = board[pit] as usize;
        board[pit] = 0;
        for n in board.iter_mut() {
            *n += (seeds / PITS) as u32;
        }
        for i in 0..seeds % PITS {
            board[(pit + i) % PITS] += 1;
        }
        let last = (pit + seeds - 1) % PITS;
        match board[last] {
            1 => return Some(0),
            2 | 4 => return Some(capture(board, last)),
            _ => pit = last, // it held 2, or 4 or more: relay from there
        }
    }
}

/// Takes the seeds of `last` and of every pit before it (walking backwards
/// across both rows, never twice) holding exactly 2 or 4.
fn capture(board: &mut [u32; PITS], last: usize) -> u32 {
    let mut taken = std::mem::take(&mut board[last]);
    let mut pit = last;
    for _ in 1..PITS {
        pit = (pit + PITS - 1) % PITS;
        if board[pit] != 2 && board[pit] != 4 {
            break;
        }
        taken += std::mem::take(&mut board[pit]);
    }
    taken
}
