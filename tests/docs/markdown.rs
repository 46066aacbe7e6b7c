//! Just enough Markdown for the documentation's tests: fenced blocks with
//! their info string and line, the headings' anchors as GitHub makes them,
//! the links outside code and the `aboure ...` commands of code spans. Not a
//! Markdown parser: the docs keep to fences of three backticks, ATX
//! headings, inline links and code spans of one backtick.

use std::collections::BTreeSet;

/// A fenced block: its info string (`toml`, `sh`, `toml fragment`), the
/// line of its opening fence (1-based) and its text.
pub struct Block {
    pub info: String,
    pub line: usize,
    pub text: String,
}

/// A link outside code: its target as written and its line (1-based).
pub struct Link {
    pub target: String,
    pub line: usize,
}

/// The fenced blocks of `markdown`, in order.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_owned(),
                    line: i + 1,
                    text: String::new(),
                })
            }
            (Some(_), Some(_)) => blocks.extend(open.take()),
            (Some(block), None) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

/// The lines of `markdown` outside fenced blocks, with their numbers.
fn prose(markdown: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    markdown.lines().enumerate().filter_map(move |(i, line)| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some((i + 1, line))
    })
}

/// GitHub's anchor of a heading: lower case, everything but letters,
/// digits, `_`, `-` and spaces dropped, spaces made `-`.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of every heading of `markdown` (a repeated heading gets
/// `-1`, `-2`... as on GitHub).
pub fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    for (_, line) in prose(markdown) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        let Some(title) = line[hashes..].strip_prefix(' ') else {
            continue;
        };
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let base = slug(title.trim_end_matches('#'));
        let mut anchor = base.clone();
        let mut n = 0;
        while !anchors.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
    }
    anchors
}

