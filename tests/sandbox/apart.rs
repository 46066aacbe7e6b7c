//! A bot's folders lie apart from the tournament's: a bot whose own
//! folder, `read` or `write` path is or holds the tournament file's
//! folder is refused before any game, and a build's folder (`aboure
//! check-bot --build` run from the wrong folder) that holds a tournament
//! file or a run's results is refused before it is built or given to the
//! bot's uid. Each checked from outside, after the command.

use std::os::unix::fs::{MetadataExt, PermissionsExt};

use super::*;

/// The honest bot's table, with a secret `env`.
fn honest_with(secret: &str) -> String {
    testbot("honest", "random --seed 7") + &format!("env = {{ API_KEY = {secret:?} }}\n")
}

/// A script at `path` that says it started, then plays honest moves.
fn script(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = format!("echo started >&2\nexec {TESTBOT:?} random --seed 3\n");
    std::fs::write(path, text).unwrap();
}

/// Opens `paths` (folders) to every user: the bot's uid reads them.
fn open(paths: &[&Path]) {
    for path in paths {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// The tenth outside round's c15, c19, c20 and c24: a bot whose own folder
/// was the tournament file's folder (or held it) read what appeared there
/// during the run (an editor's copy of the file, a later run's results) or
/// lay below it (another tournament's file, an old run's results), every
/// bot's `env` with them: masks are fixed when a process starts, over
/// what lies beside the file only. Such a bot is refused before any game,
/// naming its folder and the tournament file; a bot in a folder of its own
/// below the tournament's plays.
#[test]
fn a_bot_whose_folder_is_or_holds_the_tournament_folder_is_refused_before_any_game() {
    let dir = folder("sandbox-apart");
    let tf = dir.join("tf");
    let secret = format!("apartsecret{}", std::process::id());
    script(&tf.join("beside.sh"));
    script(&dir.join("above.sh"));
    script(&tf.join("bots/mine/bot.sh"));
    std::fs::create_dir_all(tf.join("archive/old")).unwrap();
    std::fs::write(tf.join("archive/old/run.json"), &secret).unwrap();
    open(&[&dir, &tf, &tf.join("bots"), &tf.join("bots/mine")]);
    let table = |command: &str, extra: &str| {
        format!("[[bot]]\nname = \"mine\"\ncommand = [\"sh\", {command:?}]\n{extra}")
    };
    let dir_text = dir.display().to_string();
    let cases = [
        ("own folder", tf.clone(), "is", table("beside.sh", "")),
        ("own folder", dir.clone(), "holds", table("../above.sh", "")),
        (
            "read path",
            dir.clone(),
            "holds",
            table(
                "bots/mine/bot.sh",
                &format!("sandbox = {{ read = [{dir_text:?}] }}\n"),
            ),
        ),
    ];
    for (what, path, relation, bot) in cases {
        let config = tf.join("tournament.toml");
        std::fs::write(&config, gauntlet_against(&honest_with(&secret), &bot)).unwrap();
        let out = tf.join("out/t");
        let output = run(&config, &out, &[]);
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{what}: {}", show(&output));
        let named = format!(
            "sandbox of mine: its {what} {} {relation} {}, the folder of {}",
            path.display(),
            tf.display(),
            config.display()
        );
        assert!(err.contains(&named), "{named:?} in {err}");
        assert!(err.contains("a folder of their own"), "{err}");
        assert_eq!(recorded(&out), 0, "{what}: {err}");
        assert!(!out.join("logs/mine.stderr.log").exists(), "{what}: {err}");
    }
    // Its files in a folder of their own: it plays.
    let config = tf.join("tournament.toml");
    let bot = table("bots/mine/bot.sh", "");
    std::fs::write(&config, gauntlet_against(&honest_with(&secret), &bot)).unwrap();
    let out = tf.join("out/ok");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(recorded(&out), 2, "{}", show(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The tenth outside round's c07: `check-bot --build` run from a ladder's
/// folder (its tournament file with every bot's `env`, its results) ran
/// the build there, writable, and as root gave the whole folder to the
/// bot's uid. A build's folder holding a tournament file (any file with a
/// `[[bot]]` line, at any depth) or a run's results is refused before the
/// build runs, naming what was found, and nothing there changes owner.
#[test]
fn a_check_bot_build_in_a_folder_holding_a_tournament_or_results_is_refused() {
    let dir = folder("sandbox-apart-build");
    let secret = format!("laddersecret{}", std::process::id());
    let key = format!("[[bot]]\nname = \"v\"\nenv = {{ API_KEY = {secret:?} }}\n");
    let cases: [(&str, &str, &str); 3] = [
        ("toml", "ladder.toml", "a tournament file"),
        ("deep", "archive/conf/ladder.conf", "a tournament file"),
        (
            "results",
            "out/ladder/games.jsonl",
            "a run's results folder",
        ),
    ];
    for (name, file, what) in cases {
        let ladder = dir.join(name);
        let path = ladder.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &key).unwrap();
        std::fs::create_dir_all(ladder.join("sub")).unwrap();
        let build = "cat *.toml */*/* > loot.txt 2>&1; echo built > built.txt\n";
        std::fs::write(ladder.join("sub/build.sh"), build).unwrap();
        let owner = |p: &Path| std::fs::metadata(p).unwrap().uid();
        let before = (owner(&ladder), owner(&path));
        let flags = ["--check", "handshake", "--build", "sh sub/build.sh"].map(str::to_owned);
        let output = super::build::check_bot(&ladder, &flags, &[TESTBOT, "random"]);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{name}: {}", show(&output));
        let found = match name {
            "results" => path.parent().unwrap().to_owned(),
            _ => path.clone(),
        };
        let named = format!(
            "its build's folder {} holds {} ({what}",
            ladder.display(),
            found.display()
        );
        assert!(err.contains(&named), "{named:?} in {err}");
        assert!(!ladder.join("built.txt").exists(), "{name}: the build ran");
        assert!(!ladder.join("loot.txt").exists(), "{name}: the build ran");
        assert_eq!((owner(&ladder), owner(&path)), before, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
