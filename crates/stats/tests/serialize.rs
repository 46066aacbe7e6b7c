//! Reports serialize these types as JSON: the shape is part of the interface.

use aboure_stats::{EloModel, Pentanomial, Sprt, Wdl};
use serde_json::{json, Value};

#[test]
fn head_to_head_serializes_with_explicit_infinities() {
    let v: Value = serde_json::to_value(Wdl::new(3, 0, 0).head_to_head()).unwrap();
    assert_eq!(v["elo"], json!("plus_infinity"));
    assert_eq!(v["los"], Value::Null);
    let v: Value = serde_json::to_value(Wdl::default().head_to_head()).unwrap();
    assert_eq!(v["elo"], json!("undefined"));
    let v: Value = serde_json::to_value(Wdl::new(136, 111, 96).head_to_head()).unwrap();
    let finite = &v["elo"]["finite"];
    assert!((finite["value"].as_f64().unwrap() - 40.70).abs() < 0.005);
    assert!(finite["lower"].is_f64() && finite["upper"].is_f64());
    // An unbounded end is null, never a non-finite number.
    let v: Value = serde_json::to_value(Wdl::new(3, 1, 0).head_to_head()).unwrap();
    assert_eq!(v["elo"]["finite"]["upper"], Value::Null);
}

#[test]
fn sprt_status_serializes() {
    let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let s = sprt.status_pentanomial(&Pentanomial::from_fishtest([365, 16618, 36229, 16974, 390]));
    let v: Value = serde_json::to_value(s).unwrap();
    assert_eq!(v["decision"], json!("continue"));
    assert!((v["llr"].as_f64().unwrap() - 2.2504).abs() < 1e-3);
    let v: Value = serde_json::to_value(sprt).unwrap();
    assert_eq!(v["model"], json!("normalized"));
}
