//! The handshake as a check sees it: `aboure 1`, then everything the bot
//! announces, held to the protocol's order and uniqueness rules.

use std::time::Instant;

use aboure_protocol::{ArbiterMessage, BotMessage, OptionSpec, PROTOCOL_VERSION};

use crate::session::{Failure, Session, Step};

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

impl Session<'_> {
    /// `aboure 1`, then the bot's `id name`, `id author`, `option` lines and
    /// `aboureok` within the time-out. Fails on anything unparsable (except
    /// `info`), a missing or repeated `id`, an option declared twice.
    pub async fn handshake(&mut self) -> Step<Identity> {
        self.begin_exchange();
        self.send(&ArbiterMessage::Aboure {
            version: PROTOCOL_VERSION,
        })
        .await?;
        let deadline = Instant::now() + self.config().timeout;
        let mut name = None;
        let mut author = None;
        let mut options: Vec<OptionSpec> = Vec::new();
        loop {
            let Some(message) = self.next_message(deadline).await? else {
                return Err(self.timed_out("aboureok"));
            };
            match message {
                BotMessage::AboureOk => break,
                BotMessage::Name(text) => {
                    if name.replace(text).is_some() {
                        return Err(Failure("`id name` sent twice".into()));
                    }
                    if !options.is_empty() {
                        self.warn("`id name` after `option` lines (the protocol puts ids first)");
                    }
                }
                BotMessage::Author(text) => {
                    if author.replace(text).is_some() {
                        return Err(Failure("`id author` sent twice".into()));
                    }
                    if !options.is_empty() {
                        self.warn("`id author` after `option` lines (the protocol puts ids first)");
                    }
                }
                BotMessage::Option(spec) => {
                    if options.iter().any(|o| o.name == spec.name) {
                        return Err(Failure(format!("option `{}` declared twice", spec.name)));
                    }
                    options.push(spec);
                }
                BotMessage::Info(_) | BotMessage::BestMove(_) | BotMessage::Unknown(_) => {}
                other => self.warn(format!("`{other}` during the handshake (ignored)")),
            }
        }
        let Some(name) = name else {
            return Err(Failure("no `id name` before `aboureok`".into()));
        };
        let Some(author) = author else {
            return Err(Failure("no `id author` before `aboureok`".into()));
        };
        Ok(Identity {
            name,
            author,
            options,
        })
    }
}
