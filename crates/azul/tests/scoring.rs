//! Scoring worked examples, including the whole-wall orders of seed 000 (the thesis).

use tessera_azul::scoring::{FULL_WALL, cell_bit, order_score, placement_score, wall_bonus};

/// Cells in the order given by a 5x5 matrix of step numbers (1 = first tile).
fn order_from_matrix(m: [[usize; 5]; 5]) -> Vec<(usize, usize)> {
    let mut cells = vec![(0, 0); 25];
    let mut seen = [false; 25];
    for (r, row) in m.iter().enumerate() {
        for (c, &k) in row.iter().enumerate() {
            assert!(
                (1..=25).contains(&k) && !seen[k - 1],
                "a permutation of 1..25"
            );
            seen[k - 1] = true;
            cells[k - 1] = (r, c);
        }
    }
    cells
}

#[test]
fn figure_6_row_by_row_scores_141() {
    let order: Vec<(usize, usize)> = (0..5).flat_map(|r| (0..5).map(move |c| (r, c))).collect();
    assert_eq!(order_score(&order), 141);
}

#[test]
fn figure_7_optimal_order_scores_145() {
    let m = [
        [25, 24, 23, 22, 11],
        [21, 20, 19, 7, 12],
        [18, 17, 4, 8, 13],
        [16, 2, 5, 9, 14],
        [1, 3, 6, 10, 15],
    ];
    assert_eq!(order_score(&order_from_matrix(m)), 145);
}

#[test]
fn figure_16_lowest_order_scores_89() {
    let m = [
        [1, 4, 2, 5, 3],
        [16, 19, 17, 20, 18],
        [6, 9, 7, 10, 8],
        [21, 24, 22, 25, 23],
        [11, 14, 12, 15, 13],
    ];
    assert_eq!(order_score(&order_from_matrix(m)), 89);
}

#[test]
fn full_wall_bonus_is_95_and_max_total_240() {
    assert_eq!(wall_bonus(FULL_WALL), 95);
    assert_eq!(wall_bonus(0), 0);
    // One complete row: +2; one complete column: +7; one colour (the diagonal): +10.
    assert_eq!(wall_bonus(0b11111), 2);
    let col0: u32 = (0..5).map(|r| cell_bit(r, 0)).sum();
    assert_eq!(wall_bonus(col0), 7);
    let blue: u32 = (0..5).map(|r| cell_bit(r, r)).sum();
    assert_eq!(wall_bonus(blue), 10);
}

#[test]
fn single_placements() {
    // Figure 5 of the thesis: filling a row left to right scores 1 + 2 + 3 + 4 + 5.
    let row: Vec<(usize, usize)> = (0..5).map(|c| (2, c)).collect();
    assert_eq!(order_score(&row), 15);
    // A tile joining a run of 2 horizontally and 1 vertically: 3 + 2.
    let wall = cell_bit(1, 0) | cell_bit(1, 1) | cell_bit(0, 2);
    assert_eq!(placement_score(wall, 1, 2), 5);
    // Gaps break runs.
    let wall = cell_bit(0, 0) | cell_bit(0, 3);
    assert_eq!(placement_score(wall, 0, 1), 2);
}
