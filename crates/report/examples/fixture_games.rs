//! Writes the test fixture `tests/fixtures/round-robin/games.jsonl`: a small
//! round robin between three simple players (greedy, which takes the move
//! capturing most; random; and "slow", random but losing one game on time
//! and crashing in another), played with the engine from two-ply random
//! openings, each opening twice with colours swapped, as `aboure run` does.
//! Also writes an SPRT run (`tests/fixtures/sprt/`, with its `run.json`).
//!
//! `cargo run -p aboure-report --example fixture_games -- crates/report/tests/fixtures`

use std::path::Path;

use aboure_engine::{Move, Position, Side};
use aboure_records::{
    AdjudicationIdentity, BotIdentity, BotRunIdentity, FormatIdentity, GameRecord, GameResult,
    GamesWriter, InfoRecord, Mover, OpeningRecord, OpeningsIdentity, PlyRecord, RunManifest,
    SideName, Termination, TournamentIdentity,
};
use aboure_stats::{EloModel, Sprt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn choose(name: &str, pos: &Position, rng: &mut SmallRng) -> (Move, InfoRecord) {
    let (moves, next, n) = pos.children();
    let me = pos.side_to_move();
    let pick = if name.starts_with("greedy") {
        (0..n)
            .max_by_key(|&i| (next[i].captured(me), std::cmp::Reverse(i)))
            .unwrap_or(0)
    } else {
        rng.gen_range(0..n)
    };
    let gain = next[pick].captured(me) as i32 - pos.captured(me) as i32;
    let info = InfoRecord {
        depth: Some(1),
        score: Some(gain),
        nodes: Some(n as u64),
        time_ms: Some(1.0),
        pv: vec![moves[pick].to_string()],
        pv_sent: None,
        string: None,
    };
    (moves[pick], info)
}

#[allow(clippy::too_many_arguments)]
fn play(
    id: String,
    pairing: [&str; 2],
    pair: u32,
    game: u8,
    opening: &[Move],
    fail: Option<(usize, Termination)>,
    rng: &mut SmallRng,
) -> GameRecord {
    let (south, north) = if game == 0 {
        (pairing[0], pairing[1])
    } else {
        (pairing[1], pairing[0])
    };
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let mut plies = Vec::new();
    let mut clocks = [1000.0f64, 1000.0];
    for &m in opening {
        pos.play(m).expect("opening moves are legal");
        moves.push(m.to_string());
        plies.push(PlyRecord {
            by: Mover::Opening,
            time_ms: None,
            clock_ms: None,
            info: None,
        });
    }
    let mut termination = Termination::Natural;
    let mut loser = None;
    let mut detail = None;
    while !pos.is_game_over() && moves.len() < 200 {
        let side = pos.side_to_move();
        let name = if side == Side::South { south } else { north };
        if let Some((ply, kind)) = fail {
            if moves.len() >= ply && name.starts_with("slow") {
                termination = kind;
                loser = Some(SideName::from(side));
                detail = Some(match kind {
                    Termination::TimeForfeit => {
                        "no bestmove within 1012 ms (clock 1000 ms + margin 12 ms)".to_owned()
                    }
                    _ => "exited with status 101 while thinking".to_owned(),
                });
                break;
            }
        }
        let legal = pos.legal_moves();
        let (m, info, by) = if legal[..] == [Move::Pass] {
            (Move::Pass, None, Mover::Forced)
        } else {
            let (m, info) = choose(name, &pos, rng);
            (m, Some(info), Mover::Bot)
        };
        let spent = if by == Mover::Bot {
            Some(f64::from(rng.gen_range(5u32..40)) + 0.25)
        } else {
            None
        };
        if let Some(t) = spent {
            clocks[side.index()] += 10.0 - t;
        }
        pos.play(m).expect("chosen moves are legal");
        moves.push(m.to_string());
        plies.push(PlyRecord {
            by,
            time_ms: spent,
            clock_ms: spent.map(|_| clocks[side.index()]),
            info,
        });
    }
    let score = pos.score();
    let result = match loser {
        Some(side) => GameResult::forfeit_by(side),
        None => GameResult::from_score(score),
    };
    if loser.is_none() && !pos.is_game_over() {
        termination = Termination::MaxPlies;
    }
    GameRecord {
        id,
        pairing: [pairing[0].to_owned(), pairing[1].to_owned()],
        pair,
        game,
        opening: OpeningRecord {
            index: pair,
            moves: opening.iter().map(ToString::to_string).collect(),
            position: None,
        },
        south: south.to_owned(),
        north: north.to_owned(),
        start: "startpos".to_owned(),
        moves,
        plies,
        score: Some(score),
        result,
        termination,
        loser,
        detail,
        time_control: ["1s+10ms".to_owned(), "1s+10ms".to_owned()],
        started: format!("2026-11-29T12:{:02}:00Z", pair),
        duration_ms: 250.0,
    }
}

fn opening(rng: &mut SmallRng) -> Vec<Move> {
    loop {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..2 {
            let legal = pos.legal_moves();
            let m = legal[rng.gen_range(0..legal.len())];
            pos.play(m).expect("legal");
            moves.push(m);
        }
        if !pos.is_game_over() {
            return moves;
        }
    }
}

fn main() {
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "crates/report/tests/fixtures".into());
    let root = Path::new(&root);
    let mut rng = SmallRng::seed_from_u64(20261129);

    let dir = root.join("round-robin");
    std::fs::create_dir_all(&dir).expect("create fixture folder");
    let path = dir.join("games.jsonl");
    let _ = std::fs::remove_file(&path);
    let mut writer = GamesWriter::append(&path).expect("open games.jsonl");
    let pairings = [["greedy", "random"], ["greedy", "slow"], ["random", "slow"]];
    for (r, pairing) in pairings.iter().enumerate() {
        for pair in 0..4u32 {
            let open = opening(&mut rng);
            for game in 0..2u8 {
                let fail = match (r, pair, game) {
                    (1, 1, 0) => Some((6, Termination::TimeForfeit)),
                    (2, 2, 1) => Some((5, Termination::Crash)),
                    _ => None,
                };
                let id = format!("r{r:04}-p{pair:02}-g{game}");
                let g = play(id, *pairing, pair, game, &open, fail, &mut rng);
                writer.write(&g).expect("write game");
            }
        }
    }

    let dir = root.join("sprt");
    std::fs::create_dir_all(&dir).expect("create fixture folder");
    let path = dir.join("games.jsonl");
    let _ = std::fs::remove_file(&path);
    let mut writer = GamesWriter::append(&path).expect("open games.jsonl");
    for pair in 0..12u32 {
        let open = opening(&mut rng);
        for game in 0..2u8 {
            let id = format!("r0000-p{pair:02}-g{game}");
            let g = play(id, ["greedy", "random"], pair, game, &open, None, &mut rng);
            writer.write(&g).expect("write game");
        }
    }
    sprt_manifest().write_in(&dir).expect("write run.json");
}

/// The `run.json` of the SPRT fixture, as `aboure run` writes it.
fn sprt_manifest() -> RunManifest {
    let bot = |name: &str| BotIdentity {
        name: name.to_owned(),
        run: BotRunIdentity::Builtin(name.to_owned()),
        options: Default::default(),
        time_control: "2s+20ms, margin 50ms".to_owned(),
        limits: None,
        ponder: false,
    };
    let identity = TournamentIdentity {
        format: FormatIdentity::Sprt,
        pairs: 100,
        seed: 1,
        openings: OpeningsIdentity::Random { random_plies: 2 },
        adjudication: AdjudicationIdentity {
            max_plies: 400,
            repetitions: 3,
            solve_after: None,
            solve_nodes: None,
        },
        bots: vec![bot("greedy"), bot("random")],
    };
    let mut run = RunManifest::new(
        "configs/sprt.toml".to_owned(),
        None,
        "2026-11-29T00:00:00Z".to_owned(),
        identity,
    );
    run.scheduled_games = Some(200);
    run.sprt = Some(Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).expect("valid SPRT"));
    run
}
