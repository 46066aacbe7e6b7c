//! Protocol lines in both directions (`ArbiterMessage`, `BotMessage`): any
//! line parses to a value or an error, never a panic; a parsed message prints
//! as one line that parses back to it.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use aboure_protocol::{ArbiterMessage, BotMessage};

/// Parses the first line of `data` as a line from the arbiter and checks the
/// round trip.
pub fn check_arbiter(data: &[u8]) {
    round_trip::<ArbiterMessage>(data);
}

/// Parses the first line of `data` as a line from a bot and checks the round
/// trip.
pub fn check_bot(data: &[u8]) {
    round_trip::<BotMessage>(data);
}

fn round_trip<M>(data: &[u8])
where
    M: FromStr + Display + PartialEq + Debug,
    M::Err: Display,
{
    let Some(line) = super::first_line(data) else {
        return;
    };
    let Ok(msg) = line.parse::<M>() else {
        return;
    };
    let printed = msg.to_string();
    assert!(
        !printed.contains(['\n', '\r']),
        "{line:?} printed as {printed:?}"
    );
    let again: M = printed
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
