//! The league's rules driven by simulated games of known strength.

mod baselines;
mod schedule;
mod support;
