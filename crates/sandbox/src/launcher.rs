//! The sandbox as the process layer's pluggable launch step: each bot
//! process gets its [`Jail`] (its command, and its scratch folder and
//! cgroups, kept until the process is gone).

use std::io;
use std::sync::Arc;

use aboure_process::{Launched, Launcher, Limits, Program};

use crate::jail::{BotSpec, Sandbox};
use crate::settings::Policy;

/// Launches one bot in a sandbox, with its allowances.
#[derive(Debug)]
pub struct SandboxLauncher {
    sandbox: Arc<Sandbox>,
    name: String,
    policy: Policy,
}

impl SandboxLauncher {
    /// The launcher of bot `name` with allowances `policy`.
    pub fn new(sandbox: Arc<Sandbox>, name: &str, policy: Policy) -> SandboxLauncher {
        SandboxLauncher {
            sandbox,
            name: name.to_owned(),
            policy,
        }
    }
}

impl Launcher for SandboxLauncher {
    /// Only through [`Launcher::launch`]: the command alone would outlive
    /// the scratch folder and cgroups it needs.
    fn command(&self, _bot: &Program) -> io::Result<tokio::process::Command> {
        Err(io::Error::other(
            "a sandboxed bot is started with Launcher::launch",
        ))
    }

    fn launch(&self, bot: &Program, limits: Limits) -> io::Result<Launched> {
        let args: Vec<String> = bot
            .args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let workdir = match &bot.workdir {
            Some(dir) => dir.clone(),
            None => std::env::current_dir()?,
        };
        let spec = BotSpec {
            name: &self.name,
            program: &bot.program,
            args: &args,
            workdir: &workdir,
            env: &bot.env,
            policy: &self.policy,
            memory: limits.memory,
            cpu: limits.cpu,
            build: false,
        };
        let jail = self.sandbox.prepare(&spec).map_err(io::Error::other)?;
        Ok(Launched {
            command: tokio::process::Command::from(jail.command()),
            limits: jail.limits(limits),
            guard: Some(Box::new(jail)),
        })
    }
}
