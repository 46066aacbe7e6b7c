//! The starter kits of `bots/` (Python, JavaScript, C++, Java, Go, Rust),
//! each built with its own toolchain: its rules agree with the engine's on
//! positions from random games, passes, finished games and endless sowings;
//! `aboure check-bot` passes it under a memory limit, started from a folder
//! of its own, with the default sandbox, without it (the limit then a
//! per-process rlimit) and where namespaces are forbidden; and a short sandboxed tournament of all
//! six and two reference bots ends with no forfeit. Each kit's README
//! commands build and check it in a copy of its folder, away from the
//! repository. These tests need the
//! toolchains `tests/run.sh` installs.

mod build;
pub(crate) mod copy;
mod no_namespaces;
mod rules;

use std::process::Command;

use build::{build, Built, Kit};

use crate::support::{Run, ABOURE, PATIENT};

/// The memory limit of the checks and the tournament: what a tournament
/// organiser would set, and what the Java kit's flags are measured against.
const MEMORY_LIMIT: &str = "512MiB";

/// Builds `kit`, compares its rules with the engine's, then runs the whole
/// check-bot suite on it three times: under the default sandbox; without
/// it, where `MEMORY_LIMIT` is the per-process `RLIMIT_DATA` (as it is for
/// an arbiter with no writable memory cgroup); and where the machine
/// forbids namespaces, as a container's default seccomp profile does, so
/// the sandbox has no constructed root and fences the host's files with
/// Landlock alone.
fn kit_works(kit: Kit) {
    let built = build(kit);
    rules_agree(&built);
    check_bot_passes(&built, &[]);
    check_bot_passes(&built, &["--sandbox", "off"]);
    check_bot_passes_without_namespaces(&built);
    copy::works_in_a_copy(kit);
}

fn rules_agree(built: &Built) {
    let cases = rules::cases(24 + built.kit as u64, 60, 20);
    assert!(
        cases.endless >= 20 && cases.passes >= 2 && cases.finished >= 30 && cases.laps >= 10,
        "too few special cases: {} endless, {} passes, {} finished, {} with laps round the board",
        cases.endless,
        cases.passes,
        cases.finished,
        cases.laps
    );
    let answers = rules::answers(&built.command, &cases.positions);
    assert_eq!(
        answers.len(),
        cases.positions.len(),
        "{:?} answered {} of {} moves lines",
        built.command,
        answers.len(),
        cases.positions.len()
    );
    let wrong: Vec<String> = cases
        .positions
        .iter()
        .zip(&answers)
        .filter(|(p, got)| rules::expected(p) != **got)
        .take(3)
        .map(|(p, got)| {
            format!(
                "moves {p}\n  engine: {:?}\n  kit:    {got:?}",
                rules::expected(p)
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "the {} kit's rules disagree with the engine's ({} positions, {} endless, {} passes, {} finished); first differences:\n{}",
        built.kit.name(),
        cases.positions.len(),
        cases.endless,
        cases.passes,
        cases.finished,
        wrong.join("\n")
    );
    eprintln!(
        "{}: {} positions agree, {} with endless sowings, {} forced passes, {} finished, {} with laps round the board",
        built.kit.name(),
        cases.positions.len(),
        cases.endless,
        cases.passes,
        cases.finished,
        cases.laps
    );
}

/// `aboure check-bot` with the default sandbox (or as `flags` say) and
/// `MEMORY_LIMIT`, run from an empty folder of its own, so nothing is found
/// by accident in the working directory.
fn check_bot_passes(built: &Built, flags: &[&str]) {
    check_bot_passes_in(built, flags, Command::new(ABOURE));
}

/// The same, where `unshare` and namespace-making `clone` fail with
/// `EPERM`; the sandbox must say that its namespaces are missing.
fn check_bot_passes_without_namespaces(built: &Built) {
    let mut command = Command::new(ABOURE);
    // The system's interpreters: without a constructed root the bot's uid
    // meets the host's permissions, and a toolchain under root's home
    // (pyenv's shims, say) is closed to it; the sandbox says so.
    command.env("PATH", "/usr/local/bin:/usr/bin:/bin");
    let filters = no_namespaces::filters();
    // SAFETY: between fork and exec the closure only installs filters
    // built before the fork (prctl and seccomp calls, no allocation).
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
            for filter in &filters {
                seccompiler::apply_filter(filter).map_err(std::io::Error::other)?;
            }
            Ok(())
        });
    }
    let stderr = check_bot_passes_in(built, &[], command);
    assert!(stderr.contains("namespaces:"), "{stderr}");
}

