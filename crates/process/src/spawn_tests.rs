//! The spawning part on real processes: the launchers, the limits and how a
//! death is explained. (The exchange is tested without processes.)

use std::ffi::OsString;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::{
    BotLogs, BotProcess, FailureKind, Launch, Launcher, Limits, Output, Plain, Program, Wrapper,
};

fn launch(script: &str, launcher: Arc<dyn Launcher>, limits: Limits) -> Launch {
    Launch {
        name: "sh".to_owned(),
        command: Program {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            workdir: None,
            env: [("ABOURE_TEST".to_owned(), "seen".to_owned())].into(),
        },
        launcher,
        options: Vec::new(),
        startup_timeout: Duration::from_secs(30),
        limits,
        logs: Arc::new(BotLogs::discard()),
    }
}

/// A bot that shakes hands and then runs `then`.
const HANDSHAKE: &str = "read l; echo aboureok; read l; echo readyok; ";

async fn lines(bot: &mut BotProcess) -> Vec<String> {
    let mut lines = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while let Some(arrival) = bot.next(deadline).await {
        match arrival.output {
            Output::Line(text) => lines.push(text),
            _ => break,
        }
    }
    lines
}

#[tokio::test]
async fn a_wrapper_runs_before_the_bot_with_its_environment() {
    let prefix: Vec<OsString> = ["sh", "-c", "echo wrapped; exec \"$@\"", "wrapper"]
        .map(Into::into)
        .to_vec();
    let wrapper = Arc::new(Wrapper::new(prefix).unwrap());
    let mut bot =
        BotProcess::spawn(&launch("echo \"$ABOURE_TEST\"", wrapper, Limits::default())).unwrap();
    assert_eq!(lines(&mut bot).await, ["wrapped", "seen"]);
    let plain = Arc::new(Plain);
    let mut bot = BotProcess::spawn(&launch("echo plain", plain, Limits::default())).unwrap();
    assert_eq!(lines(&mut bot).await, ["plain"]);
    assert!(Wrapper::new(Vec::new()).is_none());
}

#[tokio::test]
async fn the_cpu_limits_hard_kill_is_told_from_another_kill() {
    let limits = Limits {
        memory: None,
        cpu: Some(Duration::from_secs(1)),
    };
    // Ignores SIGXCPU: the kernel's SIGKILL at the hard limit ends it.
    let spin = format!("{HANDSHAKE}trap '' XCPU; while :; do :; done");
    let mut bot = BotProcess::start(&launch(&spin, Arc::new(Plain), limits))
        .await
        .unwrap();
    let failure = bot.new_game().await.unwrap_err();
    assert_eq!(failure.kind, FailureKind::ResourceLimit, "{failure:?}");
    assert!(
        failure
            .detail
            .contains("CPU time limit of 1 s reached (signal 9)"),
        "{failure:?}"
    );
    // The same signal from elsewhere, long before the limit, is a crash.
    let killed = format!("{HANDSHAKE}kill -9 $$");
    let mut bot = BotProcess::start(&launch(&killed, Arc::new(Plain), limits))
        .await
        .unwrap();
    let failure = bot.new_game().await.unwrap_err();
    assert_eq!(failure.kind, FailureKind::Crash, "{failure:?}");
    assert!(failure.detail.contains("killed by signal 9"), "{failure:?}");
}

#[tokio::test]
async fn a_bot_that_cannot_start_is_a_startup_failure() {
    let mut missing = launch("", Arc::new(Plain), Limits::default());
    missing.command.program = "/nonexistent/aboure-bot".into();
    let failure = BotProcess::start(&missing).await.unwrap_err();
    assert_eq!(failure.kind, FailureKind::Startup);
    assert!(
        failure
            .detail
            .starts_with("cannot start /nonexistent/aboure-bot: "),
        "{failure:?}"
    );
    let crash = launch("echo oops >&2; exit 3", Arc::new(Plain), Limits::default());
    let failure = BotProcess::start(&crash).await.unwrap_err();
    assert_eq!(failure.kind, FailureKind::Startup);
    assert!(
        failure
            .detail
            .contains("exited with status 3; last words on stderr: \"oops\""),
        "{failure:?}"
    );
}
