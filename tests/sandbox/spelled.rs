//! A bot's `read`, `write` and `workdir` paths are taken as the tournament
//! file spells them: a symbolic link a bot's author planted on the way
//! (in a folder it submitted) is refused before any host change, and a
//! hard link in its folders to the tournament file or to a results file
//! beside it (an earlier run's logs) is refused too, and so is a file the
//! command names through a link that leads to another bot's files or the
//! results. Each attack
//! through `aboure run`, checked from outside: the host folder keeps its
//! owner, no secret reaches the bot, the results are the arbiter's.

use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};

use super::named::{assert_refused, refused};
use super::*;

/// The attacker's `[[bot]]` table: `sh -c CODE ARG TESTBOT` (so `$0` is
/// `ARG`, `$1` the test bot, run honestly after the attack), with `more`
/// (its allowances, its `workdir`) after the command.
pub(super) fn attacker(code: &str, arg: &Path, more: &str) -> String {
    let arg = arg.display().to_string();
    format!(
        "[[bot]]\nname = \"attacker\"\ncommand = [\"sh\", \"-c\", {code:?}, {arg:?}, {TESTBOT:?}]\n{more}"
    )
}

/// The refusal names the path, the link and why.
fn assert_link_refused(output: &std::process::Output, dir: &Path, link: &str) {
    assert_refused(output, dir, link);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("passes through the symbolic link"), "{err}");
}

