//! Fuzz target `moves`: the checks live in `aboure_fuzz::checks::moves`, shared
//! with the corpus replay in `tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aboure_fuzz::checks::moves::check(data));
