//! The round robin as the arbiter plays it, the baseline a league is
//! measured against: every pairing `(i, j)`, `i < j`, in that order, one
//! pair each (the lower index South first), then the next pair of each.

/// The `unit`th game pair of a round robin over `entrants` entrants, as
/// `(south_first, north_first)`; `None` with fewer than two entrants.
pub fn pair(entrants: usize, unit: usize) -> Option<(usize, usize)> {
    let pairings = entrants * entrants.saturating_sub(1) / 2;
    if pairings == 0 {
        return None;
    }
    let mut k = unit % pairings;
    for i in 0..entrants {
        let row = entrants - 1 - i;
        if k < row {
            return Some((i, i + 1 + k));
        }
        k -= row;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::pair;

    #[test]
    fn follows_the_arbiters_order_and_cycles() {
        let first: Vec<_> = (0..7).filter_map(|u| pair(4, u)).collect();
        assert_eq!(
            first,
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (0, 1)]
        );
        assert_eq!(pair(1, 0), None);
    }
}
