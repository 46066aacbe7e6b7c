//! A bot that misbehaves on purpose, for the end-to-end tests (being written).

fn main() {}
