//! `BotMessage`: any line parses to a value or an error, never a panic;
//! a parsed message prints as one line that parses back to it.

use aboure_protocol::BotMessage;

/// Parses the first line of `data` and checks the round trip.
pub fn check(data: &[u8]) {
    let Some(line) = super::first_line(data) else {
        return;
    };
    let Ok(msg) = line.parse::<BotMessage>() else {
        return;
    };
    let printed = msg.to_string();
    assert!(
        !printed.contains(['\n', '\r']),
        "{line:?} printed as {printed:?}"
    );
    let again: BotMessage = printed
        .parse()
        .unwrap_or_else(|e| panic!("{line:?} printed as {printed:?}, which fails: {e}"));
    // Free text prints line breaks as spaces, so a `\r` inside the line is
    // the one thing allowed to change; printing again must then be stable.
    if !super::has_inner_break(line) {
        assert_eq!(again, msg, "{line:?} -> {printed:?} does not round-trip");
    }
    assert_eq!(
        again.to_string(),
        printed,
        "{line:?}: printing is not stable"
    );
}