/// Runs `command` (aboure) as `check-bot` with `flags`, asserts that every
/// check passed, and returns its stderr.
fn check_bot_passes_in(built: &Built, flags: &[&str], mut command: Command) -> String {
    let cwd = tempfile::tempdir().unwrap();
    let output = command
        .arg("check-bot")
        .args(PATIENT)
        .args(flags)
        .args(["--memory-limit", MEMORY_LIMIT, "--"])
        .args(&built.command)
        .current_dir(cwd.path())
        .output()
        .expect("run aboure check-bot");
    let run = Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    let listed = Command::new(ABOURE)
        .args(["check-bot", "--list"])
        .output()
        .expect("run aboure check-bot --list");
    let checks = String::from_utf8_lossy(&listed.stdout).lines().count();
    assert!(checks >= 21, "only {checks} checks listed");
    assert_eq!(run.with_status("PASS").len(), checks, "{}", run.dump());
    assert_eq!(
        run.summary(),
        format!("{checks} passed, 0 failed"),
        "{}",
        run.dump()
    );
    assert_eq!(run.code, Some(0), "{}", run.dump());
    run.stderr
}

#[test]
fn python_kit() {
    kit_works(Kit::Python);
}

#[test]
fn js_kit() {
    kit_works(Kit::Js);
}

#[test]
fn cpp_kit() {
    kit_works(Kit::Cpp);
}

#[test]
fn java_kit() {
    kit_works(Kit::Java);
}

#[test]
fn go_kit() {
    kit_works(Kit::Go);
}

#[test]
fn rust_kit() {
    kit_works(Kit::Rust);
}

/// The `[[bot]]` table of a built kit.
fn bot_table(built: &Built) -> String {
    let command: Vec<String> = built.command.iter().map(|a| format!("{a:?}")).collect();
    // The Python kit searches by time otherwise: keep the test short.
    let options = if built.kit == Kit::Python {
        "options = { depth = 4, seed = 2 }"
    } else {
        "options = { seed = 2 }"
    };
    format!(
        "[[bot]]\nname = \"{}\"\ncommand = [{}]\nmemory-limit = \"{MEMORY_LIMIT}\"\n{options}\n\n",
        built.kit.name(),
        command.join(", ")
    )
}

#[test]
fn a_sandboxed_tournament_of_every_kit_has_no_forfeit() {
    let built: Vec<Built> = Kit::ALL.into_iter().map(build).collect();
    let dir = tempfile::tempdir().unwrap();
    let mut config = String::from(
        "[tournament]\npairs = 1\nconcurrency = 2\n\n[openings]\nplies = 2\n\n\
         [time-control]\nbase = \"10s\"\nincrement = \"100ms\"\nmargin = \"1s\"\n\n",
    );
    for b in &built {
        config.push_str(&bot_table(b));
    }
    for reference in ["random", "greedy"] {
        config.push_str(&format!(
            "[[bot]]\nname = \"{reference}\"\nbuiltin = \"{reference}\"\nmemory-limit = \"{MEMORY_LIMIT}\"\n\n"
        ));
    }
    let file = dir.path().join("kits.toml");
    std::fs::write(&file, &config).unwrap();
    let out = dir.path().join("out");
    let output = Command::new(ABOURE)
        .arg("run")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .arg("-q")
        .env_remove("RUST_LOG")
        .output()
        .expect("run aboure run");
    let shown = format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}\nconfig:\n{config}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{shown}");
    let games = crate::harness::games(&out);
    // 8 bots: 28 pairings of one game pair each.
    assert_eq!(games.len(), 56, "{shown}");
    for g in &games {
        let termination = g["termination"].as_str().unwrap_or("?");
        assert!(
            g["loser"].is_null() && ["natural", "max_plies", "repetition"].contains(&termination),
            "a forfeit: {g}\n{shown}"
        );
    }
    for b in &built {
        let played = games
            .iter()
            .filter(|g| g["south"] == b.kit.name() || g["north"] == b.kit.name())
            .count();
        assert_eq!(played, 14, "{} played {played} games", b.kit.name());
    }
}
