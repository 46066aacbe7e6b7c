//! The JSON report: the [`Report`] serialised, schema in the crate docs.

use crate::report::Report;

impl Report {
    /// The report as a JSON value (schema in the crate docs).
    pub fn json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    /// The report as pretty-printed JSON text, ending in a newline.
    pub fn json_text(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}
