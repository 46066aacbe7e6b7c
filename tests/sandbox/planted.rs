//! A link a bot's author planted among the paths its command names may
//! lead only where the bot's files are anyway (its own folder, its `read`
//! and `write` paths, the system's folders): one leading to any other host
//! file or folder (the seventh outside round's n12 and n13: another
//! tournament's file kept elsewhere, a folder beside it) is refused before
//! any game, naming the path, the link and where it leads. And a `write`
//! path in a system folder (n18), which the bot's uid would own, is
//! refused with the reason. Each through `aboure run`, checked from
//! outside: nothing of the host reaches the bot, nothing is given to it.

use std::os::unix::fs::{symlink, MetadataExt};

use super::named::{assert_refused, refused};
use super::spelled::attacker;
use super::*;

/// Another tournament kept outside this one's folder: its file (with a
/// bot's `env` key) and a secret beside it, and a script there that prints
/// the secret; returns the folder.
fn elsewhere(name: &str) -> PathBuf {
    let host = folder(name);
    std::fs::write(
        host.join("t.toml"),
        "[[bot]]\nname = \"x\"\nenv = { KEY = \"othertoml\" }\n",
    )
    .unwrap();
    std::fs::write(host.join("secret.txt"), "othersecret\n").unwrap();
    let cat = format!(
        "cat {:?} >&2; exec \"$1\" random\n",
        host.join("secret.txt").display().to_string()
    );
    std::fs::write(host.join("bot.sh"), cat).unwrap();
    host
}

#[test]
fn a_file_or_script_named_through_a_link_out_of_the_bots_folders_is_refused() {
    // (test folder, the link, what it points to in the other folder, the
    // attacker's table given the link, what must not reach the bot)
    type Table = fn(&Path) -> String;
    let data: Table = |link| attacker("cat \"$0\" >&2; exec \"$1\" random", link, "");
    let script: Table = |_| {
        format!(
            "[[bot]]\nname = \"attacker\"\ncommand = [\"sh\", \"attacker/run.sh\", {TESTBOT:?}]\n"
        )
    };
    let cases = [
        (
            "sandbox-planted-data",
            "attdata/notes.txt",
            "t.toml",
            data,
            "othertoml",
        ),
        (
            "sandbox-planted-script",
            "attacker/run.sh",
            "bot.sh",
            script,
            "othersecret",
        ),
    ];
    let mut seen = Vec::new();
    for (name, link, to, table, secret) in cases {
        let host = elsewhere(&format!("{name}-host"));
        let (output, dir) = refused(name, |dir| {
            let link = dir.join(link);
            std::fs::create_dir_all(link.parent().unwrap()).unwrap();
            symlink(host.join(to), &link).unwrap();
            table(&link)
        });
        let log = stderr_log(&dir.join("out"), "attacker");
        if log.contains(secret) {
            let start: String = log.chars().take(300).collect();
            seen.push(format!("{name}: {start}"));
        } else {
            assert_refused(&output, &dir, link);
            let err = String::from_utf8_lossy(&output.stderr);
            let leads = format!("leads to {}", host.join(to).display());
            assert!(err.contains(&leads), "{err}");
            assert!(err.contains("passes through the symbolic link"), "{err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&host).unwrap();
    }
    assert!(seen.is_empty(), "{seen:#?}");
}

#[test]
fn links_within_a_bots_folder_or_to_the_system_still_play() {
    let dir = folder("sandbox-planted-own");
    let own = dir.join("mine");
    std::fs::create_dir_all(own.join("src")).unwrap();
    // The script a link to one in its own folder, a data file a link
    // into /usr, as a virtualenv's `python3` is.
    let code = "cat \"$(dirname \"$0\")/src/note.txt\" >&2; exec \"$1\" random\n";
    std::fs::write(own.join("src/run.sh"), code).unwrap();
    std::fs::write(own.join("src/note.txt"), "my own note\n").unwrap();
    symlink("src/run.sh", own.join("run.sh")).unwrap();
    symlink("/usr/bin/env", own.join("tool")).unwrap();
    let bot = format!(
        "[[bot]]\nname = \"mine\"\ncommand = [\"sh\", \"mine/run.sh\", {TESTBOT:?}, \"mine/tool\"]\n"
    );
    let config = write_config(&dir, &gauntlet(&bot));
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(recorded(&out), 2, "{}", show(&output));
    let log = stderr_log(&out, "mine");
    assert!(log.contains("my own note"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The seventh outside round's n18: `write = ["/usr/local/bin"]` was
/// accepted and, as root, given to the bot's uid. A `write` path in a
/// system folder is refused before any game, and nothing is given. As
/// root in a folder of its own under `/usr/local/src` (a refusal missed
/// must change no folder of the host's); unprivileged `/usr/local/bin`
/// itself, which that user cannot change.
#[test]
fn a_write_path_in_a_system_folder_is_refused_and_nothing_given() {
    let root = std::fs::metadata("/proc/self").unwrap().uid() == 0;
    let made = PathBuf::from(format!(
        "/usr/local/src/aboure-test-write-{}",
        std::process::id()
    ));
    let bin = match root {
        true => made.join("bin"),
        false => PathBuf::from("/usr/local/bin"),
    };
    if root {
        std::fs::create_dir_all(&bin).unwrap();
    }
    let owner = |p: &Path| std::fs::metadata(p).map(|m| (m.uid(), m.gid())).unwrap();
    let before = owner(&bin);
    let (output, dir) = refused("sandbox-planted-system-write", |_| {
        let code = "touch \"$0/planted\"; exec \"$1\" random";
        let write = format!(
            "sandbox = {{ write = [{:?}] }}\n",
            bin.display().to_string()
        );
        attacker(code, &bin, &write)
    });
    let planted = bin.join("planted").exists();
    let after = owner(&bin);
    if root {
        let _ = std::fs::remove_dir_all(&made);
    }
    assert!(!planted, "{}", show(&output));
    assert_eq!(after, before, "{}", show(&output));
    assert_refused(&output, &dir, &bin.display().to_string());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("lies in or holds /usr"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
