//! (being written)

use std::process::ExitCode;

/// (being written)
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not available yet")
}
