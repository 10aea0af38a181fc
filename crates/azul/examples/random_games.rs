//! Plays N full random games (fast uniform path) and reports games per CPU second.
//!
//! `cargo run --release -p tessera-azul --example random_games -- 200000 2`

use std::time::Instant;
use tessera_azul::AzulState;
use tessera_core::rng::seeded;
use tessera_core::{Game, Turn};

fn cpu_seconds() -> f64 {
    // Process CPU time from /proc (Linux); falls back to 0 elsewhere.
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks: f64 = fields.get(11).and_then(|x| x.parse().ok()).unwrap_or(0.0)
        + fields.get(12).and_then(|x| x.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|x| x.parse().ok()).unwrap_or(100_000);
    let players: usize = args.get(2).and_then(|x| x.parse().ok()).unwrap_or(2);
    let mut rng = seeded(1);
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let mut moves = 0u64;
    let mut rounds = 0u64;
    for _ in 0..games {
        let mut s = AzulState::new_random(players, &mut rng);
        loop {
            match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let d = s.sample_chance(&mut rng);
                    s.apply_chance(&d).expect("sampled deals are possible");
                }
                Turn::Player(_) => {
                    let a = s.random_action(&mut rng).expect("a legal action");
                    s.apply(a);
                    moves += 1;
                }
            }
        }
        rounds += s.round() as u64;
    }
    let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    println!(
        "{games} {players}-player games, {:.1} rounds and {:.1} moves per game: wall {wall:.2} s ({:.0} games/s), CPU {cpu:.2} s ({:.0} games per CPU second)",
        rounds as f64 / games as f64,
        moves as f64 / games as f64,
        games as f64 / wall,
        games as f64 / cpu.max(1e-9)
    );
}
