//! Criterion micro-benchmarks of the game's hot paths: random playouts and
//! perft (`benches/playout.rs`), solving the start position
//! (`benches/solve.rs`). Run them with `cargo bench -p aboure-microbench`.
//!
//! They live in a crate of their own, not beside the engine and the
//! solver, because a dev-dependency is compiled for every test target of
//! its crate: criterion and its 15 dependencies were built by every
//! `cargo test` of the workspace and used by none of its tests. This crate
//! has no test target, so `cargo test` compiles none of it. The wider
//! measurements behind the published figures are `aboure-bench`'s.
