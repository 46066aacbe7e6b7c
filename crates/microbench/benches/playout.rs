//! Random playouts from the start position, the engine's headline figure.
//!
//! `cargo bench -p aboure-microbench --bench playout`

use aboure_engine::{perft, playout, Position};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn playouts(c: &mut Criterion) {
    let start = Position::startpos();
    let mut rng = SmallRng::seed_from_u64(1);
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(1));
    group.bench_function("playout from start", |b| {
        b.iter(|| playout(&start, &mut rng))
    });
    group.throughput(Throughput::Elements(perft(&start, 6)));
    group.bench_function("perft 6", |b| b.iter(|| perft(&start, 6)));
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
