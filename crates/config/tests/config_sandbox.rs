//! The `[sandbox]` table and a bot's `sandbox`, `wrapper` and `build` keys:
//! values, defaults, and errors with the line and key they must point at.

use std::path::PathBuf;

use crate::support::{refused, TWO_BOTS};
use aboure_config::parse;
use aboure_sandbox::Mode;

#[track_caller]
fn check(text: &str, expected: &str) {
    refused("t.toml", text, expected);
}

#[test]
fn the_default_is_auto_with_no_allowances() {
    let config = parse(TWO_BOTS, "dir/t.toml".as_ref()).unwrap();
    assert_eq!(config.sandbox().mode(), Mode::Auto);
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
    assert_eq!(config.sandbox().mode(), Mode::Strict);
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

#[test]
fn a_bot_whose_own_folder_is_shared_is_refused_at_its_command() {
    // `/etc/hosts` as a script: its folder is the system's `/etc`.
    let text = format!("{TWO_BOTS}[[bot]]\nname = \"c\"\ncommand = [\"sh\", \"/etc/hosts\"]\n");
    check(
        &text,
        "t.toml:9:11: bot[2].command: bot \"c\" (command: sh /etc/hosts): /etc is the folder of \
         /etc/hosts, and it is a folder the whole system shares",
    );
    check(
        &text,
        "or allow what it reads with `sandbox = { read = [...] }`",
    );
    // Allowed by name, without a sandbox, or with none at all: accepted.
    for extra in [
        "sandbox = { read = [\"/etc/hosts\"] }\n",
        "sandbox = false\n",
    ] {
        parse(&format!("{text}{extra}"), "t.toml".as_ref()).unwrap();
    }
    parse(
        &format!("[sandbox]\nmode = \"off\"\n{text}"),
        "t.toml".as_ref(),
    )
    .unwrap();
}

#[test]
fn a_build_step_is_a_list_of_strings_run_in_the_bots_folder_once_per_command() {
    let build = |name: &str, extra: &str| {
        format!(
            "[[bot]]\nname = \"{name}\"\ncommand = [\"bin/bot\"]\nworkdir = \"cpp\"\n\
             build = [\"make\", \"-C\", \".\"]\n{extra}"
        )
    };
    let text = format!(
        "{TWO_BOTS}{}{}{}",
        build("c", ""),
        build("d", "env = { X = \"1\" }\n"),
        build("e", "workdir = \"rust\"\n").replace("workdir = \"cpp\"\n", "")
    );
    let config = parse(&text, "dir/t.toml".as_ref()).unwrap();
    assert!(config.bots()[0].build().is_none());
    let c = config.bots()[2].build().unwrap();
    assert_eq!(c.command_line(), "make -C .");
    assert_eq!(c.workdir, PathBuf::from("dir/cpp"));
    check(
        &format!("{TWO_BOTS}build = []\n"),
        "t.toml:7:9: bot[1].build: the build command is empty: give at least its program",
    );
    check(
        &format!("{TWO_BOTS}build = \"make\"\n"),
        "t.toml:7:9: bot[1].build: invalid type: string \"make\", expected a sequence; \
         give a list, the program then each argument: build = [\"make\"]",
    );
}
