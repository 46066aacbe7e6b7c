//! What a check needs of the bot at the other end: the process layer's
//! [`Channel`] (lines out, flushed together; lines in, stamped when they
//! were read), and what only a process has: an exit, a kill, a stderr. A
//! bot process is the link the suite runs on; a bare channel over
//! in-memory streams is another, so the session's rules are tested
//! without a process.

use std::time::{Duration, Instant};

use aboure_process::{Arrival, BotProcess, Channel, Exit, Hint};
use tokio::io::AsyncWrite;
use tokio::process::ChildStdin;

/// The bot as the session sees it.
pub(crate) trait Link {
    /// The bot's input stream.
    type Input: AsyncWrite + Unpin;
    /// The conversation with the bot.
    fn channel(&mut self) -> &mut Channel<Self::Input>;
    /// Waits up to `limit` for the bot to exit; how it did, if it did.
    async fn wait_exit(&mut self, limit: Duration) -> Option<Exit>;
    /// Kills what is left of the bot.
    async fn kill(&mut self);
    /// The last lines the bot wrote on stderr.
    fn stderr_tail(&self) -> Vec<String>;
    /// If `exit` is how the bot dies at one of its limits, which.
    fn explain_exit(&self, exit: Exit) -> Option<String>;
    /// What to tell the author of a bot that ended: a missing file, or the
    /// rules it runs under (its sandbox), in words.
    fn hint(&self) -> Option<Hint>;

    /// Writes the lines, each with a newline, and flushes them together
    /// by `deadline`; the instant after the flush.
    async fn write_lines(&mut self, lines: &[&str], deadline: Instant) -> std::io::Result<Instant> {
        self.channel().write_lines(lines, deadline).await
    }

    /// The next piece of output by `deadline` (`None` if none came).
    async fn next(&mut self, deadline: Instant) -> Option<Arrival> {
        self.channel().next(deadline).await
    }
}

impl Link for BotProcess {
    type Input = ChildStdin;

    fn channel(&mut self) -> &mut Channel<ChildStdin> {
        BotProcess::channel(self)
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

    fn explain_exit(&self, exit: Exit) -> Option<String> {
        BotProcess::explain_exit(self, exit)
    }

    fn hint(&self) -> Option<Hint> {
        BotProcess::hint(self)
    }
}

/// Streams have no process behind them: no exit, no stderr; a kill closes
/// the bot's input.
impl<W: AsyncWrite + Unpin> Link for Channel<W> {
    type Input = W;

    fn channel(&mut self) -> &mut Channel<W> {
        self
    }

    async fn wait_exit(&mut self, _limit: Duration) -> Option<Exit> {
        None
    }

    async fn kill(&mut self) {
        self.close_input();
    }

    fn stderr_tail(&self) -> Vec<String> {
        Vec::new()
    }

    fn explain_exit(&self, _exit: Exit) -> Option<String> {
        None
    }

    fn hint(&self) -> Option<Hint> {
        None
    }
}