#[test]
fn a_write_path_through_a_planted_link_gives_no_host_folder_to_the_bot() {
    let (output, dir) = refused("sandbox-spelled-write", |dir| {
        std::fs::create_dir_all(dir.join("host/sub")).unwrap();
        std::fs::create_dir_all(dir.join("attdata")).unwrap();
        symlink(dir.join("host"), dir.join("attdata/cache")).unwrap();
        let code = "touch \"$0/planted\"; exec \"$1\" random";
        let write = "sandbox = { write = [\"attdata/cache/sub\"] }\n";
        attacker(code, &dir.join("attdata/cache/sub"), write)
    });
    // The host folder is not the bot's: same owner as the test's folder.
    let owner = |p: &Path| std::fs::metadata(p).map(|m| (m.uid(), m.gid())).unwrap();
    assert_eq!(
        owner(&dir.join("host/sub")),
        owner(&dir),
        "{}",
        show(&output)
    );
    assert!(!dir.join("host/sub/planted").exists(), "{}", show(&output));
    assert_link_refused(&output, &dir, "attdata/cache");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_read_path_through_a_planted_link_reaches_no_other_bot_tournament_file_or_host_proc() {
    // (test folder, link, what it points to, the read path, the attack,
    // what must not reach the bot)
    let cat = "cat \"$0\" >&2; exec \"$1\" random";
    let cmdlines = "for f in $0/[0-9]*/cmdline; do tr '\\0' ' ' < $f >&2; done; exec \"$1\" random";
    let cases = [
        (
            "sandbox-spelled-read-bot",
            "attdata/x",
            "../victim",
            "attdata/x",
            "attdata/x/secret.txt",
            cat,
            "victimsecret",
        ),
        (
            "sandbox-spelled-read-toml",
            "attdata",
            ".",
            "attdata/tournament.toml",
            "attdata/tournament.toml",
            cat,
            "[tournament]",
        ),
        (
            "sandbox-spelled-read-proc",
            "attdata/p",
            "/proc",
            "attdata/p",
            "attdata/p",
            cmdlines,
            "tournament.toml",
        ),
    ];
    let mut seen = Vec::new();
    for (name, link, to, read, arg, code, secret) in cases {
        let (output, dir) = refused(name, |dir| {
            if let Some(folder) = Path::new(link).parent() {
                std::fs::create_dir_all(dir.join(folder)).unwrap();
            }
            symlink(to, dir.join(link)).unwrap();
            let read = format!("sandbox = {{ read = [{read:?}] }}\n");
            attacker(code, &dir.join(arg), &read)
        });
        let log = stderr_log(&dir.join("out"), "attacker");
        if log.contains(secret) {
            let start: String = log.chars().take(300).collect();
            seen.push(format!("{name}: {start}"));
        } else {
            assert_link_refused(&output, &dir, link);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(seen.is_empty(), "{seen:#?}");
}

#[test]
fn a_write_path_through_a_planted_link_is_not_the_runs_results_folder() {
    let (output, dir) = refused("sandbox-spelled-results", |dir| {
        // Made already, as for `--resume`.
        std::fs::create_dir_all(dir.join("out")).unwrap();
        symlink(".", dir.join("attdata")).unwrap();
        let code =
            "echo forged > \"$0/.f\" && mv -f \"$0/.f\" \"$0/games.jsonl\"; exec \"$1\" random";
        let write = "sandbox = { write = [\"attdata/out\"] }\n";
        attacker(code, &dir.join("attdata/out"), write)
    });
    let games = std::fs::read_to_string(dir.join("out/games.jsonl")).unwrap_or_default();
    assert!(!games.contains("forged"), "{games}");
    assert_link_refused(&output, &dir, "attdata");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_write_path_through_a_planted_link_is_not_another_bots_write_folder() {
    let (output, dir) = refused("sandbox-spelled-vloot", |dir| {
        let vloot = dir.join("vloot");
        std::fs::create_dir_all(&vloot).unwrap();
        std::fs::write(vloot.join("secret.txt"), "vlootsecret\n").unwrap();
        let private = std::fs::Permissions::from_mode(0o600);
        std::fs::set_permissions(vloot.join("secret.txt"), private).unwrap();
        std::fs::create_dir_all(dir.join("attdata")).unwrap();
        symlink("../vloot", dir.join("attdata/v")).unwrap();
        let code =
            "cat \"$0/secret.txt\" >&2; mv \"$0/secret.txt\" \"$0/moved\"; exec \"$1\" random";
        let write = "sandbox = { write = [\"attdata/v\"] }\n";
        // The victim's own write folder first, then the attacker.
        let victim = "sandbox = { write = [\"vloot\"] }\n";
        victim.to_owned() + &attacker(code, &dir.join("attdata/v"), write)
    });
    let log = stderr_log(&dir.join("out"), "attacker");
    assert!(!log.contains("vlootsecret"), "{log}");
    assert!(dir.join("vloot/secret.txt").exists(), "{}", show(&output));
    assert_link_refused(&output, &dir, "attdata/v");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_working_directory_through_a_planted_link_is_refused() {
    let (output, dir) = refused("sandbox-spelled-workdir", |dir| {
        std::fs::create_dir_all(dir.join("attdata")).unwrap();
        symlink("../victim", dir.join("attdata/wd")).unwrap();
        let code = "cat secret.txt >&2; exec \"$1\" random";
        attacker(code, Path::new("secret"), "workdir = \"attdata/wd\"\n")
    });
    let log = stderr_log(&dir.join("out"), "attacker");
    assert!(!log.contains("victimsecret"), "{log}");
    assert_link_refused(&output, &dir, "attdata/wd");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("working directory"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_hard_link_to_the_tournament_file_or_another_runs_log_in_a_bots_folder_is_refused() {
    for (name, secret) in [
        ("sandbox-spelled-hard-toml", "[tournament]"),
        ("sandbox-spelled-hard-log", "earliersecret"),
    ] {
        let (output, dir) = refused(name, |dir| {
            let own = dir.join("attacker");
            std::fs::create_dir_all(&own).unwrap();
            let file = if secret == "earliersecret" {
                let earlier = dir.join("out-earlier");
                std::fs::create_dir_all(earlier.join("logs")).unwrap();
                std::fs::write(earlier.join("run.json"), "{}").unwrap();
                std::fs::write(earlier.join("games.jsonl"), "").unwrap();
                let log = earlier.join("logs/victim.stderr.log");
                std::fs::write(&log, "my key is earliersecret\n").unwrap();
                log
            } else {
                // The run writes the tournament file over this one, in
                // place: the link then holds it all.
                let toml = dir.join("tournament.toml");
                std::fs::write(&toml, "").unwrap();
                toml
            };
            std::fs::hard_link(&file, own.join("notes.txt")).unwrap();
            // Read by the script, never named in the command.
            let script = "cat \"$(dirname \"$0\")/notes.txt\" >&2; exec \"$1\" random\n";
            std::fs::write(own.join("probe.sh"), script).unwrap();
            format!(
                "[[bot]]\nname = \"attacker\"\ncommand = [\"sh\", \"attacker/probe.sh\", {TESTBOT:?}]\n"
            )
        });
        let log = stderr_log(&dir.join("out"), "attacker");
        assert!(!log.contains(secret), "{name}: {log}");
        assert_refused(&output, &dir, "attacker/notes.txt");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            err.contains("a hard link to the tournament file or a results file"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_file_the_command_names_through_a_planted_link_is_judged_where_it_leads() {
    // (test folder, the link, what it points to, what must not reach the bot)
    let cases = [
        (
            "sandbox-spelled-named-bot",
            "attdata/w.bin",
            "../victim/secret.txt",
            "victimsecret",
        ),
        (
            "sandbox-spelled-named-log",
            "attdata/w.log",
            "../out-earlier/logs/victim.stderr.log",
            "earliersecret",
        ),
    ];
    let mut seen = Vec::new();
    for (name, link, to, secret) in cases {
        let (output, dir) = refused(name, |dir| {
            let earlier = dir.join("out-earlier");
            std::fs::create_dir_all(earlier.join("logs")).unwrap();
            std::fs::write(earlier.join("run.json"), "{}").unwrap();
            std::fs::write(earlier.join("games.jsonl"), "").unwrap();
            let log = earlier.join("logs/victim.stderr.log");
            std::fs::write(log, "my key is earliersecret\n").unwrap();
            std::fs::create_dir_all(dir.join("attdata")).unwrap();
            symlink(to, dir.join(link)).unwrap();
            attacker("cat \"$0\" >&2; exec \"$1\" random", &dir.join(link), "")
        });
        let log = stderr_log(&dir.join("out"), "attacker");
        if log.contains(secret) {
            let start: String = log.chars().take(300).collect();
            seen.push(format!("{name}: {start}"));
        } else {
            assert_refused(&output, &dir, link);
            let err = String::from_utf8_lossy(&output.stderr);
            assert!(err.contains("which it leads to"), "{err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(seen.is_empty(), "{seen:#?}");
}
