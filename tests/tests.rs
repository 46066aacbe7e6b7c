//! One test binary for this package (each module below was its own binary:
//! one link of the workspace instead of one per file).

#[path = "../fuzz/src/checks/mod.rs"]
mod checks;
#[path = "support/disk.rs"]
mod disk;
#[path = "support/harness.rs"]
mod harness;
#[path = "support/nfsbed.rs"]
mod nfsbed;
#[path = "support/served.rs"]
mod served;
#[path = "support/sources.rs"]
mod sources;
#[path = "check_bot_fixtures/support.rs"]
mod support;

mod build;
mod check_bot_misbehaving;
mod check_bot_reference;
mod claims_lost;
mod cli_engine;
mod docs;
mod fairness;
mod function_length;
mod fuzz_corpus;
mod hardening_bots;
mod hardening_crash;
mod hardening_input;
mod hardening_soak;
mod imports;
mod kits;
mod league;
mod league_workers;
mod left_over;
mod nfs;
mod openings;
mod order;
mod quick_start;
mod report_cli;
mod report_html;
mod report_prior;
mod run_games;
mod run_output;
mod sandbox;
mod serve_league;
mod serve_live;
mod serve_security;
mod serve_tune;
mod slices;
mod slurm_league;
mod slurm_sprt;
mod sprt_calc;
mod sprt_shards;
mod tune_cli;
mod tune_join;
