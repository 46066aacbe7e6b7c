//! HTML escaping, for every part of the report's pages (the page itself,
//! its plots, the league's and the tune's sections). Control characters
//! and the bidirectional controls are written out as in the text report
//! (see [`crate::printable`]): on a page they would reorder a name or a
//! line, unseen.

use crate::printable::hidden_control;

/// Escapes text for HTML content and attribute values.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if hidden_control(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn markup_is_escaped_and_direction_controls_are_written_out() {
        assert_eq!(
            esc("<b>\u{202e}evil\u{2066}\u{200f}'\"&\u{1b}"),
            "&lt;b&gt;\\u{202e}evil\\u{2066}\\u{200f}&#39;&quot;&amp;\\u{1b}"
        );
        assert_eq!(esc("café\n\tbot"), "café\n\tbot");
    }
}
