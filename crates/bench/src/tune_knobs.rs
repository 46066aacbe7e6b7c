//! The parameters of the equal-CPU tuning bench ([`crate::tune_cpu`]):
//! options of the reference alphabeta whose mis-settings each cost a small,
//! measured amount of Elo (`aboure bench tune-cpu --effects`), and the
//! in-process games and matches the bench judges tunes by.
//!
//! Small effects are what tuning is for in practice: a sign flip worth 50
//! Elo is found by any method, while fishtest's tunes move parameters
//! worth 5 to 20 Elo each. A match at the bench's node budget measures each
//! mis-setting against the default, so the figures say what is at stake.

use aboure_bots::{configure, AlphaBetaPlayer};
use aboure_engine::{Position, Side};
use aboure_protocol::duel::{play, Seat};
use aboure_protocol::SearchLimits;
use aboure_stats::{Estimate, Pentanomial, PlayerResult};
use aboure_tuning::random_opening;
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::duel::{nodes, result};

/// One tuned option: its default, the mis-set start and SPSA's `c_end`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knob {
    /// The alphabeta option.
    pub option: &'static str,
    /// Its default (the bot's own).
    pub default: f64,
    /// The mis-set value every tune starts from.
    pub start: f64,
    /// SPSA's perturbation at the last iteration (`c_end`).
    pub step: f64,
    /// The range the tune may explore.
    pub range: (f64, f64),
}

/// The parameters and their mis-set starts. What each costs alone against
/// the default at [`NODES`] is measured by `aboure bench tune-cpu
/// --effects` (docs/tuning.md); `--starts` tries others, and a knob started
/// at its default is left out of a comparison.
pub const KNOBS: [Knob; 4] = [
    Knob {
        option: "row_weight",
        default: 50.0,
        start: 15.0,
        step: 8.0,
        range: (-200.0, 300.0),
    },
    Knob {
        option: "mobility_weight",
        default: 0.0,
        start: 80.0,
        step: 8.0,
        range: (-200.0, 200.0),
    },
    Knob {
        option: "targets_weight",
        default: 0.0,
        start: 150.0,
        step: 8.0,
        range: (-200.0, 200.0),
    },
    Knob {
        option: "empty_weight",
        default: 0.0,
        start: EMPTY_START,
        step: 8.0,
        range: (-300.0, 300.0),
    },
];

/// The mis-set start of `empty_weight`.
const EMPTY_START: f64 = 150.0;

/// Alphabeta's nodes a move in the bench by default: the search, not the
/// evaluation alone, decides most moves (several plies in the middle
/// game), while a long judging match still fits in minutes on two cores;
/// `--nodes` measures at others.
pub const NODES: u64 = 3_000;

/// Alphabeta with each of `knobs` at its value in `values` (a fresh bot
/// with a 1 MB table: ample for the node budgets used here).
pub fn bot(knobs: &[Knob], values: &[f64]) -> AlphaBetaPlayer {
    let mut bot = AlphaBetaPlayer::new(1);
    for (k, v) in knobs.iter().zip(values) {
        configure(&mut bot, k.option, &format!("{}", v.round()))
            .expect("the value stays in the option's range");
    }
    bot
}

/// [`KNOBS`] with the starts given (the first ones, in order; the others
/// keep theirs), without those started at their default: a parameter at
/// its default is not mis-set, so it has no effect to measure or recover.
pub fn with_starts(given: &[f64]) -> Vec<Knob> {
    let mut knobs = KNOBS;
    for (k, s) in knobs.iter_mut().zip(given) {
        k.start = *s;
    }
    knobs.into_iter().filter(|k| k.start != k.default).collect()
}

/// The values of `knobs` at their starts.
pub fn starts(knobs: &[Knob]) -> Vec<f64> {
    knobs.iter().map(|k| k.start).collect()
}

/// The defaults of `knobs`.
pub fn defaults(knobs: &[Knob]) -> Vec<f64> {
    knobs.iter().map(|k| k.default).collect()
}

/// A game pair from `opening` between alphabeta at `a` and at `b`, each
/// searching `limits`, colours swapped: `a`'s results.
pub fn pair(
    knobs: &[Knob],
    (a, b): (&[f64], &[f64]),
    opening: Position,
    limits: &SearchLimits,
) -> [PlayerResult; 2] {
    // Fresh bots each game: what a table learned in the first game would
    // make the second one a different game, not the same one swapped.
    let game = |a_side: Side| {
        let (mut x, mut y) = (bot(knobs, a), bot(knobs, b));
        let sx = Seat {
            player: &mut x,
            limits,
        };
        let sy = Seat {
            player: &mut y,
            limits,
        };
        let (south, north) = match a_side {
            Side::South => (sx, sy),
            Side::North => (sy, sx),
        };
        result(play(south, north, opening, |_, _| {}), a_side)
    };
    [game(Side::South), game(Side::North)]
}

