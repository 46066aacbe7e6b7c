//! The documentation is tested like code, so that it cannot drift from it:
//! every ```toml block of README.md, docs/, configs/, bots/ and the crates'
//! READMEs is loaded by the real config loader (a block with fewer than two
//! `[[bot]]` tables is completed with two built-in bots; one marked
//! ```toml fragment is checked as TOML only; one that quotes the embedded
//! defaults, which are no file of their own, must equal them key for
//! key); every `aboure ...` line of a
//! shell block parses with the real command line (`ABOURE_PARSE_ONLY`
//! makes the binary stop after parsing), and every `aboure ...` of a code
//! span in the prose names a subcommand and flags that exist; every relative link and `#anchor`
//! resolves; the defaults the docs quote are the embedded defaults; and
//! the README's two commands are the ones CI runs, as typed.
//! Each check has a test that feeds it a broken snippet and sees it fail.

mod help;
pub mod markdown;

use std::path::{Path, PathBuf};
use std::process::Command;

use markdown::{anchors, blocks, command_lines, links, span_commands};

use crate::support::ABOURE;

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown file the checks read: the top-level pages, docs/,
/// configs/, bots/ (the kits' own folders included) and crates/*/.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut files: Vec<PathBuf> = ["README.md", "PROTOCOL.md", "RULES.md"]
        .iter()
        .map(|f| root.join(f))
        .collect();
    for dir in ["docs", "configs", "bots", "crates"] {
        collect_markdown(&root.join(dir), &mut files);
    }
    assert!(files.len() > 20, "too few Markdown files: {files:?}");
    files
}

fn collect_markdown(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            // Build output and dependencies of the kits, not documentation.
            if !["target", "build", "node_modules"].contains(&name.as_ref()) {
                collect_markdown(&path, files);
            }
        } else if name.ends_with(".md") {
            files.push(path);
        }
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `file:line` relative to the repository, for messages.
fn place(file: &Path, line: usize) -> String {
    let shown = file.strip_prefix(root()).unwrap_or(file);
    format!("{}:{line}", shown.display())
}

/// Two built-in bots that complete a block with fewer than two of its own.
const TWO_BOTS: &str = "\n[[bot]]\nname = \"doc-a\"\nbuiltin = \"random\"\n\n\
                        [[bot]]\nname = \"doc-b\"\nbuiltin = \"greedy\"\n";

/// The problem with one ```toml block of `file` (its info string `info`),
/// if any: loaded by the arbiter's config loader, as a file beside `file`
/// so that relative paths mean what they mean there.
fn toml_problem(file: &Path, info: &str, text: &str) -> Option<String> {
    if info.split_whitespace().nth(1) == Some("fragment") {
        return text.parse::<toml::Table>().err().map(|e| e.to_string());
    }
    if quotes_the_defaults(text) {
        return defaults_problem(text);
    }
    let bots = text
        .lines()
        .filter(|l| l.trim_start().starts_with("[[bot]]"))
        .count();
    let mut whole = text.to_owned();
    if bots < 2 {
        whole.push_str(TWO_BOTS);
    }
    let path = file.with_file_name("snippet.toml");
    aboure_config::parse(&whole, &path)
        .err()
        .map(|e| format!("{e}\n--- the file loaded:\n{whole}"))
}

/// The problem with one `aboure ...` command line, if any: the real binary
/// parses it and stops.
fn command_problem(words: &[String]) -> Option<String> {
    let output = Command::new(ABOURE)
        .args(&words[1..])
        .env("ABOURE_PARSE_ONLY", "1")
        .output()
        .expect("run aboure");
    (!output.status.success()).then(|| {
        format!(
            "`{}` does not parse: {}",
            words.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        )
    })
}

