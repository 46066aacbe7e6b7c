//! `--help` and the docs say the same: every long flag that the `--help`
//! of a command prints (every command of `aboure --help`, and each
//! measurement of `aboure bench`) is named in README.md or docs/, so a flag
//! added to the command line without a word in the docs fails here. (That
//! every flag the docs write exists is the command-line test of docs.rs.)

use std::process::Command;

use super::{read, root};
use crate::support::ABOURE;

/// `aboure ARGS... --help`.
fn help(args: &[String]) -> String {
    let output = Command::new(ABOURE)
        .args(args)
        .arg("--help")
        .output()
        .expect("run aboure --help");
    assert!(output.status.success(), "aboure {args:?} --help failed");
    String::from_utf8(output.stdout).unwrap()
}

/// The names listed under `Commands:` in `text` (`help` left out).
fn subcommands(text: &str) -> Vec<String> {
    let Some(start) = text.find("\nCommands:\n") else {
        return Vec::new();
    };
    text[start + "\nCommands:\n".len()..]
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every command line whose `--help` lists flags: each command, and each
/// subcommand of one that has them.
fn commands() -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut pending: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(command) = pending.pop() {
        for sub in subcommands(&help(&command)) {
            let mut longer = command.clone();
            longer.push(sub);
            pending.push(longer.clone());
            found.push(longer);
        }
    }
    found.sort();
    found
}

/// The long flags an option line of a `--help` starts with (`-v,
/// --verbose...` gives `--verbose`).
fn long_flags(help: &str) -> Vec<String> {
    help.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l
                .split_once(", ")
                .filter(|(s, _)| s.len() == 2)
                .map_or(l, |(_, r)| r);
            let flag: String = l
                .strip_prefix("--")?
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            (!flag.is_empty() && flag != "help").then(|| format!("--{flag}"))
        })
        .collect()
}

/// True when `docs` names `flag` whole (not as the start of a longer flag).
fn named(docs: &str, flag: &str) -> bool {
    docs.match_indices(flag).any(|(i, _)| {
        let next = docs[i + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// The flags of `help` (the help of `command`) that `docs` never names.
fn undocumented(command: &[String], help: &str, docs: &str) -> Vec<String> {
    long_flags(help)
        .into_iter()
        .filter(|flag| !named(docs, flag))
        .map(|flag| format!("aboure {} {flag}", command.join(" ")))
        .collect()
}

/// README.md and every page of docs/, as one text.
fn docs() -> String {
    let mut text = read(&root().join("README.md"));
    let mut pages: Vec<_> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    for page in pages {
        text.push_str(&read(&page));
    }
    text
}

#[test]
fn every_flag_of_every_commands_help_is_in_the_docs() {
    let docs = docs();
    let commands = commands();
    assert!(
        commands.iter().any(|c| c == &["bench", "engine"]) && commands.len() > 20,
        "too few commands found: {commands:?}"
    );
    let mut flags = 0;
    let mut missing = Vec::new();
    for command in &commands {
        let help = help(command);
        flags += long_flags(&help).len();
        missing.extend(undocumented(command, &help, &docs));
    }
    assert!(flags > 50, "only {flags} flags found in {commands:?}");
    assert!(
        missing.is_empty(),
        "{} of {flags} flags are in no page of README.md or docs/:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn a_flag_the_docs_never_name_fails() {
    let help = "Options:\n      --out <OUT>  Output\n  -q, --quiet  Less\n      \
                --quieter  Even less\n  -h, --help  Print help\n";
    assert_eq!(long_flags(help), ["--out", "--quiet", "--quieter"]);
    let command = ["run".to_owned()];
    assert!(undocumented(&command, help, "`--out DIR`, `--quieter`, -q (--quiet)").is_empty());
    // `--quiet` named only as the start of `--quieter` is not named.
    assert_eq!(
        undocumented(&command, help, "`--out DIR`, `--quieter`"),
        ["aboure run --quiet"]
    );
}
