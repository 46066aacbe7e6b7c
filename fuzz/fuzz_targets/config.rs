//! Fuzz target `config`: the checks live in `aboure_fuzz::checks::config`, shared
//! with the corpus replay in `tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aboure_fuzz::checks::config::check(data));
