//! The results folder is the arbiter's: a bot's `write` path that is or
//! holds it (`write = ["out"]` with the default `--out out/<stem>`) is
//! refused before any game, since the bot would own the folder where this
//! run's and later runs' results and logs are made and could plant links
//! there; the results folder and its `logs/` are never symbolic links. A
//! run refused for any bot changes no owner on the host, whatever the
//! order of the bots' tables.

use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};

use super::named::victim_program;
use super::spelled::attacker;
use super::*;

/// The owner and group of `path`.
fn owner(path: &Path) -> (u32, u32) {
    let meta = std::fs::symlink_metadata(path).unwrap();
    (meta.uid(), meta.gid())
}

/// A folder only its owner (the test) may write, for what a bot must not
/// reach.
fn host_folder(path: &Path) {
    std::fs::create_dir_all(path).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_write_path_holding_the_results_folder_is_refused_before_any_game() {
    let dir = folder("sandbox-results-in-write");
    let out = dir.join("out");
    host_folder(&dir.join("host"));
    std::fs::create_dir_all(out.join("old/logs")).unwrap();
    std::fs::write(out.join("old/logs/victim.stderr.log"), "oldsecret\n").unwrap();
    // The bot plants where the operator's next run's logs will go.
    let code =
        "mkdir -p \"$0/t2\"; ln -s ../../host \"$0/t2/logs\"; echo PLANTED >&2; exec \"$1\" random";
    let bot = attacker(code, &out, "sandbox = { write = [\"out\"] }\n");
    let config = write_config(&dir, &gauntlet(&bot));
    let output = run(&config, &out.join("t"), &[]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    assert!(
        err.contains("sandbox of attacker: its write path") && err.contains("is or holds"),
        "{err}"
    );
    assert_eq!(owner(&out), owner(&dir), "{}", show(&output));
    assert!(!out.join("t2").exists(), "{}", show(&output));
    assert_eq!(recorded(&out.join("t")), 0, "{}", show(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_results_folder_or_logs_folder_that_is_a_link_is_refused_and_nothing_written_there() {
    let dir = folder("sandbox-results-link");
    let bots = testbot("other", "random");
    let config = write_config(&dir, &gauntlet(&bots));
    for (results, link, target) in [
        ("out/t2", "out/t2/logs", "host"),
        ("out/t3", "out/t3", "host3"),
    ] {
        host_folder(&dir.join(target));
        std::fs::create_dir_all(dir.join(results).parent().unwrap()).unwrap();
        std::fs::create_dir_all(dir.join(results)).unwrap();
        if link == results {
            std::fs::remove_dir(dir.join(results)).unwrap();
        }
        symlink(dir.join(target), dir.join(link)).unwrap();
        let output = run(&config, &dir.join(results), &[]);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{}", show(&output));
        assert!(err.contains("not a symbolic link"), "{err}");
        let left: Vec<_> = std::fs::read_dir(dir.join(target)).unwrap().collect();
        assert!(left.is_empty(), "{left:?} {}", show(&output));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_refused_for_a_later_bot_gives_no_folder_to_an_earlier_one() {
    let dir = folder("sandbox-refused-gives-nothing");
    let victim = dir.join("victim");
    host_folder(&victim);
    let program = victim_program(&victim);
    // The attacker's table comes first: its `write` path (the victim's
    // folder) is refused only when the victim is registered.
    let bots = format!(
        "{}sandbox = {{ write = [\"victim\"] }}\n[[bot]]\nname = \"victim\"\ncommand = [{program:?}, \"random\"]\n",
        testbot("attacker", "random")
    );
    let config = write_config(&dir, &gauntlet(&bots));
    let output = run(&config, &dir.join("out"), &[]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    assert!(
        err.contains("lies in the own folder of bot victim"),
        "{err}"
    );
    assert_eq!(owner(&victim), owner(&dir), "{}", show(&output));
    assert_eq!(recorded(&dir.join("out")), 0, "{}", show(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}
