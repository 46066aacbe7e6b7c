//! A bot's build step (`build = ["make", "-C", "bots/cpp"]`), run before
//! the tournament's first game: once per distinct command and folder, in
//! bot order ([`crate::plan`]), in its bot's sandbox when its games
//! are sandboxed ([`crate::cage`]: a stranger's build script is a
//! stranger's code), with its output in `build-NAME.log` in the run's
//! folder, written out and capped as a bot's stderr log is
//! ([`crate::output`]).
//!
//! Why before, and every time (`--resume` too): a bot built by hand goes
//! stale the day its source changes, and a tournament of a stale binary
//! measures the wrong program; a build tool that finds nothing to do
//! costs a second. A failed build stops the run before any game: a bot
//! that cannot be built would only forfeit every game.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

mod cage;
mod output;
mod plan;

use crate::cage::program;
pub use crate::cage::{BuildCage, Placement, BUILD_TIME};
use crate::output::Output;
pub use crate::plan::{builds, Build, BuildCommand};
use aboure_process::printable_path as shown;
use aboure_sandbox::Jail;

/// How a build went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The log it wrote.
    pub log: PathBuf,
    /// How long it took.
    pub took: Duration,
}

/// Why a build stopped the run. Its folder and command may be a
/// stranger's bytes (a submitted folder's name, a link's target on the
/// way): each is shown by the rule of every output
/// ([`aboure_process::printable_path`]), no escape sequence raw.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The log file could not be made.
    #[error("cannot write the build log {path}: {source}", path = shown(.path))]
    Log {
        /// The log.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The command could not be started.
    #[error(
        "the build of {bots} (`{command}` in {workdir}) cannot start: {source}",
        command = shown_text(.command), workdir = shown(.workdir)
    )]
    Start {
        /// The bots it builds.
        bots: String,
        /// The command.
        command: String,
        /// Where it was to run.
        workdir: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The build made version-control metadata where there was none.
    #[error(
        "the build of {bots} (`{command}` in {workdir}) made a repository where there was none: \
         {paths}. Git and the other version-control tools run commands a repository's \
         configuration names (`core.fsmonitor`, hooks) in its folder, outside the sandbox, for \
         whoever runs them there next, so each was made unusable (the metadata removed, or the \
         `HEAD` of a folder git would have used){left}; have the build make none (in its private \
         /tmp if it needs one)",
        command = shown_text(.command), workdir = shown(.workdir),
        paths = .paths.iter().map(|p| shown(p)).collect::<Vec<_>>().join(", "),
        left = match .left.is_empty() {
            true => String::new(),
            false => format!(", except where it failed: {}; remove these by hand, from outside \
                              the folder", .left.join(", ")),
        }
    )]
    Repository {
        /// The bots it builds.
        bots: String,
        /// The command.
        command: String,
        /// Where it ran.
        workdir: PathBuf,
        /// What it made.
        paths: Vec<PathBuf>,
        /// What could not be made unusable, and why.
        left: Vec<String>,
    },
    /// The build left its folder and paths too large to search whole for
    /// a repository it may have made.
    #[error(
        "the build of {bots} (`{command}` in {workdir}) left its folder and paths too large to \
         search whole for a repository it may have made: stopped in {unsearched}",
        command = shown_text(.command), workdir = shown(.workdir)
    )]
    Unsearched {
        /// The bots it builds.
        bots: String,
        /// The command.
        command: String,
        /// Where it ran.
        workdir: PathBuf,
        /// Where the search stopped, and why.
        unsearched: aboure_sandbox::Unsearched,
    },
    /// The command ended with a failure.
    #[error(
        "the build of {bots} failed: `{command}` (in {workdir}) {status}; the end of its output \
         ({log}):\n{tail}",
        command = shown_text(.command), workdir = shown(.workdir), log = shown(.log)
    )]
    Failed {
        /// The bots it builds.
        bots: String,
        /// The command.
        command: String,
        /// Where it ran.
        workdir: PathBuf,
        /// Its exit status in words.
        status: String,
        /// Its log.
        log: PathBuf,
        /// The end of its output, each line quoted and written out.
        tail: String,
    },
}

/// A command line, by the same rule as [`shown`].
fn shown_text(text: &str) -> String {
    aboure_process::printable_bytes(text.as_bytes())
}

