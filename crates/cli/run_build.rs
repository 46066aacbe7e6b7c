//! The build steps of `aboure run`, before its first game: a line on the
//! terminal for each, the work itself in `aboure_arbiter::build`.

use aboure_config::Config;

/// The bots' build steps, before any game (a `--resume` builds again:
/// the source may have changed since, and a build with nothing to do is
/// quick). A failed build stops the run.
pub fn build(config: &Config, out_dir: &std::path::Path, quiet: bool) -> anyhow::Result<()> {
    for build in aboure_arbiter::build::builds(config) {
        if !quiet {
            eprintln!(
                "building {}: {} (in {})",
                build.bots.join(", "),
                build.command.command_line(),
                build.command.workdir.display()
            );
        }
        let built = aboure_arbiter::build::run(&build, out_dir)?;
        if !quiet {
            eprintln!(
                "built {} in {:.1} s (log: {})",
                build.bots.join(", "),
                built.took.as_secs_f64(),
                built.log.display()
            );
        }
    }
    Ok(())
}
