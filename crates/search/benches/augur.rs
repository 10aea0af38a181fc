//! `augur` against `strong`: the same search (presort + table) with the learned win-chance
//! evaluator or `StrongEval`, from the first turn of three seeded two-player games to depth 3,
//! plus the evaluators alone on positions of a seeded game; `augur_v7` is augur with the
//! board network (`weights=v7`), `augur_v9_d3` with v9's, `augur_v10_d3` with v10's
//! (`oracle`'s two-seat network); `augur_v9_3p_d3` and `augur_v5_3p_d3` the same search at
//! three seats with v9 (its three-player network) and v5; `mcts_v10_n20k` the Monte Carlo
//! tree search with v10 to 20,000 nodes (evaluator calls and leaf revisits) from the same
//! three first turns, `mcts_v10_tt_n20k` the same with transpositions within the round
//! (`transpose=1`), `mcts_v10_lazy_n20k` with lazy valuing (`lazy=1`, its nodes
//! simulations of one evaluator call each), `mcts_v10_mix_n20k` with implicit minimax
//! backups (`mix=0.3`), `augur_big/mcts_v10_lazy_n200k` the lazy search from the first of
//! them to 200,000 simulations (a tree of about a second), and `augur_big/mcts_v10_o32_n200k`
//! and `mcts_v10_o32_mix_n200k` the eager search with 32 common refills a round's end
//! (`common=1:outcomes=32`, the scaling runs' setting), without and with `mix=0.3`, from the
//! first of them to 200,000 nodes. Throughput =
//! nodes visited (search) or positions evaluated (evaluators). `augur_children`: per child
//! of the seeded game's player positions, its clone and move alone (`apply`), with the
//! policy prior's features (`apply_features`), and with v10's values (`apply_v10_values`,
//! what the tree search pays per child it values).
//!
//! Run: `cargo bench -p tessera-search --bench augur`.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use tessera_azul::augur::AugurEval;
use tessera_azul::eval::{StrongEval, state_key};
use tessera_azul::policy::{POLICY_V1_ALONE, move_features};
use tessera_azul::{AzulAction, AzulState};
use tessera_core::record::GameSeeds;
use tessera_core::rng::seeded;
use tessera_core::{Budget, Game, PerPlayer, Turn};
use tessera_search::adversarial::{Algorithm, Evaluator, SearchConfig, Searcher, Value};
use tessera_search::mcts::{Mcts, MctsConfig};

struct Strong(StrongEval);
impl Evaluator<AzulState> for Strong {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        self.0.values(s)
    }
    fn key(&self, s: &AzulState) -> Option<u64> {
        Some(state_key(s))
    }
}

struct Augur(AugurEval);
impl Evaluator<AzulState> for Augur {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        self.0.values(s)
    }
    fn key(&self, s: &AzulState) -> Option<u64> {
        Some(state_key(s))
    }
}

/// The learned evaluator with `oracle:lazy=1`'s policy prior (features alone).
struct Lazy(Augur);
impl Evaluator<AzulState> for Lazy {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        self.0.evaluate(s)
    }
    fn key(&self, s: &AzulState) -> Option<u64> {
        self.0.key(s)
    }
    fn prior_bias(&self, s: &AzulState, a: AzulAction, child: &AzulState) -> f32 {
        match s.turn() {
            Turn::Player(m) => POLICY_V1_ALONE.bias(s, a, child, m),
            _ => 0.0,
        }
    }
}

/// The lazy search (`oracle:mcts:outcomes=0:lazy=1`): one evaluator call a simulation, the
/// priors from the features' policy; with implicit minimax backups of weight `mix`.
fn lazy_search(mix: f32) -> Mcts<AzulState, Lazy> {
    let v10 = Augur(AugurEval::version("v10").expect("shipped v10"));
    let config = MctsConfig {
        lazy: true,
        minimax: mix,
        ..MctsConfig::default()
    };
    Mcts::new(Lazy(v10), config)
}

/// Benches [`lazy_search`] with `mix` from each of `positions` within `budget` as `name` in
/// `g`, its throughput the nodes (simulations) of one pass.
fn bench_lazy(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    positions: &[AzulState],
    budget: &Budget,
    mix: f32,
) {
    let nodes: u64 = positions
        .iter()
        .map(|p| lazy_search(mix).search(p, budget).nodes)
        .sum();
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(name, |b| {
        let mut m = lazy_search(mix);
        b.iter(|| {
            for p in positions {
                black_box(m.search(black_box(p), budget));
            }
        })
    });
}

fn first_turn(seed: u64) -> AzulState {
    first_turn_of(2, seed)
}

fn first_turn_of(players: usize, seed: u64) -> AzulState {
    let seeds = GameSeeds { seed };
    let mut s = AzulState::new_random(players, &mut seeds.setup_rng());
    let d = s.sample_chance(&mut seeds.chance_rng());
    s.apply_chance(&d).expect("sampled deal");
    s
}

