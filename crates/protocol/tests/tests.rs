//! One test binary for this package (each module below was its own binary:
//! one link of the workspace instead of one per file).

mod messages;
mod protocol_md;
mod python_bot;
mod serve;
