//! What the configuration tests share: a file of two bots, and the check
//! that a file is refused with a message naming what it must.

use aboure_config::parse;

/// Two built-in bots, the least a tournament file holds.
pub const TWO_BOTS: &str =
    "[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"greedy\"\n";

/// Asserts that `text`, read as the file `name`, is refused with a message
/// that contains `expected`.
#[track_caller]
pub fn refused(name: &str, text: &str, expected: &str) {
    let message = match parse(text, name.as_ref()) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    };
    assert!(
        message.contains(expected),
        "\nexpected: {expected}\nactual:   {message}\nconfig:\n{text}"
    );
}
