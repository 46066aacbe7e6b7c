//! Which openings separate bots best (`aboure bench openings`).
//!
//! An SPRT's expected length grows as `1 / nElo²`, and nElo depends on the
//! openings: an opening one side wins whatever either bot plays scores a
//! pair 1-1 and tells nothing. For each bot pair this measures, in game
//! pairs played in-process (colours swapped on the same opening, fresh
//! bots every pair, so a pair is a function of its opening and seed):
//!
//! - the pentanomial frequencies and nElo (with fastchess's 95% interval)
//!   from random openings, as `[openings] plies = 4` plays them, and from
//!   books of the solver's choosing ([`aboure_openings`]) by value band and
//!   sharpness, every qualifying position in a seeded order;
//! - the pairs an SPRT needs with those frequencies, through the same
//!   simulation as `aboure sprt-calc` ([`aboure_stats::characteristic`]),
//!   and the ratio against random openings;
//! - then real SPRTs, pair by pair, from random openings and from the book
//!   that promised most, each run on openings of its own seed, to confirm
//!   the promise with games rather than arithmetic.
//!
//! The books are chosen on the measuring seed and confirmed on others: the
//! measurement uses stream `seed`, the SPRT runs the `runs` streams after it.

use std::fmt;

use aboure_bots::{builtin, configure};
use aboure_config::opening::random_opening;
use aboure_engine::{Position, Side};
use aboure_openings::{appraised, Band, BookEntry, Selection};
use aboure_protocol::duel::{play, Seat};
use aboure_protocol::{Player, SearchLimits};
use aboure_stats::characteristic::{characteristic, PairDistribution};
use aboure_stats::{Pentanomial, PlayerResult, Sprt};

use crate::duel::{nodes, result};

mod confirm;
mod settings;
mod table;

pub use confirm::{sprt_run, SprtRun};
pub use settings::Settings;
pub use table::bench;

/// A reference bot with its options and its nodes a move.
#[derive(Clone, Debug)]
pub struct Contender {
    bot: &'static str,
    options: Vec<(&'static str, String)>,
    nodes: u64,
}

impl Contender {
    /// `bot` at `nodes` a move, with its default options.
    pub fn new(bot: &'static str, nodes: u64) -> Contender {
        Contender {
            bot,
            options: Vec::new(),
            nodes,
        }
    }

    /// The same bot with `option` set to `value`.
    pub fn with(mut self, option: &'static str, value: &str) -> Contender {
        self.options.push((option, value.to_owned()));
        self
    }

    /// A fresh player; `seed` seeds the bots that draw (never 0, which
    /// would ask the system for a seed).
    fn player(&self, seed: u64) -> Box<dyn Player + Send> {
        let mut p = builtin(self.bot).expect("a reference bot");
        let names: Vec<String> = p.options().into_iter().map(|o| o.name).collect();
        if names.iter().any(|n| n == "hash") {
            configure(&mut *p, "hash", "1").expect("a 1 MB table");
        }
        if names.iter().any(|n| n == "seed") {
            configure(&mut *p, "seed", &(seed | 1).to_string()).expect("a seed");
        }
        for (name, value) in &self.options {
            configure(&mut *p, name, value).expect("an option the bench sets");
        }
        p
    }

    fn limits(&self) -> SearchLimits {
        nodes(self.nodes)
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} nodes", self.bot, self.nodes)?;
        for (name, value) in &self.options {
            write!(f, " {name}={value}")?;
        }
        Ok(())
    }
}

/// Two bots to tell apart; `a` is the one expected to be stronger.
#[derive(Clone, Debug)]
pub struct Matchup {
    /// What kind of pair this is.
    pub kind: &'static str,
    /// The first bot.
    pub a: Contender,
    /// The second bot.
    pub b: Contender,
}

impl fmt::Display for Matchup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} against {} ({})", self.a, self.b, self.kind)
    }
}

/// The bot pairs measured: close versions of one bot first (what users
/// test most), then bots of different kinds.
pub fn matchups() -> Vec<Matchup> {
    let ab = |n| Contender::new("alphabeta", n);
    let mcts = |n| Contender::new("mcts", n);
    vec![
        Matchup {
            kind: "one bot, more search",
            a: ab(1_500),
            b: ab(1_000),
        },
        Matchup {
            kind: "one bot, an evaluation weight changed",
            a: ab(1_500),
            b: ab(1_500).with("row_weight", "20"),
        },
        Matchup {
            kind: "one bot, more playouts",
            a: mcts(1_500),
            b: mcts(1_000),
        },
        Matchup {
            kind: "two kinds, close in strength",
            a: ab(1_500),
            b: mcts(1_500),
        },
        Matchup {
            kind: "two kinds, far apart",
            a: ab(300),
            b: Contender::new("greedy", 1),
        },
        // Close versions that no book recipe was chosen on: the pairs that
        // tell whether a recipe holds beyond the pairs it was found with.
        Matchup {
            kind: "one bot, twice the search (held out)",
            a: ab(2_000),
            b: ab(1_000),
        },
        Matchup {
            kind: "one bot, another evaluation term (held out)",
            a: ab(1_500),
            b: ab(1_500).with("targets_weight", "-60"),
        },
        Matchup {
            kind: "one bot, shallower quiescence (held out)",
            a: ab(1_500),
            b: ab(1_500).with("quiescence_plies", "0"),
        },
        Matchup {
            kind: "one bot, more playouts (held out)",
            a: mcts(3_000),
            b: mcts(2_000),
        },
        Matchup {
            kind: "one bot, exploration changed (held out)",
            a: mcts(1_500),
            b: mcts(1_500).with("exploration", "1.5"),
        },
    ]
}

