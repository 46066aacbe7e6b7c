//! Which builds a tournament runs: one per distinct command and folder, in
//! the order of the first bot that has it. Apart from running them
//! ([`crate`]) and from where they run ([`crate::cage`]),
//! which both read this plan.

pub use aboure_config::BuildCommand;
use aboure_config::Config;

/// One build to run, and the bots it builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// The command.
    pub command: BuildCommand,
    /// The bots that share it, in bot order; the first names its log.
    pub bots: Vec<String>,
}

impl Build {
    /// The log's file name: `build-NAME.log`, NAME the first bot's.
    pub fn log_name(&self) -> String {
        format!("build-{}.log", self.bots[0])
    }
}

/// The builds of `config`: one per distinct command and folder, in the
/// order of the first bot that has it (whose `env` it gets).
pub fn builds(config: &Config) -> Vec<Build> {
    let mut builds: Vec<Build> = Vec::new();
    for bot in config.bots() {
        let Some(command) = bot.build() else { continue };
        let same = |b: &&mut Build| {
            let c = &b.command;
            (&c.program, &c.args, &c.workdir) == (&command.program, &command.args, &command.workdir)
        };
        match builds.iter_mut().find(same) {
            Some(build) => build.bots.push(bot.name().to_owned()),
            None => builds.push(Build {
                command: command.clone(),
                bots: vec![bot.name().to_owned()],
            }),
        }
    }
    builds
}
