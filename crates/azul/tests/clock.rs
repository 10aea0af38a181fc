//! The time manager on Azul: the game's estimate of the decisions left, and more time at a
//! round's start (many legal moves) than late in a round.

use std::time::Duration;

use tessera_azul::AzulState;
use tessera_core::clock::{Clock, Decision, SeatTiming, TimeManager};
use tessera_core::{Game, PlayerId, Turn, rng::seeded};

/// Seat 0's decisions of a seeded game between random players: (state, legal moves, the
/// game's estimate of its decisions left, true at the first decision of a round).
fn decisions(seed: u64) -> (Vec<(AzulState, usize, u32, bool)>, u32) {
    let mut rng = seeded(seed);
    let mut s = AzulState::new(2, PlayerId(0));
    let mut out = Vec::new();
    let mut legal = Vec::new();
    let mut round = 0;
    let mut made = 0;
    loop {
        match s.turn() {
            Turn::Terminal => return (out, made),
            Turn::Chance => {
                let d = s.sample_chance(&mut rng);
                s.apply_chance(&d).unwrap();
            }
            Turn::Player(p) => {
                s.legal_actions(&mut legal);
                if p == PlayerId(0) {
                    made += 1;
                    let start = s.round() != round;
                    round = s.round();
                    out.push((s.clone(), legal.len(), s.decisions_left().unwrap(), start));
                }
                let a = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
                s.apply(a);
            }
        }
    }
}

#[test]
fn the_estimate_of_decisions_left_follows_the_game() {
    for seed in 1..=5 {
        let (ds, made) = decisions(seed);
        let first = ds[0].2;
        // A game of five or six rounds of about five moves a seat.
        assert!(
            (20..=40).contains(&first),
            "seed {seed}: {first} at the start"
        );
        assert!(
            ds.last().unwrap().2 <= 8,
            "seed {seed}: {:?} at the end",
            ds.last()
        );
        assert!(ds.iter().all(|d| d.2 >= 1));
        // Never far from the truth in the last round: at most the round's sources.
        let (_, _, est, _) = &ds[ds.len() - 1];
        assert!(*est as i64 - 1 <= 8, "seed {seed}: {est} (made {made})");
    }
}

/// A game on a 60s+1s clock whose seat spends every budget it is given: each round's first
/// decision (the most legal moves) gets more than the round's last one, and the clock never
/// runs out.
#[test]
fn a_round_start_gets_more_time_than_a_late_move() {
    let tm = TimeManager::default();
    let clock: Clock = "60s+1s".parse().unwrap();
    for seed in [7, 8, 9] {
        let (ds, _) = decisions(seed);
        let mut seat = SeatTiming::default();
        let mut left = clock.base;
        let mut budgets = Vec::new();
        for (_, legal, est, _) in &ds {
            let d = Decision {
                legal: *legal,
                decisions_left: Some(*est),
            };
            let b = tm.budget(&clock, left, &seat, &d);
            assert!(b < left, "seed {seed}: {b:?} with {left:?} left");
            if *legal == 1 {
                assert_eq!(b, Duration::ZERO);
            } else {
                seat.record(*legal, None);
            }
            left = left - b + clock.increment;
            budgets.push(b);
        }
        // Each round but the last: its first decision against its last (non-forced) one.
        let mut wins = 0;
        let mut rounds = 0;
        for (i, _) in ds.iter().enumerate().filter(|(_, d)| d.3) {
            let end = ds[i + 1..].iter().position(|n| n.3).map(|k| i + k);
            let Some(end) = end else { continue };
            let Some(late) = (i + 1..=end).rev().find(|&k| ds[k].1 > 1) else {
                continue;
            };
            rounds += 1;
            if budgets[i] > budgets[late].mul_f64(1.3) {
                wins += 1;
            }
        }
        assert!(rounds >= 3, "seed {seed}: {rounds} rounds");
        assert_eq!(wins, rounds, "seed {seed}: {budgets:?}");
    }
}
