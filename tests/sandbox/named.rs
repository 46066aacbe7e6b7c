//! A bot's command may name only its own files: one that names the
//! tournament file, a file of the results, or a file of another bot's
//! folder outside its own is refused before any game (a file bound as the
//! bot's own would be bound whole, past every mask). Each through
//! `aboure run`, checked from outside: the run stops, names the bot and the
//! path, and no game is recorded.

use super::*;

/// Runs `bots` against an honest bot holding a secret file in its own
/// folder; returns the run's output and the folder.
pub(super) fn refused(
    name: &str,
    bot: impl Fn(&Path) -> String,
) -> (std::process::Output, PathBuf) {
    let dir = folder(name);
    let victim = dir.join("victim");
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::write(victim.join("secret.txt"), "victimsecret\n").unwrap();
    let program = victim_program(&victim);
    let text = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"20ms\"\n\
         [[bot]]\nname = \"victim\"\ncommand = [{program:?}, \"random\"]\n{}",
        bot(&dir)
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    (run(&config, &out, &[]), dir)
}

/// The victim's program: a copy of the test bot in its own folder, so the
/// folder (with its secret) is the victim's own.
pub(super) fn victim_program(victim: &Path) -> String {
    let program = victim.join("bot");
    std::fs::copy(TESTBOT, &program).unwrap();
    program.display().to_string()
}

pub(super) fn assert_refused(output: &std::process::Output, dir: &Path, path: &str) {
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", show(output));
    assert!(err.contains("sandbox of attacker"), "{err}");
    assert!(err.contains(path), "{err}");
    assert_eq!(recorded(&dir.join("out")), 0, "{}", show(output));
}

#[test]
fn a_command_that_names_another_bots_file_is_refused_before_any_game() {
    let (output, dir) = refused("sandbox-named-file", |dir| {
        let secret = dir.join("victim/secret.txt").display().to_string();
        format!("[[bot]]\nname = \"attacker\"\ncommand = [{TESTBOT:?}, \"random\", {secret:?}]\n")
    });
    assert_refused(&output, &dir, "secret.txt");
    assert!(String::from_utf8_lossy(&output.stderr).contains("a file of bot victim"));
}

#[test]
fn inline_code_naming_another_bots_script_does_not_open_its_folder() {
    // `sh -c CODE FILE`: FILE is data, not the script, so the victim's
    // folder is not the attacker's; naming the victim's program itself is
    // allowed (two bots of one kit name the same program).
    let dir = folder("sandbox-named-inline");
    let victim = dir.join("victim");
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::write(victim.join("secret.txt"), "inlinesecret\n").unwrap();
    let program = victim_program(&victim);
    let secret = victim.join("secret.txt").display().to_string();
    let code = format!("cat {secret:?} >&2 || echo refused-read >&2; exec {program:?} random");
    let text = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"20ms\"\n\
         [[bot]]\nname = \"victim\"\ncommand = [{program:?}, \"random\"]\n\
         [[bot]]\nname = \"attacker\"\ncommand = [\"sh\", \"-c\", {code:?}, {program:?}]\n"
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(recorded(&out), 2, "{}", show(&output));
    let log = stderr_log(&out, "attacker");
    assert!(!log.contains("inlinesecret"), "{log}");
    assert!(log.contains("refused-read"), "{log}");
}

#[test]
fn a_command_that_names_the_tournament_file_or_a_result_is_refused() {
    let (output, dir) = refused("sandbox-named-toml", |dir| {
        let toml = dir.join("tournament.toml").display().to_string();
        format!("[[bot]]\nname = \"attacker\"\ncommand = [{TESTBOT:?}, \"random\", {toml:?}]\n")
    });
    assert_refused(&output, &dir, "tournament.toml");
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("the tournament file or the results folder"));
}

