//! A bot's own folder is readable under the default sandbox, wherever the
//! bot lies and wherever the run starts: a Python bot of several files
//! reached through a symbolic link (Python looks for its modules beside
//! the link's target), a shell bot that sources a file beside itself. And
//! a folder too shared to open (a home directory) is refused before any
//! game, naming the bot, its command and the remedies.

use super::*;

/// The folders of one test: the tournament's, the bots' and the one the
/// run starts from, all different.
struct Layout {
    dir: PathBuf,
    tournament: PathBuf,
    bots: PathBuf,
    start: PathBuf,
}

fn layout(name: &str) -> Layout {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test needs python3: apt-get install -y python3"
    );
    let dir = folder(name);
    let [tournament, bots, start] = ["tournament", "bots", "start"].map(|d| dir.join(d));
    for d in [&tournament, &bots, &start] {
        std::fs::create_dir_all(d).unwrap();
    }
    Layout {
        dir,
        tournament,
        bots,
        start,
    }
}

/// The Python template, as `engine.py` in `folder`.
fn engine_in(folder: &Path) {
    python_template(folder, "engine.py");
}

/// Plays `bot` (a `[[bot]]` table named `mine`) against greedy from
/// `layout.start`, and checks both games were played to their end.
fn plays(layout: &Layout, bot: &str) {
    let config = format!(
        "[tournament]\npairs = 1\nstartup-timeout = \"30s\"\n\
         [time-control]\nbase = \"3s\"\nincrement = \"50ms\"\nmargin = \"100ms\"\n\
         {bot}options = {{ depth = 2 }}\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n"
    );
    let config = write_config(&layout.tournament, &config);
    let out = layout.dir.join("out");
    let output = Command::new(ABOURE)
        .args(run_args(&config, &out, &[]))
        .current_dir(&layout.start)
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    let games = games(&out);
    assert_eq!(games.len(), 2, "{}", stderr_log(&out, "mine"));
    for g in &games {
        assert_eq!(
            g["termination"],
            "natural",
            "{g}\n{}",
            stderr_log(&out, "mine")
        );
    }
}

#[test]
fn a_python_bot_of_several_files_elsewhere_imports_its_modules() {
    let layout = layout("own-python");
    // bots/multi holds the bot; bots/links/multi.py is a link to it, and
    // the command names the link, relative to the tournament's folder. A
    // link leads only into the bot's own places: the operator gives the
    // folder it leads to as a `read` path.
    let multi = layout.bots.join("multi");
    engine_in(&multi);
    std::fs::write(multi.join("bot.py"), "import engine\nengine.main()\n").unwrap();
    std::fs::create_dir_all(layout.bots.join("links")).unwrap();
    std::os::unix::fs::symlink(multi.join("bot.py"), layout.bots.join("links/multi.py")).unwrap();
    plays(
        &layout,
        "[[bot]]\nname = \"mine\"\ncommand = [\"python3\", \"../bots/links/multi.py\"]\n\
         sandbox = { read = [\"../bots/multi\"] }\n",
    );
    std::fs::remove_dir_all(&layout.dir).unwrap();
}

#[test]
fn a_shell_bot_sources_a_file_beside_itself() {
    let layout = layout("own-shell");
    let shell = layout.bots.join("shell");
    engine_in(&shell);
    std::fs::write(
        shell.join("bot.sh"),
        "here=$(dirname \"$0\")\n. \"$here/lib.sh\"\nplay\n",
    )
    .unwrap();
    std::fs::write(
        shell.join("lib.sh"),
        "play() { exec python3 \"$here/engine.py\"; }\n",
    )
    .unwrap();
    let bot = format!(
        "[[bot]]\nname = \"mine\"\ncommand = [\"sh\", {:?}]\nworkdir = {:?}\n",
        shell.join("bot.sh").display().to_string(),
        layout.start.display().to_string(),
    );
    plays(&layout, &bot);
    std::fs::remove_dir_all(&layout.dir).unwrap();
}

#[test]
fn a_program_named_from_a_workdir_that_climbs_with_dot_dot_starts() {
    // A compiled-style bot (an executable named by a relative path) whose
    // workdir climbs out of the tournament's folder: `workdir = ".."`, as a
    // file in `configs/` names programs from the repository's root.
    let layout = layout("own-dotdot");
    let prog = layout.dir.join("bots/prog");
    engine_in(&prog);
    let run = prog.join("run");
    std::fs::write(
        &run,
        "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/engine.py\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&run, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    plays(
        &layout,
        "[[bot]]\nname = \"mine\"\ncommand = [\"bots/prog/run\"]\nworkdir = \"..\"\n",
    );
    std::fs::remove_dir_all(&layout.dir).unwrap();
}

#[test]
fn a_bot_in_a_home_directory_is_refused_before_any_game() {
    let layout = layout("own-home");
    // The run's HOME: a bot whose script lies directly in it.
    let home = layout.dir.join("home");
    engine_in(&home);
    let script = home.join("engine.py");
    let config = format!(
        "[tournament]\npairs = 1\nstartup-timeout = \"30s\"\n\
         [time-control]\nbase = \"3s\"\nincrement = \"50ms\"\nmargin = \"100ms\"\n\
         [[bot]]\nname = \"mine\"\ncommand = [\"python3\", {:?}]\noptions = {{ depth = 2 }}\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n",
        script.display().to_string()
    );
    let config = write_config(&layout.tournament, &config);
    let out = layout.dir.join("out");
    let run = |extra: &str| {
        let text = std::fs::read_to_string(&config).unwrap();
        std::fs::write(
            &config,
            text.replace("}\n[[bot]]", &format!("}}\n{extra}[[bot]]")),
        )
        .unwrap();
        Command::new(ABOURE)
            .args(run_args(&config, &out, &[]))
            .env("HOME", &home)
            .env_remove("RUST_LOG")
            .output()
            .unwrap()
    };
    let output = run("");
    assert!(!output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    for part in [
        "bot[0].command",
        "bot \"mine\" (command: python3 ",
        "and it is a home directory",
        "`workdir`",
        "sandbox = { read = [...] }",
    ] {
        assert!(stderr.contains(part), "{part:?} in {stderr}");
    }
    assert!(!out.join("games.jsonl").exists(), "no game was played");
    // Allowed by name, it plays.
    let output = run(&format!(
        "sandbox = {{ read = [{:?}] }}\n",
        script.display().to_string()
    ));
    assert!(output.status.success(), "{}", show(&output));
    std::fs::remove_dir_all(&layout.dir).unwrap();
}
