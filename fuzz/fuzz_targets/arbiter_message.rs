//! Fuzz target `arbiter_message`: the checks live in `aboure_fuzz::checks::message`, shared
//! with the corpus replay in `tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aboure_fuzz::checks::message::check_arbiter(data));
