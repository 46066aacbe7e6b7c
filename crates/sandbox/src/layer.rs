//! One layer of the sandbox in the layers report: the type every part of
//! the report is made of, below the report and the fairness layers alike.

/// One layer of the sandbox and whether it is on for this run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Layer {
    /// Its name, e.g. `landlock`.
    pub name: &'static str,
    /// On for this run.
    pub active: bool,
    /// What it does, or why it is off and how to turn it on.
    pub detail: String,
}
