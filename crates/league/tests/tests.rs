//! The league's rules driven by simulated games of known strength.

mod baselines;
mod config;
mod coverage;
mod schedule;
mod stopped_coverage;
mod support;
