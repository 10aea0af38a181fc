//! Single-agent solver speed on Match the Tiles: the 12 course levels, and throughput on
//! generated 6x6 and 8x8 levels with three colours.
//!
//! `cargo bench -p tessera-search --bench single`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tessera_core::rng::{derive_seed, seeded};
use tessera_search::single::{self, Algorithm, Options};
use tessera_tiles::generator::{GenConfig, generate};
use tessera_tiles::{Heuristic, Level, builtin_levels};

const SOLVERS: [(Algorithm, Heuristic); 6] = [
    (Algorithm::Bfs, Heuristic::Zero),
    (Algorithm::Iddfs, Heuristic::Zero),
    (Algorithm::AStar, Heuristic::Admissible),
    (Algorithm::IdaStar, Heuristic::Admissible),
    (Algorithm::Greedy, Heuristic::Direction),
    (Algorithm::AStar, Heuristic::Direction),
];

fn solve_all(levels: &[Level], algo: Algorithm, h: Heuristic, opts: &Options) -> usize {
    levels
        .iter()
        .map(|l| {
            let r = single::solve(l, algo, |s| h.evaluate(l, s), opts);
            r.solution_len().unwrap_or(0)
        })
        .sum()
}

fn generated(side: usize, count: u64, master: u64) -> Vec<Level> {
    (0..count)
        .map(|i| {
            let mut rng = seeded(derive_seed(master, i));
            let mut cfg = GenConfig::new(side, 3, 8 + (i % 5) as u32);
            cfg.max_attempts = 10_000;
            loop {
                match generate(&cfg, &mut rng) {
                    Ok(l) => break l,
                    Err(_) => cfg.optimal -= 1,
                }
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let opts = Options::default();
    let mut g = c.benchmark_group("tiles_12_levels");
    g.throughput(Throughput::Elements(12));
    for (algo, h) in SOLVERS {
        let name = if algo.uses_heuristic() {
            format!("{algo}:{h}")
        } else {
            algo.to_string()
        };
        g.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| solve_all(black_box(builtin_levels()), algo, h, &opts))
        });
    }
    g.bench_function("builtin_bfs", |b| {
        b.iter(|| {
            builtin_levels()
                .iter()
                .map(|l| {
                    l.optimal_solution(&l.start())
                        .ok()
                        .flatten()
                        .map_or(0, |s| s.len())
                })
                .sum::<usize>()
        })
    });
    g.finish();

    for side in [6usize, 8] {
        let levels = generated(side, 20, 42 + side as u64);
        let mut g = c.benchmark_group(format!("tiles_generated_{side}x{side}_3colours"));
        g.throughput(Throughput::Elements(levels.len() as u64));
        g.sample_size(20);
        for (algo, h) in SOLVERS {
            if algo == Algorithm::Iddfs && side == 8 {
                continue;
            }
            let name = if algo.uses_heuristic() {
                format!("{algo}:{h}")
            } else {
                algo.to_string()
            };
            g.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter(|| solve_all(black_box(&levels), algo, h, &opts))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
