//! One identity per bot for the whole run: every process of a bot, in
//! every game, is the same user, whose `write` folders are its own, and
//! no other bot is ever that user or sees them; two bots may not share a
//! `write` folder.

use std::os::unix::fs::{MetadataExt, PermissionsExt};

use super::world::reported;
use super::*;

#[test]
fn a_bots_log_file_is_appended_across_twenty_games_and_its_note_stays_its_own() {
    let dir = folder("sandbox-identity");
    let m = marker("identity");
    let logs = dir.join("logger-data");
    std::fs::create_dir_all(&logs).unwrap();
    std::fs::set_permissions(&logs, std::fs::Permissions::from_mode(0o755)).unwrap();
    let logs_arg = logs.display().to_string();
    let write = format!("sandbox = {{ write = [{logs_arg:?}] }}\n");
    // Not given as a `read` path: a `write` path inside another bot's
    // `read` path is refused (the other would read what it plants).
    let bots = [
        hostile("logger", "notes.sh", &m, &["log", &logs_arg]) + &write,
        hostile("peeker", "notes.sh", &m, &["peek", &logs_arg]),
    ]
    .concat();
    // Ten pairs against each: twenty processes of the logger, each a game.
    let text = gauntlet(&bots).replace("pairs = 1\n", "pairs = 10\n");
    run_and_check(&dir, &m, &text, 2 * 10);
    let lines = std::fs::read_to_string(logs.join("log.txt")).unwrap();
    assert_eq!(lines.lines().count(), 20, "{lines}");
    let out = dir.join("out");
    let peeks = reported_lines(&out, "peeker", "peek: ");
    assert_eq!(peeks.len(), 20, "{peeks:?}");
    assert!(peeks.iter().all(|p| p == "refused"), "{peeks:?}");
    // The folder and the log are the logger's: a uid of the range under a
    // root arbiter (the arbiter's own otherwise).
    let owner = std::fs::metadata(&logs).unwrap().uid();
    assert_eq!(
        std::fs::metadata(logs.join("log.txt")).unwrap().uid(),
        owner
    );
    match this_uid() {
        0 => assert!((60000..=60999).contains(&owner), "{owner}"),
        me => assert_eq!(owner, me),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What the bot `name` reported after `prefix`, each line.
fn reported_lines(out: &Path, name: &str, prefix: &str) -> Vec<String> {
    let log = stderr_log(out, name);
    reported(&log, prefix)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// This process's uid.
fn this_uid() -> u32 {
    std::fs::metadata("/proc/self").unwrap().uid()
}

#[test]
fn a_write_folder_shared_by_two_bots_is_refused_naming_both() {
    let dir = folder("sandbox-shared-write");
    let shared = dir.join("shared/inner");
    std::fs::create_dir_all(&shared).unwrap();
    let bots = [
        testbot("first", "random") + "sandbox = { write = [\"shared\"] }\n",
        testbot("second", "random") + "sandbox = { write = [\"shared/inner\"] }\n",
    ]
    .concat();
    let config = write_config(&dir, &gauntlet(&bots));
    let output = run(&config, &dir.join("out"), &[]);
    assert!(!output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("sandbox of second: its write path")
            && stderr.contains("shared/inner is shared with bot first"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
