//! PGN results, so a user can rate the games of cutechess-cli, fastchess or
//! any harness that writes PGN.
//!
//! Only three tag pairs matter: `White` (the first mover, South in
//! Djenon-aboure), `Black` and `Result` (`1-0`, `0-1`, `1/2-1/2`; `*`, an
//! unfinished game, is skipped and counted). Every other tag (`Variant`,
//! `FEN`, `TimeControl`, ...) is ignored, and so is the move text, which is
//! only followed far enough to stay out of comments (`{...}` over any
//! number of lines, `;` to the end of a line), variations (`(...)`) and
//! `%` escape lines, and to take the result at its end when a game has no
//! `Result` tag. A game starts at a tag pair that follows move text or a
//! blank line. A game without players or result is a [`Problem`] at the
//! line where it starts.
//!
//! The file is read a line at a time from a reused buffer and a game
//! keeps only its two names, so a file of any size is read in constant
//! memory, on one thread (README.md gives the figures).

use std::borrow::Cow;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::problem::{Problem, ProblemKind, ReadError};
use crate::record::GameResult;
use crate::row::{row_summary, Row};

/// The games of a PGN file, read in order.
#[derive(Debug)]
pub struct PgnGames<R> {
    path: PathBuf,
    reader: R,
    line: Vec<u8>,
    number: usize,
    bytes_read: u64,
    /// The game being read.
    game: Game,
    /// The game finished last, handed out by reference.
    done: Game,
    /// Inside a `{` comment (which may span lines).
    comment: bool,
    /// Variation depth.
    depth: u32,
    ended: bool,
}

/// What is known of one game.
#[derive(Debug, Default)]
struct Game {
    /// The line of its first tag or move text; 0 for no game yet.
    start: usize,
    white: Option<String>,
    black: Option<String>,
    /// The `Result` tag's value.
    result: Option<String>,
    /// The last token of the move text outside comments and variations.
    last_token: Vec<u8>,
    /// Move text or a blank line came after the tags: a tag starts the next game.
    closed: bool,
    /// A tag pair that could not be read, with its line.
    bad_tag: Option<(usize, String)>,
}

impl<R: BufRead> PgnGames<R> {
    /// Reads PGN from `reader`; `path` names the file in problems.
    pub fn new(reader: R, path: &Path) -> PgnGames<R> {
        PgnGames {
            path: path.to_owned(),
            reader,
            line: Vec::new(),
            number: 0,
            bytes_read: 0,
            game: Game::default(),
            done: Game::default(),
            comment: false,
            depth: 0,
            ended: false,
        }
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The next game, `None` at the end.
    pub fn next_row(&mut self) -> Result<Option<Row<'_>>, ReadError> {
        while !self.ended {
            self.line.clear();
            let n = self
                .reader
                .read_until(b'\n', &mut self.line)
                .map_err(|source| ReadError {
                    path: self.path.clone(),
                    source,
                })?;
            if n == 0 {
                self.ended = true;
                self.done = std::mem::take(&mut self.game);
                break;
            }
            self.number += 1;
            self.bytes_read += n as u64;
            if self.take_line() {
                break;
            }
        }
        if self.done.start == 0 {
            return Ok(None);
        }
        let done = std::mem::take(&mut self.done.start);
        Ok(Some(finish(&self.done, done, &self.path)))
    }

    /// Reads the line in the buffer; true if it finished a game (now in `done`).
    fn take_line(&mut self) -> bool {
        let line = std::mem::take(&mut self.line);
        let text = line.trim_ascii();
        let mut finished = false;
        if self.comment || self.depth > 0 || !text.starts_with(b"[") {
            if text.is_empty() || text[0] == b'%' && !self.comment {
                self.game.closed |= self.game.start != 0 && !self.comment;
            } else {
                if self.game.start == 0 {
                    self.game.start = self.number;
                }
                self.game.closed = true;
                self.move_text(text);
            }
        } else {
            if self.game.closed {
                self.done = std::mem::take(&mut self.game);
                finished = true;
            }
            if self.game.start == 0 {
                self.game.start = self.number;
            }
            let rest = self.tags(text);
            if !rest.is_empty() {
                self.game.closed = true;
                self.move_text(rest);
            }
        }
        self.line = line;
        finished
    }