/// Runs `build`, its output (stdout and stderr together, as a terminal
/// shows them) into its log in `out_dir` ([`crate::output`]), where `cage` says (see
/// [`crate::cage`]). Its input is empty: a build that asks a
/// question fails instead of waiting for ever. Caged, it is killed past
/// [`BUILD_TIME`].
pub fn run(build: &Build, out_dir: &Path, cage: &BuildCage) -> Result<Built, Box<BuildError>> {
    let log = out_dir.join(build.log_name());
    let log_err = |source| {
        Box::new(BuildError::Log {
            path: log.clone(),
            source,
        })
    };
    std::fs::create_dir_all(out_dir).map_err(log_err)?;
    let file = File::create(&log).map_err(log_err)?;
    let (pipe, writer) = std::io::pipe().map_err(log_err)?;
    let copy = writer.try_clone().map_err(log_err)?;
    let c = &build.command;
    let start_err = |source| {
        Box::new(BuildError::Start {
            bots: build.bots.join(", "),
            command: c.command_line(),
            workdir: c.workdir.clone(),
            source,
        })
    };
    // Made once the results folder is there, so that it is masked.
    let jail = cage
        .jail(build)
        .map_err(|e| start_err(std::io::Error::other(e)))?;
    let mut command = match &jail {
        Some(jail) => caged(jail, cage.memory(build)),
        None => {
            let mut command = Command::new(program(build));
            command.args(&c.args).current_dir(&c.workdir).envs(&c.env);
            command
        }
    };
    command.stdin(Stdio::null()).stdout(writer).stderr(copy);
    let started = Instant::now();
    let mut child = command.spawn().map_err(start_err)?;
    // The build holds the only writing ends: its end is the output's.
    drop(command);
    let mut output = Output::new(pipe, file);
    let bound = jail.is_some().then_some(BUILD_TIME);
    let status = wait(&mut child, bound, &mut output).map_err(start_err)?;
    let made = jail
        .as_ref()
        .map_or(Ok(Vec::new()), |jail| made(build, jail));
    drop(jail);
    let tail = output.finish();
    // Whatever its end: a repository a failed build made runs at the
    // operator's `git status` all the same.
    refuse_made(build, made?)?;
    let status = match status {
        Some(status) if status.success() => {
            return Ok(Built {
                log,
                took: started.elapsed(),
            });
        }
        Some(status) => describe(status),
        None => format!(
            "was killed after {} min, its wall-time bound",
            BUILD_TIME.as_secs() / 60
        ),
    };
    Err(Box::new(BuildError::Failed {
        bots: build.bots.join(", "),
        command: c.command_line(),
        workdir: c.workdir.clone(),
        status,
        tail,
        log,
    }))
}

/// The version-control metadata in `jail`'s `write` paths that a build
/// made where there was none (what was there was read-only to it); an
/// error if they are too large to tell.
fn made(build: &Build, jail: &Jail) -> Result<Vec<PathBuf>, Box<BuildError>> {
    let mut made = jail.repositories().map_err(|u| unsearched(build, u))?;
    made.retain(|path| !jail.sealed().contains(path));
    Ok(made)
}

/// Refuses a build that `made` repositories, once its processes are gone:
/// each is made unusable first ([`aboure_sandbox::disarm`]), so that the
/// operator's next `git status` there runs nothing of it.
fn refuse_made(build: &Build, made: Vec<PathBuf>) -> Result<(), Box<BuildError>> {
    if made.is_empty() {
        return Ok(());
    }
    let left: Vec<String> = (made.iter())
        .filter_map(|path| {
            let failed = aboure_sandbox::disarm(path).err()?;
            Some(format!("{}: {failed}", shown(path)))
        })
        .collect();
    Err(Box::new(BuildError::Repository {
        bots: build.bots.join(", "),
        command: build.command.command_line(),
        workdir: build.command.workdir.clone(),
        paths: made,
        left,
    }))
}

/// The error of `build`'s folder and paths too large to search whole.
fn unsearched(build: &Build, unsearched: aboure_sandbox::Unsearched) -> Box<BuildError> {
    Box::new(BuildError::Unsearched {
        bots: build.bots.join(", "),
        command: build.command.command_line(),
        workdir: build.command.workdir.clone(),
        unsearched,
    })
}

/// The command that starts a build in `jail`: its own process group (to
/// be killed whole), dying with the arbiter, under the bot's memory limit
/// where no cgroup holds it.
fn caged(jail: &Jail, memory: Option<u64>) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = jail.command();
    let limits = jail.limits(aboure_process::Limits { memory, cpu: None });
    command.process_group(0);
    // SAFETY: the closure runs in the child between fork and exec and only
    // makes system calls (prctl, setrlimit), which are async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            limits.apply()
        });
    }
    command
}

/// Waits for `child`, reading its `output` meanwhile, at most `bound`:
/// `None` if it was killed then (with its process group).
fn wait(
    child: &mut Child,
    bound: Option<Duration>,
    output: &mut Output,
) -> std::io::Result<Option<ExitStatus>> {
    let deadline = bound.map(|bound| Instant::now() + bound);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            // The group is the child's own (`process_group(0)`).
            let group = i32::try_from(child.id()).unwrap_or(i32::MAX);
            // SAFETY: a signal to a process group this function started.
            unsafe { libc::killpg(group, libc::SIGKILL) };
            let _ = child.kill();
            child.wait()?;
            return Ok(None);
        }
        output.read_for(Duration::from_millis(100));
    }
}

