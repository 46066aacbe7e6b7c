//! A bot's build step: run once per distinct command and folder before any
//! game, with its log in the run's folder; a failure stops the run with the
//! command, its status and the end of its output; `--resume` builds again;
//! `check-bot --build` does the same before its checks.

use crate::harness::*;

use std::path::Path;
use std::process::Command;

/// A bot folder whose "build" copies the Python template to
/// `build/bot.py` and counts its runs in `builds`.
fn bot_source(dir: &Path) {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    python_template(&src, "bot.py");
    std::fs::write(
        dir.join("build.sh"),
        "echo \"compiling for $BOT_FLAVOUR\"\necho run >> builds\n\
         mkdir -p build && cp src/*.py build/\n",
    )
    .unwrap();
}

fn config(bots: &str) -> String {
    format!(
        "[tournament]\npairs = 1\nstartup-timeout = \"30s\"\n\
         [time-control]\nbase = \"3s\"\nincrement = \"50ms\"\nmargin = \"100ms\"\n{bots}"
    )
}

const BUILT_BOT: &str = "command = [\"python3\", \"build/bot.py\"]\nworkdir = \"bot\"\n\
     build = [\"sh\", \"build.sh\"]\nenv = { BOT_FLAVOUR = \"sour\" }\noptions = { depth = 2 }\n";

#[test]
fn a_build_runs_once_per_command_and_folder_before_the_games_and_again_on_resume() {
    let dir = folder("build-once");
    bot_source(&dir.join("bot"));
    let bots = format!(
        "[[bot]]\nname = \"one\"\n{BUILT_BOT}[[bot]]\nname = \"two\"\n{BUILT_BOT}\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n"
    );
    let config = write_config(&dir, &config(&bots));
    let out = dir.join("out");
    // Not quiet, for its line on the terminal.
    let output = Command::new(ABOURE)
        .args([
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = format!(
        "building one, two: sh build.sh (in {})",
        dir.join("bot").display()
    );
    assert!(stderr.contains(&line), "{line:?} in {stderr}");
    assert!(stderr.contains("built one, two in "), "{stderr}");
    let builds = || std::fs::read_to_string(dir.join("bot/builds")).unwrap();
    assert_eq!(
        builds(),
        "run\n",
        "one build for two bots of one command and folder"
    );
    let log = std::fs::read_to_string(out.join("build-one.log")).unwrap();
    assert_eq!(log, "compiling for sour\n", "the build sees the bot's env");
    assert!(!out.join("build-two.log").exists());
    let played = games(&out);
    assert_eq!(played.len(), 6);
    for g in &played {
        assert_eq!(g["termination"], "natural", "{g}");
    }
    // Resumed (nothing left to play), it builds again.
    let output = run(&config, &out, &["--resume"]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(builds(), "run\nrun\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_build_stops_the_run_before_any_game() {
    let dir = folder("build-fails");
    bot_source(&dir.join("bot"));
    std::fs::write(
        dir.join("bot/build.sh"),
        "echo compiling\necho 'bot.cpp:3: error: expected ;' >&2\nexit 2\n",
    )
    .unwrap();
    let bots = format!(
        "[[bot]]\nname = \"one\"\n{BUILT_BOT}[[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n"
    );
    let config = write_config(&dir, &config(&bots));
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(!output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!(
        "the build of one failed: `sh build.sh` (in {}) exited with status 2; the end of its \
         output ({}):\n  | compiling\n  | bot.cpp:3: error: expected ;",
        dir.join("bot").display(),
        out.join("build-one.log").display()
    );
    assert!(
        stderr.contains(&expected),
        "\nexpected: {expected}\nactual:   {stderr}"
    );
    assert!(!out.join("games.jsonl").exists(), "no game was played");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_bot_builds_first_and_stops_on_a_failed_build() {
    let dir = folder("build-check");
    let bot = dir.join("bot");
    bot_source(&bot);
    let check = |build: &str| {
        Command::new(ABOURE)
            .current_dir(&bot)
            .args([
                "check-bot",
                "--check",
                "handshake",
                "--env",
                "BOT_FLAVOUR=sweet",
            ])
            .args(["--build", build, "--", "python3", "build/bot.py"])
            .output()
            .unwrap()
    };
    let output = check("sh build.sh");
    assert!(output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Sandboxed by default (`--sandbox auto`), as the bot's checks.
    let line = format!(
        "building: sh build.sh (in {}), in the sandbox",
        bot.display()
    );
    assert!(stderr.contains(&line), "{line:?} in {stderr}");
    assert!(stderr.contains("\nbuilt in "), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("PASS handshake"));
    std::fs::write(bot.join("broken.sh"), "echo 'no compiler' >&2\nexit 4\n").unwrap();
    let output = check("sh broken.sh");
    assert!(!output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`sh broken.sh`"), "{stderr}");
    assert!(
        stderr.contains("exited with status 4; the end of its output"),
        "{stderr}"
    );
    assert!(stderr.contains("):\n  | no compiler"), "{stderr}");
    assert!(!String::from_utf8_lossy(&output.stdout).contains("handshake"));
    std::fs::remove_dir_all(&dir).unwrap();
}
