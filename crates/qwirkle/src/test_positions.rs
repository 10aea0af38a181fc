//! Positions the bots' tests share (test builds only).

use tessera_core::rng::seeded;
use tessera_core::{Game, Turn};

use crate::mc::play_out_until;
use crate::state::Qwirkle;

/// A game of `players` just dealt from `seed`.
pub(crate) fn dealt(seed: u64, players: usize) -> Qwirkle {
    let mut g = Qwirkle::new(players).unwrap_or_else(|e| panic!("{e}"));
    let deal = g.sample_chance(&mut seeded(seed));
    g.apply_chance(&deal).unwrap_or_else(|e| panic!("{e}"));
    g
}

/// Plays `moves` turns of the points policy in a two-player game to reach a middle-game
/// position, left at a player's turn.
pub(crate) fn middle_game(seed: u64, moves: usize) -> Qwirkle {
    let mut g = dealt(seed, 2);
    let mut buf = crate::movegen::BestScratch::new();
    play_out_until(&mut g, moves, false, &mut seeded(seed + 1), &mut buf);
    while g.turn() == Turn::Chance {
        let d = g.sample_chance(&mut seeded(seed + 2));
        g.apply_chance(&d).unwrap_or_else(|e| panic!("{e}"));
    }
    g
}

/// Plays the points policy in a two-player game from `seed` until the bag is empty, then
/// `extra` more turns; the position at a player's turn, or `None` if the game ended first.
pub(crate) fn endgame(seed: u64, extra: usize) -> Option<Qwirkle> {
    let mut g = dealt(seed, 2);
    let mut rng = seeded(seed + 1);
    let mut buf = crate::movegen::BestScratch::new();
    while g.bag().total() > 0 && !g.is_terminal() {
        play_out_until(&mut g, 1, false, &mut rng, &mut buf);
    }
    play_out_until(&mut g, extra, false, &mut rng, &mut buf);
    matches!(g.turn(), Turn::Player(_)).then_some(g)
}

/// Asserts that `bot` (made fresh each time) against the points bot at a 2-world node budget
/// replays the same complete game from `seed`.
pub(crate) fn assert_replays_against_points<A: tessera_core::Agent<Qwirkle>>(
    make: impl Fn() -> A,
    seed: u64,
) {
    let play = || {
        let mut a = make();
        let mut b = crate::bots::PointsBot::new();
        let (end, record) = tessera_core::play_game(
            Qwirkle::new(2).unwrap_or_else(|e| panic!("{e}")),
            &mut [&mut a, &mut b],
            &tessera_core::Budget::nodes(2),
            seed,
            None,
            &mut (),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(end.is_terminal());
        record
    };
    assert_eq!(play(), play());
}
