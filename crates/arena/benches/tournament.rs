//! The arena's speed: Smart vs Greedy, 10 series of 1000 games with every game and its full
//! record stored in SQLite (the target: under 10 s on 2 cores), and one game alone.
//!
//! `cargo bench -p tessera-arena --bench tournament`

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tessera_arena::runner::{RunOptions, run_tournament};
use tessera_arena::schedule::RunParams;
use tessera_arena::store::Store;

fn smart_vs_greedy_10x1000(c: &mut Criterion) {
    let driver = tessera_arena::driver("azul").expect("azul is registered");
    let mut g = c.benchmark_group("tournament");
    g.sample_size(10).measurement_time(Duration::from_secs(30));
    g.bench_function("smart_vs_greedy_10x1000_stored_jobs2", |b| {
        b.iter_with_setup(
            || tempfile::tempdir().expect("temp dir"),
            |dir| {
                let mut store = Store::open(&dir.path().join("bench.sqlite")).expect("store");
                let params = RunParams::new("azul", &["smart", "greedy"], 2, 1000, 10, 7);
                let opts = RunOptions {
                    jobs: 2,
                    ..RunOptions::default()
                };
                let r = run_tournament(driver.as_ref(), &params, &mut store, &opts, &mut ())
                    .expect("run");
                assert_eq!(r.played, 10_000);
                dir
            },
        )
    });
    g.finish();
}

fn one_game(c: &mut Criterion) {
    let driver = tessera_arena::driver("azul").expect("azul is registered");
    let mut seed = 0u64;
    c.bench_function("one_game_smart_vs_greedy_with_record", |b| {
        b.iter(|| {
            seed += 1;
            driver.play(&["smart", "greedy"], seed).expect("game")
        })
    });
}

criterion_group!(benches, smart_vs_greedy_10x1000, one_game);
criterion_main!(benches);
