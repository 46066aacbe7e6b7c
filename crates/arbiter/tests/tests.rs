//! One test binary for this package (each module below was its own binary:
//! one link of the workspace instead of one per file).

mod sprt_verdict;
