//! Adversarial search speed on Azul opening positions.
//!
//! - `azul_nodes/*`: a fixed-depth search (depth 3) from the first turn of several seeded
//!   two-player games; criterion reports nodes per second (throughput = nodes visited).
//! - Before the groups, the depth each search completes in 100 ms at the first turn is
//!   printed (the blog's presort reaches depth 2 in 1 s there).
//!
//! Run: `cargo bench -p tessera-search --bench adversarial`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tessera_azul::AzulState;
use tessera_azul::eval::{StrongEval, blog_values, state_key};
use tessera_core::record::GameSeeds;
use tessera_core::{Game, PerPlayer};
use tessera_search::adversarial::{Algorithm, Evaluator, Limits, SearchConfig, Searcher, Value};

struct Blog;
impl Evaluator<AzulState> for Blog {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        blog_values(s)
    }
}

struct Strong(StrongEval);
impl Evaluator<AzulState> for Strong {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        self.0.values(s)
    }
    fn key(&self, s: &AzulState) -> Option<u64> {
        Some(state_key(s))
    }
}

fn first_turn(seed: u64) -> AzulState {
    let seeds = GameSeeds { seed };
    let mut s = AzulState::new_random(2, &mut seeds.setup_rng());
    let d = s.sample_chance(&mut seeds.chance_rng());
    s.apply_chance(&d).expect("sampled deal");
    s
}

fn strong_config() -> SearchConfig {
    let mut c = SearchConfig::new(Algorithm::Presort);
    c.tt_log2 = 20;
    c.use_partial = true;
    c
}

fn depth_in_100ms() {
    let limits = Limits {
        time: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    for seed in 1..=5 {
        let s = first_turn(seed);
        let mut line = format!(
            "seed {seed} ({} moves): depth in 100 ms:",
            s.num_legal_actions()
        );
        for alg in [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Presort] {
            let r = Searcher::new(Blog, SearchConfig::new(alg)).search(&s, &limits);
            line.push_str(&format!(" {} {} ({} nodes)", alg.name(), r.depth, r.nodes));
        }
        let r = Searcher::new(Strong(StrongEval::default()), strong_config()).search(&s, &limits);
        line.push_str(&format!(" strong {} ({} nodes)", r.depth, r.nodes));
        println!("{line}");
    }
}

fn bench(c: &mut Criterion) {
    depth_in_100ms();
    let positions: Vec<AzulState> = (1..=3).map(first_turn).collect();
    let mut g = c.benchmark_group("azul_nodes");
    g.sample_size(10);
    for (name, alg) in [
        ("alphabeta_d3", Algorithm::AlphaBeta),
        ("presort_d3", Algorithm::Presort),
    ] {
        let nodes: u64 = positions
            .iter()
            .map(|p| {
                Searcher::new(Blog, SearchConfig::new(alg))
                    .search_depth(p, 3)
                    .nodes
            })
            .sum();
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(name, |b| {
            let mut s = Searcher::new(Blog, SearchConfig::new(alg));
            b.iter(|| {
                for p in &positions {
                    black_box(s.search_depth(black_box(p), 3));
                }
            })
        });
    }
    let nodes: u64 = positions
        .iter()
        .map(|p| {
            Searcher::new(Blog, SearchConfig::new(Algorithm::Minimax))
                .search_depth(p, 2)
                .nodes
        })
        .sum();
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("minimax_d2", |b| {
        let mut s = Searcher::new(Blog, SearchConfig::new(Algorithm::Minimax));
        b.iter(|| {
            for p in &positions {
                black_box(s.search_depth(black_box(p), 2));
            }
        })
    });
    let nodes: u64 = positions
        .iter()
        .map(|p| {
            Searcher::new(Strong(StrongEval::default()), strong_config())
                .search_depth(p, 3)
                .nodes
        })
        .sum();
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("strong_d3", |b| {
        let mut s = Searcher::new(Strong(StrongEval::default()), strong_config());
        b.iter(|| {
            for p in &positions {
                black_box(s.search_depth(black_box(p), 3));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
