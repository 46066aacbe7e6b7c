//! What a check needs of the bot at the other end: lines out (flushed
//! together), lines in (stamped by the process layer's reader when they
//! were read), its exit, its kill. A bot process is the link the suite
//! runs on; the process layer's [`Channel`] over in-memory streams is
//! another, so the session's rules are tested without a process.

use std::time::{Duration, Instant};

use aboure_process::{Arrival, BotProcess, Channel, Exit};
use tokio::io::AsyncWrite;

/// The bot as the session sees it.
pub(crate) trait Link {
    /// Writes the lines, each with a newline, and flushes them together;
    /// the instant after the flush.
    async fn write_lines(&mut self, lines: &[&str]) -> std::io::Result<Instant>;
    /// Closes the bot's standard input.
    fn close_input(&mut self);
    /// The next piece of output by `deadline` (`None` if none came).
    async fn next(&mut self, deadline: Instant) -> Option<Arrival>;
    /// Waits up to `limit` for the bot to exit; how it did, if it did.
    async fn wait_exit(&mut self, limit: Duration) -> Option<Exit>;
    /// Kills what is left of the bot.
    async fn kill(&mut self);
    /// The last lines the bot wrote on stderr.
    fn stderr_tail(&self) -> Vec<String>;
}

impl Link for BotProcess {
    async fn write_lines(&mut self, lines: &[&str]) -> std::io::Result<Instant> {
        BotProcess::write_lines(self, lines).await
    }

    fn close_input(&mut self) {
        BotProcess::close_input(self);
    }

    async fn next(&mut self, deadline: Instant) -> Option<Arrival> {
        BotProcess::next(self, deadline).await
    }

    async fn wait_exit(&mut self, limit: Duration) -> Option<Exit> {
        BotProcess::wait_exit(self, limit).await
    }

    async fn kill(&mut self) {
        BotProcess::kill(self).await;
    }

    fn stderr_tail(&self) -> Vec<String> {
        BotProcess::stderr_tail(self)
    }
}

/// Streams have no process behind them: no exit, no stderr.
impl<W: AsyncWrite + Unpin> Link for Channel<W> {
    async fn write_lines(&mut self, lines: &[&str]) -> std::io::Result<Instant> {
        Channel::write_lines(self, lines).await
    }

    fn close_input(&mut self) {
        Channel::close_input(self);
    }

    async fn next(&mut self, deadline: Instant) -> Option<Arrival> {
        Channel::next(self, deadline).await
    }

    async fn wait_exit(&mut self, _limit: Duration) -> Option<Exit> {
        None
    }

    async fn kill(&mut self) {
        Channel::close_input(self);
    }

    fn stderr_tail(&self) -> Vec<String> {
        Vec::new()
    }
}
