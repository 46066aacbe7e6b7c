//! Solving the start position from an empty table.
//!
//! `cargo bench -p aboure-microbench --bench solve`

use aboure_engine::Position;
use aboure_solver::Solver;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

fn solve_start(c: &mut Criterion) {
    let start = Position::startpos();
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.bench_function("startpos value", |b| {
        b.iter_batched(
            || Solver::new(64),
            |mut solver| solver.value(&start),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("startpos move values", |b| {
        b.iter_batched(
            || Solver::new(64),
            |mut solver| solver.move_values(&start),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, solve_start);
criterion_main!(benches);
