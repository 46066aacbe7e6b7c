//! The top-level members of one JSON object, found without parsing what they
//! hold.
//!
//! A line of `games.jsonl` is mostly `moves` and `plies`, which a rating
//! never reads. serde skips them token by token, checking every number and
//! escape, and that skipping is most of the time a report spends on a line.
//! This scanner only follows strings and brackets to find where each member
//! ends, which is several times faster. It is a fast path, not a judge: it
//! gives up ([`None`]) on anything it does not expect (an escaped key,
//! brackets that do not match, bytes after the object), and the caller then
//! parses the line with serde, which decides what is wrong and says where.
//! What it lets through that serde would refuse is damage inside a skipped
//! value that keeps its strings and brackets whole, the same tolerance the
//! summary already has for a valid but odd value it does not read.

use memchr::memchr2;

/// Most nested brackets followed inside one value; deeper values are left
/// to serde.
const MAX_DEPTH: usize = 32;

/// The members of the object that is the whole of `line`, each as its key
/// (the bytes between the quotes) and its value's text, in order; `None` if
/// the line is not a plain object the scanner understands.
pub(crate) fn members(line: &[u8]) -> Option<Members<'_>> {
    let start = skip_ws(line, 0);
    (line.get(start) == Some(&b'{')).then_some(Members {
        line,
        at: start + 1,
        first: true,
        done: false,
    })
}

/// A member: its key (between the quotes) and its value's text.
pub(crate) type Member<'a> = (&'a [u8], &'a [u8]);

/// The scanner met something it leaves to serde.
#[derive(Debug)]
pub(crate) struct GiveUp;

/// See [`members`].
pub(crate) struct Members<'a> {
    line: &'a [u8],
    at: usize,
    first: bool,
    done: bool,
}

impl<'a> Members<'a> {
    /// The next member; `Ok(None)` at the closing brace, `Err(GiveUp)` when the
    /// scanner gives up.
    pub(crate) fn next_member(&mut self) -> Result<Option<Member<'a>>, GiveUp> {
        if self.done {
            return Ok(None);
        }
        let s = self.line;
        let mut i = skip_ws(s, self.at);
        match (s.get(i), self.first) {
            (Some(b'}'), true) => return self.close(i),
            (Some(b'"'), true) => {}
            (Some(b','), false) => i = skip_ws(s, i + 1),
            (Some(b'}'), false) => return self.close(i),
            _ => return Err(GiveUp),
        }
        self.first = false;
        if s.get(i) != Some(&b'"') {
            return Err(GiveUp);
        }
        let key_end = memchr2(b'"', b'\\', &s[i + 1..]).ok_or(GiveUp)? + i + 1;
        if s[key_end] != b'"' {
            return Err(GiveUp);
        }
        let key = &s[i + 1..key_end];
        // Keys are plain ASCII; anything else is serde's to judge.
        if !key.iter().all(|b| (0x20..0x7f).contains(b)) {
            return Err(GiveUp);
        }
        i = skip_ws(s, key_end + 1);
        if s.get(i) != Some(&b':') {
            return Err(GiveUp);
        }
        let value_start = skip_ws(s, i + 1);
        let value_end = value_end(s, value_start).ok_or(GiveUp)?;
        self.at = value_end;
        Ok(Some((key, &s[value_start..value_end])))
    }

    fn close(&mut self, brace: usize) -> Result<Option<Member<'a>>, GiveUp> {
        self.done = true;
        if skip_ws(self.line, brace + 1) == self.line.len() {
            Ok(None)
        } else {
            Err(GiveUp)
        }
    }
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while matches!(s.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        i += 1;
    }
    i
}

/// Where the value that starts at `i` ends (exclusive).
fn value_end(s: &[u8], i: usize) -> Option<usize> {
    match *s.get(i)? {
        b'"' => string_end(s, i),
        b'{' | b'[' => nested_end(s, i),
        b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
            let len = s[i..]
                .iter()
                .position(|b| !matches!(b, b'0'..=b'9' | b'a'..=b'z' | b'.' | b'+' | b'-' | b'E'))
                .unwrap_or(s.len() - i);
            Some(i + len)
        }
        _ => None,
    }
}

/// The end of the string whose opening quote is at `i`.
fn string_end(s: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        let k = j + memchr2(b'"', b'\\', s.get(j..)?)?;
        if s[k] == b'"' {
            return Some(k + 1);
        }
        // A backslash escapes the byte after it (`\"`, `\\`, `\u`...).
        j = k + 2;
    }
}

/// The end of the array or object that opens at `i`: strings skipped whole,
/// every bracket matched with its kind. One pass over the bytes, most of
/// them taking a single table lookup: the strings inside are short (keys,
/// moves), too short for a vectorised search to pay for its set-up.
fn nested_end(s: &[u8], i: usize) -> Option<usize> {
    let mut open = [0u8; MAX_DEPTH];
    let mut depth = 0;
    let mut j = i;
    while let Some(&b) = s.get(j) {
        j += 1;
        if !SPECIAL[usize::from(b)] {
            continue;
        }
        match b {
            b'"' => loop {
                match *s.get(j)? {
                    b'"' => {
                        j += 1;
                        break;
                    }
                    // A backslash escapes the byte after it.
                    b'\\' => j += 2,
                    _ => j += 1,
                }
            },
            b'[' | b'{' => {
                *open.get_mut(depth)? = b;
                depth += 1;
            }
            _ => {
                depth = depth.checked_sub(1)?;
                let opener = if b == b']' { b'[' } else { b'{' };
                if open[depth] != opener {
                    return None;
                }
                if depth == 0 {
                    return Some(j);
                }
            }
        }
    }
    None
}

/// The bytes [`nested_end`] stops at: quotes and brackets.
static SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    table[b'"' as usize] = true;
    table[b'[' as usize] = true;
    table[b']' as usize] = true;
    table[b'{' as usize] = true;
    table[b'}' as usize] = true;
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    fn all(line: &str) -> Option<Vec<(String, String)>> {
        let mut m = members(line.as_bytes())?;
        let mut out = Vec::new();
        while let Some((k, v)) = m.next_member().ok()? {
            out.push((
                String::from_utf8_lossy(k).into_owned(),
                String::from_utf8_lossy(v).into_owned(),
            ));
        }
        Some(out)
    }

    #[test]
    fn finds_each_member_and_its_value() {
        let got = all(r#" {"a": [1, {"b": "]}"}], "c":"x\"y" ,"d":-1.5e3,"e":null, "f":{}} "#);
        let want = [
            ("a", r#"[1, {"b": "]}"}]"#),
            ("c", r#""x\"y""#),
            ("d", "-1.5e3"),
            ("e", "null"),
            ("f", "{}"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(got, Some(want));
        assert_eq!(all("{}"), Some(vec![]));
    }

    #[test]
    fn gives_up_on_what_it_does_not_expect() {
        for line in [
            "",
            "[]",
            r#"{"a":1"#,
            r#"{"a":[1}"#,
            r#"{"a":{"b":1]}"#,
            r#"{"a":"x}"#,
            r#"{"a":1}x"#,
            r#"{"a\"b":1}"#,
            r#"{"a" 1}"#,
            r#"{"a":1,}"#,
            r#"{,"a":1}"#,
            r#"{"a":1 "b":2}"#,
            r#"{"a":}"#,
            r#"{"a":"\"}"#,
            "{\"a\u{1}\":1}",
        ] {
            assert_eq!(all(line), None, "{line}");
        }
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(40), "]".repeat(40));
        assert_eq!(all(&deep), None);
    }
}
