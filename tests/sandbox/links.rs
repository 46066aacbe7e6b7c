//! Paths the bot can change are never followed by the privileged side: a
//! link planted in a `write` folder, where the bot's command names a file,
//! is not resolved by the arbiter at the next start; and another name of
//! the tournament file (a hard link, a copy given as a `read` path) is
//! refused. Each attack through `aboure run`, checked from outside.

use std::os::unix::fs::PermissionsExt;

use super::world::reported;
use super::*;

/// The other bot's `[[bot]]` table, named `honest`, with a secret `env`.
fn honest_with(secret: &str) -> String {
    testbot("honest", "random --seed 7") + &format!("env = {{ API_KEY = {secret:?} }}\n")
}

#[test]
fn a_link_planted_in_a_write_folder_is_not_followed_at_the_next_start() {
    let dir = folder("sandbox-plant");
    let m = marker("plant");
    let secret = format!("plantsecret{}", std::process::id());
    let data = dir.join("planter/data");
    std::fs::create_dir_all(data.join("w")).unwrap();
    let weights = data.join("w/weights.bin");
    std::fs::write(&weights, "weights v1\n").unwrap();
    // Writable by the bot's uid, whoever it is (no sticky bit: it may
    // move the folder away).
    for folder in [&data, &data.join("w")] {
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let weights_arg = weights.display().to_string();
    let write = format!(
        "sandbox = {{ write = [{:?}] }}\n",
        data.display().to_string()
    );
    let bots = hostile("planter", "plant.sh", &m, &[&weights_arg]) + &write;
    run_and_check(&dir, &m, &gauntlet_against(&honest_with(&secret), &bots), 1);
    let log = stderr_log(&dir.join("out"), "planter");
    // The first process read its weights and planted the link; the second
    // found the link, which leads nowhere in its world.
    assert_eq!(reported(&log, "planted: ").len(), 1, "{log}");
    let read = reported(&log, "weights: ");
    assert_eq!(read[0].trim(), "weights v1", "{log}");
    assert!(read[1].contains("No such file"), "{log}");
    assert!(!log.contains(&secret), "{log}");
    assert!(std::fs::symlink_metadata(&weights).unwrap().is_symlink());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sixth outside round (c12, c39, c13, c23): a `write` or `read` path
/// through a link in a folder a bot's author submitted (`attdata -> .`,
/// `attdata/cache -> /a/host/folder`) gave the bot the folder the link
/// leads to, owner and all as root: the arbiter's own binary folder, the
/// results folder, the other bot's program. Now the run stops before any
/// game, naming the path and the link, and nothing is given.
#[test]
fn a_read_or_write_path_through_a_link_stops_the_run_and_gives_nothing() {
    let dir = folder("sandbox-path-link");
    let m = marker("pathlink");
    let host = dir.join("host-folder");
    std::fs::create_dir_all(&host).unwrap();
    std::fs::set_permissions(&host, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(dir.join("attdata")).unwrap();
    std::os::unix::fs::symlink(&host, dir.join("attdata/cache")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("attdata/here")).unwrap();
    let owner = |p: &Path| std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(p).unwrap());
    let before = owner(&host);
    for (key, path, link) in [
        ("write", "attdata/cache/sub", "attdata/cache"),
        ("write", "attdata/cache", "attdata/cache"),
        ("read", "attdata/here/honest", "attdata/here"),
    ] {
        std::fs::create_dir_all(host.join("sub")).unwrap();
        let bots = hostile(
            "linker",
            "writer.sh",
            &m,
            &[&dir.join(path).display().to_string()],
        ) + &format!("sandbox = {{ {key} = [{path:?}] }}\n");
        let config = write_config(&dir, &gauntlet(&bots));
        let out = dir.join("out");
        let output = run(&config, &out, &[]);
        let text = show(&output);
        assert!(!output.status.success(), "{key} {path}: {text}");
        let named = format!("symbolic link {}", dir.join(link).display());
        assert!(text.contains(&named), "{named:?} in {text}");
        assert!(!out.join("games.jsonl").exists(), "{text}");
        assert_eq!(owner(&host), before, "{key} {path}");
        assert_eq!(owner(&host.join("sub")), before, "{key} {path}");
        assert_eq!(std::fs::read_dir(host.join("sub")).unwrap().count(), 0);
    }
    assert_no_survivors(&m, Duration::from_secs(5));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sixth outside round's c01 and c13 (`hard`): a hard link to the
/// tournament file in a bot's own folder (named nowhere) or given as its
/// `read` path was read whole, every bot's `env` with it; the seventh's
/// n10 and n11: one in a `write` folder was read, and written through
/// (`[sandbox] mode = "off"` for the next run). Another name of the
/// tournament file or of a result is refused before any game.
#[test]
fn a_hard_link_to_the_tournament_file_in_a_bots_folder_or_read_path_is_refused() {
    for kind in ["own", "read", "write"] {
        let dir = folder(&format!("sandbox-hard-toml-{kind}"));
        let own = dir.join("attacker");
        std::fs::create_dir_all(&own).unwrap();
        std::fs::create_dir_all(dir.join("cache")).unwrap();
        let program = own.join("bot");
        std::fs::copy(TESTBOT, &program).unwrap();
        let (copy, allow) = match kind {
            "read" => (
                dir.join("weights.bin"),
                "sandbox = { read = [\"weights.bin\"] }\n",
            ),
            "write" => (
                dir.join("cache/notes.txt"),
                "sandbox = { write = [\"cache\"] }\n",
            ),
            _ => (own.join("notes.txt"), ""),
        };
        let text = gauntlet_against(
            &honest_with("hardsecret"),
            &format!(
                "[[bot]]\nname = \"attacker\"\ncommand = [{:?}, \"random\"]\n{allow}",
                program.display().to_string()
            ),
        );
        let config = write_config(&dir, &text);
        std::fs::hard_link(&config, &copy).unwrap();
        let out = dir.join("out");
        let output = run(&config, &out, &[]);
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{}", show(&output));
        assert!(err.contains("sandbox of attacker"), "{err}");
        assert!(err.contains(&copy.display().to_string()), "{err}");
        assert!(err.contains("the tournament file"), "{err}");
        // Its command names no such file: the refusal says where it lies.
        let (place, folder) = match kind {
            "read" => ("its read path", copy.clone()),
            "write" => ("its write path", dir.join("cache")),
            _ => ("its own folder", own.clone()),
        };
        let found = format!("{place} {}", folder.display());
        assert!(err.contains(&found), "{kind}: {err}");
        assert!(!err.contains("its command opens"), "{kind}: {err}");
        assert_eq!(recorded(&out), 0, "{}", show(&output));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The seventh outside round's c35 and n01 `deep`: the search for hard
/// links stopped after its bound of entries, and a link placed past it (to
/// the tournament file in a `read` folder, or to another bot's file in the
/// bot's own) was read whole. A bot's folders and paths too large to
/// search whole are refused, naming the bound (the same search for both).
#[test]
fn a_folder_too_large_to_search_for_hard_links_is_refused_naming_the_bound() {
    let dir = folder("sandbox-hard-deep");
    let own = dir.join("attacker");
    let data = dir.join("data");
    std::fs::create_dir_all(data.join("many")).unwrap();
    std::fs::create_dir_all(data.join("zz")).unwrap();
    std::fs::create_dir_all(&own).unwrap();
    for i in 0..=aboure_sandbox::LINK_SEARCH {
        std::fs::File::create(data.join("many").join(i.to_string())).unwrap();
    }
    let program = own.join("bot");
    std::fs::copy(TESTBOT, &program).unwrap();
    let text = gauntlet_against(
        &honest_with("deepsecret"),
        &format!(
            "[[bot]]\nname = \"attacker\"\ncommand = [{:?}, \"random\"]\n\
             sandbox = {{ read = [\"data\"] }}\n",
            program.display().to_string()
        ),
    );
    let config = write_config(&dir, &text);
    std::fs::hard_link(&config, data.join("zz/w.bin")).unwrap();
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    assert!(err.contains("sandbox of attacker"), "{err}");
    assert!(err.contains("too large to search for hard links"), "{err}");
    let bound = format!("more than {} entries", aboure_sandbox::LINK_SEARCH);
    assert!(err.contains(&bound), "{err}");
    assert_eq!(recorded(&out), 0, "{}", show(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sixth outside round's c13 (`hard`), as it ran: the hard link was
/// made, then the tournament file rewritten as a new file, so the `read`
/// path was an old copy of it (every bot's `env`), the same file no more.
/// A `read` file with `[[bot]]` tables is a tournament file, whatever its
/// name: refused before any game.
#[test]
fn a_read_path_that_is_a_copy_of_a_tournament_file_is_refused() {
    let dir = folder("sandbox-read-copy");
    let copy = dir.join("weights.bin");
    std::fs::write(
        &copy,
        "[[bot]]\nname = \"victim\"\nenv = { KEY = \"copysecret\" }\n",
    )
    .unwrap();
    let bots = testbot("attacker", "random --seed 5") + "sandbox = { read = [\"weights.bin\"] }\n";
    let config = write_config(&dir, &gauntlet(&bots));
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    assert!(err.contains("sandbox of attacker"), "{err}");
    assert!(err.contains(&copy.display().to_string()), "{err}");
    assert_eq!(recorded(&out), 0, "{}", show(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}
