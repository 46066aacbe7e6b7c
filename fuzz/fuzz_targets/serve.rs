//! Fuzz target `serve`: the checks live in `aboure_fuzz::checks::serve`, shared
//! with the corpus replay in `tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aboure_fuzz::checks::serve::check(data));
