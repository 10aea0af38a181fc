//! Speed of the move generator, the bots' choices and whole self-play games.
//!
//! `cargo bench -p tessera-qwirkle --bench qwirkle`
//!
//! The positions are every turn of three seeded points-bot self-play games, so the
//! per-element figures are means over the positions of whole games.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use tessera_core::record::replay_states;
use tessera_core::rng::seeded;
use tessera_core::{Agent, Budget, Game, play_game};
use tessera_qwirkle::Qwirkle;
use tessera_qwirkle::bots::{LookaheadBot, PointsBot, SmarterBot};
use tessera_qwirkle::movegen::placements;
use tessera_qwirkle::sage::{SageBot, SageConfig};
use tessera_qwirkle::seer::SeerConfig;

/// `sage` with its default settings but for `seer`'s.
fn sage_with(seer: SeerConfig) -> SageBot {
    SageBot::with_config(SageConfig {
        seer,
        ..SageConfig::default()
    })
}

/// Benches one `sage` move at `nodes` worlds from each of `positions`, the bot's memory
/// cleared before each.
fn sage_moves(
    g: &mut BenchmarkGroup<'_, WallTime>,
    sage: &mut SageBot,
    name: String,
    positions: &[&Qwirkle],
    nodes: u64,
) {
    g.bench_function(name, |b| {
        let mut rng = seeded(1);
        b.iter(|| {
            for s in positions {
                sage.reset();
                black_box(sage.choose(s, &Budget::nodes(nodes), &mut rng));
            }
        })
    });
}

fn positions() -> Vec<Qwirkle> {
    let mut out = Vec::new();
    for seed in 1..=3 {
        let (mut a, mut b) = (PointsBot::new(), PointsBot::new());
        let (_, record) = play_game(
            Qwirkle::new(2).unwrap(),
            &mut [&mut a, &mut b],
            &Budget::default(),
            seed,
            None,
            &mut (),
        )
        .unwrap();
        let states = replay_states::<Qwirkle>(&record).unwrap();
        out.extend(states.into_iter().filter(|s| s.current_player().is_some()));
    }
    out
}

fn bench(c: &mut Criterion) {
    let pos = positions();
    let n = pos.len() as u64;
    let mut g = c.benchmark_group("qwirkle_per_turn");
    g.throughput(Throughput::Elements(n));
    g.bench_function(format!("movegen_{n}_turns"), |b| {
        let mut buf = Vec::new();
        b.iter(|| {
            let mut total = 0;
            for s in &pos {
                let p = s.current_player().unwrap();
                placements(s.board(), s.hand(p), s.first_move_size(), &mut buf);
                total += buf.len();
            }
            black_box(total)
        })
    });
    let mut points = PointsBot::new();
    g.bench_function(format!("points_bot_{n}_turns"), |b| {
        let mut rng = seeded(1);
        b.iter(|| {
            for s in &pos {
                black_box(points.choose(s, &Budget::default(), &mut rng));
            }
        })
    });
    let mut smarter = SmarterBot::new();
    g.bench_function(format!("smarter_bot_{n}_turns"), |b| {
        let mut rng = seeded(1);
        b.iter(|| {
            for s in &pos {
                black_box(smarter.choose(s, &Budget::default(), &mut rng));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("qwirkle_lookahead");
    g.sample_size(10);
    let some: Vec<&Qwirkle> = pos.iter().step_by(10).collect();
    g.throughput(Throughput::Elements(some.len() as u64));
    let mut la = LookaheadBot::new();
    g.bench_function(format!("lookahead_bot_{}_turns", some.len()), |b| {
        let mut rng = seeded(1);
        b.iter(|| {
            for s in &some {
                black_box(la.choose(s, &Budget::default(), &mut rng));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("qwirkle_sage");
    g.sample_size(10);
    g.throughput(Throughput::Elements(some.len() as u64));
    let mut sage = SageBot::new();
    let name = format!("sage_nodes4_{}_turns", some.len());
    sage_moves(&mut g, &mut sage, name, &some, 4);
    // One move of `sage:nodes=16` (the registry's budget of the measured matches) from a
    // few fixed positions of the same games.
    let few: Vec<&Qwirkle> = pos.iter().skip(5).step_by(25).take(4).collect();
    g.throughput(Throughput::Elements(few.len() as u64));
    let name = format!("sage_nodes16_{}_positions", few.len());
    sage_moves(&mut g, &mut sage, name, &few, 16);
    // The same with the bot's own play-out turns looking one reply ahead (`guard=4`).
    let mut guarded = sage_with(SeerConfig {
        guard: 4,
        ..SageConfig::default().seer
    });
    let name = format!("sage_nodes16_guard4_{}_positions", few.len());
    sage_moves(&mut g, &mut guarded, name, &few, 16);
    // The learned leave on the bot's own play-out turns (`lleave=1`): every placement is
    // generated on those turns.
    let mut learned = sage_with(SeerConfig {
        lleave: 1.0,
        ..SageConfig::default().seer
    });
    let name = format!("sage_nodes16_lleave1_{}_positions", few.len());
    sage_moves(&mut g, &mut learned, name, &few, 16);
    // The bot's first own turn of every play-out searched (`own=4`): its four best
    // placements each played out to the horizon.
    let mut searched = sage_with(SeerConfig {
        own: 4,
        ..SageConfig::default().seer
    });
    let name = format!("sage_nodes16_own4_{}_positions", few.len());
    sage_moves(&mut g, &mut searched, name, &few, 16);
    // Whole games of `sage:nodes=2` against `points` (seed 1), without and with the
    // tracking of the opponent's kept tiles: what `track=1024` adds to a game.
    g.throughput(Throughput::Elements(1));
    for track in [0, 1024] {
        let config = SageConfig {
            seer: SeerConfig {
                track,
                ..SageConfig::default().seer
            },
            ..SageConfig::default()
        };
        g.bench_function(format!("sage_nodes2_track{track}_game"), |b| {
            let (mut sage, mut points) = (SageBot::with_config(config), PointsBot::new());
            b.iter(|| {
                let (end, _) = play_game(
                    Qwirkle::new(2).unwrap(),
                    &mut [&mut sage, &mut points],
                    &Budget::nodes(2),
                    1,
                    None,
                    &mut (),
                )
                .unwrap();
                black_box(end.scores())
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("qwirkle_games");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("points_vs_points_game", |b| {
        let (mut a, mut bb) = (PointsBot::new(), PointsBot::new());
        b.iter(|| {
            seed += 1;
            let (end, _) = play_game(
                Qwirkle::new(2).unwrap(),
                &mut [&mut a, &mut bb],
                &Budget::default(),
                seed,
                None,
                &mut (),
            )
            .unwrap();
            black_box(end.scores())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