/// The problem with the names of a command in a code span, if any. A span
/// often holds a shape rather than a whole command (`aboure run FILE
/// [--resume]`, `aboure check-bot` without its bot), so only a name the
/// real command line does not know counts: a subcommand spelled as one, or
/// a flag. (The parser stops at its first error, so a flag after a
/// placeholder's value goes unchecked.)
fn name_problem(words: &[String]) -> Option<String> {
    let output = Command::new(ABOURE)
        .args(&words[1..])
        .env("ABOURE_PARSE_ONLY", "1")
        .output()
        .expect("run aboure");
    if output.status.success() {
        return None;
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let quoted = |prefix: &str| {
        let (_, rest) = stderr.split_once(prefix)?;
        rest.split_once('\'').map(|(name, _)| name.to_owned())
    };
    let subcommand = quoted("unrecognized subcommand '")
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
    let flag = quoted("unexpected argument '").filter(|n| n.starts_with('-'));
    subcommand.or(flag).map(|name| {
        format!(
            "`{}`: no `{name}` there: {}",
            words.join(" "),
            stderr.trim()
        )
    })
}

/// The problem with one link of `file`, if any: a relative target must
/// exist, and its `#anchor` must be a heading of the Markdown file it names.
fn link_problem(file: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let dest = if path.is_empty() {
        file.to_owned()
    } else {
        file.parent().unwrap().join(path)
    };
    if !dest.exists() {
        return Some(format!("{target}: no such file {}", dest.display()));
    }
    let anchor = anchor.filter(|_| dest.extension().is_some_and(|e| e == "md"))?;
    (!anchors(&read(&dest)).contains(anchor))
        .then(|| format!("{target}: no heading with the anchor #{anchor}"))
}

/// Runs `check` on every document and fails with every problem it found.
fn every_document(what: &str, check: impl Fn(&Path, &str, &mut Vec<String>) -> usize) {
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in documents() {
        checked += check(&file, &read(&file), &mut problems);
    }
    assert!(checked > 0, "no {what} found in the docs");
    assert!(
        problems.is_empty(),
        "{} of {checked} {what} are broken:\n{}",
        problems.len(),
        problems.join("\n\n")
    );
    eprintln!("{checked} {what} checked");
}

#[test]
fn every_toml_block_loads() {
    every_document("TOML blocks", |file, text, problems| {
        let tomls: Vec<_> = blocks(text)
            .into_iter()
            .filter(|b| b.info.split_whitespace().next() == Some("toml"))
            .collect();
        for b in &tomls {
            if let Some(p) = toml_problem(file, &b.info, &b.text) {
                problems.push(format!("{}: {p}", place(file, b.line)));
            }
        }
        tomls.len()
    });
}

#[test]
fn every_aboure_command_line_parses() {
    every_document("command lines", |file, text, problems| {
        let mut n = 0;
        for b in blocks(text) {
            if !["sh", "console", "bash"].contains(&b.info.as_str()) {
                continue;
            }
            for words in command_lines(&b.text) {
                n += 1;
                if let Some(p) = command_problem(&words) {
                    problems.push(format!("{}: {p}", place(file, b.line)));
                }
            }
        }
        n
    });
}

#[test]
fn every_aboure_command_in_a_code_span_names_real_flags() {
    every_document("commands in code spans", |file, text, problems| {
        let found = span_commands(text);
        for (line, words) in &found {
            if let Some(p) = name_problem(words) {
                problems.push(format!("{}: {p}", place(file, *line)));
            }
        }
        found.len()
    });
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    every_document("links", |file, text, problems| {
        let found = links(text);
        for link in &found {
            if let Some(p) = link_problem(file, &link.target) {
                problems.push(format!("{}: {p}", place(file, link.line)));
            }
        }
        found.len()
    });
}

/// The settings of a TOML text: one `table.key = value` per line, without
/// comments; commented-out keys are no settings.
fn settings(text: &str) -> Vec<String> {
    let mut table = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split(" #").next().unwrap_or("").trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            table = line.trim_matches(['[', ']']).to_owned();
        } else {
            let (key, value) = line.split_once('=').expect("key = value");
            out.push(format!("{table}.{} = {}", key.trim(), value.trim()));
        }
    }
    out.sort();
    out
}

/// True when `text` quotes the embedded defaults rather than being a
/// tournament file: a table of `[sandbox]` and `[sprt]` keys with no bot,
/// and `timeout` beside a clock (the defaults give every limit's keys).
fn quotes_the_defaults(text: &str) -> bool {
    let s = settings(text);
    let has = |key: &str| s.iter().any(|l| l.starts_with(key));
    has("time-control.timeout")
        && has("time-control.base")
        && has("sandbox.uids")
        && !text.lines().any(|l| l.trim_start().starts_with("[[bot]]"))
}

