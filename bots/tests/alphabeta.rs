//! The `alphabeta` bot against a plain minimax in small endgames, and its
//! depth limit and reports.

use crate::common;

use aboure_bots::eval::SCALE;
use aboure_bots::AlphaBetaPlayer;
use aboure_engine::{Move, Position, Side};
use aboure_protocol::{Player, SearchLimits};
use common::Local;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The exact future value (final margin from here, for the mover) by plain
/// minimax, or `None` if a line is longer than `plies` (a possible cycle).
fn minimax(pos: &Position, plies: u32) -> Option<i32> {
    let (_, kids, n) = pos.children();
    let me = pos.side_to_move();
    if n == 0 {
        return Some(pos.row_seeds(me) as i32 - pos.row_seeds(!me) as i32);
    }
    if plies == 0 {
        return None;
    }
    let mut best = i32::MIN;
    for child in &kids[..n] {
        let gain = child.captured(me) as i32 - pos.captured(me) as i32;
        best = best.max(gain - minimax(child, plies - 1)?);
    }
    Some(best)
}

/// A random position with `seeds` seeds on the board (an even number).
fn endgame(rng: &mut SmallRng, seeds: u32) -> Position {
    loop {
        let mut pits = [0u8; 12];
        for _ in 0..seeds {
            pits[rng.gen_range(0..12)] += 1;
        }
        let caught = 48 - seeds as u8;
        let south = (caught / 2) & !1;
        let side = if rng.gen_bool(0.5) {
            Side::South
        } else {
            Side::North
        };
        let pos = Position::new(pits, side, [south, caught - south]).unwrap();
        if pos.legal_moves().iter().any(|m| *m != Move::Pass) {
            return pos;
        }
    }
}

#[test]
fn finds_the_exact_best_move_in_small_endgames() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut checked = 0;
    let mut bot = AlphaBetaPlayer::new(1);
    for i in 0..800 {
        let pos = endgame(&mut rng, [6, 8, 10, 12][i % 4]);
        let Some(best) = minimax(&pos, 40) else {
            continue;
        };
        let me = pos.side_to_move();
        bot.new_game();
        let m = bot.choose(&pos, &[], &SearchLimits::default_depth(), &mut Local::new());
        let out = bot.last_search().unwrap();
        let after = pos.after(m).unwrap();
        let gain = after.captured(me) as i32 - pos.captured(me) as i32;
        let value = gain - minimax(&after, 40).unwrap();
        assert_eq!(value, best, "{pos}: played {m} worth {value}, best {best}");
        if pos.legal_moves().len() == 1 {
            // Played at once, without a search.
            continue;
        }
        assert!(out.solved, "{pos}: not solved at depth {}", out.depth);
        let margin = pos.captured(me) as i32 - pos.captured(!me) as i32;
        assert_eq!(out.score, (best + margin) * SCALE, "{pos}");
        checked += 1;
    }
    assert!(checked > 200, "only {checked} endgames checked");
}

trait DefaultDepth {
    fn default_depth() -> SearchLimits;
}

impl DefaultDepth for SearchLimits {
    /// Deep enough to reach the end of any of these endgames.
    fn default_depth() -> SearchLimits {
        SearchLimits {
            depth: Some(60),
            ..SearchLimits::default()
        }
    }
}

#[test]
fn depth_limit_is_honoured_and_reported() {
    for d in 1..=6 {
        let mut bot = AlphaBetaPlayer::default();
        let mut search = Local::new();
        let limits = SearchLimits {
            depth: Some(d),
            ..SearchLimits::default()
        };
        let pos = Position::startpos();
        let m = bot.choose(&pos, &[], &limits, &mut search);
        assert!(pos.is_legal(m));
        let depths: Vec<u32> = search.infos.iter().filter_map(|i| i.depth).collect();
        assert_eq!(depths, (1..=d).collect::<Vec<_>>());
        let last = search.infos.last().unwrap();
        assert_eq!(
            last.pv.first(),
            Some(&m),
            "the pv starts with the move played"
        );
        assert!(last.pv.len() <= d as usize);
        assert!(last.nodes.unwrap() > 0);
    }
    // The `depth` option caps it too.
    let mut bot = AlphaBetaPlayer::default();
    bot.set_option("depth", "2").unwrap();
    let mut search = Local::new();
    bot.choose(
        &Position::startpos(),
        &[],
        &SearchLimits::default(),
        &mut search,
    );
    assert_eq!(search.infos.last().unwrap().depth, Some(2));
}

#[test]
fn node_limit_is_honoured() {
    let mut bot = AlphaBetaPlayer::default();
    let limits = SearchLimits {
        nodes: Some(5000),
        ..SearchLimits::default()
    };
    bot.choose(&Position::startpos(), &[], &limits, &mut Local::new());
    let nodes = bot.last_search().unwrap().nodes;
    assert!(nodes <= 5000, "{nodes} nodes");
}

#[test]
fn new_weights_on_a_kept_bot_search_as_a_fresh_bot_with_them() {
    // A process kept between a tune's games gets new weights by
    // `setoption`: what it searched under the old ones must not count.
    let limits = SearchLimits {
        nodes: Some(3_000),
        ..SearchLimits::default()
    };
    let mut rng = SmallRng::seed_from_u64(5);
    let positions: Vec<Position> = (0..40).map(|_| endgame(&mut rng, 20)).collect();
    let searched = |bot: &mut AlphaBetaPlayer| -> Vec<(Move, Option<i32>)> {
        positions
            .iter()
            .map(|p| {
                let m = bot.choose(p, &[], &limits, &mut Local::new());
                (m, bot.last_search().map(|s| s.score))
            })
            .collect()
    };
    let mut kept = AlphaBetaPlayer::new(1);
    kept.set_option("row_weight", "-300").unwrap();
    searched(&mut kept);
    kept.set_option("row_weight", "80").unwrap();
    kept.new_game();
    let mut fresh = AlphaBetaPlayer::new(1);
    fresh.set_option("row_weight", "80").unwrap();
    fresh.new_game();
    assert_eq!(searched(&mut kept), searched(&mut fresh));
}

/// Every move and search value of `games` games of the default alphabeta
/// against itself at 1,500 nodes from random openings, folded into one
/// number (FNV-1a).
fn default_games_fingerprint(games: usize) -> u64 {
    let limits = SearchLimits {
        nodes: Some(1_500),
        ..SearchLimits::default()
    };
    let mut rng = SmallRng::seed_from_u64(21);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut fold = |x: i64| {
        for b in x.to_le_bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for _ in 0..games {
        let mut pos = common::opening(&mut rng, 4);
        let mut bot = AlphaBetaPlayer::new(1);
        while !pos.is_game_over() {
            let m = if pos.legal_moves().as_slice() == [Move::Pass] {
                Move::Pass
            } else {
                let m = bot.choose(&pos, &[], &limits, &mut Local::new());
                fold(i64::from(bot.last_search().map_or(0, |s| s.score)));
                m
            };
            m.to_string().bytes().for_each(|b| fold(i64::from(b)));
            pos.play(m).unwrap();
        }
        fold(i64::from(pos.score()[0]));
    }
    hash
}

#[test]
fn the_default_settings_play_the_games_they_always_played() {
    // Pinned when the options were row, mobility and targets weights: a new
    // option must leave the default bot's games (moves and values) as they
    // were, so that every figure measured with it still holds.
    assert_eq!(default_games_fingerprint(6), 16_004_730_392_835_725_900);
}
