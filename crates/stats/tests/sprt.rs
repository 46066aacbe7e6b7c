//! fishtest's GSPRT: published vectors, bounds and decisions.

use aboure_stats::{EloModel, Pentanomial, Sprt, SprtDecision, SprtError, Wdl};

#[test]
fn normalized_pentanomial_vector() {
    let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let p = Pentanomial::from_fishtest([365, 16618, 36229, 16974, 390]);
    let llr = sprt.llr_pentanomial(&p);
    assert_eq!(format!("{llr:.3}"), "2.250");
    // The same value computed by a transcription of fishtest's LLRcalc.py.
    assert!((llr - 2.250367703551081).abs() < 1e-6, "{llr}");
}

#[test]
fn logistic_trinomial_vector() {
    let sprt = Sprt::new(0.5, 2.5, 0.05, 0.05, EloModel::Logistic).unwrap();
    let llr = sprt.llr_trinomial(&Wdl::new(21404, 40708, 21184));
    assert_eq!(format!("{llr:.3}"), "-1.572");
    assert!((llr - -1.5718887926942657).abs() < 1e-6, "{llr}");
}

#[test]
fn fishtest_self_test_vector() {
    // stat_util.py's own example: logistic [-3, 1] on its pentanomial counts.
    let sprt = Sprt::new(-3.0, 1.0, 0.05, 0.05, EloModel::Logistic).unwrap();
    let p = Pentanomial::from_fishtest([10789, 19328, 33806, 19402, 10543]);
    assert!((sprt.llr_pentanomial(&p) - 2.131067811785043).abs() < 1e-6);
}

#[test]
fn bounds_and_decisions() {
    let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    assert!((sprt.lower_bound() - (0.05f64 / 0.95).ln()).abs() < 1e-15);
    assert!((sprt.upper_bound() - (0.95f64 / 0.05).ln()).abs() < 1e-15);
    assert_eq!(format!("{:.2}", sprt.upper_bound()), "2.94");
    assert_eq!(sprt.status(3.0).decision, SprtDecision::AcceptH1);
    assert_eq!(sprt.status(-3.0).decision, SprtDecision::AcceptH0);
    assert_eq!(sprt.status(0.0).decision, SprtDecision::Continue);
    let s = sprt.status_pentanomial(&Pentanomial::default());
    assert_eq!((s.llr, s.decision), (0.0, SprtDecision::Continue));
    let s = sprt.status_trinomial(&Wdl::default());
    assert_eq!((s.llr, s.decision), (0.0, SprtDecision::Continue));
}

#[test]
fn llr_is_finite_on_extreme_results() {
    for model in [EloModel::Normalized, EloModel::Logistic] {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, model).unwrap();
        for w in [
            Wdl::new(1, 0, 0),
            Wdl::new(0, 0, 9),
            Wdl::new(0, 3, 0),
            Wdl::new(500, 0, 0),
        ] {
            assert!(sprt.llr_trinomial(&w).is_finite(), "{model:?} {w:?}");
        }
        for p in [
            Pentanomial::new(0, 0, 0, 0, 0, 3),
            Pentanomial::new(0, 0, 2, 2, 0, 0),
        ] {
            assert!(sprt.llr_pentanomial(&p).is_finite(), "{model:?} {p:?}");
        }
        // Overwhelming evidence decides.
        let good = sprt.status_pentanomial(&Pentanomial::new(10, 100, 200, 200, 300, 200));
        assert_eq!(good.decision, SprtDecision::AcceptH1);
        let bad = sprt.status_pentanomial(&Pentanomial::new(200, 300, 200, 200, 100, 10));
        assert_eq!(bad.decision, SprtDecision::AcceptH0);
    }
}

#[test]
fn rejects_invalid_parameters() {
    assert!(matches!(
        Sprt::new(0.0, 2.0, 0.0, 0.05, EloModel::Normalized),
        Err(SprtError::ErrorRates { .. })
    ));
    assert!(matches!(
        Sprt::new(0.0, 2.0, 0.6, 0.5, EloModel::Normalized),
        Err(SprtError::ErrorRates { .. })
    ));
    assert!(matches!(
        Sprt::new(2.0, 2.0, 0.05, 0.05, EloModel::Logistic),
        Err(SprtError::EloBounds { .. })
    ));
    assert!(matches!(
        Sprt::new(f64::NAN, 2.0, 0.05, 0.05, EloModel::Logistic),
        Err(SprtError::EloBounds { .. })
    ));
}
