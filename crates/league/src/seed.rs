//! Tie-breaks drawn from the league's seed.
//!
//! Choices the ratings cannot make (the order of unrated entrants, who is
//! South first between equals) come from a hash of the seed and the
//! choice, not from a random generator's stream: a decision then depends
//! only on the seed and the records, never on how many draws came before
//! it, and it cannot change with a dependency's version.

/// `seed` mixed with `parts`, each through SplitMix64's finaliser
/// ([`aboure_stats::splitmix`]): well spread, and the same on every
/// platform.
pub(crate) fn mix(seed: u64, parts: &[u64]) -> u64 {
    parts
        .iter()
        .fold(seed, |h, &p| aboure_stats::splitmix(h ^ p))
}

#[cfg(test)]
mod tests {
    use super::mix;

    #[test]
    fn differs_by_seed_and_parts_and_is_stable() {
        assert_ne!(mix(1, &[2, 3]), mix(2, &[2, 3]));
        assert_ne!(mix(1, &[2, 3]), mix(1, &[3, 2]));
        assert_eq!(mix(1, &[2, 3]), mix(1, &[2, 3]));
        // SplitMix64's first output from state 0 is this published value.
        assert_eq!(mix(0, &[0]), 0xe220_a839_7b1d_cdaf);
    }
}
