//! Which part of the table matters: all of it, or its top.
//!
//! With `focus = "top-k"` the order of the first `k` entrants and the
//! boundary below them (is the `k`th above the next?) are what the league
//! must settle; an entrant lower down still gets games while it may belong
//! above the `k`th (the rule weighs it by that probability, see
//! [`crate::schedule`]), so that one placed too low can still climb into
//! the top.

/// The part of the table a league settles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Focus {
    /// Every pair of neighbours.
    #[default]
    All,
    /// The order of the top `k` and the boundary below them.
    Top(usize),
}

impl Focus {
    /// How many neighbour pairs, from the top, must be settled in a table
    /// of `entrants`.
    pub fn boundaries(self, entrants: usize) -> usize {
        let all = entrants.saturating_sub(1);
        match self {
            Focus::All => all,
            Focus::Top(k) => k.min(all),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_covers_k_boundaries() {
        assert_eq!(Focus::All.boundaries(10), 9);
        assert_eq!(Focus::Top(8).boundaries(32), 8);
        assert_eq!(Focus::Top(8).boundaries(5), 4);
        assert_eq!(Focus::All.boundaries(0), 0);
    }
}
