//! One test binary for this package: the tournament file's errors and
//! values, table by table.

mod config_errors;
mod config_sandbox;
mod config_tune;
mod league_config;
mod support;
