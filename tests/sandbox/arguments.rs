//! A path in a bot's command, in whatever form (`-cp DIR`,
//! `--class-path=DIR`, `-IDIR`, `a:b`), never binds a folder beyond the
//! bot's own: another bot's folder or a host folder named as a class path
//! stays out of its root, a path in a kernel or runtime folder (`/proc`,
//! `/sys`, `/run`) or in the results folder is refused before any game, and
//! another bot's file is no bot's script. Each through `aboure run`,
//! checked from outside (the attacks of the second outside review: 61 to
//! 68).

use super::named::{assert_refused, refused};
use super::*;

/// The attacker's script: tries to read the victim's secret and a file of
/// a folder of no bot, then plays honestly.
const READER: &str = r#"#!/bin/sh
# usage: atk.sh TESTBOT VICTIM_FOLDER OTHER_FOLDER [class paths...]
for f in "$2/secret.txt" "$3/private.txt"; do
  echo "read: $(cat "$f" 2>/dev/null || echo refused)" >&2
done
exec "$1" random --seed 3
"#;

#[test]
fn a_class_path_of_another_bots_folder_or_a_host_folder_opens_nothing() {
    let (output, dir) = refused("sandbox-args-classpath", |dir| {
        let attacker = dir.join("attacker");
        let elsewhere = dir.join("elsewhere");
        std::fs::create_dir_all(&attacker).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("private.txt"), "elsewheresecret\n").unwrap();
        std::fs::write(attacker.join("atk.sh"), READER).unwrap();
        let [script, victim, other] = [
            attacker.join("atk.sh"),
            dir.join("victim"),
            elsewhere.clone(),
        ]
        .map(|p| p.display().to_string());
        let args = [
            "sh".to_owned(),
            script,
            TESTBOT.to_owned(),
            victim.clone(),
            other.clone(),
            "-cp".to_owned(),
            victim.clone(),
            format!("--class-path={other}"),
            format!("-I{victim}"),
            format!("{other}:{victim}/*"),
        ]
        .map(|a| format!("{a:?}"));
        format!(
            "[[bot]]\nname = \"attacker\"\ncommand = [{}]\n",
            args.join(", ")
        )
    });
    assert!(output.status.success(), "{}", show(&output));
    let out = dir.join("out");
    assert_eq!(recorded(&out), 2, "{}", show(&output));
    let log = stderr_log(&out, "attacker");
    let reads = log.matches("read: ").count();
    assert!(reads >= 4, "{log}");
    assert_eq!(log.matches("read: refused").count(), reads, "{log}");
    assert!(!log.contains("victimsecret"), "{log}");
    assert!(!log.contains("elsewheresecret"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_path_in_a_kernel_or_runtime_folder_is_refused_in_any_form() {
    for (form, path) in [
        ("-cp /proc/1", "/proc"),
        ("--class-path=/sys/fs/cgroup", "/sys"),
        ("-I/var/run", "/run"),
        ("x:/proc/self/environ", "/proc"),
    ] {
        let (output, dir) = refused("sandbox-args-kernel", |_| {
            let args: Vec<String> = [TESTBOT, "random"]
                .into_iter()
                .chain(form.split(' '))
                .map(|a| format!("{a:?}"))
                .collect();
            format!(
                "[[bot]]\nname = \"attacker\"\ncommand = [{}]\n",
                args.join(", ")
            )
        });
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{form}: {}", show(&output));
        for part in ["bot \"attacker\"", path, "a kernel or host runtime folder"] {
            assert!(err.contains(part), "{form}: {part:?} in {err}");
        }
        assert_eq!(recorded(&dir.join("out")), 0, "{form}: {}", show(&output));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn the_results_folder_as_a_class_path_is_refused_before_it_exists() {
    let (output, dir) = refused("sandbox-args-results", |dir| {
        let out = dir.join("out").display().to_string();
        format!(
            "[[bot]]\nname = \"attacker\"\ncommand = [{TESTBOT:?}, \"random\", \"-cp\", {out:?}]\n"
        )
    });
    assert_refused(&output, &dir, "out");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("the tournament file or the results folder"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn another_bots_file_as_a_script_is_refused_and_never_quoted() {
    let (output, dir) = refused("sandbox-args-script", |dir| {
        let secret = dir.join("victim/secret.txt").display().to_string();
        format!("[[bot]]\nname = \"attacker\"\ncommand = [\"sh\", {secret:?}]\n")
    });
    assert_refused(&output, &dir, "victim");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("lies in the folder of bot victim"), "{err}");
    assert!(!show(&output).contains("victimsecret"), "{}", show(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn another_bots_data_file_named_after_ones_own_script_is_refused() {
    // The second outside round: a file the victim's own command names (its
    // script, its data) named again by the attacker, after its own script.
    let dir = folder("sandbox-args-data");
    let victim = dir.join("victim");
    std::fs::create_dir_all(&victim).unwrap();
    let program = victim.join("bot");
    std::fs::copy(TESTBOT, &program).unwrap();
    let book = victim.join("book.txt");
    std::fs::write(&book, "victimsecret\n").unwrap();
    let text = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"20ms\"\nmargin = \"1s\"\n\
         [[bot]]\nname = \"victim\"\ncommand = [{program:?}, \"random\", {book:?}]\n\
         [[bot]]\nname = \"attacker\"\ncommand = [{TESTBOT:?}, \"random\", {book:?}]\n"
    );
    let output = run(&write_config(&dir, &text), &dir.join("out"), &[]);
    assert_refused(&output, &dir, "book.txt");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("a file of bot victim"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_hard_link_to_another_bots_file_is_refused_like_the_file() {
    // Attack 12: the victim's secret, hard-linked into the attacker's own
    // folder under another name.
    let (output, dir) = refused("sandbox-args-hardlink", |dir| {
        let attacker = dir.join("attacker");
        std::fs::create_dir_all(&attacker).unwrap();
        let link = attacker.join("data.bin");
        std::fs::hard_link(dir.join("victim/secret.txt"), &link).unwrap();
        let link = link.display().to_string();
        format!("[[bot]]\nname = \"attacker\"\ncommand = [{TESTBOT:?}, \"random\", {link:?}]\n")
    });
    assert_refused(&output, &dir, "data.bin");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("a file of bot victim"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn another_bots_read_file_inside_this_bots_folder_is_masked() {
    // Attack 32: the victim is given a file by a `read` path, and that file
    // lies in the attacker's own folder.
    let dir = folder("sandbox-args-read");
    let attacker = dir.join("attacker");
    let victim = dir.join("victim");
    for d in [&attacker, &victim] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(attacker.join("atk.sh"), READER).unwrap();
    std::fs::write(attacker.join("secret.txt"), "victimreadsecret\n").unwrap();
    let program = victim.join("bot");
    std::fs::copy(TESTBOT, &program).unwrap();
    let [script, mine, secret] = [
        attacker.join("atk.sh"),
        attacker.clone(),
        attacker.join("secret.txt"),
    ]
    .map(|p| p.display().to_string());
    let text = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"20ms\"\nmargin = \"1s\"\n\
         [[bot]]\nname = \"victim\"\ncommand = [{:?}, \"random\"]\n\
         sandbox = {{ read = [{secret:?}] }}\n\
         [[bot]]\nname = \"attacker\"\ncommand = [\"sh\", {script:?}, {TESTBOT:?}, {mine:?}, {mine:?}]\n",
        program.display().to_string()
    );
    let out = dir.join("out");
    let output = run(&write_config(&dir, &text), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(recorded(&out), 2, "{}", show(&output));
    let log = stderr_log(&out, "attacker");
    assert!(log.contains("read: refused"), "{log}");
    assert!(!log.contains("victimreadsecret"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A builtin bot runs aboure itself: its arguments (`bot random`) are its
/// own words, not paths of the folder it starts in. Folders named `bot` and
/// `random` beside the tournament file, one of them a script bot's, are
/// not its folders (the outside round's finding 6: an aboure installed in a
/// `bin` folder read them as its own and refused the run).
#[test]
fn folders_named_like_a_builtins_arguments_are_not_its_own() {
    let dir = folder("sandbox-args-builtin");
    let aboure = dir.join("bin/aboure");
    for d in ["bin", "bot", "random"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    std::fs::copy(ABOURE, &aboure).unwrap();
    let script = dir.join("bot/play.sh");
    std::fs::write(&script, "#!/bin/sh\nexec \"$1\" random --seed 5\n").unwrap();
    std::fs::write(dir.join("random/notes.txt"), "notes\n").unwrap();
    let script = script.display().to_string();
    let text = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[time-control]\nmovetime = \"20ms\"\nmargin = \"1s\"\n\
         [[bot]]\nname = \"script\"\ncommand = [\"sh\", {script:?}, {TESTBOT:?}]\n\
         [[bot]]\nname = \"rnd\"\nbuiltin = \"random\"\n",
    );
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = Command::new(&aboure)
        .args(run_args(&config, &out, &[]))
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(recorded(&out), 2, "{}", show(&output));
    for g in games(&out) {
        let t = g["termination"].as_str().unwrap_or("");
        assert!(["natural", "max_plies", "repetition"].contains(&t), "{g}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
