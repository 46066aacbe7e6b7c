//! `Move` notation: whatever parses prints back to text that parses to the
//! same move, and the printed form is the canonical `pass` or a pit 0..=11.

use aboure_engine::{Move, PITS};

/// Parses `data` as a move and checks the round trip.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(m) = text.parse::<Move>() else {
        return;
    };
    let printed = m.to_string();
    let again: Move = printed
        .parse()
        .unwrap_or_else(|e| panic!("{text:?} parsed as {m:?}, printed {printed:?}: {e}"));
    assert_eq!(again, m, "{text:?} -> {printed:?} does not round-trip");
    match m.pit() {
        None => assert_eq!(printed, "pass"),
        Some(pit) => {
            assert!(pit.index() < PITS, "{text:?} names pit {}", pit.index());
            assert_eq!(printed, pit.index().to_string());
            assert_eq!(Move::sow(pit.index()), Some(m));
        }
    }
}