fn describe(status: ExitStatus) -> String {
    aboure_process::describe(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(dir: &Path, script: &str) -> Build {
        Build {
            command: BuildCommand {
                program: "sh".into(),
                args: vec!["-c".into(), script.into()],
                workdir: dir.to_owned(),
                env: [("GREETING".to_owned(), "hello".to_owned())].into(),
            },
            bots: vec!["cpp".into(), "cpp-2".into()],
        }
    }

    #[test]
    fn a_build_writes_its_log_and_sees_the_bots_env() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let b = build(dir.path(), "echo $GREETING; echo oops >&2; touch made");
        let built = run(&b, &out, &BuildCage::outside()).unwrap();
        assert_eq!(built.log, out.join("build-cpp.log"));
        assert_eq!(
            std::fs::read_to_string(&built.log).unwrap(),
            "hello\noops\n"
        );
        assert!(
            dir.path().join("made").exists(),
            "it ran in the bot's folder"
        );
    }

    #[test]
    fn a_failed_build_says_its_command_status_and_the_end_of_its_output() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let script = "for i in $(seq 1 30); do echo line $i; done; exit 3";
        let e = run(&build(dir.path(), script), &out, &BuildCage::outside()).unwrap_err();
        let text = e.to_string();
        let head = format!(
            "the build of cpp, cpp-2 failed: `sh -c {script}` (in {}) exited with status 3; \
             the end of its output ({}):\n  | line 11\n  | line 12\n",
            dir.path().display(),
            out.join("build-cpp.log").display()
        );
        assert!(text.starts_with(&head), "{text}");
        assert!(text.ends_with("\n  | line 30"), "{text}");
        let e = run(&build(dir.path(), "exit 1"), &out, &BuildCage::outside()).unwrap_err();
        assert!(e.to_string().ends_with(":\n(no output)"), "{e}");
    }

    #[test]
    fn the_log_is_capped_and_the_error_still_quotes_the_builds_last_words() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let script = "head -c 17825792 /dev/zero | tr '\\0' x; echo; echo 'the last words'; exit 2";
        let e = run(&build(dir.path(), script), &out, &BuildCage::outside()).unwrap_err();
        assert!(e.to_string().ends_with(":\n  | the last words"), "{e}");
        let log = std::fs::read_to_string(out.join("build-cpp.log")).unwrap();
        let cap = aboure_process::STDERR_CAP;
        assert!(log.len() as u64 <= cap + 200, "{}", log.len());
        let note = format!(
            "x\n[aboure: build output limit of {cap} bytes reached; the rest is discarded]\n"
        );
        assert!(log.ends_with(&note), "{:?}", &log[log.len() - 200..]);
    }

    #[test]
    fn a_helper_left_holding_the_output_does_not_hold_the_build() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        // The helper keeps the output open long after the build's end; it
        // is killed by the test.
        let script = "sleep 1000 & echo $! > helper; echo done; exit 3";
        let e = run(&build(dir.path(), script), &out, &BuildCage::outside()).unwrap_err();
        let helper = std::fs::read_to_string(dir.path().join("helper")).unwrap();
        let _ = std::process::Command::new("kill")
            .arg(helper.trim())
            .status();
        assert!(e.to_string().ends_with(":\n  | done"), "{e}");
    }

    #[test]
    fn a_failed_builds_folder_and_log_are_written_out() {
        use std::os::unix::ffi::OsStrExt;
        let hostile = Path::new(std::ffi::OsStr::from_bytes(
            b"/srv/\x1b]52;c;eA==\x07\xc2\x9b",
        ));
        let e = BuildError::Failed {
            bots: "cpp".into(),
            command: "make \u{202e}x".into(),
            workdir: hostile.to_owned(),
            status: "exited with status 2".into(),
            log: hostile.join("build-cpp.log"),
            tail: "(no output)".into(),
        };
        let text = e.to_string();
        assert!(!text.contains(['\u{1b}', '\u{9b}', '\u{202e}']), "{text:?}");
        assert!(text.contains("`make \\u{202e}x` (in /srv/\\u{1b}]52;c;eA==\\u{7}\\u{9b})"));
    }

    #[test]
    fn bots_that_share_a_build_command_and_folder_are_built_once() {
        let bot = |name: &str, extra: &str| {
            format!(
                "[[bot]]\nname = \"{name}\"\ncommand = [\"bin/bot\"]\nworkdir = \"cpp\"\n\
                 build = [\"make\", \"-C\", \".\"]\n{extra}"
            )
        };
        let text = format!(
            "[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n{}{}{}",
            bot("c", ""),
            bot("d", "env = { X = \"1\" }\n"),
            bot("e", "workdir = \"rust\"\n").replace("workdir = \"cpp\"\n", "")
        );
        let config = aboure_config::parse(&text, "dir/t.toml".as_ref()).unwrap();
        let builds = builds(&config);
        let bots: Vec<&[String]> = builds.iter().map(|b| b.bots.as_slice()).collect();
        assert_eq!(bots, [&["c", "d"][..], &["e"][..]]);
        assert_eq!(builds[0].log_name(), "build-c.log");
        assert_eq!(builds[1].command.workdir, Path::new("dir/rust"));
    }
}
