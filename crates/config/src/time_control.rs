//! The validated values of `[time-control]`: what a bot may think per move.

use std::fmt;
use std::time::Duration;

/// How much a bot may think per move, and the forgiveness on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The limit itself.
    pub limit: Limit,
    /// Extra time allowed before a loss on time (pipe latency, scheduling).
    pub margin: Duration,
}

/// The kinds of per-move limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Fischer: a base time for the game plus an increment after each move.
    Fischer {
        /// Time on the clock at the start of the game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A fixed time per move.
    Movetime(Duration),
    /// Search to this depth; `timeout` is a safety limit per move.
    Depth {
        /// Plies.
        depth: u32,
        /// Loss on time after this long.
        timeout: Duration,
    },
    /// Search this many nodes; `timeout` is a safety limit per move.
    Nodes {
        /// Nodes.
        nodes: u64,
        /// Loss on time after this long.
        timeout: Duration,
    },
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = |d: Duration| humantime::format_duration(d).to_string();
        match self.limit {
            Limit::Fischer { base, increment } => write!(f, "{}+{}", d(base), d(increment))?,
            Limit::Movetime(t) => write!(f, "movetime {}", d(t))?,
            Limit::Depth { depth, timeout } => write!(f, "depth {depth} (timeout {})", d(timeout))?,
            Limit::Nodes { nodes, timeout } => write!(f, "nodes {nodes} (timeout {})", d(timeout))?,
        }
        write!(f, ", margin {}", d(self.margin))
    }
}
