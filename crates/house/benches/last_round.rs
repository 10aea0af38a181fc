//! The exact last-round solver (`oracle:endgame`): solving to the game's end the two-player
//! positions of seeded games of `strong` where the last round is certain and 8 to 13 tiles
//! are left on the table (every one of them solved: the search reaches the end of the game
//! on every line).
//!
//! `cargo bench -p tessera-house --bench last_round`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tessera_azul::AzulState;
use tessera_core::{Budget, Game, PlayerId, Turn, rng::seeded};
use tessera_house::registry::azul::registry;
use tessera_house::registry::azul_endgame::{last_round_certain, solve, solver};

/// Last-round positions with 8 to 13 tiles left, from seeded games of `strong:nodes=3000`.
fn positions() -> Vec<AzulState> {
    let plan = registry()
        .parse("strong:nodes=3000")
        .expect("a registered player");
    let mut out = Vec::new();
    for seed in 0..12 {
        let mut rng = seeded(seed);
        let mut agent = plan.build().expect("strong builds");
        let mut s = AzulState::new(2, PlayerId(0));
        while s.turn() != Turn::Terminal {
            if s.turn() == Turn::Chance {
                let d = s.sample_chance(&mut rng);
                s.apply_chance(&d).expect("a sampled deal applies");
                continue;
            }
            let tiles = s.tiles_on_table();
            if last_round_certain(&s) && (8..=13).contains(&tiles) && s.num_legal_actions() > 1 {
                out.push(s.clone());
            }
            let a = agent.choose(&s, &plan.budget(), &mut rng);
            s.apply(a);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let states = positions();
    let mut searcher = solver();
    let unlimited = Budget::default();
    // The nodes of one pass over every position (the same every pass: no limit binds).
    let nodes: u64 = states
        .iter()
        .map(|s| {
            let (solved, r) = solve(&mut searcher, s, &unlimited);
            assert!(solved.is_some(), "unsolved: {s}");
            r.nodes
        })
        .sum();
    let mut g = c.benchmark_group("last_round");
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(
        format!("solve_{}_positions_{nodes}_nodes", states.len()),
        |b| {
            b.iter(|| {
                for s in &states {
                    std::hint::black_box(solve(&mut searcher, s, &unlimited).0);
                }
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
