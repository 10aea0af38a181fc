//! Wall analysis benchmarks: the full-wall dynamic program, Table 1 by decider (a), and the
//! brute-force symmetry count.
//!
//! `cargo bench -p tessera-azul --bench wall` (the 5x5 program takes about a second per run).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tessera_azul::wall::symmetry::brute_orbits;
use tessera_azul::wall::tiling::{count_yes_plain, count_yes_pruned};
use tessera_azul::wall::{Picture, WallDp};

fn dp(c: &mut Criterion) {
    let mut g = c.benchmark_group("wall_dp");
    g.sample_size(10);
    for n in [4usize, 5] {
        g.bench_function(format!("full_{n}x{n}"), |b| {
            b.iter(|| {
                let dp = WallDp::solve(Picture::empty(black_box(n)).unwrap());
                black_box((dp.best(), dp.worst()))
            })
        });
    }
    g.finish();
}

fn table1(c: &mut Criterion) {
    let mut g = c.benchmark_group("wall_table1");
    g.sample_size(10);
    g.bench_function("pruned_n10", |b| {
        b.iter(|| count_yes_pruned(black_box(10)).unwrap())
    });
    g.bench_function("plain_n10", |b| {
        b.iter(|| count_yes_plain(black_box(10)).unwrap())
    });
    g.finish();
}

fn symmetry(c: &mut Criterion) {
    let mut g = c.benchmark_group("wall_symmetry");
    g.sample_size(10);
    g.bench_function("brute_orbits_4x4", |b| {
        b.iter(|| brute_orbits(black_box(4)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, dp, table1, symmetry);
criterion_main!(benches);
