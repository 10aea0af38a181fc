//! Engine speed: full random games and legal-move generation.
//!
//! `cargo bench -p tessera-azul --bench engine`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_azul::AzulState;
use tessera_core::rng::seeded;
use tessera_core::{Game, GameRng, PlayerId, Turn};

/// One full game between uniformly random players (fast path), deals included.
fn random_game(players: usize, rng: &mut GameRng) -> AzulState {
    let mut s = AzulState::new_random(players, rng);
    loop {
        match s.turn() {
            Turn::Terminal => return s,
            Turn::Chance => {
                let deal = s.sample_chance(rng);
                s.apply_chance(&deal).expect("sampled deals are possible");
            }
            Turn::Player(_) => {
                let a = s.random_action(rng).expect("a legal action");
                s.apply(a);
            }
        }
    }
}

/// The same through the generic path: the legal list, then a uniform pick from it.
fn random_game_list(
    players: usize,
    rng: &mut GameRng,
    buf: &mut Vec<tessera_azul::AzulAction>,
) -> AzulState {
    use rand::Rng;
    let mut s = AzulState::new_random(players, rng);
    loop {
        match s.turn() {
            Turn::Terminal => return s,
            Turn::Chance => {
                let deal = s.sample_chance(rng);
                s.apply_chance(&deal).expect("sampled deals are possible");
            }
            Turn::Player(_) => {
                s.legal_actions(buf);
                let a = buf[rng.random_range(0..buf.len())];
                s.apply(a);
            }
        }
    }
}

fn games(c: &mut Criterion) {
    let mut g = c.benchmark_group("azul_random_game");
    g.throughput(Throughput::Elements(1));
    for players in [2, 4] {
        let mut rng = seeded(1);
        g.bench_function(format!("{players}p_fast"), |b| {
            b.iter(|| black_box(random_game(players, &mut rng)))
        });
        let mut rng = seeded(1);
        let mut buf = Vec::with_capacity(256);
        g.bench_function(format!("{players}p_legal_list"), |b| {
            b.iter(|| black_box(random_game_list(players, &mut rng, &mut buf)))
        });
    }
    g.finish();
}

fn movegen(c: &mut Criterion) {
    // Round-start positions of 2-player games: every factory full, 60-120 legal moves.
    let positions: Vec<AzulState> = (0..64)
        .map(|seed| {
            let mut rng = seeded(seed);
            let mut s = AzulState::new(2, PlayerId(0));
            let deal = s.sample_chance(&mut rng);
            s.apply_chance(&deal).unwrap();
            s
        })
        .collect();
    let mut buf = Vec::with_capacity(256);
    let total: usize = positions
        .iter()
        .map(|s| {
            s.legal_actions(&mut buf);
            buf.len()
        })
        .sum();
    eprintln!(
        "movegen positions: {} with {:.1} legal moves on average",
        positions.len(),
        total as f64 / positions.len() as f64
    );
    let mut g = c.benchmark_group("azul_legal_actions");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("round_start_2p", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &positions {
                s.legal_actions(&mut buf);
                n += buf.len();
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, games, movegen);
criterion_main!(benches);
