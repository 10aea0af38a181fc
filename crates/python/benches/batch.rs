//! The batch API's Rust side, without Python: draw a random legal action per game
//! (`sample_legal`) and step N 2-player games (`AzulBatch::step`, `QwirkleBatch::step`),
//! writing observations and masks, on one thread and on two (rayon's pool), as
//! `examples/bench_batch.py` does through Python. Throughput is in steps (one action, or one
//! Qwirkle step id, in one game).
//!
//! `cargo bench -p tessera-python --bench batch`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tessera_azul::AzulState;
use tessera_python::batch::{Batch, BatchGame, Outputs};
use tessera_python::driver::GameInPlay;
use tessera_python::qwirkle_batch::QwirkleSlot;

struct Bufs {
    obs: Vec<f32>,
    mask: Vec<i8>,
    rewards: Vec<f32>,
    dones: Vec<bool>,
    to_move: Vec<i64>,
}

/// `sample_legal` + `step` of `n` 2-player games of `E`, on one thread and on two.
fn bench_batch<E: BatchGame>(c: &mut Criterion, group: &str, n: usize) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(n as u64));
    for threads in [1, 2] {
        let mut b = Batch::<E>::new(n, 2, 0, threads).expect("a batch");
        let mut bufs = Bufs {
            obs: vec![0.0; n * b.observation_len()],
            mask: vec![0; n * b.num_actions()],
            rewards: vec![0.0; n * 2],
            dones: vec![false; n],
            to_move: vec![0; n],
        };
        let mut actions = vec![0i64; n];
        g.bench_function(format!("n{n}_threads{threads}"), |bench| {
            bench.iter(|| {
                b.sample_legal(&mut actions).expect("shape");
                b.step(
                    &actions,
                    Outputs {
                        obs: &mut bufs.obs,
                        mask: &mut bufs.mask,
                        rewards: &mut bufs.rewards,
                        dones: &mut bufs.dones,
                        to_move: &mut bufs.to_move,
                    },
                )
                .expect("legal actions")
            })
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    bench_batch::<GameInPlay<AzulState>>(c, "azul_batch_step", 1024);
    bench_batch::<QwirkleSlot>(c, "qwirkle_batch_step", 256);
}

criterion_group!(benches, bench);
criterion_main!(benches);