    /// Reads the tag pairs at the start of `text`; returns what follows them.
    fn tags<'t>(&mut self, mut text: &'t [u8]) -> &'t [u8] {
        while let Some(inner) = text.strip_prefix(b"[") {
            match tag(inner) {
                Some(Tag { name, value, after }) => {
                    let slot = match name {
                        b"White" => Some(&mut self.game.white),
                        b"Black" => Some(&mut self.game.black),
                        b"Result" => Some(&mut self.game.result),
                        _ => None,
                    };
                    if let Some(slot) = slot {
                        match String::from_utf8(value.into_owned()) {
                            Ok(value) => *slot = Some(value),
                            Err(_) => {
                                self.game.bad_tag.get_or_insert((
                                    self.number,
                                    "a tag value that is not UTF-8 text".to_owned(),
                                ));
                            }
                        }
                    }
                    text = after.trim_ascii_start();
                }
                None => {
                    let shown = String::from_utf8_lossy(&text[..text.len().min(60)]);
                    self.game
                        .bad_tag
                        .get_or_insert((self.number, format!("unreadable tag pair {shown:?}")));
                    return &[];
                }
            }
        }
        text
    }

    /// Follows move text far enough to know the comment and variation state
    /// and the last token at the top level.
    fn move_text(&mut self, mut text: &[u8]) {
        while !text.is_empty() {
            if self.comment {
                match memchr::memchr(b'}', text) {
                    Some(end) => {
                        self.comment = false;
                        text = &text[end + 1..];
                        continue;
                    }
                    None => return,
                }
            }
            let start = text.len() - text.trim_ascii_start().len();
            text = &text[start..];
            match text.first() {
                None => return,
                Some(b'{') => {
                    self.comment = true;
                    text = &text[1..];
                }
                Some(b';') => return,
                Some(b'(') => {
                    self.depth += 1;
                    text = &text[1..];
                }
                Some(b')') => {
                    self.depth = self.depth.saturating_sub(1);
                    text = &text[1..];
                }
                Some(_) => {
                    let end = text
                        .iter()
                        .position(|b| b.is_ascii_whitespace() || b"{};()".contains(b))
                        .unwrap_or(text.len())
                        // A stray `}` is a token of its own.
                        .max(1);
                    if self.depth == 0 {
                        self.game.last_token.clear();
                        self.game.last_token.extend_from_slice(&text[..end]);
                    }
                    text = &text[end..];
                }
            }
        }
    }
}

/// A tag pair's name and value (escapes `\"` and `\\` undone) and what
/// follows its `]`; `text` starts after the `[`. A value without escapes
/// is borrowed: most tags are skipped unread.
fn tag(text: &[u8]) -> Option<Tag<'_>> {
    let text = text.trim_ascii_start();
    let name_end = text
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))?;
    let (name, rest) = text.split_at(name_end);
    let rest = rest.trim_ascii_start().strip_prefix(b"\"")?;
    let end = memchr::memchr2(b'"', b'\\', rest)?;
    let (value, after) = if rest[end] == b'"' {
        (Cow::Borrowed(&rest[..end]), &rest[end + 1..])
    } else {
        let mut value = rest[..end].to_vec();
        let mut i = end;
        loop {
            match *rest.get(i)? {
                b'"' => break,
                b'\\' if matches!(rest.get(i + 1), Some(b'"' | b'\\')) => {
                    value.push(rest[i + 1]);
                    i += 2;
                }
                b => {
                    value.push(b);
                    i += 1;
                }
            }
        }
        (Cow::Owned(value), &rest[i + 1..])
    };
    let after = after.trim_ascii_start().strip_prefix(b"]")?;
    (!name.is_empty()).then_some(Tag { name, value, after })
}

/// A tag pair read from a line.
struct Tag<'t> {
    name: &'t [u8],
    value: Cow<'t, [u8]>,
    /// The rest of the line.
    after: &'t [u8],
}

