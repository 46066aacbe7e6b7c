//! A refusal names what it refuses: the path, the link on its way and
//! where that link points, the file found in a bot's folder. Those names
//! are a stranger's bytes (a link's target, a file name in a submitted
//! folder), so they reach the operator's terminal written out, as every
//! other output of aboure does, never as the escape sequences they hold.

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;

use super::*;

/// What a hostile link target holds: OSC 0 (the window's title), OSC 52
/// (the operator's clipboard), CSI 2J (clear the screen), a C1 CSI and a
/// right-to-left override.
const HOSTILE: &[u8] = b"\x1b]0;PWNED\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\xc2\x9bH\xe2\x80\xae";

/// The same, as the refusals write it.
const WRITTEN: &str = "\\u{1b}]0;PWNED\\u{7}\\u{1b}]52;c;cHduZWQ=\\u{7}\\u{1b}[2J\\u{9b}H\\u{202e}";

/// `text` with the hostile bytes inserted at `{}`, as a path.
fn hostile_path(before: &str, after: &str) -> PathBuf {
    let mut bytes = before.as_bytes().to_vec();
    bytes.extend_from_slice(HOSTILE);
    bytes.extend_from_slice(after.as_bytes());
    PathBuf::from(std::ffi::OsStr::from_bytes(&bytes))
}

/// Checks that `output` is a refusal that names the hostile text written
/// out, and holds no ESC, BEL, C1 control or direction override raw.
#[track_caller]
fn assert_refused_written_out(what: &str, output: &std::process::Output) {
    assert!(!output.status.success(), "{what}: {}", show(output));
    let mut both = output.stdout.clone();
    both.extend_from_slice(&output.stderr);
    let text = String::from_utf8_lossy(&both);
    let override_raw = both.windows(3).any(|w| w == b"\xe2\x80\xae");
    assert!(
        !holds_raw_escape(&both) && !override_raw,
        "{what}: {text:?}"
    );
    assert!(text.contains(WRITTEN), "{what}: {WRITTEN:?} in {text:?}");
}

/// The tenth outside round's c27: `atk/data` is a link whose target text
/// carries terminal escapes; a `read`, `write` or `workdir` path through
/// it is refused (as it was), and the refusal, which names the target,
/// printed it raw. So did a refusal naming a file of a hostile name found
/// in the bot's folder (another name of the tournament file).
#[test]
fn a_refusal_writes_out_the_escapes_of_a_link_target_or_a_file_name() {
    let dir = folder("sandbox-refusal-escapes");
    let atk = dir.join("atk");
    std::fs::create_dir_all(&atk).unwrap();
    symlink(hostile_path("../", "/book"), atk.join("data")).unwrap();
    let program = atk.join("bot");
    std::fs::copy(TESTBOT, &program).unwrap();
    let table = |extra: &str| {
        format!(
            "[[bot]]\nname = \"atk\"\ncommand = [{:?}, \"random\"]\n{extra}",
            program.display().to_string()
        )
    };
    let cases = [
        ("read", table("sandbox = { read = [\"atk/data/x\"] }\n")),
        ("write", table("sandbox = { write = [\"atk/data/x\"] }\n")),
        ("workdir", table("workdir = \"atk/data\"\n")),
        ("held", table("")),
    ];
    for (what, bot) in cases {
        let config = write_config(&dir, &gauntlet(&bot));
        let held = atk.join(hostile_path("", ".bin"));
        if what == "held" {
            std::fs::hard_link(&config, &held).unwrap();
        }
        let output = run(&config, &dir.join("out"), &[]);
        let _ = std::fs::remove_file(&held);
        assert_refused_written_out(&format!("run, {what}"), &output);
        assert!(!dir.join("out/games.jsonl").exists(), "{what}");
    }
    let checked = Command::new(ABOURE)
        .current_dir(&dir)
        .args(["check-bot", "--check", "handshake", "--read", "atk/data/x"])
        .args(["--", program.to_str().unwrap(), "random"])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert_refused_written_out("check-bot --read", &checked);
    std::fs::remove_dir_all(&dir).unwrap();
}
