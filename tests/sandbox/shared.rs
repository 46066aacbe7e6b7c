//! Two bots that run one program or script share its folder, and only
//! when they are the same program: the same `env`, `wrapper`, `build`,
//! working directory and command up to the script (attacks b01, b05, b15
//! and b41 of the ninth outside round ran a stranger's code in another
//! bot's program through its `env`, or through a build the two shared).
//! And a `write` path inside another bot's own folder or `read` path,
//! where it would plant what the other imports, is refused (b97).

use std::os::unix::fs::PermissionsExt;

use super::*;

const SECRET: &str = "SECRET-of-the-victims-folder";

/// A tournament of `bots`, two games each pair, from `dir`'s files.
fn tournament(bots: &str) -> String {
    format!(
        "[tournament]\npairs = 1\nstartup-timeout = \"30s\"\n\
         [time-control]\nbase = \"3s\"\nincrement = \"50ms\"\nmargin = \"100ms\"\n{bots}"
    )
}

/// The victim's folder `vic` in `dir`: the Python template as `bot.py`,
/// the same as a program of its own (`engine`), and a secret file.
fn victim(dir: &Path) -> PathBuf {
    let vic = dir.join("vic");
    python_template(&vic, "bot.py");
    std::fs::write(vic.join("secret.txt"), SECRET).unwrap();
    let engine = vic.join("engine");
    let script = format!("#!/bin/sh\nexec python3 {}/bot.py \"$@\"\n", vic.display());
    std::fs::write(&engine, script).unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let evil = dir.join("evil");
    std::fs::create_dir_all(&evil).unwrap();
    let reads = format!(
        "import sys\nsys.stderr.write(open('{}/secret.txt').read())\n",
        vic.display()
    );
    std::fs::write(evil.join("sitecustomize.py"), reads).unwrap();
    vic
}

/// Runs `bots` and checks the run was refused before any game, naming
/// both bots and `key`, and that the secret is nowhere in the results.
#[track_caller]
fn refused(dir: &Path, bots: &str, key: &str) {
    let config = write_config(dir, &tournament(bots));
    let out = dir.join("out");
    let _ = std::fs::remove_dir_all(&out);
    let output = run(&config, &out, &[]);
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    assert!(
        said.contains("sandbox of vic") && said.contains("with bot atk") && said.contains(key),
        "{said}"
    );
    assert!(!out.join("games.jsonl").exists(), "{said}");
    let leaked = Command::new("grep")
        .args(["-rl", SECRET])
        .arg(&out)
        .output()
        .unwrap();
    assert!(leaked.stdout.is_empty(), "{}", show(&leaked));
}