/// The row a finished game makes.
fn finish<'g>(game: &'g Game, line: usize, path: &Path) -> Row<'g> {
    let problem = |line: usize, message: String| {
        Row::Problem(Problem {
            path: path.to_owned(),
            line,
            kind: ProblemKind::Malformed,
            message,
        })
    };
    if let Some((line, message)) = &game.bad_tag {
        return problem(*line, message.clone());
    }
    let (Some(white), Some(black)) = (&game.white, &game.black) else {
        let missing = match (&game.white, &game.black) {
            (None, None) => "White and Black tags",
            (None, _) => "White tag",
            _ => "Black tag",
        };
        return problem(line, format!("game without its {missing}"));
    };
    if white.is_empty() || black.is_empty() {
        return problem(line, "empty player name".to_owned());
    }
    let result = match &game.result {
        Some(result) => result.as_str(),
        None => std::str::from_utf8(&game.last_token).unwrap_or(""),
    };
    match GameResult::parse(result) {
        Some(result) => Row::Games {
            line,
            game: row_summary(white, black, result),
            count: 1,
        },
        None if result == "*" => Row::Unfinished { line },
        None if game.result.is_none() => problem(
            line,
            "game without a result (no Result tag, no result after the moves)".to_owned(),
        ),
        None => problem(
            line,
            format!("Result {result:?} is not 1-0, 0-1, 1/2-1/2 or *"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row as `line: white-black result`, `line: *` or the problem.
    fn rows(text: &str) -> Vec<String> {
        let mut games = PgnGames::new(text.as_bytes(), Path::new("g.pgn"));
        let mut out = Vec::new();
        while let Some(row) = games.next_row().unwrap() {
            out.push(match row {
                Row::Games { line, game, count } => {
                    assert_eq!(count, 1);
                    format!("{line}: {}-{} {}", game.south, game.north, game.result)
                }
                Row::Unfinished { line } => format!("{line}: *"),
                Row::Problem(p) => p.to_string(),
            });
        }
        out
    }

    #[test]
    fn tags_with_and_without_move_text() {
        let text = concat!(
            "[Event \"?\"]\n[White \"Engine A\"]\n[Black \"Engine, \\\"B\\\"\"]\n",
            "[Result \"1-0\"]\n[Variant \"djenon\"]\n\n",
            "1. 5 {+0.2/9 0.1s} 11 (1... 3 2. 4) 2. 7 ; a [White \"not a tag\"]\n",
            "{a comment\n[White \"still a comment\"]\n} } 1-0\n\n",
            "[White \"c\"][Black \"d\"][Result \"1/2-1/2\"]\n\n",
            "[White \"e\"]\n[Black \"f\"]\n[Result \"*\"]\n\n*\n",
            "[White \"g\"]\n[Black \"h\"]\n\n1. 3 4 0-1\n",
        );
        assert_eq!(
            rows(text),
            [
                "1: Engine A-Engine, \"B\" 1-0",
                "12: c-d 1/2-1/2",
                "14: *",
                "19: g-h 0-1",
            ]
        );
    }

    #[test]
    fn games_without_players_or_result_are_located_problems() {
        let text = concat!(
            "[White \"a\"]\n[Result \"1-0\"]\n\n1-0\n\n",
            "[White \"a\"]\n[Black \"b\"]\n\n1. 3 4\n\n",
            "[White \"a\"]\n[Black \"b\"]\n[Result \"2-0\"]\n\n",
            "[White \"a\"\n[Black \"b\"]\n[Result \"1-0\"]\n\n",
            "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n",
        );
        assert_eq!(
            rows(text),
            [
                "g.pgn:1: malformed line: game without its Black tag",
                "g.pgn:6: malformed line: game without a result (no Result tag, no result after the moves)",
                "g.pgn:11: malformed line: Result \"2-0\" is not 1-0, 0-1, 1/2-1/2 or *",
                "g.pgn:15: malformed line: unreadable tag pair \"[White \\\"a\\\"\"",
                "19: a-b 0-1",
            ]
        );
    }
}
