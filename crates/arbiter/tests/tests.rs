//! One test binary for this package (each module below was its own binary:
//! one link of the workspace instead of one per file).

mod config_errors;
mod config_sandbox;
mod config_tune;
mod league_config;
mod sprt_verdict;
mod support;
