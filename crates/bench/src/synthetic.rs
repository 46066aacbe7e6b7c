//! A deterministic synthetic `games.jsonl` of any size, for `aboure bench
//! report`: real games played by the engine (every move legal, every score
//! true), in complete colour-swapped pairs of a round robin among five bots
//! of graded strength, with per-ply times, clocks and `info` as the arbiter
//! writes them, and a forfeit every few hundred games. The same size always
//! gives the same file.

use std::io::{BufWriter, Write};
use std::path::Path;

use aboure_engine::{Move, Position, Side};
use aboure_records::{
    GameRecord, GameResult, InfoRecord, Mover, OpeningRecord, PlyRecord, SideName, Termination,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The bots and how often each plays the move that captures most.
const BOTS: [(&str, f64); 5] = [
    ("random", 0.0),
    ("greedy", 0.6),
    ("alphabeta", 0.8),
    ("mcts", 0.85),
    ("perfect", 0.95),
];

/// One game in this many ends in a forfeit.
const FORFEIT_EVERY: u64 = 397;

/// Games end by adjudication after this many plies.
const MAX_PLIES: usize = 200;

/// Writes `games` games (rounded up to whole pairs) to `path`.
pub fn write(path: &Path, games: u64) -> std::io::Result<()> {
    let file = std::fs::File::create(path).map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot create {}: {e}", path.display()))
    })?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut rng = SmallRng::seed_from_u64(0xab0);
    let pairings: Vec<(usize, usize)> = (0..BOTS.len())
        .flat_map(|a| (a + 1..BOTS.len()).map(move |b| (a, b)))
        .collect();
    let mut written = 0u64;
    let mut pair = 0u32;
    while written < games {
        for (round, &(a, b)) in pairings.iter().enumerate() {
            let opening = opening(&mut rng);
            for game in 0..2u8 {
                let (s, n) = if game == 0 { (a, b) } else { (b, a) };
                let id = format!("r{round:04}-p{pair}-g{game}");
                let forfeit = (written + 1).is_multiple_of(FORFEIT_EVERY);
                let mut record = play(&mut rng, &opening, [s, n], forfeit);
                record.id = id;
                record.pairing = [BOTS[a].0.to_owned(), BOTS[b].0.to_owned()];
                record.pair = pair;
                record.game = game;
                record.opening = OpeningRecord {
                    index: pair,
                    moves: opening.iter().map(Move::to_string).collect(),
                    position: None,
                };
                record.started = format!(
                    "2026-11-30T{:02}:{:02}:{:02}Z",
                    written / 3600 % 24,
                    written / 60 % 60,
                    written % 60
                );
                serde_json::to_writer(&mut out, &record).map_err(std::io::Error::other)?;
                out.write_all(b"\n")?;
                written += 1;
            }
        }
        pair += 1;
    }
    out.flush()?;
    Ok(())
}

/// Two random plies from the start, shared by both games of a pair.
fn opening(rng: &mut SmallRng) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..2 {
        let legal = pos.legal_moves();
        let m = legal.as_slice()[rng.gen_range(0..legal.len())];
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

fn play(rng: &mut SmallRng, opening: &[Move], bots: [usize; 2], forfeit: bool) -> GameRecord {
    let mut pos = Position::startpos();
    let (mut moves, mut plies) = (Vec::new(), Vec::new());
    for &m in opening {
        pos.play_unchecked(m);
        moves.push(m.to_string());
        plies.push(ply(Mover::Opening, None, None));
    }
    let forfeit_at = forfeit.then(|| rng.gen_range(plies.len()..plies.len() + 20));
    let mut clocks = [1000.0f64, 1000.0];
    let mut end = None;
    while !pos.is_game_over() && moves.len() < MAX_PLIES {
        let me = pos.side_to_move();
        let side = usize::from(me == Side::North);
        if Some(moves.len()) == forfeit_at {
            end = Some((Termination::TimeForfeit, SideName::from(me)));
            break;
        }
        let (legal, next, n) = pos.children();
        if n == 1 && legal[0] == Move::Pass {
            pos.play_unchecked(Move::Pass);
            moves.push("pass".to_owned());
            plies.push(ply(Mover::Forced, None, None));
            continue;
        }
        let greedy = rng.gen_bool(BOTS[bots[side]].1);
        let pick = if greedy {
            (0..n).max_by_key(|&i| next[i].captured(me)).unwrap_or(0)
        } else {
            rng.gen_range(0..n)
        };
        let time = rng.gen_range(0.5..25.0);
        clocks[side] = (clocks[side] - time + 10.0).max(0.0);
        let info = (BOTS[bots[side]].1 > 0.0).then(|| InfoRecord {
            depth: Some(rng.gen_range(4..20)),
            score: Some(rng.gen_range(-12..12)),
            nodes: Some(rng.gen_range(1_000..200_000)),
            time_ms: Some((time * 10.0).round() / 10.0),
            pv: vec![legal[pick].to_string()],
            pv_sent: None,
            string: None,
        });
        pos = next[pick];
        moves.push(legal[pick].to_string());
        plies.push(ply(Mover::Bot, Some((time, clocks[side])), info));
    }
    let score = pos.score();
    let (result, termination, loser, detail) = match end {
        Some((t, loser)) => (
            GameResult::forfeit_by(loser),
            t,
            Some(loser),
            Some("no bestmove within 25 ms + 100 ms margin".to_owned()),
        ),
        None if pos.is_game_over() => (
            GameResult::from_score(score),
            Termination::Natural,
            None,
            None,
        ),
        None => (
            GameResult::from_score(score),
            Termination::MaxPlies,
            None,
            None,
        ),
    };
    GameRecord {
        id: String::new(),
        pairing: Default::default(),
        pair: 0,
        game: 0,
        opening: OpeningRecord::default(),
        south: BOTS[bots[0]].0.to_owned(),
        north: BOTS[bots[1]].0.to_owned(),
        start: "startpos".to_owned(),
        moves,
        plies,
        score: Some(score),
        result,
        termination,
        loser,
        detail,
        time_control: ["1+0.01".to_owned(), "1+0.01".to_owned()],
        started: String::new(),
        duration_ms: 0.0,
    }
}

fn ply(by: Mover, time: Option<(f64, f64)>, info: Option<InfoRecord>) -> PlyRecord {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    PlyRecord {
        by,
        time_ms: time.map(|t| round(t.0)),
        clock_ms: time.map(|t| round(t.1)),
        info,
    }
}
