//! The handshake as a check sees it: `aboure 1`, then everything the bot
//! announces, held to the protocol's order and uniqueness rules.

use std::time::Duration;

use aboure_protocol::{ArbiterMessage, BotMessage, OptionSpec, PROTOCOL_VERSION};

use crate::identity::Identity;
use crate::link::Link;
use crate::session::{Failure, Session, Step};

impl<L: Link> Session<'_, L> {
    /// `aboure 1`, then the bot's `id name`, `id author`, `option` lines and
    /// `aboureok` within the time-out; what it announced, and the time from
    /// the flush of `aboure 1` to the reading of `aboureok`. Fails on
    /// anything unparsable (except `info`), a missing or repeated `id`, an
    /// option declared twice.
    pub async fn handshake(&mut self) -> Step<(Identity, Duration)> {
        self.begin_exchange();
        let sent = self
            .send(&ArbiterMessage::Aboure {
                version: PROTOCOL_VERSION,
            })
            .await?;
        let deadline = sent + self.config().timeout;
        let mut name = None;
        let mut author = None;
        let mut options: Vec<OptionSpec> = Vec::new();
        let took = loop {
            let Some((at, message)) = self.next_message(deadline).await? else {
                return Err(self.timed_out("aboureok"));
            };
            match message {
                BotMessage::AboureOk => break at.saturating_duration_since(sent),
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
        };
        let Some(name) = name else {
            return Err(Failure("no `id name` before `aboureok`".into()));
        };
        let Some(author) = author else {
            return Err(Failure("no `id author` before `aboureok`".into()));
        };
        let identity = Identity {
            name,
            author,
            options,
        };
        Ok((identity, took))
    }
}