#[test]
fn a_script_that_is_a_link_to_another_bots_script_is_not_that_script() {
    let dir = folder("sandbox-named-link-script");
    let (victim, attacker) = (dir.join("victim"), dir.join("attacker"));
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::create_dir_all(&attacker).unwrap();
    let secret = victim.join("secret.txt");
    std::fs::write(&secret, "linkscriptsecret\n").unwrap();
    std::fs::write(victim.join("bot.sh"), "exec \"$1\" random\n").unwrap();
    std::os::unix::fs::symlink("../victim/bot.sh", attacker.join("lnk.sh")).unwrap();
    // Run before the script (bash's `BASH_ENV`), the attacker's own code
    // reads what lies in the folder its link opened.
    let peek = attacker.join("peek.sh");
    let code = format!(
        "cat {:?} >&2; exec \"$1\" random\n",
        secret.display().to_string()
    );
    std::fs::write(&peek, code).unwrap();
    let peek = peek.display().to_string();
    let text = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"20ms\"\n\
         [[bot]]\nname = \"victim\"\ncommand = [\"sh\", \"victim/bot.sh\", {TESTBOT:?}]\n\
         [[bot]]\nname = \"attacker\"\ncommand = [\"bash\", \"attacker/lnk.sh\", {TESTBOT:?}]\n\
         env = {{ BASH_ENV = {peek:?} }}\n"
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    let log = stderr_log(&out, "attacker");
    assert!(!log.contains("linkscriptsecret"), "{log}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    assert!(
        err.contains("sandbox of attacker") && err.contains("lies in the folder of bot victim"),
        "{err}"
    );
    assert_eq!(recorded(&out), 0, "{}", show(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_hard_link_to_another_bots_file_in_ones_own_folder_is_refused_unnamed() {
    let (output, dir) = refused("sandbox-named-hardlink", |dir| {
        let attacker = dir.join("attacker");
        std::fs::create_dir_all(attacker.join("sub")).unwrap();
        std::fs::hard_link(dir.join("victim/secret.txt"), attacker.join("sub/x.bin")).unwrap();
        // Read by the script, never named in the command.
        let script = "cat \"$(dirname \"$0\")/sub/x.bin\" >&2; exec \"$1\" random\n";
        std::fs::write(attacker.join("probe.sh"), script).unwrap();
        format!(
            "[[bot]]\nname = \"attacker\"\ncommand = [\"sh\", \"attacker/probe.sh\", {TESTBOT:?}]\n"
        )
    });
    let log = stderr_log(&dir.join("out"), "attacker");
    assert!(!log.contains("victimsecret"), "{log}");
    assert_refused(&output, &dir, "sub/x.bin");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("a hard link to a file of bot victim"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn another_tournaments_file_or_results_named_are_refused() {
    for (name, file) in [
        ("sandbox-named-other-toml", "other/t.toml"),
        (
            "sandbox-named-other-results",
            "other/out/logs/victim.stderr.log",
        ),
    ] {
        let (output, dir) = refused(name, |dir| {
            let other = dir.join("other");
            std::fs::create_dir_all(other.join("out/logs")).unwrap();
            let toml = "[[bot]]\nname = \"v\"\nenv = { KEY = \"othersecret\" }\n";
            std::fs::write(other.join("t.toml"), toml).unwrap();
            std::fs::write(other.join("out/run.json"), "{}").unwrap();
            std::fs::write(other.join("out/games.jsonl"), "").unwrap();
            std::fs::write(other.join("out/logs/victim.stderr.log"), "othersecret\n").unwrap();
            let path = dir.join(file).display().to_string();
            let code = "cat \"$0\" >&2; exec \"$1\" random";
            format!(
                "[[bot]]\nname = \"attacker\"\ncommand = [\"sh\", \"-c\", {code:?}, {path:?}, {TESTBOT:?}]\n"
            )
        });
        let log = stderr_log(&dir.join("out"), "attacker");
        assert!(!log.contains("othersecret"), "{log}");
        assert_refused(&output, &dir, file);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            err.contains("another tournament's file or results"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The sixth outside round's c37: a file named through a link its author
/// planted (`attdata/v -> ../victim`, `attdata/w.bin -> ../tournament.toml`)
/// was compared as written, and bound: the other bot's file and the
/// tournament file were read. Where the link leads counts now.
#[test]
fn a_file_named_through_a_link_to_another_bots_file_or_the_tournament_file_is_refused() {
    for (name, link, target, through, what) in [
        (
            "sandbox-named-link-file",
            "v",
            "../victim",
            "attdata/v/secret.txt",
            "a file of bot victim",
        ),
        (
            "sandbox-named-link-toml",
            "w.bin",
            "../tournament.toml",
            "attdata/w.bin",
            "the tournament file or a results",
        ),
    ] {
        let (output, dir) = refused(name, |dir| {
            std::fs::create_dir_all(dir.join("attdata")).unwrap();
            std::os::unix::fs::symlink(target, dir.join("attdata").join(link)).unwrap();
            let named = dir.join(through).display().to_string();
            format!(
                "[[bot]]\nname = \"attacker\"\ncommand = [{TESTBOT:?}, \"random\", {named:?}]\n"
            )
        });
        assert_refused(&output, &dir, through);
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(what),
            "{}",
            show(&output)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
