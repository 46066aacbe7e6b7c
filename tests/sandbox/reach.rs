//! A file the bot's own uid cannot reach on the host, named by its
//! command, is refused before any game: the helper binds as root, and
//! would otherwise bring a file below a private folder into the bot's
//! root, where the folders above it are made anew, open to all.

use std::os::unix::fs::PermissionsExt;

use super::*;

/// Runs an attacker whose command names `secret` (and prints it to its
/// stderr if it can) against an honest bot; returns the run's output.
fn attack(dir: &Path, secret: &Path) -> std::process::Output {
    let code = format!("cat \"$0\" >&2 || echo refused-read >&2; exec {TESTBOT:?} random");
    let secret = secret.display().to_string();
    let bots =
        format!("[[bot]]\nname = \"attacker\"\ncommand = [\"sh\", \"-c\", {code:?}, {secret:?}]\n");
    let config = write_config(dir, &gauntlet(&bots));
    run(&config, &dir.join("out"), &[])
}

#[test]
fn a_file_below_a_folder_the_bots_uid_cannot_enter_is_refused_before_any_game() {
    assert_eq!(
        std::fs::metadata("/proc/self")
            .map(|m| std::os::unix::fs::MetadataExt::uid(&m))
            .unwrap(),
        0,
        "this test needs a root arbiter (bots then run as uids of their own)"
    );
    let dir = folder("sandbox-reach");
    let private = dir.join("private");
    std::fs::create_dir_all(&private).unwrap();
    let secret = private.join("secret.txt");
    std::fs::write(&secret, "reachsecret\n").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    // Open to all, the bot reads the file its command names.
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o755)).unwrap();
    let output = attack(&dir, &secret);
    assert!(output.status.success(), "{}", show(&output));
    let log = stderr_log(&dir.join("out"), "attacker");
    assert!(log.contains("reachsecret"), "{log}");
    // Private to root (as /root is), the run stops before any game,
    // naming the bot, its uid and the path.
    std::fs::remove_dir_all(dir.join("out")).unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    let output = attack(&dir, &secret);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    let path = secret.display().to_string();
    assert!(err.contains("sandbox of attacker: uid "), "{err}");
    assert!(
        err.contains(&format!("cannot read {path}: Permission denied")),
        "{err}"
    );
    assert_eq!(recorded(&dir.join("out")), 0, "{}", show(&output));
    let log = stderr_log(&dir.join("out"), "attacker");
    assert!(!log.contains("reachsecret"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_bot_refuses_the_same_file_naming_the_bot_and_the_path() {
    assert_eq!(
        std::fs::metadata("/proc/self")
            .map(|m| std::os::unix::fs::MetadataExt::uid(&m))
            .unwrap(),
        0,
        "this test needs a root arbiter (bots then run as uids of their own)"
    );
    let dir = folder("sandbox-reach-check");
    let private = dir.join("private");
    std::fs::create_dir_all(&private).unwrap();
    let secret = private.join("secret.txt");
    std::fs::write(&secret, "reachsecret\n").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    // The bot prints the file on its stderr, which check-bot quotes when
    // the bot then fails its handshake (it has only the shell).
    let check = || {
        Command::new(ABOURE)
            .args(["check-bot", "--check", "handshake", "--"])
            .args([
                "sh",
                "-c",
                "cat \"$0\" >&2; exit 1",
                secret.to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    let stdout =
        |output: &std::process::Output| String::from_utf8_lossy(&output.stdout).into_owned();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o755)).unwrap();
    let output = check();
    assert!(stdout(&output).contains("reachsecret"), "{}", show(&output));
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    let output = check();
    assert!(!output.status.success(), "{}", show(&output));
    let err = String::from_utf8_lossy(&output.stderr);
    let path = secret.display().to_string();
    assert!(err.contains("sandbox of bot: uid "), "{err}");
    assert!(err.contains(&format!("cannot read {path}")), "{err}");
    assert!(
        !stdout(&output).contains("reachsecret"),
        "{}",
        show(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
