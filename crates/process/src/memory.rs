//! A bot on in-memory streams: the other end of a [`Channel`] over two
//! `duplex` pipes, scripted line by line. The exchange's rules, and those
//! of whoever hears a bot through them (`check-bot`), are tested on it
//! without a process.

use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

use crate::exchange::Channel;
use crate::logs::BotLogs;

/// Bytes each pipe holds before a writer waits.
const PIPE: usize = 1 << 20;

/// The bot's end: what was written to it, and its output.
#[derive(Debug)]
pub struct ScriptedBot {
    heard: Lines<BufReader<DuplexStream>>,
    say: DuplexStream,
}

impl ScriptedBot {
    /// The next line written to the bot (empty at the end of its input).
    pub async fn hear(&mut self) -> String {
        self.heard
            .next_line()
            .await
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Writes `text` on the bot's output as it is (newlines included), and
    /// flushes it. Once the reading end is gone, the text goes nowhere, as
    /// a real bot's would.
    pub async fn say(&mut self, text: &str) {
        if self.say.write_all(text.as_bytes()).await.is_ok() {
            let _ = self.say.flush().await;
        }
    }
}

/// A channel to a scripted bot (its protocol log discarded).
pub fn scripted() -> (Channel<DuplexStream>, ScriptedBot) {
    let (to_bot, from_arbiter) = tokio::io::duplex(PIPE);
    let (to_arbiter, from_bot) = tokio::io::duplex(PIPE);
    let channel = Channel::new(to_bot, from_bot, Arc::new(BotLogs::discard()), 1);
    let bot = ScriptedBot {
        heard: BufReader::new(from_arbiter).lines(),
        say: to_arbiter,
    };
    (channel, bot)
}
