//! Checks of how a bot ends: on `quit` (idle or thinking) and at the end of
//! its input. A bot that lingers would be killed by the arbiter; here it
//! fails, and the exit status is reported either way.

use std::process::ExitStatus;
use std::time::{Duration, Instant};

use aboure_protocol::{ArbiterMessage, Go};

use crate::scenario;
use crate::session::{ms, Failure, Session, Step};
use aboure_process::describe;

/// How long the bot thinks before `quit`.
const THINK: Duration = Duration::from_millis(100);

/// Waits for the exit that `what` (sent at `since`) asks for.
async fn exits(s: &mut Session<'_>, since: Instant, what: &str) -> Step<ExitStatus> {
    let timeout = s.config().timeout;
    let Some(status) = s.wait_exit(timeout).await else {
        return Err(Failure(format!(
            "the bot was still running {} after {what}",
            ms(timeout)
        )));
    };
    let took = since.elapsed();
    s.headline(format!("{} {} after {what}", describe(status), ms(took)));
    if !status.success() {
        s.warn(format!("{} after {what} (0 is expected)", describe(status)));
    }
    Ok(status)
}

pub(super) async fn quit(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    s.ready().await?;
    s.begin_exchange();
    let sent = s.send(&ArbiterMessage::Quit).await?;
    exits(s, sent, "quit").await?;
    Ok(())
}

pub(super) async fn quit_while_thinking(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    s.ready().await?;
    s.go(&scenario::startpos(), Go::default()).await?;
    s.listen(THINK).await?;
    let sent = s.send(&ArbiterMessage::Quit).await?;
    exits(s, sent, "quit").await?;
    Ok(())
}

pub(super) async fn end_of_input(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    s.ready().await?;
    s.begin_exchange();
    let closed = Instant::now();
    s.close_input();
    exits(s, closed, "the end of its input").await?;
    Ok(())
}
