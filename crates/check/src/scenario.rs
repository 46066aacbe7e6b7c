//! The games the suite sends, built from the rules so that each is known to
//! be what its check needs: a forced pass in the history, a position with a
//! single legal sowing, set-up positions with odd captures and big pits.
//! Random games come from a fixed seed, so every run (and every transcript)
//! sends the same lines.

use aboure_engine::{Move, Position};
use aboure_protocol::{GameSoFar, Start};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The seed of the suite's random games and random replies.
pub const SEED: u64 = 0x00ab_0e1e;

/// Set-up positions that are not reached from the start in a usual game:
/// North to move, odd captures, a big pit, a nearly empty board.
pub const SETUPS: [&str; 4] = [
    "3,0,5,1,0,2/2,7,0,1,4,0 n 13 10",
    "0,1,0,0,0,17/2,0,1,1,0,0 s 15 11",
    "2,2,2,2,2,2/2,2,2,2,2,2 n 7 17",
    "0,0,0,0,2,0/0,0,0,1,0,0 s 20 25",
];

/// The example of a forced pass from the protocol's documentation: South
/// must pass (pit 4's sowing never ends) and North is to move.
pub const PROTOCOL_PASS: &str = "1,0,1,0,8,1/5,6,5,4,5,6 s 3 3";

/// RULES.md's example of an endless sowing: South's pit 5 relays for ever,
/// so the legal moves are 0, 1, 2 and 4.
pub const RULES_ENDLESS: &str = "4,3,4,1,2,3/1,4,3,2,1,5 s 8 7";

/// Another, with North to move: pit 7 never ends, 9 and 11 do. Endless
/// sowings are rare (none is reachable from the start; three in 100,000
/// random boards), so the suite names them rather than search for them.
pub const NORTH_ENDLESS: &str = "4,3,2,7,4,1/0,5,1,7,1,5 n 4 4";

/// The protocol's example of an ending after a pass: North's only move.
pub const PROTOCOL_LAST_MOVE: &str = "0,0,0,0,0,1/0,0,0,0,0,2 s 22 23";

/// The game of no moves from the start.
pub fn startpos() -> GameSoFar {
    GameSoFar {
        start: Start::StartPos,
        moves: Vec::new(),
    }
}

/// The game of no moves from a set-up position (one of the constants here).
pub fn set(position: &str) -> GameSoFar {
    GameSoFar {
        start: Start::Set(position.parse().unwrap_or_else(|_| Position::startpos())),
        moves: Vec::new(),
    }
}

/// The position a game leads to (the start if a move is illegal, which the
/// games built here never have).
pub fn current(game: &GameSoFar) -> Position {
    game.replay().map(|(p, _)| p).unwrap_or_else(|e| e.position)
}

/// True when the arbiter could send this game with `go`: the game is not
/// over and the side to move has a sowing.
pub fn askable(game: &GameSoFar) -> bool {
    game.replay()
        .is_ok_and(|(p, _)| !p.is_game_over() && p.legal_moves().as_slice() != [Move::Pass])
}

/// A uniformly random legal move (a pass when that is the only one).
pub fn random_move(position: &Position, rng: &mut SmallRng) -> Option<Move> {
    let legal = position.legal_moves();
    (!legal.is_empty()).then(|| legal[rng.gen_range(0..legal.len())])
}

/// A whole random game from `start`, its moves in order.
fn random_game(start: Start, rng: &mut SmallRng) -> GameSoFar {
    let mut game = GameSoFar {
        start,
        moves: Vec::new(),
    };
    let mut position = start.position();
    // Random games from any position end quickly; the bound only guards
    // against a loop the rules do not allow.
    while game.moves.len() < 1000 {
        let Some(m) = random_move(&position, rng) else {
            break;
        };
        position.play_unchecked(m);
        game.moves.push(m);
    }
    game
}

/// The first `plies` moves of `game`.
fn prefix(game: &GameSoFar, plies: usize) -> GameSoFar {
    GameSoFar {
        start: game.start,
        moves: game.moves[..plies].to_vec(),
    }
}

/// Askable prefixes of random games from `start` (seeded), the first ones
/// for which `wanted` holds, one per game, up to `count`.
fn find(start: Start, count: usize, wanted: impl Fn(&GameSoFar) -> bool) -> Vec<GameSoFar> {
    let mut rng = SmallRng::seed_from_u64(SEED);
    let mut found = Vec::new();
    for _ in 0..100_000 {
        let game = random_game(start, &mut rng);
        let hit = (1..game.moves.len())
            .map(|plies| prefix(&game, plies))
            .find(|g| askable(g) && wanted(g));
        found.extend(hit);
        if found.len() == count {
            break;
        }
    }
    found
}

/// Games from the start with a given number of moves, both sides to move.
pub fn openings() -> Vec<GameSoFar> {
    let mut games = find(Start::StartPos, 1, |g| g.moves.len() == 1);
    games.extend(find(Start::StartPos, 1, |g| g.moves.len() == 6));
    games
}

/// An opening where North is to move.
pub fn north_to_move() -> GameSoFar {
    openings()
        .into_iter()
        .find(|g| current(g).side_to_move() == aboure_engine::Side::North)
        .unwrap_or_else(startpos)
}

