//! Fuzz targets for aboure's parsers. The checks are plain functions of the
//! input bytes that panic when an invariant breaks, so libFuzzer (nightly,
//! `fuzz_targets/`) and the corpus replay on stable (`tests/fuzz_corpus.rs`)
//! run exactly the same code.
#![deny(missing_docs)]

pub mod checks;
