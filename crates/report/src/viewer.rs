//! What the HTML game viewer shows, computed here with the engine: every
//! position, each relay lap and each captured pit. The page's script only
//! displays it, so the viewer cannot disagree with the rules.

use aboure_engine::{Move, ParsePositionError, Position, Side};
use aboure_records::{GameRecord, InfoRecord, Mover};
use serde::Serialize;

use crate::accuracy::MoveAccuracy;
use crate::report::Report;

/// One game as the viewer steps through it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ViewerGame {
    pub id: String,
    pub south: String,
    pub north: String,
    pub result: &'static str,
    pub termination: &'static str,
    pub detail: Option<String>,
    /// The forfeiting bot, if any.
    pub forfeit: Option<String>,
    pub score: Option<[u8; 2]>,
    pub time_control: [String; 2],
    /// Pits, captures `[south, north]` and side to move at the start.
    pub pits: [u8; 12],
    pub captured: [u8; 2],
    pub side: &'static str,
    pub plies: Vec<ViewerPly>,
    /// Why the replay stopped early (a move the engine refuses), if it did.
    pub problem: Option<String>,
}

/// One ply and the position after it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ViewerPly {
    #[serde(rename = "move")]
    pub mv: String,
    pub side: &'static str,
    pub by: &'static str,
    /// `[from, seeds, last]` of each lap.
    pub laps: Vec<[u8; 3]>,
    /// `[pit, seeds]` of each capture, in the order taken.
    pub captures: Vec<[u8; 2]>,
    pub pits: [u8; 12],
    pub captured: [u8; 2],
    pub time_ms: Option<f64>,
    pub clock_ms: Option<f64>,
    pub info: Option<InfoRecord>,
    pub accuracy: Option<MoveAccuracy>,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

/// The start position of a record, or why it cannot be read.
pub(crate) fn start_position(game: &GameRecord) -> Result<Position, ParsePositionError> {
    game.start.parse::<Position>()
}

pub(crate) fn viewer_game(
    game: &GameRecord,
    accuracy: Option<&[Option<MoveAccuracy>]>,
) -> ViewerGame {
    let mut view = ViewerGame {
        id: game.id.clone(),
        south: game.south.clone(),
        north: game.north.clone(),
        result: game.result.as_str(),
        termination: game.termination.as_str(),
        detail: game.detail.clone(),
        forfeit: game.forfeited_by().map(str::to_owned),
        score: game.score,
        time_control: game.time_control.clone(),
        pits: [0; 12],
        captured: [0; 2],
        side: "south",
        plies: Vec::new(),
        problem: None,
    };
    let mut pos = match start_position(game) {
        Ok(p) => p,
        Err(e) => {
            view.problem = Some(format!("start position {:?}: {e}", game.start));
            return view;
        }
    };
    view.pits = pos.pits();
    view.captured = [pos.captured(Side::South), pos.captured(Side::North)];
    view.side = side_name(pos.side_to_move());
    for (i, text) in game.moves.iter().enumerate() {
        let played = text
            .parse::<Move>()
            .map_err(|e| e.to_string())
            .and_then(|m| pos.play_detailed(m).map_err(|e| format!("{e}")));
        let details = match played {
            Ok(d) => d,
            Err(e) => {
                view.problem = Some(format!("move {} ({text}) cannot be replayed: {e}", i + 1));
                break;
            }
        };
        let ply = game.plies.get(i);
        view.plies.push(ViewerPly {
            mv: text.clone(),
            side: side_name(details.side),
            by: match ply.map(|p| p.by) {
                Some(Mover::Opening) => "opening",
                Some(Mover::Forced) => "forced",
                _ => "bot",
            },
            laps: details
                .laps
                .iter()
                .map(|l| [l.from.index() as u8, l.seeds, l.last.index() as u8])
                .collect(),
            captures: details
                .captures
                .iter()
                .map(|&(p, n)| [p.index() as u8, n])
                .collect(),
            pits: pos.pits(),
            captured: [pos.captured(Side::South), pos.captured(Side::North)],
            time_ms: ply.and_then(|p| p.time_ms),
            clock_ms: ply.and_then(|p| p.clock_ms),
            info: ply.and_then(|p| p.info.clone()).filter(|i| !i.is_empty()),
            accuracy: accuracy.and_then(|a| a.get(i).cloned().flatten()),
        });
    }
    view
}

/// Appends JSON so that it is safe inside a `<script>` element: no `<`, `>`
/// or `&` at all (each is written as its `\u` escape, which JSON reads back
/// as the same character).
fn push_script_json(out: &mut String, json: &str) {
    let mut rest = json;
    while let Some(at) = memchr::memchr3(b'<', b'>', b'&', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        out.push_str(match rest.as_bytes()[at] {
            b'<' => "\\u003c",
            b'>' => "\\u003e",
            _ => "\\u0026",
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// Games whose viewer data one thread makes at a time.
const VIEWER_BATCH: usize = 64;

/// The viewer data of `records` as JSON, one game after another with commas
/// between (and before, unless `first`), made on every core in batches so
/// that only a few batches are ever in memory besides the page.
pub(crate) fn push_viewer_games(out: &mut String, report: &Report) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut first = true;
    for round in report.records.chunks(VIEWER_BATCH * threads) {
        let parts: Vec<String> = std::thread::scope(|scope| {
            let workers: Vec<_> = round
                .chunks(VIEWER_BATCH)
                .map(|batch| scope.spawn(move || viewer_batch(report, batch)))
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or_default())
                .collect()
        });
        for part in parts.iter().filter(|p| !p.is_empty()) {
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(part);
        }
    }
}

/// One batch of [`push_viewer_games`]; a line that no longer reads as a
/// game record is left out.
fn viewer_batch(report: &Report, batch: &[Box<[u8]>]) -> String {
    let mut out = String::new();
    for line in batch {
        let Ok(game) = serde_json::from_slice::<aboure_records::GameRecord>(line) else {
            continue;
        };
        let acc = report
            .accuracy
            .as_ref()
            .and_then(|a| a.game(&game.id))
            .map(|a| a.moves.as_slice());
        let json =
            serde_json::to_string(&viewer_game(&game, acc)).unwrap_or_else(|_| "null".to_owned());
        if !out.is_empty() {
            out.push(',');
        }
        push_script_json(&mut out, &json);
    }
    out
}