/// Games with forced passes in the history: ending with a pass, and with a
/// pass followed by more moves, from the start and from a set-up position.
pub fn with_passes() -> Vec<GameSoFar> {
    let ends_with_pass = |g: &GameSoFar| g.moves.last() == Some(&Move::Pass);
    let pass_then_more = |g: &GameSoFar| {
        let pass = g.moves.iter().position(|&m| m == Move::Pass);
        pass.is_some_and(|i| i + 2 < g.moves.len())
    };
    let mut protocol = set(PROTOCOL_PASS);
    protocol.moves.push(Move::Pass);
    let mut last = set(PROTOCOL_LAST_MOVE);
    last.moves.push(Move::Pass);
    let mut games = vec![protocol, last];
    games.extend(find(Start::StartPos, 1, ends_with_pass));
    games.extend(find(Start::StartPos, 1, pass_then_more));
    games
}

/// Games whose side to move has exactly one legal sowing.
pub fn one_legal_move() -> Vec<GameSoFar> {
    let single = |g: &GameSoFar| current(g).legal_moves().len() == 1;
    let mut games = find(Start::StartPos, 1, single);
    let mut last = set(PROTOCOL_LAST_MOVE);
    last.moves.push(Move::Pass);
    games.push(last);
    games
}

/// Positions where the side to move has a sowing that never ends, beside
/// legal ones: a bot that takes every pit of two or more seeds for a move
/// plays an illegal one, or loses on time sowing for ever.
pub fn endless_sowings() -> Vec<GameSoFar> {
    vec![set(RULES_ENDLESS), set(NORTH_ENDLESS)]
}

/// Set-up positions, bare and with a few moves played from them.
pub fn set_ups() -> Vec<GameSoFar> {
    let mut games: Vec<GameSoFar> = SETUPS.iter().map(|p| set(p)).collect();
    if let Ok(start) = SETUPS[0].parse::<Position>() {
        games.extend(find(Start::Set(start), 1, |g| g.moves.len() >= 2));
    }
    games
}

/// A random generator for the replies of the full game.
pub fn replies() -> SmallRng {
    SmallRng::seed_from_u64(SEED)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<Vec<GameSoFar>> {
        vec![
            openings(),
            with_passes(),
            one_legal_move(),
            set_ups(),
            vec![startpos()],
        ]
    }

    #[test]
    fn every_game_sent_is_legal_and_can_be_asked() {
        for games in all() {
            assert!(!games.is_empty());
            for game in games {
                assert!(game.replay().is_ok(), "{game:?}");
                assert!(askable(&game), "{game:?}");
            }
        }
    }

    #[test]
    fn set_ups_parse_and_differ_from_the_start() {
        for text in SETUPS.iter().chain([&PROTOCOL_PASS, &PROTOCOL_LAST_MOVE]) {
            let p: Position = text.parse().unwrap();
            assert_eq!(p.to_string(), *text);
            assert_ne!(p, Position::startpos());
        }
        assert!(set_ups().iter().any(|g| !g.moves.is_empty()));
    }

    #[test]
    fn openings_leave_each_side_to_move() {
        let sides: Vec<_> = openings()
            .iter()
            .map(|g| current(g).side_to_move())
            .collect();
        assert!(sides.contains(&aboure_engine::Side::South));
        assert!(sides.contains(&aboure_engine::Side::North));
        assert_eq!(
            current(&north_to_move()).side_to_move(),
            aboure_engine::Side::North
        );
    }

    #[test]
    fn pass_games_have_passes_where_promised() {
        let games = with_passes();
        assert_eq!(games.len(), 4);
        assert_eq!(games[2].start, Start::StartPos);
        assert_eq!(games[2].moves.last(), Some(&Move::Pass));
        let i = games[3]
            .moves
            .iter()
            .position(|&m| m == Move::Pass)
            .unwrap();
        assert!(i + 2 < games[3].moves.len());
        // The protocol's example: South has seeds but no ending sowing.
        let p: Position = PROTOCOL_PASS.parse().unwrap();
        assert_eq!(p.legal_moves().as_slice(), [Move::Pass]);
    }

    #[test]
    fn one_legal_move_games_have_exactly_one_sowing() {
        for game in one_legal_move() {
            let legal = current(&game).legal_moves();
            assert_eq!(legal.len(), 1);
            assert_ne!(legal[0], Move::Pass);
        }
    }

    #[test]
    fn endless_games_have_an_endless_sowing_beside_legal_ones() {
        for (game, endless, legal) in endless_sowings()
            .iter()
            .zip([(5, "0 1 2 4"), (7, "9 11")])
            .map(|(g, (e, l))| (g, e, l))
        {
            let p = current(game);
            assert!(p.seeds(endless) >= 2, "{p}");
            let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
            assert_eq!(moves.join(" "), legal, "{p}");
            assert!(askable(game));
        }
    }

    #[test]
    fn games_are_the_same_every_run() {
        assert_eq!(with_passes(), with_passes());
        assert_eq!(openings(), openings());
    }
}
