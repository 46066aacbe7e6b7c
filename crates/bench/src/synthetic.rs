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

/// One game from `opening` between `bots` (South's and North's places in
/// [`BOTS`]), cut by a time forfeit a few plies after the opening if
/// `forfeit`.
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
    let mut forfeited = None;
    while !pos.is_game_over() && moves.len() < MAX_PLIES {
        let me = pos.side_to_move();
        let side = usize::from(me == Side::North);
        if Some(moves.len()) == forfeit_at {
            forfeited = Some(SideName::from(me));
            break;
        }
        let (m, record) = bot_ply(rng, &mut pos, BOTS[bots[side]].1, &mut clocks[side]);
        moves.push(m);
        plies.push(record);
    }
    let score = pos.score();
    let (result, termination, detail) = ending(&pos, forfeited);
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
        loser: forfeited,
        detail,
        time_control: ["1+0.01".to_owned(), "1+0.01".to_owned()],
        started: String::new(),
        duration_ms: 0.0,
    }
}

/// Plays one ply at `pos` for a bot that plays the move that captures
/// most with probability `greedy`, its clock `clock`: a forced pass, or a
/// move with its time and (but for the random bot) its `info`. Returns the
/// move as written and its record.
fn bot_ply(
    rng: &mut SmallRng,
    pos: &mut Position,
    greedy: f64,
    clock: &mut f64,
) -> (String, PlyRecord) {
    let me = pos.side_to_move();
    let (legal, next, n) = pos.children();
    if n == 1 && legal[0] == Move::Pass {
        pos.play_unchecked(Move::Pass);
        return ("pass".to_owned(), ply(Mover::Forced, None, None));
    }
    let pick = if rng.gen_bool(greedy) {
        (0..n).max_by_key(|&i| next[i].captured(me)).unwrap_or(0)
    } else {
        rng.gen_range(0..n)
    };
    let time = rng.gen_range(0.5..25.0);
    *clock = (*clock - time + 10.0).max(0.0);
    let info = (greedy > 0.0).then(|| InfoRecord {
        depth: Some(rng.gen_range(4..20)),
        score: Some(rng.gen_range(-12..12)),
        nodes: Some(rng.gen_range(1_000..200_000)),
        time_ms: Some((time * 10.0).round() / 10.0),
        pv: vec![legal[pick].to_string()],
        pv_sent: None,
        string: None,
    });
    *pos = next[pick];
    let record = ply(Mover::Bot, Some((time, *clock)), info);
    (legal[pick].to_string(), record)
}

/// How a game that stopped at `pos` ended: a time forfeit by `forfeited`,
/// or else its natural end or the ply limit. Returns its result, its
/// termination and the detail of a forfeit.
fn ending(
    pos: &Position,
    forfeited: Option<SideName>,
) -> (GameResult, Termination, Option<String>) {
    let score = pos.score();
    match forfeited {
        Some(loser) => (
            GameResult::forfeit_by(loser),
            Termination::TimeForfeit,
            Some("no bestmove within 25 ms + 100 ms margin".to_owned()),
        ),
        None if pos.is_game_over() => (GameResult::from_score(score), Termination::Natural, None),
        None => (GameResult::from_score(score), Termination::MaxPlies, None),
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
