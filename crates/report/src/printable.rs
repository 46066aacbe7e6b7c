//! Text from outside made safe for a terminal. Bot names come from results
//! files anyone may have written, failure details quote what a bot wrote on
//! its stderr: printed raw, an escape sequence in them would move the
//! cursor, retitle the window, rewrite earlier lines or worse. Every text
//! output goes through [`printable`], which writes each control character
//! as its Rust escape instead (`\u{1b}`), so the reader still sees that it
//! was there.

use std::borrow::Cow;

/// `text` with every control character but the newline and the tab, and
/// every Unicode direction control, written as its escape.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if hidden_control(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// C0 and C1 controls and DEL (escape sequences start with ESC, or the C1
/// CSI), and the bidirectional controls: the embeddings, overrides and
/// isolates, which reorder what follows them on the line (a name that
/// shows as another, a score read backwards), and the invisible marks
/// (left-to-right, right-to-left, Arabic letter), which change the
/// direction of what is next to them. And the line and paragraph
/// separators (U+2028, U+2029), which a reader that splits lines as
/// Unicode does (Python's `splitlines`, many editors) takes for a line
/// break: a bot's stderr quoted in a detail would start a forged line of
/// the report. A page (see the HTML report) hides them as a terminal does,
/// so both show them written out.
pub fn hidden_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
        || ['\u{200e}', '\u{200f}', '\u{61c}', '\u{2028}', '\u{2029}'].contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_controls_are_written_out() {
        assert_eq!(
            printable("a\u{1b}]0;owned\u{7}b\u{9b}2J\r\u{7f}"),
            "a\\u{1b}]0;owned\\u{7}b\\u{9b}2J\\u{d}\\u{7f}"
        );
        assert_eq!(printable("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(
            printable("\u{2066}a\u{2069}\u{200e}\u{200f}\u{61c}\u{202a}"),
            "\\u{2066}a\\u{2069}\\u{200e}\\u{200f}\\u{61c}\\u{202a}"
        );
        // Line breaks only to a reader that splits as Unicode does.
        assert_eq!(
            printable("a\u{2028}NOTE: b\u{2029}c\u{85}d"),
            "a\\u{2028}NOTE: b\\u{2029}c\\u{85}d"
        );
    }

    #[test]
    fn ordinary_text_is_kept_as_it_is() {
        let text = "game 3 (café - bot_2): lost\n\tby time";
        assert!(matches!(printable(text), Cow::Borrowed(t) if t == text));
    }
}
