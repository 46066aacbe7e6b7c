//! Head-to-head figures against fastchess's published numbers, and the
//! edge cases where numbers do not exist.

use aboure_stats::{Estimate, Pentanomial, PlayerResult, Wdl};
use proptest::prelude::*;

fn printed(e: &Estimate) -> String {
    let i = e.interval().expect("finite estimate");
    format!(
        "{:.2} +/- {:.2}",
        i.value,
        i.error().expect("bounded interval")
    )
}

#[test]
fn fastchess_wdl_vector() {
    // fastchess's test vector: W136 L96 D111.
    let h = Wdl::new(136, 111, 96).head_to_head();
    assert_eq!(h.games, 343);
    assert_eq!(printed(&h.elo), "40.70 +/- 30.43");
    assert_eq!(printed(&h.nelo), "49.77 +/- 36.77");
    assert_eq!(format!("{:.2}", 100.0 * h.los.unwrap()), "99.60");
    assert_eq!(format!("{:.3}", h.score.unwrap()), "0.558");
    assert!((h.draw_ratio.unwrap() - 111.0 / 343.0).abs() < 1e-15);
}

#[test]
fn fastchess_pentanomial_vector() {
    // ll=34, ld=54, wl=31, dd=32, wd=64, ww=75.
    let p = Pentanomial::new(34, 54, 31, 32, 64, 75);
    let h = p.head_to_head();
    assert_eq!(h.games, 2 * 290);
    assert_eq!(printed(&h.elo), "55.58 +/- 27.65");
    assert_eq!(printed(&h.nelo), "57.94 +/- 28.28");
    let los = h.los.unwrap();
    assert!(los > 0.9999 && los < 1.0, "{los}");
}

#[test]
fn interval_is_the_mapped_score_interval() {
    // The Elo interval is asymmetric; the printed error is its half-width.
    let i = Wdl::new(136, 111, 96)
        .head_to_head()
        .elo
        .interval()
        .unwrap();
    let (lo, hi) = (i.lower.unwrap(), i.upper.unwrap());
    assert!(lo < i.value && i.value < hi);
    assert!(hi - i.value > i.value - lo);
}

#[test]
fn zero_games_are_undefined() {
    for h in [
        Wdl::default().head_to_head(),
        Pentanomial::default().head_to_head(),
    ] {
        assert_eq!(h.games, 0);
        assert_eq!(h.score, None);
        assert_eq!(h.draw_ratio, None);
        assert_eq!(h.elo, Estimate::Undefined);
        assert_eq!(h.nelo, Estimate::Undefined);
        assert_eq!(h.los, None);
    }
}

#[test]
fn perfect_scores_are_infinite() {
    for wdl in [Wdl::new(1, 0, 0), Wdl::new(40, 0, 0)] {
        let h = wdl.head_to_head();
        assert_eq!(h.elo, Estimate::PlusInfinity);
        assert_eq!(h.nelo, Estimate::PlusInfinity);
        assert_eq!(h.los, None);
        let h = wdl.reversed().head_to_head();
        assert_eq!(h.elo, Estimate::MinusInfinity);
        assert_eq!(h.nelo, Estimate::MinusInfinity);
    }
    let h = Pentanomial::new(0, 0, 0, 0, 0, 7).head_to_head();
    assert_eq!(h.elo, Estimate::PlusInfinity);
    let h = Pentanomial::new(3, 0, 0, 0, 0, 0).head_to_head();
    assert_eq!(h.elo, Estimate::MinusInfinity);
}

#[test]
fn all_draws_give_zero_elo_without_interval() {
    for h in [
        Wdl::new(0, 1, 0).head_to_head(),
        Wdl::new(0, 50, 0).head_to_head(),
        Pentanomial::new(0, 0, 4, 6, 0, 0).head_to_head(),
    ] {
        let i = h.elo.interval().unwrap();
        assert_eq!(i.value, 0.0);
        assert_eq!((i.lower, i.upper, i.error()), (None, None, None));
        assert_eq!(h.nelo, Estimate::Undefined);
        assert_eq!(h.los, None);
    }
}

#[test]
fn open_ended_interval_when_the_score_bound_passes_one() {
    // 3 wins, 1 draw: finite Elo, but the upper score bound exceeds 1.
    let h = Wdl::new(3, 1, 0).head_to_head();
    let i = h.elo.interval().unwrap();
    assert!(i.value.is_finite() && i.value > 0.0);
    assert_eq!(i.upper, None);
    assert!(i.lower.is_some());
    assert_eq!(i.error(), None);
    assert!(h.nelo.error().is_some());
}

#[test]
fn pairs_are_counted_from_results() {
    use PlayerResult::*;
    let mut p = Pentanomial::default();
    for (a, b) in [
        (Win, Win),
        (Win, Draw),
        (Draw, Win),
        (Loss, Win),
        (Draw, Draw),
        (Loss, Draw),
        (Loss, Loss),
    ] {
        p.add_pair(a, b);
    }
    assert_eq!(p, Pentanomial::new(1, 1, 1, 1, 2, 1));
    assert_eq!(p.counts(), [1, 1, 2, 2, 1]);
    assert_eq!(p.reversed().counts(), [1, 2, 2, 1, 1]);
    let mut w = Wdl::default();
    for r in [Win, Win, Draw, Loss] {
        w.add(r);
    }
    assert_eq!(w, Wdl::new(2, 1, 1));
    assert_eq!(w.score(), Some(0.625));
}

proptest! {
    // No input panics or yields NaN; the estimates are antisymmetric.
    #[test]
    fn wdl_never_nan_and_antisymmetric(w in 0u64..60, d in 0u64..60, l in 0u64..60) {
        let wdl = Wdl::new(w, d, l);
        let (a, b) = (wdl.head_to_head(), wdl.reversed().head_to_head());
        for h in [&a, &b] {
            for e in [h.elo, h.nelo] {
                if let Estimate::Finite(i) = e {
                    prop_assert!(i.value.is_finite());
                    prop_assert!(i.lower.into_iter().all(f64::is_finite));
                    prop_assert!(i.upper.into_iter().all(f64::is_finite));
                    prop_assert!(i.contains(i.value));
                }
            }
            if let Some(los) = h.los { prop_assert!((0.0..=1.0).contains(&los)); }
        }
        if let (Some(x), Some(y)) = (a.elo.value(), b.elo.value()) {
            prop_assert!((x + y).abs() < 1e-9);
        }
        if let (Some(x), Some(y)) = (a.los, b.los) {
            prop_assert!((x + y - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn pentanomial_never_nan(c in proptest::array::uniform6(0u64..30)) {
        let h = Pentanomial::new(c[0], c[1], c[2], c[3], c[4], c[5]).head_to_head();
        for e in [h.elo, h.nelo] {
            if let Estimate::Finite(i) = e {
                prop_assert!(i.value.is_finite());
                prop_assert!(i.contains(i.value));
            }
        }
    }
}
