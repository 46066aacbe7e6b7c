//! `aboure check-bot -- COMMAND [ARGS...]`: runs the conformance suite of
//! `aboure-check` on a bot and prints one line per check, the exchange that
//! failed, and a summary. Exits 0 only when every check passes.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use aboure_check::{Check, CheckConfig, CheckOutcome, SharedLauncher, Status, DEFAULT_TIMEOUT};
use aboure_sandbox::{Mode, Policy};

/// Most lines of a failing exchange printed (the latest ones).
const SHOWN_LINES: usize = 40;

/// Check that a bot speaks the protocol: handshake, options, positions,
/// endless sowings, every time control, stop, isready while thinking, quit,
/// a full game.
#[derive(clap::Args)]
pub struct Args {
    /// Limit on answers that have no clock of their own (aboureok, readyok,
    /// bestmove after stop or for depth/nodes, the exit after quit), in ms.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_TIMEOUT.as_millis() as u64)]
    timeout: u64,
    /// How far a timed answer (movetime, clocks) may overrun its time, in
    /// ms [default: a tournament's default `margin`].
    #[arg(long, value_name = "MS")]
    margin: Option<u64>,
    /// Limit on the bot's memory, as the tournament's `memory-limit` (e.g.
    /// `512MiB`): a memory cgroup for the bot and its children where the
    /// machine allows it, else each process's private memory (RLIMIT_DATA).
    #[arg(long, value_name = "SIZE")]
    memory_limit: Option<String>,
    /// Limit on the bot's CPU time, as the tournament's `cpu-limit` (e.g.
    /// `60s`).
    #[arg(long, value_name = "DURATION")]
    cpu_limit: Option<String>,
    /// Run only this check (repeatable; `--list` shows the names).
    #[arg(long = "check", value_name = "NAME")]
    checks: Vec<String>,
    /// List the checks and what each asserts, then exit.
    #[arg(long)]
    list: bool,
    /// Also print what passing checks observed and their transcripts.
    #[arg(long, short)]
    verbose: bool,
    /// The sandbox the bot runs in, as in a tournament: auto (every layer
    /// this machine allows), strict (all or refuse), off.
    #[arg(long, value_name = "MODE", default_value = "auto")]
    sandbox: SandboxMode,
    /// Let the bot use the network (a bot's `sandbox = { network = true }`).
    #[arg(long)]
    network: bool,
    /// Let the bot read PATH (repeatable; `sandbox = { read = [...] }`).
    #[arg(long, value_name = "PATH")]
    read: Vec<std::path::PathBuf>,
    /// Give the bot this environment variable (repeatable; a tournament's
    /// `env = { KEY = "VALUE" }`). In the sandbox a bot gets only PATH,
    /// LANG, HOME, TMPDIR and these.
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = env_var)]
    env: Vec<(String, String)>,
    /// Let the bot write PATH (repeatable; `sandbox = { write = [...] }`).
    #[arg(long, value_name = "PATH")]
    write: Vec<std::path::PathBuf>,
    /// Build the bot first, as a tournament's `build = [...]` does: one
    /// string, split at white space (`--build "make -C bots/cpp"`), run in
    /// the current folder, in the bot's sandbox (its --read, --write,
    /// --network and --memory-limit; writing the current folder too)
    /// unless `--sandbox off`; a failed build is reported with the end of
    /// its output, and no check runs.
    #[arg(long, value_name = "COMMAND")]
    build: Option<String>,
    /// The bot's command and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND", required_unless_present = "list")]
    command: Vec<OsString>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.list {
        let mut out = std::io::stdout().lock();
        for check in Check::ALL {
            let _ = writeln!(out, "{:<24} {}", check.name(), check.what());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let memory = match &args.memory_limit {
        Some(size) => Some(
            aboure_process::parse_memory_limit(size)
                .map_err(|e| anyhow::anyhow!("--memory-limit: {e}"))?,
        ),
        None => None,
    };
    if let Some(command) = &args.build {
        build(command, &args, memory)?;
    }
    program_exists(&args)?;
    let margin = match args.margin {
        Some(ms) => Duration::from_millis(ms),
        None => aboure_config::default_margin()?,
    };
    let mut config = CheckConfig::new(args.command.clone(), margin)?;
    config.timeout = Duration::from_millis(args.timeout);
    config.limits.memory = memory;
    if let Some(text) = &args.cpu_limit {
        let cpu = aboure_process::parse_cpu_limit(text)
            .map_err(|e| anyhow::anyhow!("--cpu-limit: {e}"))?;
        config.limits.cpu = Some(cpu);
    }
    if !args.checks.is_empty() {
        config.checks = args
            .checks
            .iter()
            .map(|name| name.parse::<Check>())
            .collect::<Result<_, _>>()?;
    }
    config.env = args.env.iter().cloned().collect();
    config.launcher = launcher(&args)?;
    let verbose = args.verbose;
    let report = aboure_check::run(&config, |outcome| {
        // What the bot sent (its name, author, options, lines) is quoted
        // here: written out through `printable`, no escape reaches the
        // terminal.
        let mut text = Vec::new();
        let _ = print_outcome(&mut text, outcome, verbose);
        let text = String::from_utf8_lossy(&text);
        let mut out = std::io::stdout().lock();
        let _ =
            (out.write_all(aboure_report::printable(&text).as_bytes())).and_then(|()| out.flush());
    })?;
    if let Some(line) = startup_line(&report) {
        let _ = writeln!(std::io::stdout(), "\n{line}");
    }
    let mut summary = format!("{} passed, {} failed", report.passed(), report.failed());
    if report.skipped() > 0 {
        summary += &format!(", {} skipped", report.skipped());
    }
    // A closed stdout (`| head`) must not turn a verdict into a panic.
    let _ = writeln!(std::io::stdout(), "\n{summary}");
    Ok(if report.all_passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// How long the bot's start-ups took, fastest to slowest: every game of a
/// tournament waits for one (`None` when the bot never finished one).
fn startup_line(report: &aboure_check::SuiteReport) -> Option<String> {
    let fastest = report.startups().min()?.as_millis();
    let slowest = report.startups().max()?.as_millis();
    let starts = report.startups().count();
    let took = if fastest == slowest {
        format!("{slowest} ms")
    } else {
        format!("{fastest} to {slowest} ms")
    };
    let plural = if starts == 1 { "" } else { "s" };
    Some(format!(
        "start-up, from `aboure 1` to `aboureok`: {took} over {starts} start{plural}"
    ))
}

/// Runs `--build`, its output in a log that lives as long as the build:
/// in the bot's cage, shaped by the same flags as the bot's, unless the
/// sandbox is off. Check-bot is how an operator tries a stranger's
/// submission, whose Makefile would otherwise have every right of the
/// operator.
fn build(command: &str, args: &Args, memory: Option<u64>) -> anyhow::Result<()> {
    let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
    let Some((program, rest)) = words.split_first() else {
        anyhow::bail!("--build: the command is empty");
    };
    let cwd = std::env::current_dir()?;
    let build = aboure_build::Build {
        command: aboure_build::BuildCommand {
            program: program.into(),
            args: rest.to_vec(),
            workdir: cwd.clone(),
            env: args.env.iter().cloned().collect(),
        },
        bots: vec!["bot".to_owned()],
    };
    let logs = tempfile::tempdir()?;
    let cage = match settings(args)? {
        Some(settings) => {
            let exe = std::env::current_exe()?;
            let policy = policy(args, &cwd);
            aboure_build::BuildCage::one(&settings, &exe, &build, &policy, memory).context(
                "the sandbox refuses the build: a build writes the current folder, one more \
                 --write path, which must be a folder of the bot's own",
            )?
        }
        None => aboure_build::BuildCage::outside(),
    };
    if let Some(layers) = cage.layers() {
        eprintln!("{layers}");
    }
    // The current folder is often a submission's, named by its author.
    let line = format!(
        "building: {} (in {}), {}",
        build.command.command_line(),
        cwd.display(),
        cage.placement(&build)
    );
    eprintln!("{}", aboure_report::printable(&line));
    let built = aboure_build::run(&build, logs.path(), &cage)?;
    eprintln!("built in {:.1} s", built.took.as_secs_f64());
    Ok(())
}

/// `KEY=VALUE`, with the key a tournament's `env` accepts.
fn env_var(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() && !key.contains('\0') && !value.contains('\0') => {
            Ok((key.to_owned(), value.to_owned()))
        }
        _ => Err(format!("{text:?} is not KEY=VALUE")),
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SandboxMode {
    Auto,
    Strict,
    Off,
}

/// The sandbox settings of `--sandbox`, `None` when it is off.
fn settings(args: &Args) -> anyhow::Result<Option<aboure_sandbox::Settings>> {
    let mode = match args.sandbox {
        SandboxMode::Auto => Mode::Auto,
        SandboxMode::Strict => Mode::Strict,
        SandboxMode::Off => return Ok(None),
    };
    Ok(Some(aboure_config::default_sandbox()?.with_mode(mode)))
}

/// The bot's allowances of `--network`, `--read` and `--write`, relative
/// to `cwd`.
fn policy(args: &Args, cwd: &std::path::Path) -> Policy {
    Policy {
        network: args.network,
        read: args.read.iter().map(|p| cwd.join(p)).collect(),
        write: args.write.iter().map(|p| cwd.join(p)).collect(),
        ..Policy::default()
    }
}

/// The sandbox of the flags; says which layers it has on stderr.
fn launcher(args: &Args) -> anyhow::Result<Option<SharedLauncher>> {
    let Some(settings) = settings(args)? else {
        return Ok(None);
    };
    let exe = std::env::current_exe()?;
    let mut sandbox = aboure_sandbox::Sandbox::new(&settings, &exe)?;
    eprintln!("{}", sandbox.layers());
    let cwd = std::env::current_dir()?;
    let policy = policy(args, &cwd);
    own_folders(args, &exe, &cwd, &policy)?;
    // As `aboure run` does: the bot's files are its own, its uid is one
    // for every process of the check, and what it names is checked as it.
    if let Some((program, rest)) = args.command.split_first() {
        let program = aboure_sandbox::resolve(std::path::Path::new(program));
        let rest: Vec<String> = rest
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect();
        let launch = aboure_sandbox::Launch::default();
        sandbox.register_bot("bot", (&cwd.join(program), &rest), &cwd, &policy, &launch)?;
    }
    let sandbox = std::sync::Arc::new(sandbox);
    let launcher = aboure_sandbox::SandboxLauncher::new(sandbox, "bot", policy);
    Ok(Some(SharedLauncher(std::sync::Arc::new(launcher))))
}

/// Refuses, before any check, a program that is not there (a bare name
/// looked for in `--env PATH=...` if given, else in `PATH`), as `aboure
/// run` does: every check would fail with the same spawn error.
fn program_exists(args: &Args) -> anyhow::Result<()> {
    let Some(program) = args.command.first() else {
        return Ok(());
    };
    let path = (args.env.iter().rev())
        .find(|(key, _)| key == "PATH")
        .map(|(_, value)| std::ffi::OsStr::new(value));
    aboure_arbiter::program::find("bot", std::path::Path::new(program), path)?;
    Ok(())
}

/// Refuses, before any check, a bot whose own folder the sandbox will not
/// open (a home directory, `/`), as `aboure run` does.
fn own_folders(
    args: &Args,
    exe: &std::path::Path,
    cwd: &std::path::Path,
    policy: &Policy,
) -> anyhow::Result<()> {
    let words: Vec<String> = (args.command.iter())
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let Some((program, rest)) = words.split_first() else {
        return Ok(());
    };
    let program = aboure_sandbox::resolve(std::path::Path::new(program));
    let command = aboure_sandbox::Command {
        program: &cwd.join(program),
        args: rest,
        workdir: cwd,
        helper: exe,
    };
    aboure_sandbox::own_folders(&command, &policy.read, &policy.write).map_err(|refusal| {
        anyhow::anyhow!(
            "the bot's command ({}): {refusal} (here: --read PATH)",
            words.join(" ")
        )
    })?;
    Ok(())
}

fn print_outcome(out: &mut impl Write, o: &CheckOutcome, verbose: bool) -> std::io::Result<()> {
    match &o.status {
        Status::Pass => match &o.headline {
            Some(headline) => writeln!(out, "PASS {} ({headline})", o.name)?,
            None => writeln!(out, "PASS {}", o.name)?,
        },
        Status::Fail { reason, .. } => writeln!(out, "FAIL {}: {reason}", o.name)?,
        Status::Skip { reason } => writeln!(out, "SKIP {}: {reason}", o.name)?,
    }
    for warning in &o.warnings {
        writeln!(out, "     warning: {warning}")?;
    }
    if verbose {
        for detail in &o.details {
            writeln!(out, "     {detail}")?;
        }
    }
    let shown = match o.status {
        Status::Fail { .. } => o.failing_exchange(),
        _ if verbose => o.transcript.entries(),
        _ => &[],
    };
    if !shown.is_empty() {
        let hidden = match o.status {
            Status::Fail { .. } => shown.len().saturating_sub(SHOWN_LINES),
            _ => 0,
        };
        if hidden > 0 {
            writeln!(out, "       ... ({hidden} earlier lines)")?;
        }
        for entry in &shown[hidden..] {
            writeln!(out, "       {entry}")?;
        }
    }
    if o.failed() && !o.stderr.is_empty() {
        writeln!(out, "     the bot's last lines on stderr:")?;
        for line in &o.stderr {
            writeln!(out, "       {line}")?;
        }
    }
    Ok(())
}
