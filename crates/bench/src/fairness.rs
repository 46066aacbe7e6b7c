//! `aboure bench fairness`: what a CPU hog does to a normal bot, with the
//! fairness layers (a bot held still while its opponent thinks, a CPU
//! quota per bot) and without them (`ponder = true`, `cpu = "unlimited"`:
//! what every bot got before), in the same run, the settings interleaved
//! round by round so that a busy spell of the machine weighs on all alike.
//!
//! The normal bot spends a fixed amount of CPU time on every move
//! (`aboure bench responder work`), so its time per move shows how much
//! CPU it was given; its time control is a fixed time per move of four
//! times that work, with a margin of the work once more. The hog (`aboure bench responder hog`) burns CPU all
//! the time on four threads and in a child process, and answers each move
//! after a short sleep. It meets the normal bot (`opponent`), or plays a
//! quiet bot in a game beside the normal bot's (`neighbour`, two
//! tournaments at once, the hog's stopped when the normal bot's ends).
//! These are figures, never assertions.

use std::time::Duration;

use aboure_engine::{Position, Side};
use aboure_records::{GameRecord, Mover, Termination};

use crate::arbiter::{play_text, BenchError, BenchSetup};

/// Where the hog is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HogPlace {
    /// No hog: the normal bot against a quiet bot.
    Nowhere,
    /// The normal bot's opponent.
    Opponent,
    /// In another game at the same time.
    Neighbour,
}

/// One measured setting.
#[derive(Clone, Debug)]
pub struct FairnessRow {
    /// Where the hog was.
    pub hog: HogPlace,
    /// True with the fairness layers on.
    pub fair: bool,
    /// The normal bot's moves measured.
    pub moves: usize,
    /// Median time per move of the normal bot.
    pub median: Duration,
    /// 90th percentile of the same.
    pub p90: Duration,
    /// Its longest move.
    pub max: Duration,
    /// Games it played.
    pub games: usize,
    /// Games it lost on time.
    pub forfeits: usize,
}

/// The bench's figures.
#[derive(Clone, Debug)]
pub struct FairnessReport {
    /// The normal bot's CPU work per move.
    pub work: Duration,
    /// Its time per move (the limit is this plus the margin).
    pub movetime: Duration,
    /// The margin.
    pub margin: Duration,
    /// Every setting, in the order measured (summed over the rounds).
    pub rows: Vec<FairnessRow>,
}

const SETTINGS: [(HogPlace, bool); 5] = [
    (HogPlace::Nowhere, true),
    (HogPlace::Opponent, false),
    (HogPlace::Opponent, true),
    (HogPlace::Neighbour, false),
    (HogPlace::Neighbour, true),
];

/// The `[[bot]]` table of a bench responder (`aboure bench responder MODE`).
fn bot(setup: &BenchSetup, name: &str, mode: &[&str], ponder: bool) -> String {
    let exe = setup.aboure_exe.display().to_string();
    let command: Vec<String> = [exe.as_str(), "bench", "responder"]
        .iter()
        .chain(mode)
        .map(|a| format!("{a:?}"))
        .collect();
    format!(
        "[[bot]]\nname = \"{name}\"\ncommand = [{}]\nponder = {ponder}\n",
        command.join(", ")
    )
}

fn tournament(pairs: u32, fair: bool, movetime: Duration, margin: Duration) -> String {
    let cpu = if fair { "1" } else { "unlimited" };
    format!(
        "[tournament]\npairs = {pairs}\nconcurrency = 1\n[openings]\nplies = 2\n\
         [time-control]\nmovetime = \"{}ms\"\nmargin = \"{}ms\"\n[sandbox]\ncpu = \"{cpu}\"\n",
        movetime.as_millis(),
        margin.as_millis()
    )
}

/// Runs every setting `rounds` times with `pairs` game pairs each.
pub async fn measure(
    setup: &BenchSetup,
    rounds: u32,
    pairs: u32,
    work: Duration,
) -> Result<FairnessReport, BenchError> {
    let movetime = work * 4;
    let margin = work;
    let ms = work.as_millis().to_string();
    let mut games: Vec<Vec<GameRecord>> = vec![Vec::new(); SETTINGS.len()];
    for _ in 0..rounds {
        for (i, &(hog, fair)) in SETTINGS.iter().enumerate() {
            let head = tournament(pairs, fair, movetime, margin);
            let normal = bot(setup, "normal", &["work", "--ms", &ms], false);
            let quiet = bot(setup, "quiet", &["work", "--ms", "1"], false);
            let hog_bot = bot(setup, "hog", &["hog", "--ms", "5"], !fair);
            let (tx, interrupt) = tokio::sync::watch::channel(false);
            let played = match hog {
                HogPlace::Nowhere => {
                    play_text(setup, "fair-alone", &(head + &normal + &quiet), interrupt).await?
                }
                HogPlace::Opponent => {
                    let text = head + &normal + &hog_bot;
                    play_text(setup, "fair-opponent", &text, interrupt).await?
                }
                HogPlace::Neighbour => {
                    let beside = tournament(1000, fair, movetime, margin) + &hog_bot + &quiet;
                    let (_stop, never) = tokio::sync::watch::channel(false);
                    let text = head.clone() + &normal + &quiet;
                    let main = async {
                        let games = play_text(setup, "fair-main", &text, never).await;
                        let _ = tx.send(true);
                        games
                    };
                    let side = play_text(setup, "fair-beside", &beside, interrupt);
                    let (main, side) = tokio::join!(main, side);
                    side?;
                    main?
                }
            };
            games[i].extend(played);
        }
    }
    let rows = SETTINGS
        .iter()
        .zip(&games)
        .map(|(&(hog, fair), games)| row(hog, fair, games))
        .collect();
    Ok(FairnessReport {
        work,
        movetime,
        margin,
        rows,
    })
}

/// The normal bot's figures in `games`.
fn row(hog: HogPlace, fair: bool, games: &[GameRecord]) -> FairnessRow {
    let mut times: Vec<f64> = Vec::new();
    let mut forfeits = 0;
    for g in games {
        let side = if g.south == "normal" {
            Side::South
        } else {
            Side::North
        };
        // Every ply is one side's, forced passes included: follow the
        // mover from the start.
        let start = match g.start.as_str() {
            "startpos" => Ok(Position::startpos()),
            text => text.parse::<Position>(),
        };
        let Ok(start) = start else { continue };
        let mut mover = start.side_to_move();
        for p in &g.plies {
            if p.by == Mover::Bot && mover == side {
                times.extend(p.time_ms);
            }
            mover = !mover;
        }
        let lost = g.loser.map(Side::from) == Some(side);
        if lost && g.termination == Termination::TimeForfeit {
            forfeits += 1;
        }
    }
    times.sort_by(f64::total_cmp);
    let pick = |q: f64| {
        times
            .get(((times.len().max(1) - 1) as f64 * q).round() as usize)
            .map_or(Duration::ZERO, |ms| Duration::from_secs_f64(ms / 1000.0))
    };
    FairnessRow {
        hog,
        fair,
        moves: times.len(),
        median: pick(0.5),
        p90: pick(0.9),
        max: pick(1.0),
        games: games.len(),
        forfeits,
    }
}
