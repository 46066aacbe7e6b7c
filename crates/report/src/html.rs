//! The HTML report (being written).

use crate::report::Report;

impl Report {
    /// The report as one self-contained HTML page.
    pub fn html(&self) -> String {
        format!("<!doctype html><pre>{}</pre>", self.text())
    }
}
