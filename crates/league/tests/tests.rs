//! The league's rules driven by simulated games of known strength.

mod baselines;
mod coverage;
mod schedule;
mod support;
