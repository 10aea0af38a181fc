//! Move generation timed position by position: every player turn of three seeded
//! points-bot self-play games (the positions of the criterion bench), each generated five
//! times; prints the mean and the costliest positions with their number of placements.
//!
//! `cargo run --release -p tessera-qwirkle --example movegen_positions`

use std::time::Instant;

use tessera_core::play_game;
use tessera_core::record::replay_states;
use tessera_core::{Budget, Game};
use tessera_qwirkle::Qwirkle;
use tessera_qwirkle::bots::PointsBot;
use tessera_qwirkle::movegen::placements;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut positions = Vec::new();
    for seed in 1..=3 {
        let (mut a, mut b) = (PointsBot::new(), PointsBot::new());
        let (_, record) = play_game(
            Qwirkle::new(2)?,
            &mut [&mut a, &mut b],
            &Budget::default(),
            seed,
            None,
            &mut (),
        )?;
        let states = replay_states::<Qwirkle>(&record)?;
        positions.extend(states.into_iter().filter(|s| s.current_player().is_some()));
    }
    let mut buf = Vec::new();
    let mut rows = Vec::new();
    for s in &positions {
        let Some(p) = s.current_player() else {
            continue;
        };
        let t = Instant::now();
        for _ in 0..5 {
            placements(s.board(), s.hand(p), s.first_move_size(), &mut buf);
        }
        let us = t.elapsed().as_secs_f64() / 5.0 * 1e6;
        let hand: Vec<String> = s.hand(p).iter().map(|t| t.to_string()).collect();
        rows.push((us, buf.len(), hand.join(" "), s.board().len()));
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = rows.iter().map(|r| r.0).sum();
    println!(
        "{} positions: mean {:.0} us per position",
        rows.len(),
        total / rows.len().max(1) as f64
    );
    for (us, n, hand, board) in rows.iter().take(10) {
        println!("{us:>8.0} us {n:>6} placements  hand {hand}  board {board} tiles");
    }
    Ok(())
}