/// Where a measurement's openings come from.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Random legal moves from the start, as the arbiter draws them.
    Random {
        /// Moves per opening.
        plies: u32,
    },
    /// Every position a selection admits, in an order each seed shuffles.
    Book {
        /// The selection.
        selection: Selection,
        /// Its positions.
        positions: Vec<Position>,
    },
}

impl Openings {
    /// A book of every position at `selection`'s depth that it admits,
    /// from `all`, the positions appraised at that depth.
    pub fn book(selection: Selection, all: &[BookEntry]) -> Openings {
        let positions = all
            .iter()
            .filter(|e| selection.admits(&e.appraisal))
            .map(|e| e.position)
            .collect();
        Openings::Book {
            selection,
            positions,
        }
    }

    /// The book cut in two halves of alternate positions: one to choose
    /// a book on, one to confirm it on, so that a book chosen for luck on
    /// its positions is not confirmed on the same ones (deterministic bots
    /// play each position the same way every time). Random openings are
    /// chosen on nothing and stay whole.
    pub fn halves(&self) -> (Openings, Openings) {
        match self {
            Openings::Random { .. } => (self.clone(), self.clone()),
            Openings::Book {
                selection,
                positions,
            } => {
                let half = |parity| Openings::Book {
                    selection: selection.clone(),
                    positions: positions.iter().skip(parity).step_by(2).copied().collect(),
                };
                (half(0), half(1))
            }
        }
    }

    /// Opening `index` of the stream `seed`.
    pub fn start(&self, seed: u64, index: u64) -> Position {
        match self {
            Openings::Random { plies } => {
                let opening = random_opening(seed, index as u32, *plies);
                let mut pos = opening.start();
                for m in opening.moves {
                    pos.play_unchecked(m);
                }
                pos
            }
            Openings::Book { positions, .. } => {
                // A stride prime to any book size below it walks every
                // position once before repeating; the seed moves the start.
                let n = positions.len() as u64;
                let at = seed.wrapping_mul(0x9E37_79B9) % n;
                positions[((at + index.wrapping_mul(stride(n))) % n) as usize]
            }
        }
    }

    /// The selection of a book (`None` for random openings).
    pub fn selection(&self) -> Option<&Selection> {
        match self {
            Openings::Random { .. } => None,
            Openings::Book { selection, .. } => Some(selection),
        }
    }

    /// Distinct openings, if finite.
    pub fn size(&self) -> Option<usize> {
        match self {
            Openings::Random { .. } => None,
            Openings::Book { positions, .. } => Some(positions.len()),
        }
    }
}

/// The smallest stride above `n / 2` that is coprime to `n`.
fn stride(n: u64) -> u64 {
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    (n / 2 + 1..).find(|&s| gcd(s, n) == 1).unwrap_or(1).max(1)
}

impl fmt::Display for Openings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Openings::Random { plies } => write!(f, "random, {plies} plies"),
            Openings::Book {
                selection,
                positions,
            } => write!(f, "book: {selection} ({} positions)", positions.len()),
        }
    }
}

/// The books measured besides random openings: value bands from balanced
/// to lopsided for the side to move, and quiet against sharp balanced ones;
/// with `balanced_only`, the balanced ones alone (lopsided books needed
/// more pairs than random openings for every close pair measured).
pub fn selections(plies: u32, balanced_only: bool) -> Vec<Selection> {
    let band = |lo, hi| Band::new(lo, hi).expect("a band");
    let loss = |lo, hi| Some(Band::new(lo, hi).expect("a band"));
    let at = |value, sharpness| Selection {
        value,
        sharpness,
        plies,
    };
    let all = vec![
        at(band(-1, 1), None),
        at(band(-2, 2), None),
        at(band(-4, 4), None),
        at(band(3, 8), None),
        at(band(-8, -3), None),
        at(band(9, 20), None),
        at(band(-2, 2), loss(0.0, 4.0)),
        at(band(-2, 2), loss(6.0, 48.0)),
    ];
    all.into_iter()
        .filter(|s| !balanced_only || (s.value.lo() <= 0 && s.value.hi() >= 0))
        .collect()
}

