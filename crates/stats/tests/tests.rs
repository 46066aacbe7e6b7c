//! One test binary for this package (each module below was its own binary:
//! one link of the workspace instead of one per file).

mod common;
#[path = "support/bradley_terry.rs"]
mod support;

mod anchors;
mod bootstrap;
mod bradley_terry;
mod bradley_terry_refusals;
mod characteristic;
mod coverage;
mod fit_diagnostics;
mod head_to_head;
mod ordered_sprt;
mod serialize;
mod sprt;
mod sprt_elo;
mod sprt_errors;
