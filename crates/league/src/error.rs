//! What can be wrong with a league's input: records that name entrants
//! the list does not have, and configs with a bad key.

/// A league input that cannot be scheduled.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LeagueError {
    /// A recorded pair names an entrant past the end of the list.
    #[error("game pair {pair} names entrant {entrant}, but the league has {entrants} entrants")]
    UnknownEntrant {
        /// The pair's index in the records.
        pair: usize,
        /// The entrant it names.
        entrant: usize,
        /// How many entrants there are.
        entrants: usize,
    },
    /// A recorded pair has one entrant on both sides.
    #[error("game pair {pair} has entrant {entrant} playing itself")]
    SelfPair {
        /// The pair's index in the records.
        pair: usize,
        /// The entrant.
        entrant: usize,
    },
}
