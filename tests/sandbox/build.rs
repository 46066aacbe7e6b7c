//! A bot's build step runs in its bot's cage: it writes only its folder,
//! its `write` paths and a private `/tmp`, reads neither the tournament
//! file nor another bot's files, has no network, and the sandbox's checks
//! of its folder run before it (checked from outside, after the run). Its
//! output reaches the operator's terminal only written out, and its log
//! is capped as a bot's stderr log is.

use std::os::unix::fs::symlink;

use super::*;

/// The `[[bot]]` table of `builder`, built in `folder` (relative to the
/// tournament file) by `sh build.sh`, playing the test bot's random mover;
/// `env` is added to its `env`.
fn builder(folder: &str, env: &str) -> String {
    format!(
        "[[bot]]\nname = \"builder\"\ncommand = [{TESTBOT:?}, \"random\", \"--seed\", \"3\"]\n\
         workdir = {folder:?}\nbuild = [\"sh\", \"build.sh\"]\nenv = {{ {env} }}\n"
    )
}

/// The honest bot, a script in `dir/other` beside a file of its own,
/// `secret.txt`; returns its table.
fn other_bot(dir: &Path) -> String {
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("secret.txt"), "the other bot's secret\n").unwrap();
    let script = other.join("bot.sh");
    std::fs::write(&script, format!("exec {TESTBOT:?} random --seed 7\n")).unwrap();
    format!(
        "[[bot]]\nname = \"honest\"\ncommand = [\"sh\", {:?}]\n",
        script.display().to_string()
    )
}