/// The problem with a block that quotes the defaults, if any: every
/// setting the embedded default.toml makes, and no other.
fn defaults_problem(text: &str) -> Option<String> {
    let quoted = settings(text);
    let embedded = settings(aboure_config::DEFAULT_CONFIG);
    (quoted != embedded).then(|| {
        let missing: Vec<_> = embedded.iter().filter(|l| !quoted.contains(l)).collect();
        let extra: Vec<_> = quoted.iter().filter(|l| !embedded.contains(l)).collect();
        format!("the defaults quoted differ from the embedded default.toml: missing {missing:?}, not in it {extra:?}")
    })
}

#[test]
fn the_documented_defaults_are_the_embedded_ones() {
    for page in ["docs/tournament-file.md", "configs/README.md"] {
        let text = read(&root().join(page));
        let start = text
            .find("## The defaults")
            .expect("a section of the defaults");
        let block = blocks(&text[start..])
            .into_iter()
            .find(|b| b.info.starts_with("toml"))
            .expect("a TOML block of the defaults");
        assert!(quotes_the_defaults(&block.text), "{page}: {}", block.text);
        assert_eq!(defaults_problem(&block.text), None, "{page}");
    }
}

/// The problems with the "Two commands" section of a README, if any: two
/// shell blocks of one line each; the first `cargo run --release -- ARGS`,
/// whose ARGS parse with the real command line (and a `run` of them names a
/// tournament file that loads); the second a line of `ci` (`.ci/run`) as
/// typed, so that what the README promises is what CI runs.
fn two_commands_problems(readme: &str, ci: &str) -> Vec<String> {
    let Some(start) = readme.find("## Two commands") else {
        return vec!["no \"## Two commands\" section".to_owned()];
    };
    let section = &readme[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    let lines: Vec<String> = blocks(&section[..end])
        .into_iter()
        .filter(|b| b.info == "sh")
        .map(|b| b.text.trim().to_owned())
        .collect();
    let [first, second] = lines.as_slice() else {
        return vec![format!("two one-line shell blocks, not {lines:?}")];
    };
    let mut problems = Vec::new();
    match first.strip_prefix("cargo run --release -- ") {
        None => problems.push(format!("{first:?} is not `cargo run --release -- ...`")),
        Some(args) => {
            let words: Vec<String> = std::iter::once("aboure")
                .chain(args.split_whitespace())
                .map(str::to_owned)
                .collect();
            problems.extend(command_problem(&words));
            if let ["aboure", "run", file] =
                words.iter().map(String::as_str).collect::<Vec<_>>()[..]
            {
                let path = root().join(file);
                match std::fs::read_to_string(&path) {
                    Err(e) => problems.push(format!("{file}: {e}")),
                    Ok(text) => problems.extend(
                        aboure_config::parse(&text, &path)
                            .err()
                            .map(|e| format!("{file}: {e}")),
                    ),
                }
            }
        }
    }
    if !ci.lines().any(|l| l.trim() == second) {
        problems.push(format!("{second:?} is not a line of .ci/run"));
    }
    problems
}

#[test]
fn the_readmes_two_commands_are_the_ones_ci_runs() {
    let problems = two_commands_problems(
        &read(&root().join("README.md")),
        &read(&root().join(".ci/run")),
    );
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The README is read in two minutes: what it is, install, a quick start,
/// the two commands, five figures and where to go next; the rest is in docs/.
const README_MOST_BYTES: usize = 6 * 1024;

#[test]
fn the_readme_stays_at_most_6_kb() {
    let size = read(&root().join("README.md")).len();
    assert!(
        size <= README_MOST_BYTES,
        "README.md is {size} bytes, over {README_MOST_BYTES}: move the detail to docs/"
    );
}

#[test]
fn two_commands_that_ci_does_not_run_fail() {
    let readme = |first: &str, second: &str| {
        format!("# x\n## Two commands\n\n```sh\n{first}\n```\n\ntext\n\n```sh\n{second}\n```\n\n## Next\n")
    };
    let ci = "set -e\ncargo fmt --all -- --check\nbash tests/run.sh\n";
    let (config, script) = (
        "cargo run --release -- run configs/default.toml",
        "bash tests/run.sh",
    );
    // The two commands, how many problems they have (at least, at most),
    // and why.
    let cases = [
        (config, script, 0..=0, "both fine"),
        (
            "cargo run --release -- run configs/defualt.toml",
            script,
            1..=usize::MAX,
            "a file that does not exist",
        ),
        (
            "cargo run --release -- run configs/default.toml --resumee",
            script,
            1..=1,
            "a flag the CLI refuses",
        ),
        (config, "bash tests/run.sh --all", 1..=1, "not what CI runs"),
    ];
    for (first, second, expected, why) in cases {
        let problems = two_commands_problems(&readme(first, second), ci);
        assert!(expected.contains(&problems.len()), "{why}: {problems:?}");
    }
    assert_eq!(two_commands_problems("# x\n", ci).len(), 1);
}

#[test]
fn a_broken_toml_snippet_fails() {
    let file = root().join("docs/snippet.md");
    assert!(toml_problem(&file, "toml", "[tournament]\npairs = 10\n").is_none());
    let bad = toml_problem(&file, "toml", "[time-control]\nmovetime = \"fast\"\n").unwrap();
    assert!(bad.contains("time-control.movetime"), "{bad}");
    let unknown = toml_problem(&file, "toml", "[tournament]\npears = 10\n").unwrap();
    assert!(unknown.contains("pears"), "{unknown}");
    assert!(toml_problem(&file, "toml fragment", "[sandbox]\nread = [\n").is_some());
    assert!(toml_problem(&file, "toml fragment", "pears = 10\n").is_none());
}

#[test]
fn a_broken_command_line_fails() {
    let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
    assert!(command_problem(&words("aboure run configs/default.toml --resume")).is_none());
    let bad = command_problem(&words("aboure run configs/default.toml --resumee")).unwrap();
    assert!(bad.contains("--resumee"), "{bad}");
    assert!(command_problem(&words("aboure rnu x.toml")).is_some());
}

#[test]
fn a_code_span_with_an_unknown_name_fails() {
    let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
    assert!(name_problem(&words("aboure run CONFIG.toml [--resume]")).is_none());
    assert!(name_problem(&words("aboure check-bot")).is_none());
    assert!(name_problem(&words("aboure 1")).is_none());
    let flag = name_problem(&words("aboure check-bot --memory-limt 1 -- x")).unwrap();
    assert!(flag.contains("--memory-limt"), "{flag}");
    assert!(name_problem(&words("aboure bench engin")).is_some());
}

#[test]
fn a_broken_link_fails() {
    let file = root().join("docs/README.md");
    assert!(link_problem(&file, "writing-a-bot.md#building-bots").is_none());
    assert!(link_problem(&file, "https://example.org/nowhere").is_none());
    let missing = link_problem(&file, "no-such-page.md").unwrap();
    assert!(missing.contains("no such file"), "{missing}");
    let anchor = link_problem(&file, "writing-a-bot.md#no-such-heading").unwrap();
    assert!(anchor.contains("#no-such-heading"), "{anchor}");
}

#[test]
fn drifted_defaults_differ() {
    let quoted = "[tournament]\npairs = 10 # per pairing\n# seed = 2\n[sandbox]\ncpu = \"1\"\n";
    assert_eq!(
        settings(quoted),
        vec!["sandbox.cpu = \"1\"", "tournament.pairs = 10"]
    );
    assert_ne!(
        settings(quoted),
        settings("[tournament]\npairs = 12\n[sandbox]\ncpu = \"1\"\n")
    );
    // A quote of the defaults with one value changed, or one key left out.
    let defaults = aboure_config::DEFAULT_CONFIG;
    assert!(quotes_the_defaults(defaults));
    assert_eq!(defaults_problem(defaults), None);
    let changed = defaults.replace("max-plies = 400", "max-plies = 500");
    let problem = defaults_problem(&changed).unwrap();
    assert!(
        problem.contains("adjudication.max-plies = 500"),
        "{problem}"
    );
    let dropped = defaults.replace("repetitions = 3", "");
    let problem = defaults_problem(&dropped).unwrap();
    assert!(
        problem.contains("adjudication.repetitions = 3"),
        "{problem}"
    );
}