/// `a` against `b` over `pairs` game pairs from the random openings of
/// `seed`, at `nodes` a move: the pentanomial counts.
pub fn match_counts(
    knobs: &[Knob],
    (a, b): (&[f64], &[f64]),
    pairs: u32,
    seed: u64,
    nodes_a_move: u64,
) -> Pentanomial {
    let limits = nodes(nodes_a_move);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut counts = Pentanomial::default();
    for _ in 0..pairs {
        let [first, second] = pair(knobs, (a, b), random_opening(&mut rng), &limits);
        counts.add_pair(first, second);
    }
    counts
}

/// `a`'s Elo against `b` (fastchess's pentanomial 95% interval).
pub fn match_elo(
    knobs: &[Knob],
    (a, b): (&[f64], &[f64]),
    pairs: u32,
    seed: u64,
    nodes_a_move: u64,
) -> Estimate {
    match_counts(knobs, (a, b), pairs, seed, nodes_a_move)
        .head_to_head()
        .elo
}

/// `+12 +/- 9` for an estimate with an interval.
pub fn describe(elo: &Estimate) -> String {
    match elo.interval() {
        Some(i) => format!("{:+.1} +/- {:.1}", i.value, i.error().unwrap_or(f64::NAN)),
        None => format!("{elo:?}"),
    }
}

/// What each mis-setting costs: the default against the default with
/// one knob at its start, then against all the starts, `pairs` pairs
/// each at `nodes_a_move`.
pub fn effects(knobs: &[Knob], pairs: u32, nodes_a_move: u64) -> Vec<String> {
    let default = defaults(knobs);
    let mut lines = Vec::new();
    for (i, k) in knobs.iter().enumerate() {
        let mut one = default.clone();
        one[i] = k.start;
        let elo = match_elo(knobs, (&default, &one), pairs, 7, nodes_a_move);
        lines.push(format!(
            "default against {} = {} (others default), {pairs} pairs at {nodes_a_move} nodes: Elo {}",
            k.option,
            k.start,
            describe(&elo)
        ));
    }
    let start = starts(knobs);
    let elo = match_elo(knobs, (&default, &start), pairs, 7, nodes_a_move);
    lines.push(format!(
        "default against all the starts, {pairs} pairs at {nodes_a_move} nodes: Elo {}",
        describe(&elo)
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_start_is_in_range_and_differs_from_its_default() {
        for k in KNOBS {
            assert!(k.range.0 <= k.start && k.start <= k.range.1, "{k:?}");
            assert!(k.range.0 <= k.default && k.default <= k.range.1, "{k:?}");
            assert_ne!(k.start, k.default, "{k:?}");
            assert!(k.step > 0.0);
        }
    }

    #[test]
    fn the_defaults_are_the_bots_own() {
        use aboure_protocol::{OptionKind, Player};
        let declared = AlphaBetaPlayer::new(1).options();
        for k in KNOBS {
            let spec = declared.iter().find(|o| o.name == k.option).unwrap();
            let OptionKind::Int { default, .. } = spec.kind else {
                panic!("{} is not an int", k.option)
            };
            assert_eq!(default as f64, k.default, "{}", k.option);
        }
    }

    #[test]
    fn starts_replace_the_first_knobs_and_a_start_at_the_default_drops_its_knob() {
        let knobs = with_starts(&[20.0, 0.0]);
        let names: Vec<_> = knobs.iter().map(|k| k.option).collect();
        assert_eq!(names, ["row_weight", "targets_weight", "empty_weight"]);
        assert_eq!(knobs[0].start, 20.0);
        assert_eq!(knobs[1].start, KNOBS[2].start);
        assert_eq!(with_starts(&[]), KNOBS.to_vec());
    }

    #[test]
    fn a_bot_against_itself_scores_half_in_every_pair() {
        // Deterministic and identical: each pair is a win and a loss, two
        // draws, or the same result for the same colour twice.
        let d = defaults(&KNOBS);
        let counts = match_counts(&KNOBS, (&d, &d), 6, 3, 1_000);
        assert_eq!(counts.pairs(), 6);
        assert_eq!(counts.score(), Some(0.5), "{counts:?}");
    }
}
