//! What a bot implements: the `Player` trait. The protocol loop does all the
//! talking; a player only declares its options and picks moves.

use std::time::{Duration, Instant};

use aboure_engine::{Move, Position};

/// Why a player refused an option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetOptionError {
    /// The player has no option of that name.
    #[error("{player} has no option {name}")]
    NoSuchOption {
        /// The player's name.
        player: String,
        /// The option asked for.
        name: String,
    },
    /// The value does not suit the option.
    #[error("option {name}: {problem}")]
    BadValue {
        /// The option.
        name: String,
        /// What is wrong with the value, quoting it.
        problem: String,
    },
}

/// The type of an option a bot declares in the handshake. (Not `Eq`: a
/// float option's numbers are doubles.)
#[derive(Clone, Debug, PartialEq)]
pub enum OptionKind {
    /// An integer between `min` and `max` inclusive.
    Int {
        /// Default value.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// A real number between `min` and `max` inclusive, all finite.
    Float {
        /// Default value.
        default: f64,
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value.
        max: f64,
    },
    /// `true` or `false`.
    Bool {
        /// Default value.
        default: bool,
    },
    /// Free text (no newline).
    String {
        /// Default value.
        default: String,
    },
    /// One of a fixed set of words.
    Choice {
        /// Default value, one of `choices`.
        default: String,
        /// The accepted values.
        choices: Vec<String>,
    },
}

/// An option a bot accepts: a name (one word) and its type.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionSpec {
    /// The option's name: letters, digits, `-` and `_`.
    pub name: String,
    /// Its type, default and range.
    pub kind: OptionKind,
}

/// Both sides' clocks for a Fischer (base plus increment) time control,
/// from the mover's view: the state of the clocks when a `go` is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// Time left on the mover's clock.
    pub time: Duration,
    /// The mover's increment, added after each of its moves.
    pub increment: Duration,
    /// Time left on the opponent's clock.
    pub opponent_time: Duration,
    /// The opponent's increment.
    pub opponent_increment: Duration,
}

/// What a `go` asks for: any combination of limits; none means "until stop".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Fischer clocks, when the game has them.
    pub clock: Option<ClockState>,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// Search at most this deep (plies).
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    pub nodes: Option<u64>,
}

/// Search information a bot may report while thinking; every field optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth reached, in plies.
    pub depth: Option<u32>,
    /// Score in seeds from the mover's view (final margin expected).
    pub score: Option<i32>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// Time spent so far.
    pub time: Option<Duration>,
    /// Principal variation, the bot's expected line from here.
    pub pv: Vec<Move>,
    /// Free text.
    pub string: Option<String>,
}

/// The most of a bot's error report (`info string error MESSAGE`) that is
/// recorded: longer messages are cut there, with `...`.
pub const ERROR_REPORT_MAX: usize = 1024;

impl SearchInfo {
    /// The message of `info string error MESSAGE`, a bot's report of a
    /// fatal problem (a position its rules disagree with, a file it lacks),
    /// cut to [`ERROR_REPORT_MAX`] bytes; `None` for any other `info`.
    pub fn error_report(&self) -> Option<String> {
        let text = self.string.as_deref()?;
        let message = match text.split_once(char::is_whitespace) {
            Some(("error", rest)) => rest.trim(),
            None if text == "error" => "",
            _ => return None,
        };
        if message.len() <= ERROR_REPORT_MAX {
            return Some(message.to_owned());
        }
        let mut end = ERROR_REPORT_MAX;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        Some(format!("{}...", &message[..end]))
    }
}

/// The search in progress: when the move was asked for, whether the arbiter
/// said `stop`, and a way to report information. Given to [`Player::choose`].
pub trait Search {
    /// When the `go` arrived: the bot's clock started then.
    fn started(&self) -> Instant;
    /// True once the arbiter sent `stop` (or `quit`): answer at once.
    fn stopped(&self) -> bool;
    /// Sends an `info` line to the arbiter.
    fn info(&mut self, info: &SearchInfo);
}

/// A bot. Implement this and hand it to the protocol loop, which handles the
/// handshake, options, pings, positions, `stop` and `quit`.
pub trait Player {
    /// The name announced in the handshake.
    fn name(&self) -> String;
    /// The author announced in the handshake.
    fn author(&self) -> String;
    /// The options this bot accepts.
    fn options(&self) -> Vec<OptionSpec> {
        Vec::new()
    }
    /// Sets an option; the value was already checked against its
    /// [`OptionSpec`]. An `Err` is reported to the arbiter as an `info string`.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), SetOptionError> {
        let _ = value;
        Err(SetOptionError::NoSuchOption {
            player: self.name(),
            name: name.to_owned(),
        })
    }
    /// A new game starts: forget game-specific state if any.
    fn new_game(&mut self) {}
    /// Picks a move for `position`, which has at least one legal sowing (the
    /// loop answers forced passes itself). `history` holds the positions of
    /// the game before this one, oldest first, for repetition handling.
    /// Must return a legal move; return promptly once `search.stopped()`.
    fn choose(
        &mut self,
        position: &Position,
        history: &[Position],
        limits: &SearchLimits,
        search: &mut dyn Search,
    ) -> Move;
}

/// A boxed player is a player, so a bot chosen at run time
/// (`Box<dyn Player + Send>`) can be handed to the loop as it is.
impl<P: Player + ?Sized> Player for Box<P> {
    fn name(&self) -> String {
        (**self).name()
    }

    fn author(&self) -> String {
        (**self).author()
    }

    fn options(&self) -> Vec<OptionSpec> {
        (**self).options()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), SetOptionError> {
        (**self).set_option(name, value)
    }

    fn new_game(&mut self) {
        (**self).new_game()
    }

    fn choose(
        &mut self,
        position: &Position,
        history: &[Position],
        limits: &SearchLimits,
        search: &mut dyn Search,
    ) -> Move {
        (**self).choose(position, history, limits, search)
    }
}