/// Runs `config` in `dir` (not quiet: the build's line is shown).
fn run_loud(config: &Path, out: &Path) -> std::process::Output {
    Command::new(ABOURE)
        .args([
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

#[test]
fn a_build_writes_only_its_folder_reads_no_secret_and_has_no_network() {
    let dir = folder("sandbox-build-attacks");
    let m = marker("build");
    let own = dir.join("bot");
    std::fs::create_dir_all(&own).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/build.sh");
    std::fs::copy(script, own.join("build.sh")).unwrap();
    let honest = other_bot(&dir);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let toml = dir.join("tournament.toml");
    let env = format!(
        "MARKER = {m:?}, TOURNAMENT = {:?}, OTHER = {:?}, PORT = \"{port}\"",
        toml.display().to_string(),
        dir.join("other/secret.txt").display().to_string()
    );
    let config = write_config(&dir, &gauntlet_against(&honest, &builder("bot", &env)));
    let out = dir.join("out");
    let output = run_loud(&config, &out);
    let pwned = PathBuf::from(format!("/tmp/aboure-build-{m}"));
    let wrote_tmp = pwned.exists();
    let _ = std::fs::remove_file(&pwned);
    assert!(output.status.success(), "{}", show(&output));
    let log = std::fs::read_to_string(out.join("build-builder.log")).unwrap();
    let read = |name: &str| std::fs::read_to_string(own.join(name)).unwrap_or_default();
    assert_eq!(
        read("built.txt"),
        "built\n",
        "it built in its folder: {log}"
    );
    assert!(!wrote_tmp, "the build wrote the host's /tmp: {log}");
    assert!(
        !dir.join("planted-by-build").exists(),
        "the build wrote beside the tournament file: {log}"
    );
    assert!(!read("stolen-tournament.txt").contains("[[bot]]"), "{log}");
    assert!(!read("stolen-other.txt").contains("secret"), "{log}");
    listener.set_nonblocking(true).unwrap();
    let connected = listener.accept();
    assert!(
        connected
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::WouldBlock),
        "the build connected to 127.0.0.1:{port}: {connected:?}; {log}"
    );
    assert!(log.contains("build: no network"), "{log}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = format!(
        "building builder: sh build.sh (in {}), in the sandbox",
        own.display()
    );
    assert!(stderr.contains(&line), "{line:?} in {stderr}");
    assert_eq!(games(&out).len(), 2, "and the games were played");
    print_layers(&out);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_in_the_tournament_files_folder_is_refused_before_it_runs() {
    let dir = folder("sandbox-build-beside");
    std::fs::write(dir.join("build.sh"), "echo ran > ran.txt\n").unwrap();
    let honest = testbot("honest", "random --seed 7");
    let config = write_config(&dir, &gauntlet_against(&honest, &builder(".", "")));
    let out = dir.join("out");
    let output = run_loud(&config, &out);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!dir.join("ran.txt").exists(), "the build ran: {stderr}");
    assert!(!output.status.success(), "{}", show(&output));
    assert!(
        stderr.contains("the sandbox refuses the bots' builds")
            && stderr.contains("tournament.toml"),
        "{stderr}"
    );
    assert!(!out.join("games.jsonl").exists(), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_folder_through_a_planted_link_is_refused_before_it_runs() {
    let dir = folder("sandbox-build-link");
    let victim = dir.join("victim");
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::create_dir_all(dir.join("attdata")).unwrap();
    symlink("../victim", dir.join("attdata/wd")).unwrap();
    std::fs::write(victim.join("build.sh"), "echo ran > ran.txt\n").unwrap();
    let honest = testbot("honest", "random --seed 7");
    let config = write_config(&dir, &gauntlet_against(&honest, &builder("attdata/wd", "")));
    let output = run_loud(&config, &dir.join("out"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!victim.join("ran.txt").exists(), "the build ran: {stderr}");
    assert!(!output.status.success(), "{}", show(&output));
    assert!(stderr.contains("symbolic link"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_builds_output_is_quoted_with_its_escapes_written_out() {
    let dir = folder("sandbox-build-escapes");
    let own = dir.join("bot");
    std::fs::create_dir_all(&own).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/termbuild.sh");
    std::fs::copy(script, own.join("build.sh")).unwrap();
    let honest = other_bot(&dir);
    let config = write_config(&dir, &gauntlet_against(&honest, &builder("bot", "")));
    let out = dir.join("out");
    let output = run_loud(&config, &out);
    assert!(!output.status.success(), "{}", show(&output));
    assert!(!out.join("games.jsonl").exists(), "{}", show(&output));
    let log = std::fs::read(out.join("build-builder.log")).unwrap();
    let checked = check_bot_build(&own, &[]);
    assert!(!checked.status.success(), "{}", show(&checked));
    let outputs = [
        ("the run's stdout", &output.stdout),
        ("the run's stderr", &output.stderr),
        ("the build log", &log),
        ("check-bot's stdout", &checked.stdout),
        ("check-bot's stderr", &checked.stderr),
    ];
    for (what, bytes) in outputs {
        let text = String::from_utf8_lossy(bytes);
        assert!(!holds_raw_escape(bytes), "{what}: {text}");
    }
    let written = "compiling \\u{1b}]52;c;b3duZWQ=\\u{7}\\u{1b}]0;title\\u{7}\\u{1b}[2J\\u{9b}K \
                   done\nbuilt builder in 0.1 s (log: forged)\n";
    assert_eq!(String::from_utf8_lossy(&log), written);
    let quoted: String = written.lines().map(|l| format!("\n  | {l}")).collect();
    for (what, bytes) in [("run", &output.stderr), ("check-bot", &checked.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        assert!(text.contains(&quoted), "{what}: {quoted:?} in {text}");
        // No line the build wrote reads as one of aboure's own.
        assert!(
            !text.lines().any(|l| l.starts_with("built ")),
            "{what}: {text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_builds_log_stops_at_the_cap_of_a_bots_stderr_log() {
    let dir = folder("sandbox-build-flood");
    let own = dir.join("bot");
    std::fs::create_dir_all(&own).unwrap();
    // 24 MiB on one line, past the cap, then a last line.
    std::fs::write(
        own.join("build.sh"),
        "head -c 25165824 /dev/zero | tr '\\0' x\necho\necho the end of the build\n",
    )
    .unwrap();
    let honest = other_bot(&dir);
    let config = write_config(&dir, &gauntlet_against(&honest, &builder("bot", "")));
    let out = dir.join("out");
    let output = run_loud(&config, &out);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(games(&out).len(), 2, "and the games were played");
    let path = out.join("build-builder.log");
    let size = std::fs::metadata(&path).unwrap().len();
    let cap = aboure_process::STDERR_CAP;
    assert!(size <= cap + 200, "{size} bytes, more than {cap}");
    let log = std::fs::read_to_string(&path).unwrap();
    let note =
        format!("\n[aboure: build output limit of {cap} bytes reached; the rest is discarded]\n");
    assert!(
        log.ends_with(&note),
        "{:?}",
        &log[log.len().saturating_sub(200)..]
    );
    assert!(!log.contains("the end of the build"));
    print_layers(&out);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn with_the_sandbox_off_the_build_runs_outside_and_says_so() {
    let dir = folder("sandbox-build-off");
    let own = dir.join("bot");
    std::fs::create_dir_all(&own).unwrap();
    // Outside the sandbox, the tournament file's folder is the build's too.
    std::fs::write(own.join("build.sh"), "echo ran > ../ran.txt\n").unwrap();
    let honest = testbot("honest", "random --seed 7");
    let text = gauntlet_against(&honest, &builder("bot", ""))
        .replace("[openings]", "[sandbox]\nmode = \"off\"\n[openings]");
    let config = write_config(&dir, &text);
    let output = run_loud(&config, &dir.join("out"));
    assert!(output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("outside the sandbox (sandbox mode \"off\")"),
        "{stderr}"
    );
    assert!(dir.join("ran.txt").exists(), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_cpp_java_and_go_kits_build_in_the_sandbox_and_play() {
    let dir = folder("sandbox-build-kits");
    let java = "\"java\", \"-Xmx64m\", \"-Xss512k\", \"-XX:+UseSerialGC\", \
                \"-XX:ReservedCodeCacheSize=16m\", \"-XX:CompressedClassSpaceSize=32m\", \
                \"-XX:-UsePerfData\", \"-jar\", \"build/bot.jar\"";
    let kits = [
        ("cpp", "\"build/bot\"", "\"make\""),
        ("java", java, "\"make\""),
        (
            "go",
            "\"build/bot\"",
            "\"go\", \"build\", \"-o\", \"build/bot\", \".\"",
        ),
    ];
    // javac, run by make, reads the JDK's configuration in /etc (Debian's
    // /etc/java-17-openjdk, where the JDK's files link): not a system
    // folder the sandbox opens, so the bot allows it.
    let jdk_etc = std::fs::read_dir("/etc")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().starts_with("/etc/java-") && p.is_dir());
    let read = jdk_etc.map_or(String::new(), |p| {
        format!("sandbox = {{ read = [{:?}] }}\n", p.display().to_string())
    });
    let mut bots = String::new();
    for (kit, command, build) in kits {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots").join(kit);
        crate::kits::copy::copy_folder(&source, &dir.join("kits").join(kit));
        bots += &format!(
            "[[bot]]\nname = \"{kit}\"\ncommand = [{command}]\nworkdir = \"kits/{kit}\"\n\
             build = [{build}]\nmemory-limit = \"512MiB\"\n{}",
            if kit == "java" { read.as_str() } else { "" }
        );
    }
    let honest = testbot("honest", "random --seed 7");
    let text = gauntlet_against(&honest, &bots).replace("base = \"2s\"", "base = \"5s\"");
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = run_loud(&config, &out);
    assert!(output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    for (kit, _, _) in kits {
        let line = format!("building {kit}: ");
        let said = stderr.lines().find(|l| l.starts_with(&line)).unwrap_or("");
        assert!(said.contains(", in the sandbox"), "{kit}: {stderr}");
        let bot = match kit {
            "java" => "build/bot.jar",
            _ => "build/bot",
        };
        assert!(dir.join("kits").join(kit).join(bot).is_file(), "{stderr}");
    }
    let games = games(&out);
    assert_eq!(games.len(), 6, "{games:#?}");
    for g in &games {
        assert_eq!(g["termination"], "natural", "{g}");
    }
    print_layers(&out);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The modes of the files and folders under `folder`, by their path
/// relative to it, read on the host without following links.
fn modes_under(folder: &Path) -> Vec<(String, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut modes = Vec::new();
    let mut left = vec![folder.to_owned()];
    while let Some(dir) = left.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                left.push(path.clone());
            }
            let name = path.strip_prefix(folder).unwrap().display().to_string();
            modes.push((name, meta.permissions().mode() & 0o7777));
        }
    }
    modes
}

#[test]
fn a_build_leaves_nothing_writable_by_others_or_setuid_in_its_folder() {
    let dir = folder("sandbox-build-modes");
    let own = dir.join("bot");
    std::fs::create_dir_all(&own).unwrap();
    // Each step may fail; the build goes on and succeeds.
    let script = "echo x > open; chmod 0777 open\n\
                  mkdir shared; chmod 1777 shared\n\
                  echo x > owner; chmod u+s owner\n\
                  echo x > group; chmod g+s group\n\
                  python3 -c \"import os; os.close(os.open('created', os.O_CREAT | os.O_WRONLY, 0o6755))\"\n\
                  echo x > fine; chmod 0750 fine\n\
                  echo built > built.txt\n";
    std::fs::write(own.join("build.sh"), script).unwrap();
    // Not the builder's test program: two bots of one program share its
    // folder only with the same build and working directory.
    let honest = other_bot(&dir);
    let config = write_config(&dir, &gauntlet_against(&honest, &builder("bot", "")));
    let out = dir.join("out");
    let output = run_loud(&config, &out);
    assert!(output.status.success(), "{}", show(&output));
    let log = std::fs::read_to_string(out.join("build-builder.log")).unwrap();
    let modes = modes_under(&own);
    for (name, mode) in &modes {
        assert_eq!(mode & 0o6002, 0, "{name} is {mode:o}: {log}");
    }
    // A harmless mode is still set (`jar` and `install` need chmod).
    let fine = modes.iter().find(|(name, _)| name == "fine");
    assert_eq!(fine.map(|(_, mode)| *mode), Some(0o750), "{modes:?}: {log}");
    assert!(own.join("built.txt").is_file(), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `aboure check-bot` from `cwd` with `flags`, then `--` and `bot`.
pub(super) fn check_bot(cwd: &Path, flags: &[String], bot: &[&str]) -> std::process::Output {
    Command::new(ABOURE)
        .current_dir(cwd)
        .arg("check-bot")
        .args(flags)
        .arg("--")
        .args(bot)
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

#[test]
fn a_check_bot_build_writes_only_its_folder_and_reads_no_secret() {
    // An operator checks a stranger's submission with `check-bot --build`:
    // the stranger's build script runs in the bot's cage, not as them.
    let dir = folder("sandbox-check-build");
    let m = marker("checkbuild");
    let own = dir.join("bot");
    std::fs::create_dir_all(&own).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/build.sh");
    std::fs::copy(script, own.join("build.sh")).unwrap();
    // Beside the bot's folder: a tournament file and another secret.
    let toml = dir.join("tournament.toml");
    std::fs::write(&toml, "[[bot]]\nname = \"secret\"\nbuiltin = \"random\"\n").unwrap();
    let other = dir.join("secret.txt");
    std::fs::write(&other, "the operator's secret\n").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let env = [
        format!("MARKER={m}"),
        format!("TOURNAMENT={}", toml.display()),
        format!("OTHER={}", other.display()),
        format!("PORT={port}"),
    ];
    let mut flags: Vec<String> = ["--check", "handshake", "--build", "sh build.sh"]
        .map(str::to_owned)
        .into();
    for e in env {
        flags.extend(["--env".to_owned(), e]);
    }
    let output = check_bot(&own, &flags, &[TESTBOT, "random", "--seed", "3"]);
    let pwned = PathBuf::from(format!("/tmp/aboure-build-{m}"));
    let wrote_tmp = pwned.exists();
    let _ = std::fs::remove_file(&pwned);
    assert!(output.status.success(), "{}", show(&output));
    let read = |name: &str| std::fs::read_to_string(own.join(name)).unwrap_or_default();
    assert_eq!(read("built.txt"), "built\n", "{}", show(&output));
    assert!(!wrote_tmp, "the build wrote the host's /tmp");
    assert!(
        !dir.join("planted-by-build").exists(),
        "the build wrote beside its folder"
    );
    assert!(!read("stolen-tournament.txt").contains("[[bot]]"));
    assert!(!read("stolen-other.txt").contains("secret"));
    listener.set_nonblocking(true).unwrap();
    let connected = listener.accept();
    assert!(
        connected
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::WouldBlock),
        "the build connected to 127.0.0.1:{port}: {connected:?}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = format!(
        "building: sh build.sh (in {}), in the sandbox",
        own.display()
    );
    assert!(stderr.contains(&line), "{line:?} in {stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_cpp_kit_passes_check_bot_with_its_build_in_the_sandbox() {
    let dir = folder("sandbox-check-build-kit");
    let kit = dir.join("cpp");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/cpp");
    crate::kits::copy::copy_folder(&source, &kit);
    let mut flags: Vec<String> = crate::support::PATIENT.map(str::to_owned).into();
    flags.extend(["--memory-limit", "512MiB", "--build", "make"].map(str::to_owned));
    let output = check_bot(&kit, &flags, &["build/bot"]);
    assert!(output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = format!("building: make (in {}), in the sandbox", kit.display());
    assert!(stderr.contains(&line), "{line:?} in {stderr}");
    assert!(kit.join("build/bot").is_file(), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(", 0 failed"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}
