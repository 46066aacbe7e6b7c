//! A Djenon-aboure bot in Rust, with no dependency: the entry point. It wires
//! standard input and output to the protocol in `protocol.rs`; the rules are
//! in `rules.rs` and the move choice in `search.rs`.
//!
//! Build it: cargo build --release. Check it:
//! aboure check-bot -- bots/rust/target/release/aboure-rust-kit

mod protocol;
mod rules;
mod search;

use std::io::{BufRead, Write};

fn main() {
    let stdout = std::io::stdout();
    let mut bot = protocol::Bot::new(|line: &str| {
        let mut out = stdout.lock();
        // A closed stdout means the arbiter is gone; the next read ends too.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    });
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if !bot.handle(&line) {
            break;
        }
    }
}
