//! Which part of the table matters: all of it, or its top.
//!
//! With `focus = "top-k"` the order of the first `k` entrants and the
//! boundary below them (is the `k`th above the next?) are what the league
//! must settle; the rest of the table still gets a tenth of the weight, so
//! that an entrant placed too low can still climb into the top.

/// The part of the table a league settles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Focus {
    /// Every pair of neighbours.
    #[default]
    All,
    /// The order of the top `k` and the boundary below them.
    Top(usize),
}

/// The weight of neighbour pairs outside a top-k focus.
pub const OUTSIDE_WEIGHT: f64 = 0.1;

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

    /// The weight of the neighbour pair at `rank` (with `rank + 1`).
    pub fn weight(self, rank: usize) -> f64 {
        match self {
            Focus::All => 1.0,
            Focus::Top(k) if rank < k => 1.0,
            Focus::Top(_) => OUTSIDE_WEIGHT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_covers_k_boundaries_and_weights_the_rest_down() {
        assert_eq!(Focus::All.boundaries(10), 9);
        assert_eq!(Focus::Top(8).boundaries(32), 8);
        assert_eq!(Focus::Top(8).boundaries(5), 4);
        assert_eq!(Focus::Top(2).weight(1), 1.0);
        assert_eq!(Focus::Top(2).weight(2), OUTSIDE_WEIGHT);
        assert_eq!(Focus::All.boundaries(0), 0);
    }
}
