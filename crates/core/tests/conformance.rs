//! The kit on the test game, and proof that the kit catches broken games.

use tessera_core::conformance::{Config, check};
use tessera_core::testgame::Nim;
use tessera_core::{Agent, Budget, Game, RandomAgent, play_game, replay};

#[test]
fn nim_passes_the_kit() {
    let report =
        check(|players, _rng| Nim::new(players), &Config::thorough(50)).expect("Nim conforms");
    assert_eq!(report.games, 150);
    assert!(report.actions > 150);
    assert!(
        report.illegal_refused > 0,
        "the kit must have tried formerly legal actions"
    );
}

#[test]
fn kit_catches_a_broken_invariant() {
    // A state whose notation claims more stones than exist violates the invariant.
    let broken: Nim = "2 1 5,5,5 3,0".parse().unwrap();
    let err = check(
        move |_p, _rng| broken.clone(),
        &Config {
            player_counts: vec![2],
            ..Config::quick()
        },
    );
    let err = err.expect_err("a state with 18 stones must be caught");
    assert!(err.problem.contains("invariant"), "{err}");
}

#[test]
fn kit_catches_wrong_player_count() {
    let err = check(
        |_p, _rng| Nim::new(2),
        &Config {
            player_counts: vec![3],
            ..Config::quick()
        },
    );
    assert!(
        err.expect_err("3 asked, 2 given")
            .problem
            .contains("asked for 3")
    );
}

#[test]
fn play_game_records_replay() {
    let mut a = RandomAgent::<Nim>::new();
    let mut b = RandomAgent::<Nim>::new();
    let mut c = RandomAgent::<Nim>::new();
    let (fin, rec) = play_game(
        Nim::new(3),
        &mut [&mut a, &mut b, &mut c],
        &Budget::default(),
        42,
        None,
        &mut (),
    )
    .unwrap();
    assert!(fin.is_terminal());
    assert_eq!(rec.seats, vec!["random"; 3]);
    let json = serde_json::to_string(&rec).unwrap();
    let back = serde_json::from_str(&json).unwrap();
    assert_eq!(replay::<Nim>(&back).unwrap(), fin);
    // Same seed, same game.
    let (again, rec2) = play_game(
        Nim::new(3),
        &mut [&mut a, &mut b, &mut c],
        &Budget::default(),
        42,
        None,
        &mut (),
    )
    .unwrap();
    assert_eq!(again, fin);
    assert_eq!(rec2, rec);
    assert_eq!(Agent::<Nim>::name(&a), "random");
}

#[test]
fn replay_rejects_tampered_records() {
    let mut a = RandomAgent::<Nim>::new();
    let mut b = RandomAgent::<Nim>::new();
    let (_, mut rec) = play_game(
        Nim::new(2),
        &mut [&mut a, &mut b],
        &Budget::default(),
        7,
        None,
        &mut (),
    )
    .unwrap();
    if let Some(tessera_core::Event::Action { action, .. }) = rec.events.get_mut(1) {
        *action = "9:3".into();
    }
    assert!(replay::<Nim>(&rec).is_err());
}

/// Counts what `play_game` shows its observer and stops the game after a set number of
/// choices.
struct Watcher {
    before: Vec<(u8, Nim)>,
    actions_seen: usize,
    choices: usize,
    stop_after: usize,
}

impl tessera_core::record::Observer<Nim> for Watcher {
    fn before_action(&mut self, state: &Nim, player: tessera_core::PlayerId) {
        assert_eq!(state.current_player(), Some(player));
        self.before.push((player.0, state.clone()));
    }
    fn stop(&mut self) -> bool {
        self.choices += 1;
        self.choices > self.stop_after
    }
    fn on_event(&mut self, _state: &Nim, event: &tessera_core::Event<<Nim as Game>::Chance>) {
        if matches!(event, tessera_core::Event::Action { .. }) {
            self.actions_seen += 1;
        }
    }
}

#[test]
fn the_observer_sees_each_position_before_its_action_and_can_stop_the_game() {
    let mut a = RandomAgent::<Nim>::new();
    let mut b = RandomAgent::<Nim>::new();
    let (full, full_rec) = play_game(
        Nim::new(2),
        &mut [&mut a, &mut b],
        &Budget::default(),
        5,
        None,
        &mut (),
    )
    .unwrap();
    let total = full_rec
        .events
        .iter()
        .filter(|e| matches!(e, tessera_core::Event::Action { .. }))
        .count();
    assert!(total >= 3, "the seeded game is long enough to stop inside");
    // Not stopped: one call before each action, the same game as without an observer.
    let mut w = Watcher {
        before: Vec::new(),
        actions_seen: 0,
        choices: 0,
        stop_after: usize::MAX,
    };
    let (fin, rec) = play_game(
        Nim::new(2),
        &mut [&mut a, &mut b],
        &Budget::default(),
        5,
        None,
        &mut w,
    )
    .unwrap();
    assert_eq!((fin, &rec), (full.clone(), &full_rec));
    assert_eq!(w.before.len(), total);
    assert_eq!(w.actions_seen, total);
    // Stopped after two choices: the third choice is not applied, the record has two actions
    // and no result, and it replays to the position the observer saw before the third.
    let mut w = Watcher {
        before: Vec::new(),
        actions_seen: 0,
        choices: 0,
        stop_after: 2,
    };
    let (stopped, rec) = play_game(
        Nim::new(2),
        &mut [&mut a, &mut b],
        &Budget::default(),
        5,
        None,
        &mut w,
    )
    .unwrap();
    assert_eq!(w.actions_seen, 2);
    assert_eq!(w.before.len(), 3);
    assert!(!stopped.is_terminal());
    assert_eq!(rec.result, None);
    assert_eq!(stopped, w.before[2].1);
    assert_eq!(replay::<Nim>(&rec).unwrap(), stopped);
}