fn config() -> SearchConfig {
    let mut c = SearchConfig::new(Algorithm::Presort);
    c.tt_log2 = 20;
    c.use_partial = true;
    c
}

fn game_positions() -> Vec<AzulState> {
    let mut rng = seeded(4);
    let mut s = AzulState::new_random(2, &mut rng);
    let mut out = Vec::new();
    while s.turn() != Turn::Terminal {
        if s.turn() == Turn::Chance {
            let d = s.sample_chance(&mut rng);
            s.apply_chance(&d).expect("sampled deal");
        } else {
            let a = s.random_action(&mut rng).expect("a legal move");
            s.apply(a);
        }
        out.push(s.clone());
    }
    out
}

fn bench(c: &mut Criterion) {
    let positions: Vec<AzulState> = (1..=3).map(first_turn).collect();
    let mut g = c.benchmark_group("augur_nodes");
    g.sample_size(10);
    let nodes: u64 = positions
        .iter()
        .map(|p| {
            Searcher::new(Augur(AugurEval::shipped()), config())
                .search_depth(p, 3)
                .nodes
        })
        .sum();
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("augur_d3", |b| {
        let mut s = Searcher::new(Augur(AugurEval::shipped()), config());
        b.iter(|| {
            for p in &positions {
                black_box(s.search_depth(black_box(p), 3));
            }
        })
    });
    // The board networks at two seats: v7 (fitted by the numpy script), v9 and v10
    // (`oracle`'s, both fitted by `tessera train`; all three the same shape). Three seats:
    // v9 (its three-player network) against v5 (the 14-feature v3 weights there), from the
    // first turn of three seeded three-player games.
    let three: Vec<AzulState> = (1..=3).map(|seed| first_turn_of(3, seed)).collect();
    for (name, version, starts) in [
        ("augur_v7_d3", "v7", &positions),
        ("augur_v9_d3", "v9", &positions),
        ("augur_v10_d3", "v10", &positions),
        ("augur_v9_3p_d3", "v9", &three),
        ("augur_v5_3p_d3", "v5", &three),
    ] {
        let eval = || AugurEval::version(version).expect("a shipped version");
        let nodes: u64 = starts
            .iter()
            .map(|p| {
                Searcher::new(Augur(eval()), config())
                    .search_depth(p, 3)
                    .nodes
            })
            .sum();
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(name, |b| {
            let mut s = Searcher::new(Augur(eval()), config());
            b.iter(|| {
                for p in starts {
                    black_box(s.search_depth(black_box(p), 3));
                }
            })
        });
    }
    // The Monte Carlo tree search with v10 (`oracle:mcts:outcomes=0`), node-limited so its work is
    // fixed: nodes are its evaluator calls and leaf revisits.
    let budget = Budget {
        nodes: Some(20_000),
        ..Budget::default()
    };
    mcts_bench(
        &mut g,
        "mcts_v10_n20k",
        &positions,
        &budget,
        MctsConfig::default(),
    );
    // Lazy valuing: nodes are simulations here.
    bench_lazy(&mut g, "mcts_v10_lazy_n20k", &positions, &budget, 0.0);
    // With implicit minimax backups (`oracle:lazy=1:mix=0.3`).
    bench_lazy(&mut g, "mcts_v10_lazy_mix_n20k", &positions, &budget, 0.3);
    let v10 = || Augur(AugurEval::version("v10").expect("shipped v10"));
    // Two threads in one tree (`oracle:mcts:outcomes=0:threads=2:shared=1`) under the same
    // node limit: the wall time a node costs on two cores (the nodes of a run vary a little
    // with the threads' timing; the throughput is one run's).
    let nodes: u64 = positions
        .iter()
        .map(|p| {
            Mcts::new(v10(), MctsConfig::default())
                .search_shared(&mut [v10(), v10()], p, &budget)
                .nodes
        })
        .sum();
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("mcts_v10_shared2_n20k", |b| {
        let mut m = Mcts::new(v10(), MctsConfig::default());
        let mut evals = [v10(), v10()];
        b.iter(|| {
            for p in &positions {
                black_box(m.search_shared(&mut evals, black_box(p), &budget));
            }
        })
    });
    // The same with transpositions within the round (`oracle:mcts:outcomes=0:transpose=1`):
    // nodes still count evaluator calls and leaf revisits, so a node costs what the key and
    // the table lookup add at each expansion.
    let tt = MctsConfig {
        transpositions: true,
        ..MctsConfig::default()
    };
    mcts_bench(&mut g, "mcts_v10_tt_n20k", &positions, &budget, tt);
    // Implicit minimax backups (`oracle:mcts:outcomes=0:mix=0.3`): nodes count as for the
    // plain search, so a node costs what keeping the minimax chances adds.
    mcts_bench(
        &mut g,
        "mcts_v10_mix_n20k",
        &positions,
        &budget,
        mixing(0, 0.3),
    );
    let nodes: u64 = positions
        .iter()
        .map(|p| {
            Searcher::new(Strong(StrongEval::default()), config())
                .search_depth(p, 3)
                .nodes
        })
        .sum();
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("strong_d3", |b| {
        let mut s = Searcher::new(Strong(StrongEval::default()), config());
        b.iter(|| {
            for p in &positions {
                black_box(s.search_depth(black_box(p), 3));
            }
        })
    });
    g.finish();

    let states = game_positions();
    let mut g = c.benchmark_group("augur_eval");
    g.throughput(Throughput::Elements(states.len() as u64));
    let augur = AugurEval::shipped();
    g.bench_function("augur_values", |b| {
        b.iter(|| {
            for s in &states {
                black_box(augur.values(black_box(s)));
            }
        })
    });
    let augur_v7 = AugurEval::version("v7").expect("shipped v7");
    g.bench_function("augur_v7_values", |b| {
        b.iter(|| {
            for s in &states {
                black_box(augur_v7.values(black_box(s)));
            }
        })
    });
    let augur_v10 = AugurEval::version("v10").expect("shipped v10");
    g.bench_function("augur_v10_values", |b| {
        b.iter(|| {
            for s in &states {
                black_box(augur_v10.values(black_box(s)));
            }
        })
    });
    let strong = StrongEval::default();
    g.bench_function("strong_values", |b| {
        b.iter(|| {
            for s in &states {
                black_box(strong.values(black_box(s)));
            }
        })
    });
    g.finish();

    // What a tree search pays per child of a node it expands, besides valuing it: the
    // child's clone and move, with and without the policy prior's features; per child of
    // the game's player positions.
    let players: Vec<&AzulState> = states
        .iter()
        .filter(|s| matches!(s.turn(), Turn::Player(_)))
        .collect();
    let mut legal = Vec::new();
    let children: usize = players
        .iter()
        .map(|s| {
            s.legal_actions(&mut legal);
            legal.len()
        })
        .sum();
    let mut g = c.benchmark_group("augur_children");
    g.throughput(Throughput::Elements(children as u64));
    g.bench_function("apply", |b| {
        let mut child = players[0].clone();
        let mut legal = Vec::new();
        b.iter(|| {
            for s in &players {
                s.legal_actions(&mut legal);
                for &a in &legal {
                    child.clone_from(s);
                    child.apply(a);
                    black_box(&child);
                }
            }
        })
    });
    g.bench_function("apply_features", |b| {
        let mut child = players[0].clone();
        let mut legal = Vec::new();
        b.iter(|| {
            for s in &players {
                let Turn::Player(m) = s.turn() else { continue };
                s.legal_actions(&mut legal);
                for &a in &legal {
                    child.clone_from(s);
                    child.apply(a);
                    black_box(move_features(s, a, &child, m));
                }
            }
        })
    });
    g.bench_function("apply_v10_values", |b| {
        let mut child = players[0].clone();
        let mut legal = Vec::new();
        b.iter(|| {
            for s in &players {
                s.legal_actions(&mut legal);
                for &a in &legal {
                    child.clone_from(s);
                    child.apply(a);
                    black_box(augur_v10.values(&child));
                }
            }
        })
    });
    g.finish();

    // Large trees: the lazy search from the first of the three first turns to 200,000
    // simulations, the size of its tree after about a second.
    let mut g = c.benchmark_group("augur_big");
    g.sample_size(10);
    let budget = Budget {
        nodes: Some(200_000),
        ..Budget::default()
    };
    bench_lazy(&mut g, "mcts_v10_lazy_n200k", &positions[..1], &budget, 0.0);
    // The eager search with the scaling runs' refills (`common=1:outcomes=32`), without and
    // with implicit minimax backups (`mix=0.3`), to 200,000 nodes.
    let first = &positions[..1];
    mcts_bench(
        &mut g,
        "mcts_v10_o32_n200k",
        first,
        &budget,
        mixing(32, 0.0),
    );
    mcts_bench(
        &mut g,
        "mcts_v10_o32_mix_n200k",
        first,
        &budget,
        mixing(32, 0.3),
    );
    g.finish();
}

/// The eager search's settings with `outcomes` common refills a round's end (0: none) and
/// implicit minimax backups of weight `mix`.
fn mixing(outcomes: u32, mix: f32) -> MctsConfig {
    MctsConfig {
        chance_samples: outcomes,
        common_outcomes: outcomes > 0,
        minimax: mix,
        ..MctsConfig::default()
    }
}

/// Benches the eager search of `config` with v10's values over `positions` within
/// `budget`, its throughput in nodes.
fn mcts_bench(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    positions: &[AzulState],
    budget: &Budget,
    config: MctsConfig,
) {
    let v10 = || Augur(AugurEval::version("v10").expect("shipped v10"));
    let nodes: u64 = positions
        .iter()
        .map(|p| Mcts::new(v10(), config.clone()).search(p, budget).nodes)
        .sum();
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(name, |b| {
        let mut m = Mcts::new(v10(), config.clone());
        b.iter(|| {
            for p in positions {
                black_box(m.search(black_box(p), budget));
            }
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
