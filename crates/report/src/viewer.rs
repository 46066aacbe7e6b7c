//! What the HTML game viewer shows, computed here with the engine: every
//! position, each relay lap and each captured pit. The page's script only
//! displays it, so the viewer cannot disagree with the rules.

use aboure_engine::{Move, Position, Side};
use aboure_records::{GameRecord, InfoRecord, Mover};
use serde::Serialize;

use crate::accuracy::MoveAccuracy;

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
pub(crate) fn start_position(game: &GameRecord) -> Result<Position, String> {
    game.start
        .parse::<Position>()
        .map_err(|e| format!("start position {:?}: {e}", game.start))
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
            view.problem = Some(e);
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
