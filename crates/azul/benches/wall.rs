//! Wall analysis benchmarks: the full-wall dynamic program, Table 1 by decider (a), the
//! brute-force symmetry count, and decider (c) on random OptimalAzulTiling instances.
//!
//! `cargo bench -p tessera-azul --bench wall` (the 5x5 program takes about a second per run).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tessera_azul::wall::separable::{decide, hide_rows, random_partial, random_separable};
use tessera_azul::wall::symmetry::brute_orbits;
use tessera_azul::wall::tiling::PartialPerm;
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

/// 32 instances of side n with half the rows given: yes-instances (rows of random separable
/// permutations hidden) or no-instances (uniform random permutations with rows hidden, kept
/// only if decider (c) says no). Seeded, so every run decides the same instances.
fn instances(n: usize, yes: bool) -> Vec<PartialPerm> {
    let mut rng = tessera_core::rng::seeded(n as u64 * 2 + u64::from(yes));
    let mut out = Vec::new();
    while out.len() < 32 {
        let p = if yes {
            hide_rows(&random_separable(n, &mut rng), n / 2, &mut rng).unwrap()
        } else {
            random_partial(n, n / 2, &mut rng).unwrap()
        };
        if decide(&p).unwrap().is_yes() == yes {
            out.push(p);
        }
    }
    out
}

fn decide_separable(c: &mut Criterion) {
    let mut g = c.benchmark_group("wall_decide");
    for n in [10usize, 30, 100] {
        for yes in [true, false] {
            let pool = instances(n, yes);
            let mut i = 0;
            let name = format!("n{n}_{}", if yes { "yes" } else { "no" });
            g.bench_function(name, |b| {
                b.iter(|| {
                    i = (i + 1) % pool.len();
                    let v = decide(black_box(&pool[i])).unwrap();
                    assert_eq!(v.is_yes(), yes);
                    v
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, dp, table1, symmetry, decide_separable);
criterion_main!(benches);