/// The recipe this bench confirms for every pair: the positions within
/// 2 seeds of a draw under perfect play (values are even, so 0 or +-2).
pub fn recipe(plies: u32) -> Selection {
    Selection {
        value: Band::new(-2, 2).expect("a band"),
        sharpness: None,
        plies,
    }
}

/// Every position `plies` deep, appraised (the books' raw material).
pub fn positions(plies: u32) -> Vec<BookEntry> {
    appraised(plies)
}

/// Game pair `index` of stream `seed`: `a` is South in the first game and
/// North in the second; `a`'s results.
pub fn pair(m: &Matchup, openings: &Openings, seed: u64, index: u64) -> [PlayerResult; 2] {
    let start = openings.start(seed, index);
    let bot_seed = seed.wrapping_mul(1_000_003).wrapping_add(index);
    let (la, lb) = (m.a.limits(), m.b.limits());
    let game = |a_side: Side| {
        let (mut a, mut b) = (m.a.player(bot_seed), m.b.player(bot_seed + 1));
        let (sa, sb) = (
            Seat {
                player: &mut *a,
                limits: &la,
            },
            Seat {
                player: &mut *b,
                limits: &lb,
            },
        );
        let (south, north) = if a_side == Side::South {
            (sa, sb)
        } else {
            (sb, sa)
        };
        result(play(south, north, start, |_, _| {}), a_side)
    };
    [game(Side::South), game(Side::North)]
}

/// `pairs` game pairs of stream `seed` on `threads` threads.
pub fn measure(
    m: &Matchup,
    openings: &Openings,
    pairs: u64,
    seed: u64,
    threads: usize,
) -> Pentanomial {
    let threads = threads.max(1) as u64;
    std::thread::scope(|scope| {
        let parts: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut counts = Pentanomial::default();
                    for index in (t..pairs).step_by(threads as usize) {
                        let [first, second] = pair(m, openings, seed, index);
                        counts.add_pair(first, second);
                    }
                    counts
                })
            })
            .collect();
        let mut total = Pentanomial::default();
        for part in parts {
            total += part.join().expect("a measuring thread");
        }
        total
    })
}

/// The mean pairs `sprt` needs if its pairs follow `counts`' frequencies
/// at their own nElo (`None` when they give no test).
pub fn expected_pairs(sprt: &Sprt, counts: &Pentanomial) -> Option<f64> {
    let base = PairDistribution::from_counts(counts).ok()?;
    let nelo = counts.head_to_head().nelo.value()?;
    Some(
        characteristic(sprt, &base, nelo, 2_000, 1)
            .ok()?
            .expected_pairs,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_stream_walks_every_position_before_repeating() {
        for n in [1u64, 2, 6, 10, 97, 360] {
            let positions: Vec<Position> = (0..n)
                .map(|i| {
                    let o = random_opening(3, i as u32, 6);
                    let mut p = o.start();
                    o.moves.iter().for_each(|m| p.play_unchecked(*m));
                    p
                })
                .collect();
            let book = Openings::Book {
                selection: selections(4, false)[0].clone(),
                positions: positions.clone(),
            };
            let mut seen: Vec<Position> = (0..n).map(|i| book.start(5, i)).collect();
            let mut all = positions;
            seen.sort_by_key(|p| p.to_string());
            all.sort_by_key(|p| p.to_string());
            assert_eq!(seen, all, "{n}");
        }
    }

    #[test]
    fn balanced_books_are_the_bands_that_hold_a_draw_and_the_recipe_is_one() {
        let all = selections(4, false);
        let balanced = selections(4, true);
        assert_eq!((all.len(), balanced.len()), (8, 5));
        for s in &all {
            let holds_draw = s.value.lo() <= 0 && s.value.hi() >= 0;
            assert_eq!(balanced.contains(s), holds_draw, "{s}");
        }
        assert!(balanced.contains(&recipe(4)));
        let book = Openings::book(recipe(4), &positions(4));
        assert_eq!(book.size(), Some(114));
        assert_eq!(book.selection(), Some(&recipe(4)));
        assert_eq!(Openings::Random { plies: 4 }.selection(), None);
    }

    #[test]
    fn a_pair_is_a_function_of_its_opening_and_seed() {
        let m = &matchups()[2];
        let book = Openings::Random { plies: 4 };
        assert_eq!(pair(m, &book, 4, 9), pair(m, &book, 4, 9));
    }

    #[test]
    fn the_far_pair_is_won_by_the_stronger_bot_and_every_pair_counts() {
        // Greedy against alphabeta is far apart: from any openings the
        // stronger bot wins most pairs, and the measure counts every pair.
        let m = &matchups()[4];
        let counts = measure(m, &Openings::Random { plies: 4 }, 40, 0, 2);
        assert_eq!(counts.pairs(), 40);
        assert!(counts.score().unwrap() > 0.6, "{counts:?}");
    }
}
