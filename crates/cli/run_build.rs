//! The build steps of `aboure run`, before its first game: a line on the
//! terminal for each (where it runs, and why), the work itself in
//! `aboure_build`.

use aboure_build::{builds, BuildCage};
use aboure_config::Config;
use anyhow::Context;

/// The bots' build steps, before any game (a `--resume` builds again:
/// the source may have changed since, and a build with nothing to do is
/// quick), each in its bot's cage when its games would be sandboxed. A
/// failed build, or a build folder the sandbox refuses, stops the run.
pub fn build(config: &Config, out_dir: &std::path::Path, quiet: bool) -> anyhow::Result<()> {
    let builds = builds(config);
    if builds.is_empty() {
        return Ok(());
    }
    let helper = std::env::current_exe().context("cannot locate the aboure binary")?;
    let cage = BuildCage::new(config, &helper, out_dir).context(
        "the sandbox refuses the bots' builds: a build writes its bot's working directory \
         (`workdir`), one more `write` path, which must be a folder of the bot's own",
    )?;
    for build in builds {
        if !quiet {
            // The folder may be a stranger's name, reached through links.
            let line = format!(
                "building {}: {} (in {}), {}",
                build.bots.join(", "),
                build.command.command_line(),
                build.command.workdir.display(),
                cage.placement(&build)
            );
            eprintln!("{}", aboure_report::printable(&line));
        }
        let built = aboure_build::run(&build, out_dir, &cage)?;
        if !quiet {
            let line = format!(
                "built {} in {:.1} s (log: {})",
                build.bots.join(", "),
                built.took.as_secs_f64(),
                built.log.display()
            );
            eprintln!("{}", aboure_report::printable(&line));
        }
    }
    Ok(())
}