#[test]
fn a_bot_running_another_bots_program_differently_is_refused_naming_both() {
    let dir = folder("sandbox-same-program");
    let vic = victim(&dir);
    let (script, engine) = (vic.join("bot.py"), vic.join("engine"));
    let evil = dir.join("evil");
    let python = |name: &str, before: &str, env: &str| {
        format!(
            "[[bot]]\nname = \"{name}\"\ncommand = [\"python3\", {before}\"{}\"]\n\
             env = {{ KEY = \"k\"{env} }}\nsandbox = {{ read = [\"{}\"] }}\n",
            script.display(),
            evil.display()
        )
    };
    let victim = python("vic", "", "");
    // b01: a sitecustomize.py of its own on PYTHONPATH.
    let path = format!(", PYTHONPATH = \"{}\"", evil.display());
    refused(
        &dir,
        &(python("atk", "", &path) + &victim),
        "their env differ",
    );
    // b15: env alone, no file of its own.
    let warn = ", PYTHONWARNINGS = \"ignore::antigravity.X\", BROWSER = \"/bin/sh -c 'cat secret.txt >&2' %s\"";
    refused(
        &dir,
        &(python("atk", "", warn) + &victim),
        "their env differ",
    );
    // The same as an interpreter's option before the script.
    let option = "\"-W\", \"ignore::antigravity.X\", ";
    let keys = "their command before the script differ";
    refused(&dir, &(python("atk", option, "") + &victim), keys);
    // b05: a program of its own, with a library preloaded into it.
    let program = |name: &str, env: &str| {
        format!(
            "[[bot]]\nname = \"{name}\"\ncommand = [\"{}\"]\nenv = {{ KEY = \"k\"{env} }}\n",
            engine.display()
        )
    };
    let preload = format!(", LD_PRELOAD = \"{}/evil.so\"", evil.display());
    refused(
        &dir,
        &(program("atk", &preload) + &program("vic", "")),
        "their env differ",
    );
    // The same program at two settings shares its folder and plays.
    let tuned = python("tuned", "", "") + "options = { depth = 1 }\n";
    let config = write_config(&dir, &tournament(&(tuned + &victim)));
    let out = dir.join("out-same");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let games = games(&out);
    assert_eq!(games.len(), 2, "{games:#?}");
    for g in &games {
        assert_eq!(g["termination"], "natural", "{g}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_two_bots_share_with_another_env_is_refused_before_it_runs() {
    let dir = folder("sandbox-shared-build");
    let vic = victim(&dir);
    std::fs::write(vic.join("build.sh"), "echo built > built.txt\n").unwrap();
    let bot = |name: &str, env: &str| {
        format!(
            "[[bot]]\nname = \"{name}\"\nworkdir = \"{}\"\ncommand = [\"python3\", \"bot.py\"]\n\
             build = [\"/bin/sh\", \"build.sh\"]\nenv = {{ KEY = \"k\"{env} }}\n",
            vic.display()
        )
    };
    // b41: the build runs once, as the first bot, with its env.
    let bash_env = format!(", BASH_ENV = \"{}/evil.sh\"", dir.join("evil").display());
    refused(
        &dir,
        &(bot("atk", &bash_env) + &bot("vic", "")),
        "their env differ",
    );
    assert!(!vic.join("built.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_write_path_in_another_bots_folder_or_read_path_is_refused_naming_both() {
    let dir = folder("sandbox-write-in-others");
    let vic = victim(&dir);
    let book = dir.join("book");
    std::fs::create_dir_all(vic.join("hb")).unwrap();
    std::fs::create_dir_all(book.join("w")).unwrap();
    let victim = format!(
        "[[bot]]\nname = \"vic\"\ncommand = [\"python3\", \"{}\"]\nsandbox = {{ read = [\"{}\"] }}\n",
        vic.join("bot.py").display(),
        book.display()
    );
    for (write, place) in [
        (vic.join("hb"), "own folder"),
        (book.join("w"), "read path"),
    ] {
        let atk = testbot("atk", "random")
            + &format!("sandbox = {{ write = [\"{}\"] }}\n", write.display());
        let config = write_config(&dir, &tournament(&(atk + &victim)));
        let out = dir.join("out");
        let output = run(&config, &out, &[]);
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{}", show(&output));
        let told = format!(
            "its write path {} lies in the {place} of bot vic",
            write.display()
        );
        assert!(
            said.contains("sandbox of atk") && said.contains(&told),
            "{said}"
        );
        assert!(!out.join("games.jsonl").exists(), "{said}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_two_bots_share_with_other_interpreter_options_is_refused_before_it_runs() {
    let dir = folder("sandbox-shared-build-options");
    let vic = victim(&dir);
    std::fs::write(vic.join("build.sh"), "echo built > built.txt\n").unwrap();
    let bot = |name: &str, before: &str| {
        format!(
            "[[bot]]\nname = \"{name}\"\nworkdir = \"{}\"\n\
             command = [\"python3\", {before}\"bot.py\"]\n\
             build = [\"/bin/sh\", \"build.sh\"]\nenv = {{ KEY = \"k\" }}\n",
            vic.display()
        )
    };
    // The variant of b41: one env, but an interpreter's option of its own
    // (the build would run as atk and hand it the folder before the games'
    // check refused the pair).
    let keys = "their command before the script differ";
    refused(
        &dir,
        &(bot("atk", "\"-X\", \"importtime\", ") + &bot("vic", "")),
        keys,
    );
    assert!(!vic.join("built.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
