//! A bot that dies at start-up under the sandbox is told why: the record
//! of its forfeit and the run's warning quote the end of its stderr in
//! full and say what the sandbox allowed (what it could read, the
//! environment it had, no network) and which key allows more; check-bot
//! says the same, and its `--env` gives the bot what a tournament's `env`
//! gives it.

use std::os::unix::fs::PermissionsExt;

use super::*;

/// A Python bot in `dir/bot` that imports `helper` from a library in
/// `dir/lib`, found through `PYTHONPATH`: outside its own folder.
fn bot_with_a_library(dir: &Path) -> (PathBuf, PathBuf) {
    let (bot, lib) = (dir.join("bot"), dir.join("lib"));
    for d in [&bot, &lib] {
        std::fs::create_dir_all(d).unwrap();
    }
    python_template(&lib, "helper.py");
    std::fs::write(bot.join("main.py"), "import helper\nhelper.main()\n").unwrap();
    (bot.join("main.py"), lib)
}

#[test]
fn a_bot_refused_a_read_at_start_up_is_told_what_the_sandbox_allowed() {
    let dir = folder("explain-read");
    let (script, lib) = bot_with_a_library(&dir);
    let bot = |extra: &str| {
        format!(
            "[[bot]]\nname = \"mine\"\ncommand = [\"python3\", {:?}]\n\
             env = {{ PYTHONPATH = {:?} }}\noptions = {{ depth = 2 }}\n{extra}",
            script.display().to_string(),
            lib.display().to_string()
        )
    };
    let config = |extra: &str| {
        format!(
            "[tournament]\npairs = 1\nstartup-timeout = \"30s\"\n\
             [time-control]\nbase = \"3s\"\nincrement = \"50ms\"\nmargin = \"100ms\"\n{}\
             [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n",
            bot(extra)
        )
    };
    let out = dir.join("out");
    let output = run(&write_config(&dir, &config("")), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let forfeits = games(&out);
    assert_eq!(forfeits.len(), 2);
    for g in &forfeits {
        assert_eq!(g["termination"], "startup_failure", "{g}");
        let detail = g["detail"].as_str().unwrap();
        for part in [
            "exited with status 1; its last 4 lines on stderr:\n  | Traceback",
            "Traceback (most recent call last):",
            "\n  | ModuleNotFoundError: No module named 'helper'\n",
            "\nthe sandbox let it read only the system folders (/usr, /bin, /lib, a few files of /etc) and ",
            &format!("{}; write only its private /tmp (256 MiB);", script.parent().unwrap().display()),
            "its environment was only HOME, LANG, PATH, PYTHONPATH, TMPDIR; network off; no memory limit",
            "To allow more: `sandbox = { read = [\"PATH\"] }`",
            "`env = { NAME = \"VALUE\" }`",
            "`workdir`",
        ] {
            assert!(detail.contains(part), "{part:?} in\n{detail}");
        }
    }
    // The run's warning quotes the first forfeit, sandbox and all.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("WARNING: mine forfeited 2 of its 2 games"),
        "{stdout}"
    );
    assert!(stdout.contains("  its first forfeit here: "), "{stdout}");
    assert!(
        stdout.contains("ModuleNotFoundError: No module named 'helper'"),
        "{stdout}"
    );
    assert!(stdout.contains("network off"), "{stdout}");
    // Allowed to read its library, it plays.
    std::fs::remove_dir_all(&out).unwrap();
    let allowed = format!("sandbox = {{ read = [{:?}] }}\n", lib.display().to_string());
    let output = run(&write_config(&dir, &config(&allowed)), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    for g in games(&out) {
        assert_eq!(g["termination"], "natural", "{g}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_bot_passes_the_environment_of_env_and_explains_a_bot_that_lacks_it() {
    let dir = folder("explain-env");
    let bot = dir.join("bot");
    std::fs::create_dir_all(&bot).unwrap();
    python_template(&bot, "engine.py");
    let script = bot.join("bot.sh");
    std::fs::write(
        &script,
        "[ -n \"$MANCALA_GAMES_DIR\" ] || { echo 'bot: MANCALA_GAMES_DIR is not set' >&2; exit 2; }\n\
         exec python3 \"$(dirname \"$0\")/engine.py\"\n",
    )
    .unwrap();
    let check = |flags: &[&str]| {
        Command::new(ABOURE)
            .arg("check-bot")
            .args(["--check", "handshake"])
            .args(flags)
            .arg("--")
            .args(["sh", script.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let output = check(&[]);
    assert!(!output.status.success(), "{}", show(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    for part in [
        "FAIL handshake: ",
        "warning: if the bot needs more: the sandbox let it read only",
        "its environment was only HOME, LANG, PATH, TMPDIR;",
        "(check-bot --env NAME=VALUE)",
        "bot: MANCALA_GAMES_DIR is not set",
    ] {
        assert!(stdout.contains(part), "{part:?} in\n{stdout}");
    }
    let output = check(&["--env", "MANCALA_GAMES_DIR=/games"]);
    assert!(output.status.success(), "{}", show(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("PASS handshake"));
    let output = check(&["--env", "=x"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("\"=x\" is not KEY=VALUE"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bots_report_of_a_fatal_problem_is_recorded_in_full() {
    let dir = folder("explain-report");
    let bot = dir.join("bot");
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(
        bot.join("bot.sh"),
        crate::check_bot_misbehaving::REPORTING_BOT,
    )
    .unwrap();
    let config = "[tournament]\npairs = 1\n\
         [[bot]]\nname = \"reporter\"\ncommand = [\"sh\", \"bot/bot.sh\"]\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n";
    let out = dir.join("out");
    let output = run(&write_config(&dir, config), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let played = games(&out);
    assert_eq!(played.len(), 2);
    for g in &played {
        assert_eq!(g["termination"], "crash", "{g}");
        let detail = g["detail"].as_str().unwrap();
        // The whole line, up to its closing quote, and its exit status.
        let report = "; the bot reported: \"my rules disagree with: position startpos moves ";
        assert!(detail.contains("exited with status 3"), "{detail}");
        assert!(detail.contains(report), "{report:?} in\n{detail}");
        assert!(detail
            .split(report)
            .nth(1)
            .is_some_and(|rest| rest.contains('"')));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Python bot in `dir/bot` that, before it plays, does what `mode`
/// says: `log` appends to `bot.log` in the folder it starts in, `logs`
/// to `logs/bot.log` there, `data` reads `data.txt` there.
fn bot_that_opens(dir: &Path) -> PathBuf {
    let bot = dir.join("bot");
    python_template(&bot, "engine.py");
    let main = bot.join("main.py");
    std::fs::write(
        &main,
        "import os, runpy, sys\n\
         mode = sys.argv[1]\n\
         if mode == 'log': open('bot.log', 'a').write('started\\n')\n\
         if mode == 'logs': open('logs/bot.log', 'a').write('started\\n')\n\
         if mode == 'data': open('data.txt').read()\n\
         sys.argv = sys.argv[:1]\n\
         runpy.run_path(os.path.join(os.path.dirname(__file__), 'engine.py'), run_name='__main__')\n",
    )
    .unwrap();
    main
}

/// The details of the games `name` lost, from the run in `out`.
fn forfeits_of(out: &Path, name: &str) -> Vec<String> {
    games(out)
        .iter()
        .filter(|g| loser(g) == Some(name))
        .map(|g| g["detail"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn a_refused_write_names_the_write_key_and_the_folder_the_bot_started_in() {
    let dir = folder("explain-write");
    let main = bot_that_opens(&dir);
    std::fs::create_dir_all(dir.join("logs")).unwrap();
    let bot = |name: &str, mode: &str, extra: &str| {
        format!(
            "[[bot]]\nname = \"{name}\"\ncommand = [\"python3\", {:?}, \"{mode}\"]\n\
             options = {{ depth = 1 }}\n{extra}",
            main.display().to_string()
        )
    };
    let config = |extra: &str| {
        format!(
            "[tournament]\nformat = \"gauntlet\"\ngauntlet-bot = \"greedy\"\npairs = 1\n\
             startup-timeout = \"30s\"\n[time-control]\nbase = \"3s\"\nincrement = \"50ms\"\n\
             [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n{}{}",
            bot("log", "log", ""),
            bot("logs", "logs", extra)
        )
    };
    let out = dir.join("out");
    let output = run(&write_config(&dir, &config("")), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let workdir = dir.display().to_string();
    // A write in the folder it starts in: refused by the sandbox.
    let details = forfeits_of(&out, "log");
    assert_eq!(details.len(), 2, "{details:?}");
    for detail in &details {
        for part in [
            "'bot.log'",
            &format!(
                "; it started in {workdir} (the same path as on the host, but empty in the \
                 sandbox except for the bot's own files)"
            ),
            "`sandbox = { write = [\"PATH\"] }` for a folder it writes, such as its logs",
        ] {
            assert!(detail.contains(part), "{part:?} in\n{detail}");
        }
    }
    // A write in a folder the sandbox does not show: its words, and never
    // whether the host has the file (the host is asked only about what
    // the bot may see: its binds and what lies right in its workdir).
    let details = forfeits_of(&out, "logs");
    assert_eq!(details.len(), 2, "{details:?}");
    for detail in &details {
        let part = "`sandbox = { write = [\"PATH\"] }` for a folder it writes, such as its logs";
        assert!(detail.contains(part), "{part:?} in\n{detail}");
        assert!(!detail.contains("no such file on the host"), "{detail}");
    }
    // Given the folder, it plays.
    std::fs::remove_dir_all(&out).unwrap();
    let granted = "sandbox = { write = [\"logs\"] }\n";
    let output = run(&write_config(&dir, &config(granted)), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    assert!(forfeits_of(&out, "logs").is_empty(), "{}", show(&output));
    assert!(dir.join("logs/bot.log").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_missing_on_the_host_too_is_said_so_instead_of_sandbox_advice() {
    let dir = folder("explain-missing");
    let main = bot_that_opens(&dir);
    let config = format!(
        "[tournament]\npairs = 1\nstartup-timeout = \"30s\"\n\
         [time-control]\nbase = \"3s\"\nincrement = \"50ms\"\n\
         [[bot]]\nname = \"data\"\ncommand = [\"python3\", {:?}, \"data\"]\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n",
        main.display().to_string()
    );
    let out = dir.join("out");
    let output = run(&write_config(&dir, &config), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    // Right in the folder the bot started in, which the sandbox shows
    // empty: the same words whether the host has the file or not (see
    // `a_name_where_the_bot_starts_that_it_cannot_see_gets_the_same_detail_present_or_not`).
    let missing = format!(
        "no such file in the bot's sandbox: {}/data.txt (the bot started in {},",
        dir.display(),
        dir.display()
    );
    let details = forfeits_of(&out, "data");
    assert_eq!(details.len(), 2, "{details:?}");
    for detail in &details {
        assert!(detail.contains("FileNotFoundError"), "{detail}");
        assert!(detail.contains(&missing), "{missing:?} in\n{detail}");
        assert!(!detail.contains("the sandbox let it"), "{detail}");
    }
    // check-bot, started in the same folder, says the same; a refused
    // write there gets the sandbox's words and the `--write` flag.
    let check = |mode: &str| {
        Command::new(ABOURE)
            .args(["check-bot", "--check", "handshake", "--", "python3"])
            .arg(&main)
            .arg(mode)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let output = check("data");
    assert!(!output.status.success(), "{}", show(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(&format!("warning: {missing}")),
        "{missing:?} in\n{stdout}"
    );
    assert!(!stdout.contains("the sandbox let it"), "{stdout}");
    let output = check("log");
    assert!(!output.status.success(), "{}", show(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    for part in [
        "warning: if the bot needs more: the sandbox let it",
        &format!("; it started in {}", dir.display()),
        "`sandbox = { write = [\"PATH\"] }` for a folder it writes, such as its logs (check-bot --write PATH)",
    ] {
        assert!(stdout.contains(part), "{part:?} in\n{stdout}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bots_stderr_cannot_forge_lines_of_the_report() {
    // Attack 41 of the outside review: a bot that fails at start-up with a
    // fake standings row and a fake note on stderr.
    let dir = folder("explain-forged");
    let code = "printf 'x\\nRank  Bot  Elo (forged)\\n   1  forger  +999\\nNOTE: honest was disqualified\\n' >&2; exit 1";
    let config = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"20ms\"\n\
         [[bot]]\nname = \"forger\"\ncommand = [\"sh\", \"-c\", {code:?}]\n{}",
        testbot("honest", "random")
    );
    let out = dir.join("out");
    let output = aboure(&[
        "run",
        write_config(&dir, &config).to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", show(&output));
    let report = std::fs::read_to_string(out.join("report.txt")).unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    for (name, text) in [("report.txt", &report), ("stdout", &stdout)] {
        assert!(
            text.contains("\n  | NOTE: honest was disqualified"),
            "{name}: {text}"
        );
        for line in text.lines() {
            let forged = [
                "NOTE: honest",
                "   1  forger  +999",
                "Rank  Bot  Elo (forged)",
            ];
            assert!(
                !forged.iter().any(|f| line.starts_with(f)),
                "{name}: forged line {line:?} in {text}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn line_separators_in_a_bots_stderr_reach_the_report_written_out() {
    // Attack 82 of the outside review: U+2028 and U+2029 passed raw, and a
    // reader that splits lines as Unicode does saw forged notes.
    let dir = folder("explain-separators");
    // Two lines, so that they are quoted as lines (`  | `).
    let code = "printf 'x\\342\\200\\250NOTE: honest was disqualified\\ny\\342\\200\\251NOTE: again\\n' >&2; exit 1";
    let config = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"20ms\"\n\
         [[bot]]\nname = \"forger\"\ncommand = [\"sh\", \"-c\", {code:?}]\n{}",
        testbot("honest", "random")
    );
    let out = dir.join("out");
    let output = aboure(&[
        "run",
        write_config(&dir, &config).to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", show(&output));
    let report = std::fs::read_to_string(out.join("report.txt")).unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    for (name, text) in [("report.txt", &report), ("stdout", &stdout)] {
        assert!(
            text.contains("  | x\\u{2028}NOTE: honest was disqualified\n  | y\\u{2029}NOTE: again"),
            "{name}: {text}"
        );
        assert!(
            !text.contains(['\u{2028}', '\u{2029}']),
            "{name} holds a raw separator: {text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The details of the forfeits of a bot that reports `path` missing (from
/// its environment: a path its command named would be bound, and refused
/// here) and exits, run in `dir` into `out`.
fn forfeits_naming(dir: &Path, path: &Path, out: &str) -> Vec<String> {
    forfeits_naming_with(dir, path, out, "")
}

/// [`forfeits_naming`] with `extra` in the prober's `[[bot]]` table.
fn forfeits_naming_with(dir: &Path, path: &Path, out: &str, extra: &str) -> Vec<String> {
    let script = dir.join("bot/fail.sh");
    std::fs::create_dir_all(script.parent().unwrap()).unwrap();
    std::fs::write(
        &script,
        "#!/bin/sh\necho \"FileNotFoundError: [Errno 2] No such file or directory: '$TARGET'\" >&2\n\
         exit 1\n",
    )
    .unwrap();
    let config = format!(
        "[tournament]\npairs = 1\nstartup-timeout = \"30s\"\n\
         [time-control]\nbase = \"3s\"\nincrement = \"50ms\"\n\
         [[bot]]\nname = \"prober\"\ncommand = [\"sh\", {:?}]\nenv = {{ TARGET = {:?} }}\n{extra}\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n",
        script.display().to_string(),
        path.display().to_string()
    );
    let out = dir.join(out);
    let output = run(&write_config(dir, &config), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    forfeits_of(&out, "prober")
}

/// The outside round's finding 4: the hint of a missing file looked the
/// path up with the arbiter's credentials, wherever it was, so a bot told
/// a file present in a folder it may not enter (`0700`) from an absent
/// one. Now such a path gets the same words either way.
#[test]
fn a_file_in_a_folder_the_bot_may_not_see_gets_the_same_detail_present_or_not() {
    let dir = folder("explain-oracle");
    let vault = folder("explain-oracle-vault").join("vault");
    std::fs::create_dir_all(&vault).unwrap();
    std::fs::set_permissions(&vault, std::fs::Permissions::from_mode(0o700)).unwrap();
    let secret = vault.join("present.txt");
    std::fs::write(&secret, "secret\n").unwrap();
    let present = forfeits_naming(&dir, &secret, "out-present");
    std::fs::remove_file(&secret).unwrap();
    let absent = forfeits_naming(&dir, &secret, "out-absent");
    assert_eq!(present.len(), 2, "{present:?}");
    assert_eq!(after_the_exit(&present), after_the_exit(&absent));
    for detail in &present {
        assert!(detail.contains("FileNotFoundError"), "{detail}");
        assert!(!detail.contains("no such file on the host"), "{detail}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(vault.parent().unwrap()).unwrap();
}

/// The details without how the arbiter first saw the bot gone (a closed
/// output or a broken pipe, a race of no interest here).
fn after_the_exit(details: &[String]) -> Vec<&str> {
    (details.iter())
        .map(|d| d.find("exited with").map_or(d.as_str(), |at| &d[at..]))
        .collect()
}

/// The fifth outside round's b08: as root, a file in a root-only folder
/// (`0700`) inside a bot's `read` path was looked up with the arbiter's
/// credentials, so the detail told it present from absent. The lookup is
/// the bot's own now: the folder stops it either way.
#[test]
fn a_file_in_a_root_only_folder_of_a_read_path_gets_the_same_detail_present_or_not() {
    assert!(
        std::os::unix::fs::MetadataExt::uid(&std::fs::metadata("/proc/self").unwrap()) == 0,
        "the folder must be another uid's than the bot's: run this test as root"
    );
    let dir = folder("explain-read-vault");
    let vault = dir.join("pub/priv");
    std::fs::create_dir_all(&vault).unwrap();
    std::fs::set_permissions(dir.join("pub"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&vault, std::fs::Permissions::from_mode(0o700)).unwrap();
    let secret = vault.join("present.key");
    std::fs::write(&secret, "k\n").unwrap();
    let read = "sandbox = { read = [\"pub\"] }\n";
    let present = forfeits_naming_with(&dir, &secret, "out-present", read);
    std::fs::remove_file(&secret).unwrap();
    let absent = forfeits_naming_with(&dir, &secret, "out-absent", read);
    assert_eq!(present.len(), 2, "{present:?}");
    assert_eq!(after_the_exit(&present), after_the_exit(&absent));
    for detail in &present {
        assert!(!detail.contains("no such file on the host"), "{detail}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same round: a name right in the folder the bot starts in, which its
/// sandbox shows empty but for its own files, got a detail that told a
/// file there (mode `0600`) from none. The detail is the same now,
/// present or not.
#[test]
fn a_name_where_the_bot_starts_that_it_cannot_see_gets_the_same_detail_present_or_not() {
    let dir = folder("explain-beside");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "n\n").unwrap();
    std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o600)).unwrap();
    let present = forfeits_naming(&dir, &notes, "out-present");
    std::fs::remove_file(&notes).unwrap();
    let absent = forfeits_naming(&dir, &notes, "out-absent");
    assert_eq!(present.len(), 2, "{present:?}");
    assert_eq!(after_the_exit(&present), after_the_exit(&absent));
    for detail in &present {
        assert!(!detail.contains("no such file on the host"), "{detail}");
        assert!(detail.contains(&notes.display().to_string()), "{detail}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
