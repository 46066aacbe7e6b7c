//! An engine installed in a home's `bin` folder (`~/bin`, `cargo install`'s
//! `~/.cargo/bin`, `~/.local/bin`) has that folder bound, never the home
//! nor its `.cargo` or `.local` as its installation: the keys, the registry
//! token and the tokens beside it stay unseen. Through `aboure run` with
//! the arbiter's `HOME` a fresh folder, checked from outside in the bots'
//! logs.

use std::os::unix::fs::PermissionsExt;

use super::*;

/// What each engine tries to read before it plays: the home's secrets and
/// its listing.
const ENGINE: &str = "#!/bin/sh\n\
    cd \"$(dirname \"$0\")\"\n\
    for f in \"$SECRETS\"/notes.txt \"$SECRETS\"/.ssh/id_fake \"$SECRETS\"/.cargo/credentials.toml \
    \"$SECRETS\"/.local/share/tokens; do cat \"$f\" >&2; done\n\
    ls -a \"$SECRETS\" >&2\n\
    exec ./testbot random\n";

#[test]
fn an_engine_in_a_homes_bin_folder_sees_no_file_of_the_home() {
    let dir = folder("sandbox-installed-home");
    let home = dir.join("home");
    let secrets = [
        ("notes.txt", "homesecret-notes"),
        (".ssh/id_fake", "homesecret-ssh"),
        (".cargo/credentials.toml", "homesecret-cargo"),
        (".local/share/tokens", "homesecret-local"),
    ];
    for (file, secret) in secrets {
        let path = home.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("{secret}\n")).unwrap();
    }
    let mode = std::fs::Permissions::from_mode(0o600);
    std::fs::set_permissions(home.join(".cargo/credentials.toml"), mode).unwrap();
    let mut bots = String::new();
    for (name, bin) in [
        ("inbin", "bin"),
        ("incargo", ".cargo/bin"),
        ("inlocal", ".local/bin"),
    ] {
        let engine = install_engine(&home.join(bin));
        let env = format!("env = {{ SECRETS = {:?} }}", home.display().to_string());
        bots.push_str(&format!(
            "[[bot]]\nname = \"{name}\"\ncommand = [{engine:?}]\n{env}\n"
        ));
    }
    // The engine moves at once: a long movetime costs nothing, and no
    // busy machine makes it lose on time.
    let text = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"5s\"\n{bots}"
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = Command::new(ABOURE)
        .args(run_args(&config, &out, &[]))
        .env("HOME", &home)
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    let games = games(&out);
    assert_eq!(games.len(), 6, "{}", show(&output));
    let mut seen = Vec::new();
    for name in ["inbin", "incargo", "inlocal"] {
        let log = stderr_log(&out, name);
        for (file, secret) in secrets {
            if log.contains(secret) {
                seen.push(format!("{name} read ~/{file}"));
            }
        }
        if log.lines().any(|l| l == ".ssh" || l == "notes.txt") {
            seen.push(format!("{name} listed the home"));
        }
    }
    assert!(seen.is_empty(), "{seen:#?}");
    for g in &games {
        assert_eq!(g["termination"], "natural", "{g}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The seventh outside round's n06: a bot's program in a folder named
/// `bin` (`bin/engine` beside the tournament file) made the folder above
/// it, the tournament's own, its installation, bound whole: the masks hid
/// the tournament file and the results, not the operator's other files
/// there. A program that is no interpreter has its `bin` folder alone.
#[test]
fn a_bot_folder_named_bin_opens_nothing_above_it() {
    let dir = folder("sandbox-installed-bin");
    std::fs::write(dir.join("notes.txt"), "binsecret-notes\n").unwrap();
    let engine = install_engine(&dir.join("bin"));
    let env = format!("env = {{ SECRETS = {:?} }}", dir.display().to_string());
    let text = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"20ms\"\nmargin = \"1s\"\n\
         [[bot]]\nname = \"inbin\"\ncommand = [{engine:?}]\n{env}\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n"
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let games = games(&out);
    assert_eq!(games.len(), 2, "{}", show(&output));
    let log = stderr_log(&out, "inbin");
    assert!(!log.contains("binsecret"), "{log}");
    assert!(!log.lines().any(|l| l == "notes.txt"), "{log}");
    for g in &games {
        assert_eq!(g["termination"], "natural", "{g}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The engine script and the test bot it runs, in `bin` (made); the
/// engine's path.
fn install_engine(bin: &Path) -> String {
    std::fs::create_dir_all(bin).unwrap();
    std::fs::copy(TESTBOT, bin.join("testbot")).unwrap();
    std::fs::write(bin.join("engine"), ENGINE).unwrap();
    let mode = std::fs::Permissions::from_mode(0o755);
    std::fs::set_permissions(bin.join("engine"), mode).unwrap();
    bin.join("engine").display().to_string()
}
