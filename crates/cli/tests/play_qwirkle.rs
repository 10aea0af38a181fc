//! `tessera play qwirkle` driven through its stdin.

mod common;

use tessera_core::Game;
use tessera_core::record::{GameRecord, replay};
use tessera_qwirkle::Qwirkle;

type Record = GameRecord<<Qwirkle as Game>::Chance>;

fn run(args: &[&str], input: &str) -> (bool, String, String) {
    let all: Vec<&str> = ["play", "qwirkle", "--no-color"]
        .iter()
        .chain(args)
        .copied()
        .collect();
    common::run_tessera(&all, input)
}

#[test]
fn a_human_turn_explains_wrong_entries_scores_and_quits_keeping_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    // Seed 3 deals P1 the hand R1 O3 O5 G6 P3 P4: the first move must place two tiles of the
    // largest group (the oranges or the 3s).
    let input = "foo\nR1@0,0\nundo\nhint\nO3@0,0 O5@1,0\nquit\n";
    let (ok, out, err) = run(
        &[
            "--seats",
            "human,points",
            "--seed",
            "3",
            "--record",
            path.to_str().unwrap(),
        ],
        input,
    );
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("Your hand (P1): R1 O3 O5 G6 P3 P4"), "{out}");
    assert!(out.contains("Not a move"), "{out}");
    assert!(out.contains("Illegal"), "{out}");
    // Undo before any move is refused; the hint is the strongest level's move, recorded.
    assert!(out.contains("Cannot undo: nothing to undo"), "{out}");
    assert!(out.contains("Hint (master, level 5): "), "{out}");
    assert!(out.contains("You scored 2."), "{out}");
    assert!(out.contains("P2 (points) plays "), "{out}");
    assert!(out.contains("Game stopped."), "{out}");
    // The record holds every step played before the quit and replays to that position.
    let record: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(record.seats, vec!["human", "points"]);
    assert_eq!(record.result, None);
    assert_eq!(record.assists.len(), 1);
    assert_eq!(
        record.assists[0].kind,
        tessera_core::record::AssistKind::Hint
    );
    let state: Qwirkle = replay(&record).expect("the record replays");
    assert!(!state.is_terminal());
    assert_eq!(state.board().len(), 2 + record_tiles_of_p2(&record));
    assert_eq!(state.scores()[tessera_core::PlayerId(0)], 2);
}

/// Tiles the second seat placed, from its one action in the record.
fn record_tiles_of_p2(record: &Record) -> usize {
    record
        .events
        .iter()
        .filter_map(|e| match e {
            tessera_core::record::Event::Action { player, action } if player.0 == 1 => {
                Some(action.matches('@').count())
            }
            _ => None,
        })
        .sum()
}

#[test]
fn a_bot_game_runs_to_the_end_reproducibly_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bots.json");
    let args = [
        "--seats",
        "points,smarter",
        "--seed",
        "9",
        "--record",
        path.to_str().unwrap(),
    ];
    let (ok, out, err) = run(&args, "");
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("P1 (points) plays "), "{out}");
    assert!(out.contains("P2 (smarter) plays "), "{out}");
    assert!(
        out.contains("Winner: ") || out.contains("Shared win: "),
        "{out}"
    );
    let record: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let fin: Qwirkle = replay(&record).expect("the record replays");
    assert!(fin.is_terminal());
    assert_eq!(record.result, fin.outcome());
    // Same seed, same game.
    let (ok2, again, _) = run(&args, "");
    assert!(ok2);
    assert_eq!(
        out.replace(path.to_str().unwrap(), ""),
        again.replace(path.to_str().unwrap(), "")
    );
}

#[test]
fn bad_seats_are_refused_with_a_reason() {
    let (ok, _, err) = run(&["--seats", "human,wizard"], "");
    assert!(!ok);
    assert!(err.contains("seat 'wizard'"), "{err}");
    let (ok, _, err) = run(&["--seats", "human"], "");
    assert!(!ok);
    assert!(err.contains("2 to 4"), "{err}");
}

#[test]
fn an_unwritable_record_and_bad_input_fail_with_a_reason() {
    let (ok, out, err) = run(
        &[
            "--seats",
            "points,points",
            "--seed",
            "3",
            "--record",
            "/nonexistent-dir/q.json",
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("--record /nonexistent-dir/q.json"), "{err}");
    assert!(!out.contains("Winner"), "{out}");
    let (ok, _, err) = common::run_tessera_bytes(
        &["play", "qwirkle", "--seats", "human,points", "--seed", "3"],
        b"\xff\xfe\n",
    );
    assert!(!ok);
    assert!(err.contains("not valid UTF-8"), "{err}");
}

#[test]
fn the_default_opponent_is_the_middle_level() {
    let (ok, out, err) = run(&["--seed", "3"], "quit\n");
    assert!(ok, "{err}");
    assert!(out.contains("Seats: human, level:3"), "{out}");
}

#[test]
fn undo_takes_the_game_back_to_the_humans_turn_and_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("undo.json");
    let (ok, out, err) = run(
        &[
            "--seats",
            "human,points",
            "--seed",
            "3",
            "--record",
            path.to_str().unwrap(),
        ],
        "O3@0,0 O5@1,0\nundo\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("You scored 2."), "{out}");
    assert!(out.contains("Taken back: P1 to move again."), "{out}");
    let record: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(record.assists.len(), 1);
    assert_eq!(
        record.assists[0].kind,
        tessera_core::record::AssistKind::Undo
    );
    // Back before the human's move: nothing on the board.
    let state: Qwirkle = replay(&record).expect("the record replays");
    assert_eq!(state.board().len(), 0);
}
