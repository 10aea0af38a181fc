//! `tessera analyze azul-endgame`: every move of a last-round position solved exactly.

mod common;

use common::run_tessera;

/// Player 2 to move in the last round (three full pattern lines complete wall rows):
/// from a seeded game of `oracle`, 14 tiles left on the table.
const LAST_ROUND: &str = "2 5 play 2 2 YYKK/-/-/BYKK/- BYRRKK 0,0,0,0,0 10,9,11,9,8 \
    29:W1,R2,B2,W2,-:BYRK./WBY.K/.W.Y./.K.BY/.R...:1 \
    17:-,Y2,-,-,W5:BYR../WB.RK/.WB../.K.../.R...:-";

#[test]
fn every_move_of_a_last_round_is_solved_best_first() {
    let (ok, out, err) = run_tessera(
        &[
            "analyze",
            "azul-endgame",
            "--position",
            LAST_ROUND,
            "--time",
            "5s",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("player 2 to move (25 legal moves)"), "{out}");
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| move"))
        .collect();
    assert_eq!(rows.len(), 25, "{out}");
    // Every move loses (player 1 is 12 points ahead with its row complete); the best loses
    // by 11 points and the table is sorted by the final margin.
    assert!(rows.iter().all(|r| r.contains("| loss |")), "{out}");
    assert_eq!(rows[0], "| 4K1 | loss | -11 |");
    let margins: Vec<f64> = rows
        .iter()
        .map(|r| r.rsplit('|').nth(1).unwrap().trim().parse().unwrap())
        .collect();
    assert!(margins.windows(2).all(|w| w[0] >= w[1]), "{margins:?}");
}

#[test]
fn a_position_that_is_not_the_last_round_is_refused_with_the_reason() {
    // The same position with the full lines that complete a row emptied into the lid
    // (player 1's white first line and red second line, player 2's yellow second line):
    // nothing completes a row.
    let not_last = LAST_ROUND
        .replace("29:W1,R2,", "29:-,-,")
        .replace("17:-,Y2,", "17:-,-,")
        .replace("10,9,11,9,8", "10,11,13,9,9");
    let (ok, _, err) = run_tessera(&["analyze", "azul-endgame", "--position", &not_last], "");
    assert!(!ok);
    assert!(err.contains("not certainly the game's last"), "{err}");
    assert!(!err.contains("backtrace"), "{err}");
    let three = "3 1 play 0 0";
    let (ok, _, err) = run_tessera(&["analyze", "azul-endgame", "--position", three], "");
    assert!(!ok);
    assert!(err.contains("--position"), "{err}");
}
