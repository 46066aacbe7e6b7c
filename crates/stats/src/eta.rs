//! How long a run has left: pure arithmetic, shared by the live page and the
//! terminal of `aboure run`.
//!
//! A scheduled run (round robin, gauntlet) has a known number of games. An
//! SPRT stops when its log-likelihood ratio leaves its bounds; like fishtest,
//! the estimate assumes the LLR keeps the average drift it has had so far
//! (LLR over pairs played) and asks how many pairs reach the bound it is
//! heading for, never more than the pairs the run may still play.

/// Games per minute over a span of finish times: `games` games finished in
/// the `seconds` between the first and the last of them (the first one
/// opens the span, so it is not counted). `None` without a span.
pub fn games_per_minute(games: u64, seconds: f64) -> Option<f64> {
    (games >= 2 && seconds > 0.0).then(|| (games - 1) as f64 / seconds * 60.0)
}

/// Game pairs an SPRT is expected to play before it decides, from the LLR
/// after `pairs` pairs and its bounds: the LLR's average drift per pair so
/// far, carried on to the bound it is heading for. Bounded by the pairs the
/// run may still play (`max_pairs` in all), and the whole of them when the
/// LLR has not moved. `None` when there is nothing to go on (no pair yet
/// and no maximum), `Some(0.0)` once a bound is reached.
pub fn sprt_remaining_pairs(
    llr: f64,
    lower: f64,
    upper: f64,
    pairs: u64,
    max_pairs: Option<u64>,
) -> Option<f64> {
    let left = max_pairs.map(|m| m.saturating_sub(pairs) as f64);
    if llr >= upper || llr <= lower || left == Some(0.0) {
        return Some(0.0);
    }
    let drift = if pairs > 0 { llr / pairs as f64 } else { 0.0 };
    let expected = if drift > 0.0 {
        Some((upper - llr) / drift)
    } else if drift < 0.0 {
        Some((lower - llr) / drift)
    } else {
        None
    };
    match (expected, left) {
        (Some(e), Some(l)) => Some(e.min(l)),
        (e, l) => e.or(l),
    }
}

/// Seconds for `games` more games at `per_minute`; `None` without a pace.
pub fn seconds_left(games: f64, per_minute: Option<f64>) -> Option<f64> {
    per_minute
        .filter(|&p| p > 0.0)
        .map(|p| (games / p * 60.0).max(0.0))
}

/// A duration for people: `45 s`, `12 min`, `3 h 05 min`, `2 d 04 h`.
pub fn human_duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", (s + 30) / 60),
        3600..=86_399 => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
        _ => format!("{} d {:02} h", s / 86_400, s % 86_400 / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pace_counts_the_games_after_the_first() {
        // 61 games finishing over 120 s: 60 intervals, 30 a minute.
        assert_eq!(games_per_minute(61, 120.0), Some(30.0));
        assert_eq!(games_per_minute(1, 120.0), None);
        assert_eq!(games_per_minute(10, 0.0), None);
    }

    #[test]
    fn the_llr_drift_is_carried_to_the_bound_it_heads_for() {
        // +1.0 after 100 pairs: 0.01 a pair, 1.94 more to +2.94.
        let up = sprt_remaining_pairs(1.0, -2.94, 2.94, 100, None).unwrap();
        assert!((up - 194.0).abs() < 1e-9, "{up}");
        // -0.5 after 50 pairs: -0.01 a pair, 2.44 more to -2.94.
        let down = sprt_remaining_pairs(-0.5, -2.94, 2.94, 50, None).unwrap();
        assert!((down - 244.0).abs() < 1e-9, "{down}");
    }

    #[test]
    fn the_maximum_bounds_the_estimate() {
        // 194 expected, but only 150 - 100 = 50 pairs are left.
        assert_eq!(
            sprt_remaining_pairs(1.0, -2.94, 2.94, 100, Some(150)),
            Some(50.0)
        );
        // No drift: the rest of the run; no maximum either: unknown.
        assert_eq!(
            sprt_remaining_pairs(0.0, -2.94, 2.94, 40, Some(100)),
            Some(60.0)
        );
        assert_eq!(sprt_remaining_pairs(0.0, -2.94, 2.94, 0, None), None);
        // Decided: nothing left.
        assert_eq!(sprt_remaining_pairs(3.0, -2.94, 2.94, 10, None), Some(0.0));
    }

    #[test]
    fn time_left_follows_the_pace() {
        // 388 games (194 pairs) at 12 games a minute: 32.33 minutes.
        let s = seconds_left(388.0, Some(12.0)).unwrap();
        assert!((s - 1940.0).abs() < 1e-9, "{s}");
        assert_eq!(seconds_left(10.0, None), None);
        assert_eq!(human_duration(1940.0), "32 min");
        assert_eq!(human_duration(42.4), "42 s");
        assert_eq!(human_duration(3.0 * 3600.0 + 300.0), "3 h 05 min");
        assert_eq!(human_duration(2.0 * 86_400.0 + 4.0 * 3600.0), "2 d 04 h");
    }
}
