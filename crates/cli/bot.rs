//! `aboure bot NAME`: a built-in reference bot speaking the protocol on
//! stdin/stdout, for tournaments and for trying the protocol by hand.

use std::process::ExitCode;

use aboure_bots::{builtin, configure, BUILTIN};
use anyhow::{anyhow, bail, Context};

/// Run a built-in bot (random, greedy, alphabeta, mcts, ...) on stdin/stdout.
#[derive(clap::Args)]
pub struct Args {
    /// The bot's name.
    name: String,
    /// Set an option before the handshake, as `setoption` would (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    options: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut bot = builtin(&args.name).ok_or_else(|| {
        anyhow!(
            "there is no built-in bot `{}`; the built-in bots are: {}",
            args.name,
            BUILTIN.join(", ")
        )
    })?;
    for option in &args.options {
        let Some((key, value)) = option.split_once('=') else {
            bail!("--option `{option}`: expected KEY=VALUE");
        };
        configure(&mut bot, key.trim(), value)?;
    }
    aboure_protocol::serve_stdio(bot).context("talking to the arbiter on stdin/stdout")?;
    Ok(ExitCode::SUCCESS)
}
