//! What every reference bot says it is: its `id name` and `id author`.

/// The author every reference bot announces.
pub const AUTHOR: &str = "the aboure project";

/// The `id name` of reference bot `bot`: `aboure NAME VERSION`.
pub(crate) fn id_name(bot: &str) -> String {
    format!("aboure {bot} {}", env!("CARGO_PKG_VERSION"))
}
