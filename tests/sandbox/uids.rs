//! Which uid a bot is given under a root arbiter: never one the host
//! already uses (an account, a running process), nor the owner of a file
//! the bot would see (an earlier run's bot, given that uid, left it), so
//! no one owns the bot and it owns no one's files.

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;

use super::*;

/// The uid the bot `name` of the run in `out` reported (`uid N` on its
/// stderr), if it ran.
fn reported_uid(out: &Path, name: &str) -> Option<u32> {
    let log = stderr_log(out, name);
    let line = log.lines().find_map(|l| l.strip_prefix("uid "))?;
    line.trim().parse().ok()
}

/// A `[[bot]]` table that reports its uid, runs `extra` shell code (with
/// `$0` the path `arg`) and plays (the test bot, `$1`, named so that it is
/// bound).
fn uid_bot(name: &str, extra: &str, arg: &Path) -> String {
    let code = format!("echo \"uid $(id -u)\" >&2; {extra} exec \"$1\" random");
    let arg = arg.display().to_string();
    format!(
        "[[bot]]\nname = {name:?}\ncommand = [\"sh\", \"-c\", {code:?}, {arg:?}, {TESTBOT:?}]\n"
    )
}

/// A tournament of `bots` against an honest bot that reports its uid too,
/// with the bots' uids in `uids`.
fn with_uids(uids: &str, bots: &str) -> String {
    let honest = uid_bot("honest", "", Path::new("-"));
    format!(
        "[sandbox]\nuids = {uids:?}\n{}",
        gauntlet_against(&honest, bots)
    )
}

fn assert_root() {
    assert_eq!(
        std::fs::metadata("/proc/self").unwrap().uid(),
        0,
        "this test needs a root arbiter (bots then run as uids of their own)"
    );
}

/// Removes the host account it names when dropped.
struct Account(&'static str);

impl Drop for Account {
    fn drop(&mut self) {
        let _ = Command::new("userdel").arg(self.0).output();
    }
}

#[test]
fn a_uid_a_host_account_or_a_running_process_uses_is_never_given_to_a_bot() {
    assert_root();
    let dir = folder("sandbox-uids-host");
    let (low, high) = (64900_u32, 64901_u32);
    let text = with_uids(
        &format!("{low}-{high}"),
        &uid_bot("probe", "", Path::new("-")),
    );
    let config = write_config(&dir, &text);
    // The honest bot and the probe take the range's two uids; a process
    // of the host holding one of them leaves the other one free, and
    // the run needs both: it stops rather than share.
    for held in [low, high] {
        let mut sleeper = Command::new("sleep")
            .arg("120")
            .uid(held)
            .gid(held)
            .spawn()
            .unwrap();
        let out = dir.join(format!("out-process-{held}"));
        let output = run(&config, &out, &[]);
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{}", show(&output));
        assert!(err.contains("used on this host"), "{err}");
        assert_ne!(reported_uid(&out, "probe"), Some(held), "{err}");
        assert_ne!(reported_uid(&out, "honest"), Some(held), "{err}");
    }
    // With a third uid, the bots play, and neither is the held one.
    let text = text.replace(&format!("{low}-{high}"), &format!("{low}-{}", high + 1));
    let config = write_config(&dir, &text);
    let _ = Command::new("userdel").arg("aboure-uid-clash").output();
    let added = Command::new("useradd")
        .args(["--no-create-home", "--shell", "/usr/sbin/nologin", "-u"])
        .arg(high.to_string())
        .arg("aboure-uid-clash")
        .output()
        .unwrap();
    assert!(added.status.success(), "{}", show(&added));
    let account = Account("aboure-uid-clash");
    let out = dir.join("out-account");
    let output = run(&config, &out, &[]);
    drop(account);
    assert!(output.status.success(), "{}", show(&output));
    let probe = reported_uid(&out, "probe");
    let honest = reported_uid(&out, "honest");
    assert!(probe.is_some() && honest.is_some(), "{}", show(&output));
    assert!(
        probe != Some(high) && honest != Some(high),
        "{probe:?} {honest:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_later_run_never_gives_a_bot_the_uid_that_owns_a_file_it_names() {
    assert_root();
    let dir = folder("sandbox-uids-reuse");
    let cache = dir.join("victim/cache");
    std::fs::create_dir_all(&cache).unwrap();
    let uids = "64910-64912";
    // Run one: the victim keeps a private note in its write folder.
    let note = "umask 077; echo uidreusesecret > \"$0/note.txt\";";
    let victim = uid_bot("victim", note, &cache)
        + &format!(
            "sandbox = {{ write = [{:?}] }}\n",
            cache.display().to_string()
        );
    let config = write_config(&dir, &with_uids(uids, &victim));
    let output = run(&config, &dir.join("out1"), &[]);
    assert!(output.status.success(), "{}", show(&output));
    let secret = cache.join("note.txt");
    let owner = std::fs::metadata(&secret).unwrap().uid();
    assert_eq!(reported_uid(&dir.join("out1"), "victim"), Some(owner));
    // Run two, another tournament: a bot naming that note is never its
    // owner, so it cannot read it (its uid is refused the file, and the
    // run stops before any game).
    let read = "cat \"$0\" >&2 || echo refused-read >&2;";
    let attacker = uid_bot("attacker", read, &secret);
    let config = write_config(&dir, &with_uids(uids, &attacker));
    let out = dir.join("out2");
    let output = run(&config, &out, &[]);
    let log = stderr_log(&out, "attacker");
    assert!(!log.contains("uidreusesecret"), "{log}");
    assert_ne!(reported_uid(&out, "attacker"), Some(owner), "{log}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("sandbox of attacker: uid ") && err.contains("cannot read"),
        "{}",
        show(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
