//! Why a league cannot run as asked: below the league's run, its
//! entrants' checks and the arbiter's error type, which all name it.

use std::path::PathBuf;

/// Why a league cannot run as asked.
#[derive(Debug, thiserror::Error)]
pub enum LeagueRunError {
    /// A worker's file changes the field of a league workers share.
    #[error("cannot join the league in {}: the tournament file adds or retires an entrant, and the field does not change while workers share it; stop the workers and run `aboure run FILE --out DIR --resume` once, then start them again", dir.display())]
    FieldChangedWhileShared {
        /// The run folder.
        dir: PathBuf,
    },
    /// A plain run of a league whose folder workers are playing.
    #[error("workers are playing the league in {} (claim {unit} is held); join them with --join, or wait until they stop", dir.display())]
    WorkersPlaying {
        /// The run folder.
        dir: PathBuf,
        /// A unit a live worker holds.
        unit: u64,
    },
    /// Settings every game depends on changed between runs.
    #[error("cannot resume the league in {}: the tournament file changed {what}, which every game depends on; use the original settings, or another --out", dir.display())]
    Changed {
        /// The run folder.
        dir: PathBuf,
        /// The parts that changed.
        what: String,
    },
    /// An entrant's program or settings changed under its name.
    #[error("cannot resume the league in {}: entrant {name:?} changed ({what}); a new version is a new entrant: give it a new name (and retired = true to the old one)", dir.display())]
    EntrantChanged {
        /// The run folder.
        dir: PathBuf,
        /// The entrant.
        name: String,
        /// Its settings that changed.
        what: String,
    },
    /// An entrant of the league is missing from the file.
    #[error("cannot resume the league in {}: entrant {name:?} is missing from the tournament file; keep its [[bot]] table (with retired = true to schedule it no more)", dir.display())]
    EntrantMissing {
        /// The run folder.
        dir: PathBuf,
        /// The entrant.
        name: String,
    },
    /// A retired entrant marked active again.
    #[error("entrant {name:?} retired from pair {from} on and cannot come back: keep retired = true (a comeback is a new entrant, under a new name)")]
    Unretired {
        /// The entrant.
        name: String,
        /// The pair it retired from.
        from: u64,
    },
    /// The recorded pairs name entrants that had not joined yet (a
    /// results file or `run.json` edited by hand).
    #[error("the league's records do not fit its entrants in run.json: {0}")]
    Records(aboure_league::LeagueError),
    /// A game of the results file is not one of this league's.
    #[error("{}: game {id:?} is not a game of this league: {problem}", path.display())]
    ForeignGame {
        /// The results file.
        path: PathBuf,
        /// The game's id.
        id: String,
        /// What does not fit.
        problem: String,
    },
}
