//! The `[sandbox]` table and a bot's `sandbox` and `wrapper` keys: values,
//! defaults, and errors with the line and key they must point at.

use std::path::PathBuf;

use aboure_arbiter::parse;
use aboure_sandbox::Mode;

const TWO_BOTS: &str =
    "[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"greedy\"\n";

#[track_caller]
fn check(text: &str, expected: &str) {
    let message = match parse(text, "t.toml".as_ref()) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    };
    assert!(
        message.contains(expected),
        "\nexpected: {expected}\nactual:   {message}\nconfig:\n{text}"
    );
}

#[test]
fn the_default_is_auto_with_no_allowances() {
    let config = parse(TWO_BOTS, "dir/t.toml".as_ref()).unwrap();
    assert_eq!(config.sandbox().mode, Mode::Auto);
    assert!(!config.bots()[0].sandbox().network && !config.bots()[0].sandbox().disabled);
    assert!(config.bots()[0].wrapper().is_empty());
}

#[test]
fn allowances_add_to_the_tournament_defaults_relative_to_the_file() {
    let text = format!(
        "[sandbox]\nmode = \"strict\"\nread = [\"shared\"]\n{TWO_BOTS}\
         sandbox = {{ network = true, write = [\"cache\", \"/var/b\"] }}\nwrapper = [\"nice\", \"-n5\"]\n"
    );
    let config = parse(&text, "dir/t.toml".as_ref()).unwrap();
    assert_eq!(config.sandbox().mode, Mode::Strict);
    let b = &config.bots()[1];
    assert!(b.sandbox().network);
    assert_eq!(b.sandbox().read, [PathBuf::from("dir/shared")]);
    assert_eq!(
        b.sandbox().write,
        [PathBuf::from("dir/cache"), PathBuf::from("/var/b")]
    );
    assert_eq!(b.wrapper(), ["nice", "-n5"]);
    assert!(!config.bots()[0].sandbox().network);
    let off = parse(&format!("{TWO_BOTS}sandbox = false\n"), "t.toml".as_ref()).unwrap();
    assert!(off.bots()[1].sandbox().disabled);
}

#[test]
fn errors_point_at_the_line_and_key() {
    check(
        &format!("[sandbox]\nmode = \"jail\"\n{TWO_BOTS}"),
        "t.toml:2:8: sandbox.mode: \"jail\" is not \"auto\", \"strict\" or \"off\"",
    );
    check(
        &format!("[sandbox]\nfile-size = \"lots\"\n{TWO_BOTS}"),
        "t.toml:2:13: sandbox.file-size:",
    );
    check(
        &format!("[sandbox]\nprocesses = 1\n{TWO_BOTS}"),
        "t.toml:2:13: sandbox.processes: 1 is out of range",
    );
    check(
        &format!("{TWO_BOTS}wrapper = []\n"),
        "t.toml:7:11: bot[1].wrapper: the wrapper is empty",
    );
    check(
        &format!("{TWO_BOTS}sandbox = {{ read = [\"\"] }}\n"),
        "t.toml:7:11: bot[1].sandbox: \"\" is not a path",
    );
    check(
        &format!("[sandbox]\nnetwrok = true\n{TWO_BOTS}"),
        "unknown field `netwrok`",
    );
}
