//! What a bot says of itself in the handshake: made by the handshake
//! check, kept by the session between scenarios.

use aboure_protocol::OptionSpec;

/// What a bot announced in the handshake.
#[derive(Clone, Debug, Default)]
pub struct Identity {
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
    /// Its `option` lines, in order.
    pub options: Vec<OptionSpec>,
}
