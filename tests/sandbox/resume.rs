//! `--resume` continues a run under the sandbox it began with: a
//! tournament file whose `[sandbox]` table or a bot's sandbox keys changed
//! since (the seventh outside round's n11 wrote `mode = "off"` into it
//! through a link for the next run) is refused before any game, naming the
//! keys; the original file resumes. Through `aboure run`, checked from
//! outside.

use super::*;

/// Two builtin bots, one game pair; `extra` goes after the first bot's
/// table, `table` before the bots.
fn tournament(table: &str, extra: &str) -> String {
    format!(
        "[tournament]\npairs = 1\n[time-control]\nmovetime = \"20ms\"\n{table}\
         [[bot]]\nname = \"a\"\nbuiltin = \"random\"\n{extra}\
         [[bot]]\nname = \"b\"\nbuiltin = \"greedy\"\n"
    )
}

#[test]
fn a_resume_with_changed_sandbox_settings_is_refused_naming_the_keys() {
    let dir = folder("sandbox-resume-changed");
    let out = dir.join("out");
    let original = tournament("", "");
    let config = write_config(&dir, &original);
    let first = run(&config, &out, &[]);
    assert!(first.status.success(), "{}", show(&first));
    assert_eq!(recorded(&out), 2, "{}", show(&first));
    let changed = tournament(
        "[sandbox]\nwrite-size = \"8MiB\"\n",
        "sandbox = { network = true }\n",
    );
    let config = write_config(&dir, &changed);
    let output = run(&config, &out, &["--resume"]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{}", show(&output));
    assert!(err.contains("the sandbox settings changed"), "{err}");
    assert!(err.contains("sandbox.write-size"), "{err}");
    assert!(err.contains("bot.a.sandbox.network"), "{err}");
    assert!(!err.contains("bot.b."), "{err}");
    assert_eq!(recorded(&out), 2, "{}", show(&output));
    // The file it began with resumes (nothing left to play).
    let config = write_config(&dir, &original);
    let again = run(&config, &out, &["--resume"]);
    assert!(again.status.success(), "{}", show(&again));
    assert_eq!(recorded(&out), 2, "{}", show(&again));
    std::fs::remove_dir_all(&dir).unwrap();
}