/// The inline links `[label](target)` of `markdown` outside code blocks
/// and code spans.
pub fn links(markdown: &str) -> Vec<Link> {
    let mut links = Vec::new();
    for (line_no, line) in prose(markdown) {
        let mut in_code = false;
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'`' => in_code = !in_code,
                b']' if !in_code && bytes.get(i + 1) == Some(&b'(') => {
                    let rest = &line[i + 2..];
                    if let Some(end) = rest.find(')') {
                        let target = &rest[..end];
                        if !target.contains(char::is_whitespace) {
                            links.push(Link {
                                target: target.to_owned(),
                                line: line_no,
                            });
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    links
}

/// The commands in code spans of the prose that run `aboure`, each as its
/// words with the line the span starts on: `` `aboure run FILE -q` `` and
/// `` `cargo run --release -- bench engine` `` (as `aboure bench engine`),
/// also when a span wraps onto the next line of its paragraph. `/usr/bin/time`,
/// `nice -n N` and a `./target/release/` before the binary are dropped.
pub fn span_commands(markdown: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let mut span: Option<(usize, String)> = None;
    let mut last = 0;
    for (line_no, line) in prose(markdown) {
        if line_no != last + 1 || line.trim().is_empty() {
            span = None; // a span never crosses a paragraph or a fence
        }
        last = line_no;
        for (i, part) in line.split('`').enumerate() {
            if i > 0 {
                span = match span.take() {
                    None => Some((line_no, String::new())),
                    Some((start, text)) => {
                        found.extend(span_command(&text).map(|w| (start, w)));
                        None
                    }
                };
            }
            if let Some((_, text)) = &mut span {
                text.push_str(part);
            }
        }
        if let Some((_, text)) = &mut span {
            text.push(' ');
        }
    }
    found
}

/// The words of one code span's text if it runs `aboure`.
fn span_command(text: &str) -> Option<Vec<String>> {
    let mut words = shell_words(text);
    if words.first().is_some_and(|w| w == "nice") && words.get(1).is_some_and(|w| w == "-n") {
        words.drain(..3.min(words.len()));
    }
    if words
        .first()
        .is_some_and(|w| w == "/usr/bin/time" || w == "time")
    {
        words.remove(0);
        while words.first().is_some_and(|w| w.starts_with('-')) {
            if words.remove(0) == "-f" && !words.is_empty() {
                words.remove(0); // the format
            }
        }
    }
    if words.first()?.strip_prefix("./target/release/") == Some("aboure") {
        words[0] = "aboure".to_owned();
    }
    if words.len() > 3 && words[..4] == ["cargo", "run", "--release", "--"] {
        words.splice(..4, ["aboure".to_owned()]);
    }
    (words.first()? == "aboure" && words.len() > 1).then_some(words)
}

/// The `aboure ...` command lines of a shell block, each as its words:
/// continuation lines joined, a leading `$ ` prompt and a trailing comment
/// dropped, the command cut at the first `|`, `>`, `;` or `&&`, and shell
/// expansions (`$VAR`, `${VAR}`, `$((...))`) replaced by `1`.
pub fn command_lines(block: &str) -> Vec<Vec<String>> {
    let mut joined = Vec::new();
    let mut current = String::new();
    for line in block.lines() {
        match line.trim_end().strip_suffix('\\') {
            Some(head) => current.push_str(head),
            None => {
                current.push_str(line);
                joined.push(std::mem::take(&mut current));
            }
        }
    }
    joined
        .iter()
        .filter_map(|line| {
            let line = line.trim();
            let line = line.strip_prefix("$ ").unwrap_or(line);
            let words = shell_words(line);
            (words.first().map(String::as_str) == Some("aboure")).then_some(words)
        })
        .collect()
}

/// Words of one shell line, as far as the docs need: quotes group, `#`
/// starts a comment, and the line ends at a pipe, redirection or list.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '$') | (None, '$') => {
                skip_expansion(&mut chars);
                word.push('1');
                started = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, '#') if !started => break,
            (None, '|' | '>' | ';' | '&') => break,
            (None, c) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// Skips the rest of an expansion after `$`: a name, `{...}` or `((...))`.
fn skip_expansion(chars: &mut std::iter::Peekable<std::str::Chars>) {
    match chars.peek() {
        Some('{') | Some('(') => {
            let mut depth = 0;
            for c in chars.by_ref() {
                match c {
                    '{' | '(' => depth += 1,
                    '}' | ')' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
        }
        _ => {
            while chars
                .peek()
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
            {
                chars.next();
            }
        }
    }
}

#[test]
fn blocks_links_and_anchors_are_found() {
    let md = "# Top\n\nSee [a](b.md#c) and `[not](code)`.\n\n```toml fragment\nx = 1\n```\n\n## Top\n## `[sandbox]`: what a bot may touch\n";
    let b = blocks(md);
    assert_eq!(b.len(), 1);
    assert_eq!(
        (b[0].info.as_str(), b[0].line, b[0].text.as_str()),
        ("toml fragment", 5, "x = 1\n")
    );
    let l = links(md);
    assert_eq!(l.len(), 1);
    assert_eq!((l[0].target.as_str(), l[0].line), ("b.md#c", 3));
    let a = anchors(md);
    assert!(a.contains("top") && a.contains("top-1"), "{a:?}");
    assert!(a.contains("sandbox-what-a-bot-may-touch"), "{a:?}");
}

#[test]
fn command_lines_are_split_as_a_shell_would() {
    let block = "$ aboure run a.toml --out \"my dir\"   # a comment\naboure report x | head\n\
                 aboure run b.toml \\\n  --shard \"${SLURM_ARRAY_TASK_ID}/100\"\nmake -C bots/cpp\n";
    let lines = command_lines(block);
    assert_eq!(
        lines,
        vec![
            vec!["aboure", "run", "a.toml", "--out", "my dir"],
            vec!["aboure", "report", "x"],
            vec!["aboure", "run", "b.toml", "--shard", "1/100"],
        ]
    );
}

#[test]
fn commands_are_found_in_code_spans() {
    let md =
        "Run `aboure run a.toml -q` then `nice -n 10 cargo run --release --\nbench engine` and\n\
              `/usr/bin/time ./target/release/aboure solve`; not `aboure` alone, `make`, or\n\n\
              `aboure 1\n\n` across a paragraph.\n```sh\n`aboure fenced`\n```\n";
    let found = span_commands(md);
    let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(
        found,
        vec![
            (1, words("aboure run a.toml -q")),
            (1, words("aboure bench engine")),
            (3, words("aboure solve")),
        ]
    );
}
