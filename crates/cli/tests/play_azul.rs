//! `tessera play azul` driven through its stdin.

mod common;

use tessera_azul::AzulState;
use tessera_core::Game;
use tessera_core::record::{GameRecord, replay};

type Record = GameRecord<<AzulState as Game>::Chance>;

fn run(args: &[&str], input: &str) -> (bool, String, String) {
    let all: Vec<&str> = ["play", "azul"].iter().chain(args).copied().collect();
    common::run_tessera(&all, input)
}

#[test]
fn a_human_game_explains_wrong_entries_and_finishes() {
    let dir = std::env::temp_dir().join(format!("tessera-play-azul-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record_path = dir.join("game.json");
    // A wrong entry, a request for the moves and help, then every floor move in turn: the
    // illegal ones are explained and asked again, the first legal one is played.
    let mut input = String::from("hello\nmoves\nhelp\n9Q1\n");
    let floor_moves: Vec<String> = "123456789C"
        .chars()
        .flat_map(|s| "BYRKW".chars().map(move |c| format!("{s}{c}F\n")))
        .collect();
    for _ in 0..400 {
        input += &floor_moves.concat();
    }
    let (ok, out, err) = run(
        &[
            "--players",
            "2",
            "--seats",
            "human,random",
            "--seed",
            "11",
            "--record",
            record_path.to_str().unwrap(),
        ],
        &input,
    );
    assert!(ok, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("'hello' is not a move"), "{out}");
    assert!(out.contains("legal moves:"), "{out}");
    assert!(out.contains("SOURCE COLOUR DESTINATION"), "{out}");
    assert!(out.contains("colour 'Q'"), "{out}");
    assert!(out.contains("is not legal"), "{out}");
    assert!(out.contains("Factories"), "{out}");
    assert!(out.contains("End of round 1"), "{out}");
    assert!(out.contains("Final scores"), "{out}");
    let json = std::fs::read_to_string(&record_path).unwrap();
    let record: Record = serde_json::from_str(&json).unwrap();
    assert_eq!(record.seats, vec!["human", "random"]);
    let fin: AzulState = replay(&record).expect("the record replays");
    assert!(fin.is_terminal());
    assert_eq!(record.result, fin.outcome());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ai_seats_play_to_the_end_without_input() {
    let (ok, out, err) = run(
        &[
            "--players",
            "3",
            "--seats",
            "random,random,random",
            "--seed",
            "4",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("Final scores"), "{out}");
    assert_eq!(out.matches(" points, ").count(), 3, "{out}");
    // Output into a pipe has no colour codes (colours are for terminals only).
    assert!(!out.contains('\x1b'), "{out}");
    // The same seed plays the same game.
    let (_, again, _) = run(
        &[
            "--players",
            "3",
            "--seats",
            "random,random,random",
            "--seed",
            "4",
        ],
        "",
    );
    assert_eq!(out, again);
}

#[test]
fn a_loaded_position_resumes_and_bad_arguments_are_explained() {
    let pos = "2 1 play 1 1 -/-/-/-/KKWW 1Y 20,19,20,18,18 0,0,0,0,0 \
        0:-,-,-,-,-:...../...../...../...../.....:- 0:-,-,-,-,-:...../...../...../...../.....:-";
    let (ok, out, err) = run(
        &["--load", pos, "--seats", "random,random", "--seed", "1"],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("Final scores"), "{out}");
    let (ok, _, err) = run(&["--load", "2 1 play", "--seats", "random,random"], "");
    assert!(!ok);
    assert!(err.contains("fields"), "{err}");
    let (ok, _, err) = run(&["--players", "2", "--seats", "random,wizard"], "");
    assert!(!ok);
    assert!(
        err.contains("seat 'wizard'") && err.contains("unknown azul agent 'wizard'"),
        "{err}"
    );
    let (ok, _, err) = run(&["--players", "3", "--seats", "random,random"], "");
    assert!(!ok);
    assert!(err.contains("3 players"), "{err}");
    // A human whose input ends stops the game without an error.
    let (ok, out, _) = run(
        &["--players", "2", "--seats", "human,random", "--seed", "2"],
        "",
    );
    assert!(ok);
    assert!(out.contains("Input ended"), "{out}");
}

/// Every row of every wall misses blue or yellow, and all blue and yellow tiles sit in pattern
/// lines that can never fill (from crates/azul/tests/rules.rs).
const DEAD_END: &str = "4 3001 deal 2 2 -/-/-/-/-/-/-/-/- 1 0,0,0,0,0 0,0,9,11,8 \
    0:-,-,B2,B2,B4:.YRKW/W.YRK/...../..W../.....:- \
    0:-,-,Y2,-,B4:.YRKW/W..RK/.W..R/RKW.Y/.....:- \
    0:-,-,Y2,B2,Y4:B.RKW/W.YRK/.W..R/...../.....:- \
    0:-,-,B2,B3,Y4:.YRKW/W.YRK/...Y./...../.....:-";

#[test]
fn a_dead_end_game_says_why_it_ended() {
    let (ok, out, err) = run(
        &[
            "--load",
            DEAD_END,
            "--seats",
            "random,random,random,random",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("Game over: no wall row can ever be completed"),
        "{out}"
    );
    assert!(!out.contains("Game over: bonuses"), "{out}");
    // A normal ending names who completed a row.
    let (ok, out, err) = run(&["--seats", "random,random", "--seed", "4"], "");
    assert!(ok, "{err}");
    assert!(out.contains("completed a horizontal wall row"), "{out}");
}

#[test]
fn terminal_mistakes_fail_early_with_a_clear_message() {
    // An unwritable record path fails before anything is played.
    let (ok, out, err) = run(
        &[
            "--seats",
            "random,random",
            "--seed",
            "4",
            "--record",
            "/nonexistent-dir/game.json",
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("--record /nonexistent-dir/game.json"), "{err}");
    assert!(!out.contains("Final scores"), "{out}");
    // A missing file is a missing file, not bad notation.
    let (ok, _, err) = run(&["--load", "/missing/file", "--seats", "random,random"], "");
    assert!(!ok);
    assert!(err.contains("there is no file /missing/file"), "{err}");
    // --players that contradicts the loaded position names both counts.
    let (ok, _, err) = run(
        &[
            "--load",
            DEAD_END,
            "--players",
            "2",
            "--seats",
            "random,random",
        ],
        "",
    );
    assert!(!ok);
    assert!(
        err.contains("--players 2") && err.contains("has 4 players"),
        "{err}"
    );
    // Invalid UTF-8 on stdin is an error, not the end of the input.
    let (ok, out, err) = common::run_tessera_bytes(
        &["play", "azul", "--seats", "human,random", "--seed", "2"],
        b"\xff\xfe\n",
    );
    assert!(!ok, "{out}");
    assert!(err.contains("not valid UTF-8"), "{err}");
    assert!(!out.contains("Input ended"), "{out}");
}

#[test]
fn the_default_opponent_is_the_middle_level() {
    // The human quits at once; the banner names the seats.
    let (ok, out, err) = run(&["--seed", "3"], "quit\n");
    assert!(ok, "{err}");
    let registry = tessera_arena::registry::azul::registry();
    let middle = registry.default_level().unwrap().number;
    assert!(
        out.contains(&format!("Seats: human, level:{middle}")),
        "{out}"
    );
    let (ok, out, err) = run(&["--seed", "3", "--opponent", "level:novice"], "quit\n");
    assert!(ok, "{err}");
    assert!(out.contains("Seats: human, level:novice"), "{out}");
    let (ok, _, err) = run(&["--seed", "3", "--opponent", "level:99"], "quit\n");
    assert!(!ok);
    assert!(err.contains("no level '99'"), "{err}");
}

#[test]
fn hint_and_undo_against_the_ai_are_kept_in_the_record() {
    let dir = std::env::temp_dir().join(format!("tessera-play-azul-help-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record_path = dir.join("help.json");
    // Undo before any move is refused; a hint; one move (the first legal floor move), then
    // undo back to the human's turn, and quit.
    let mut input = String::from("undo\nhint\n");
    for s in "123456789C".chars() {
        for c in "BYRKW".chars() {
            input += &format!("{s}{c}F\n");
        }
    }
    input += "undo\nquit\n";
    let (ok, out, err) = run(
        &[
            "--seats",
            "human,level:1",
            "--seed",
            "6",
            "--record",
            record_path.to_str().unwrap(),
        ],
        &input,
    );
    assert!(ok, "{err}");
    assert!(out.contains("Cannot undo: nothing to undo"), "{out}");
    let top = *tessera_arena::registry::azul::registry()
        .levels()
        .last()
        .unwrap();
    let hint = format!("Hint ({}, level {}): ", top.name, top.number);
    assert!(out.contains(&hint), "{out}");
    assert!(
        out.contains("projected score if the round ended now"),
        "{out}"
    );
    assert!(out.contains("Taken back: P1 to move again."), "{out}");
    let record: Record =
        serde_json::from_str(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
    let kinds: Vec<_> = record.assists.iter().map(|a| a.kind).collect();
    use tessera_core::record::AssistKind;
    assert_eq!(kinds.first(), Some(&AssistKind::Hint));
    assert_eq!(kinds.last(), Some(&AssistKind::Undo));
    let _ = std::fs::remove_dir_all(&dir);
}
