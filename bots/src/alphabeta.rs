//! `alphabeta`: the depth-first search bot (see [`crate::negamax`] for the
//! search itself). This file is the player: options, the table that lives
//! from move to move, and what to do with the limits of a `go`.

use std::time::Duration;

use aboure_engine::{Move, Position};
use aboure_protocol::{OptionKind, OptionSpec, Player, Search, SearchLimits, SetOptionError};

use crate::budget::SearchBudget;
use crate::eval::Weights;
use crate::identity::{id_name, AUTHOR};
use crate::negamax::{SearchOutcome, SearchSettings, Searcher, MAX_DEPTH, QUIESCENCE_PLIES};
use crate::options::{bad_value, unknown, IntOption};
use crate::table::Table;

/// Default transposition table size, MB.
pub const DEFAULT_HASH_MB: i64 = 16;
/// Largest transposition table size, MB.
pub const MAX_HASH_MB: i64 = 4096;

/// `depth`: the deepest iteration (0: no limit but the `go`'s).
const DEPTH: IntOption = IntOption {
    name: "depth",
    default: 0,
    min: 0,
    max: MAX_DEPTH as i64,
};
/// `hash`: the transposition table's size in megabytes.
const HASH: IntOption = IntOption {
    name: "hash",
    default: DEFAULT_HASH_MB,
    min: 1,
    max: MAX_HASH_MB,
};

/// The range of an evaluation weight, centi-seeds: either sign, so that a
/// tune may start from (and recover from) a weight of the wrong sign.
const WEIGHT_RANGE: i64 = 1000;
/// `row_weight`: centi-seeds per seed of row difference.
const ROW_WEIGHT: IntOption = weight("row_weight", Weights::DEFAULT.row);
/// `mobility_weight`: centi-seeds per movable pit of difference.
const MOBILITY_WEIGHT: IntOption = weight("mobility_weight", Weights::DEFAULT.mobility);
/// `targets_weight`: centi-seeds per capture target of difference.
const TARGETS_WEIGHT: IntOption = weight("targets_weight", Weights::DEFAULT.targets);
/// `empty_weight`: centi-seeds per empty pit of difference.
const EMPTY_WEIGHT: IntOption = weight("empty_weight", Weights::DEFAULT.empty);
/// `quiescence_plies`: captures in a row followed past the horizon.
const QUIESCENCE_DEPTH: IntOption = IntOption {
    name: "quiescence_plies",
    default: QUIESCENCE_PLIES as i64,
    min: 0,
    max: 32,
};

const fn weight(name: &'static str, default: i32) -> IntOption {
    IntOption {
        name,
        default: default as i64,
        min: -WEIGHT_RANGE,
        max: WEIGHT_RANGE,
    }
}

/// Iterative-deepening alpha-beta with a transposition table.
///
/// Options:
/// - `depth` (int, default 0 = no limit): the deepest iteration, in plies,
///   on top of any `go depth`.
/// - `hash` (int, MB, default 16): the transposition table's size.
/// - `quiescence` (bool, default true): follow captures past the horizon.
/// - `quiescence_plies` (int, default 6): how many captures in a row.
/// - `row_weight`, `mobility_weight`, `targets_weight`, `empty_weight`
///   (int, centi-seeds, defaults 50, 0, 0, 0, range -1000..=1000): the
///   evaluation's [`Weights`].
pub struct AlphaBetaPlayer {
    table: Table,
    depth: u32,
    settings: SearchSettings,
    last: Option<SearchOutcome>,
}

impl AlphaBetaPlayer {
    /// A player with a table of `hash_mb` MB and the default settings.
    pub fn new(hash_mb: usize) -> AlphaBetaPlayer {
        AlphaBetaPlayer {
            table: Table::new(hash_mb),
            depth: 0,
            settings: SearchSettings::default(),
            last: None,
        }
    }

    /// Replaces the search settings (evaluation weights, quiescence).
    pub fn with_settings(mut self, settings: SearchSettings) -> AlphaBetaPlayer {
        self.settings = settings;
        self
    }

    /// What the last search found.
    pub fn last_search(&self) -> Option<&SearchOutcome> {
        self.last.as_ref()
    }

    /// Sets one option (the caller clears the table when the option is
    /// one the table's values depend on).
    fn set(&mut self, name: &str, value: &str) -> Result<(), SetOptionError> {
        match name {
            "depth" => self.depth = DEPTH.parse(value)? as u32,
            "hash" => self.table = Table::new(HASH.parse(value)? as usize),
            "quiescence" => {
                self.settings.quiescence = match value.trim() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(bad_value(
                            "quiescence",
                            format!("`{value}` is not true or false"),
                        ))
                    }
                }
            }
            "quiescence_plies" => {
                self.settings.quiescence_plies = QUIESCENCE_DEPTH.parse(value)? as u32
            }
            // The ranges keep every weight, times any row difference or pit
            // count, far inside i32.
            "row_weight" => self.settings.weights.row = ROW_WEIGHT.parse(value)? as i32,
            "mobility_weight" => {
                self.settings.weights.mobility = MOBILITY_WEIGHT.parse(value)? as i32
            }
            "targets_weight" => self.settings.weights.targets = TARGETS_WEIGHT.parse(value)? as i32,
            "empty_weight" => self.settings.weights.empty = EMPTY_WEIGHT.parse(value)? as i32,
            _ => return Err(unknown("alphabeta", name)),
        }
        Ok(())
    }
}

impl Default for AlphaBetaPlayer {
    fn default() -> AlphaBetaPlayer {
        AlphaBetaPlayer::new(DEFAULT_HASH_MB as usize)
    }
}

impl Player for AlphaBetaPlayer {
    fn name(&self) -> String {
        id_name("alphabeta")
    }

    fn author(&self) -> String {
        AUTHOR.to_owned()
    }

    fn options(&self) -> Vec<OptionSpec> {
        vec![
            DEPTH.spec(),
            HASH.spec(),
            OptionSpec {
                name: "quiescence".to_owned(),
                kind: OptionKind::Bool { default: true },
            },
            QUIESCENCE_DEPTH.spec(),
            ROW_WEIGHT.spec(),
            MOBILITY_WEIGHT.spec(),
            TARGETS_WEIGHT.spec(),
            EMPTY_WEIGHT.spec(),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), SetOptionError> {
        self.set(name, value)?;
        if !matches!(name, "depth" | "hash") {
            // The table's values were computed under the evaluation as it
            // was: a process kept between games and told its options again
            // (a tune's points) plays as a fresh one would.
            self.table.clear();
        }
        Ok(())
    }

    fn new_game(&mut self) {
        // The table stays: its values depend only on the board and the side
        // to move, so they hold in any game, and clearing megabytes here
        // would be charged to the first move when `go` follows at once.
        self.last = None;
    }

    fn choose(
        &mut self,
        position: &Position,
        _history: &[Position],
        limits: &SearchLimits,
        search: &mut dyn Search,
    ) -> Move {
        let budget = SearchBudget::new(limits, search.started());
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH);
        if self.depth > 0 {
            max_depth = max_depth.min(self.depth);
        }
        let out = Searcher::new(&mut self.table, search, budget, self.settings)
            .run(position, max_depth.max(1));
        if budget.is_infinite() && self.depth == 0 {
            // `go` without limits: the answer waits for `stop`.
            while !search.stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let best = out.best;
        self.last = Some(out);
        best
    }
}
