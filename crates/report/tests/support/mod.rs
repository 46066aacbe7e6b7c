//! Games made by hand for the report's tests.

use aboure_records::GameRecord;

/// A natural game of pair 0, game 0, `south` against `north`.
pub fn game(id: &str, south: &str, north: &str, result: &str) -> GameRecord {
    let line = format!(
        r#"{{"id":"{id}","pairing":["{south}","{north}"],"pair":0,"game":0,"south":"{south}","north":"{north}","result":"{result}","termination":"natural"}}"#
    );
    serde_json::from_str(&line).unwrap()
}
