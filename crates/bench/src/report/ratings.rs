//! The rating benchmark's results: the set issue 25 compared aboure with
//! Ordo and BayesElo on, games among 8 players of known strength with 10%
//! draws and a first-move advantage (BayesElo's model of both), written as the same games in JSON
//! lines, CSV and PGN, so the three readers are measured on equal terms.
//! Only results are written (no moves): what a rating program reads. The
//! same count always gives the same files.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use aboure_records::{GameRecord, GameResult, OpeningRecord, Termination};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The players and their true Elo (centred on 0).
pub const PLAYERS: [(&str, f64); 8] = [
    ("Engine A", 350.0),
    ("Engine B", 250.0),
    ("Engine C", 150.0),
    ("Engine D", 50.0),
    ("Engine E", -50.0),
    ("Engine F", -150.0),
    ("Engine G", -250.0),
    ("Engine H", -350.0),
];

/// Share of drawn games over the whole set.
pub const DRAWS: f64 = 0.10;

/// The first mover's advantage, in Elo.
pub const FIRST_MOVE: f64 = 30.0;

/// BayesElo's draw parameter that gives [`DRAWS`] over this round robin
/// (solved numerically): results follow BayesElo's model exactly, so a fit
/// with that model should find the true strengths again.
pub const DRAW_ELO: f64 = 62.39;

/// The same results in each format.
pub struct Files {
    pub jsonl: PathBuf,
    pub csv: PathBuf,
    pub pgn: PathBuf,
}

impl Files {
    /// The files for `games` games in `dir`.
    pub fn in_dir(dir: &Path, games: u64) -> Files {
        let file = |ext: &str| dir.join(format!("aboure-bench-ratings-{games}.{ext}"));
        Files {
            jsonl: file("jsonl"),
            csv: file("csv"),
            pgn: file("pgn"),
        }
    }

    /// Each format's name and file.
    pub fn each(&self) -> [(&'static str, &Path); 3] {
        [
            ("JSON lines", &self.jsonl),
            ("CSV", &self.csv),
            ("PGN", &self.pgn),
        ]
    }

    /// Writes the three files, unless all are there already.
    pub fn write(&self, games: u64) -> std::io::Result<()> {
        if self.each().iter().all(|(_, f)| f.exists()) {
            return Ok(());
        }
        let create = |path: &Path| -> std::io::Result<BufWriter<std::fs::File>> {
            let file = std::fs::File::create(path).map_err(|e| {
                std::io::Error::new(e.kind(), format!("cannot create {}: {e}", path.display()))
            })?;
            Ok(BufWriter::with_capacity(1 << 20, file))
        };
        let (mut jsonl, mut csv, mut pgn) =
            (create(&self.jsonl)?, create(&self.csv)?, create(&self.pgn)?);
        writeln!(csv, "white,black,result")?;
        for (n, game) in games_of(games).enumerate() {
            serde_json::to_writer(&mut jsonl, &game).map_err(std::io::Error::other)?;
            jsonl.write_all(b"\n")?;
            let result = game.result.as_str();
            writeln!(csv, "{},{},{result}", game.south, game.north)?;
            write!(
                pgn,
                "[Event \"bench\"]\n[Site \"?\"]\n[Date \"2026.12.01\"]\n[Round \"{}\"]\n\
                 [White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n\n{result}\n\n",
                n + 1,
                game.south,
                game.north
            )?;
        }
        for mut out in [jsonl, csv, pgn] {
            out.flush()?;
        }
        Ok(())
    }
}

/// `games` games (rounded up to whole pairs) in colour-swapped pairs of a
/// round robin, each result drawn from BayesElo's model with the
/// first-move advantage.
fn games_of(games: u64) -> impl Iterator<Item = GameRecord> {
    let mut rng = SmallRng::seed_from_u64(25);
    let pairings: Vec<(usize, usize)> = (0..PLAYERS.len())
        .flat_map(|a| (a + 1..PLAYERS.len()).map(move |b| (a, b)))
        .collect();
    let per_round = pairings.len() as u64 * 2;
    (0..games.div_ceil(2) * 2).map(move |n| {
        let (pair, round) = ((n / per_round) as u32, (n % per_round / 2) as usize);
        let game = (n % 2) as u8;
        let (a, b) = pairings[round];
        let (south, north) = if game == 0 { (a, b) } else { (b, a) };
        // BayesElo's model: each side wins with the logistic of its lead
        // less the draw parameter; draws take the rest.
        let lead = PLAYERS[south].1 + FIRST_MOVE - PLAYERS[north].1;
        let logistic = |d: f64| 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let (win, loss) = (logistic(lead - DRAW_ELO), logistic(-lead - DRAW_ELO));
        let x: f64 = rng.gen();
        let result = if x < win {
            GameResult::SouthWins
        } else if x < win + loss {
            GameResult::NorthWins
        } else {
            GameResult::Draw
        };
        GameRecord {
            id: format!("r{round:04}-p{pair}-g{game}"),
            pairing: [PLAYERS[a].0.to_owned(), PLAYERS[b].0.to_owned()],
            pair,
            game,
            opening: OpeningRecord::default(),
            south: PLAYERS[south].0.to_owned(),
            north: PLAYERS[north].0.to_owned(),
            start: "startpos".to_owned(),
            moves: Vec::new(),
            plies: Vec::new(),
            score: None,
            result,
            termination: Termination::Natural,
            loser: None,
            detail: None,
            time_control: Default::default(),
            started: String::new(),
            duration_ms: 0.0,
        }
    })
}
