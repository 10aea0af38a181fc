//! The wall layout and the pure scoring functions.
//!
//! A wall is a 25-bit mask: bit `row * 5 + col` is set when that cell is tiled. Rows and
//! columns count from 0 at the top left.
//!
//! ```
//! use tessera_azul::scoring::{cell_bit, placement_score, wall_bonus, FULL_WALL};
//! // A lone tile scores 1; a tile next to it scores 2.
//! assert_eq!(placement_score(0, 0, 0), 1);
//! assert_eq!(placement_score(cell_bit(0, 0), 0, 1), 2);
//! // A full wall earns 5 x 2 + 5 x 7 + 5 x 10 = 95 bonus points.
//! assert_eq!(wall_bonus(FULL_WALL), 95);
//! ```

use crate::colour::Colour;

/// Rows (and columns) of the wall.
pub const WALL_SIZE: usize = 5;

/// The mask of a completely tiled wall.
pub const FULL_WALL: u32 = (1 << 25) - 1;

/// Floor penalties, slot by slot.
pub const FLOOR_PENALTIES: [i32; 7] = [1, 1, 2, 2, 2, 3, 3];

/// Total penalty of a floor holding `n` tiles (the token counts as a tile); `n` above 7 costs
/// the same as 7.
#[inline]
pub const fn floor_penalty(n: usize) -> i32 {
    const CUM: [i32; 8] = [0, 1, 2, 4, 6, 8, 11, 14];
    CUM[if n > 7 { 7 } else { n }]
}

/// Bonus for each complete horizontal row.
pub const ROW_BONUS: u32 = 2;
/// Bonus for each complete vertical column.
pub const COLUMN_BONUS: u32 = 7;
/// Bonus for each colour with all five tiles on the wall.
pub const COLOUR_BONUS: u32 = 10;

/// The bit of cell `(row, col)`.
#[inline]
pub const fn cell_bit(row: usize, col: usize) -> u32 {
    1 << (row * WALL_SIZE + col)
}

/// The column of colour `c` in wall row `row`: `(row + c) mod 5`.
#[inline]
pub const fn wall_column(row: usize, c: Colour) -> usize {
    (row + c as usize) % WALL_SIZE
}

/// The colour printed on cell `(row, col)` of the standard wall.
#[inline]
pub const fn wall_colour(row: usize, col: usize) -> Colour {
    Colour::from_index((col + WALL_SIZE - row) % WALL_SIZE)
}

/// The mask of row `row`.
#[inline]
pub const fn row_mask(row: usize) -> u32 {
    0x1F << (row * WALL_SIZE)
}

/// The mask of column `col`.
#[inline]
pub const fn column_mask(col: usize) -> u32 {
    0x0010_8421 << col
}

/// The mask of the five cells of colour `c`.
pub const fn colour_mask(c: Colour) -> u32 {
    let mut m = 0;
    let mut r = 0;
    while r < WALL_SIZE {
        m |= cell_bit(r, wall_column(r, c));
        r += 1;
    }
    m
}

/// True if the wall has colour `c` in row `row`.
#[inline]
pub const fn row_has_colour(wall: u32, row: usize, c: Colour) -> bool {
    wall & cell_bit(row, wall_column(row, c)) != 0
}

/// Points for placing a tile on the empty cell `(row, col)` of `wall` (the wall before the
/// tile): 1 for a tile touching nothing, otherwise the length of its horizontal run (if
/// longer than 1) plus the length of its vertical run (if longer than 1).
#[inline]
pub fn placement_score(wall: u32, row: usize, col: usize) -> u32 {
    let mut h = 1;
    let mut c = col;
    while c > 0 && wall & cell_bit(row, c - 1) != 0 {
        h += 1;
        c -= 1;
    }
    let mut c = col + 1;
    while c < WALL_SIZE && wall & cell_bit(row, c) != 0 {
        h += 1;
        c += 1;
    }
    let mut v = 1;
    let mut r = row;
    while r > 0 && wall & cell_bit(r - 1, col) != 0 {
        v += 1;
        r -= 1;
    }
    let mut r = row + 1;
    while r < WALL_SIZE && wall & cell_bit(r, col) != 0 {
        v += 1;
        r += 1;
    }
    match (h > 1, v > 1) {
        (true, true) => h + v,
        (true, false) => h,
        (false, true) => v,
        (false, false) => 1,
    }
}

/// Per 5-bit line of tiles (bit `i` = position `i`), the sum over its empty positions of
/// the run a tile placed there would join (itself included), counting only runs longer
/// than 1: one line's share of [`adjacency_potential`].
const LINE_RUNS: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut bits = 0;
    while bits < 32 {
        let mut sum = 0;
        let mut i = 0;
        while i < WALL_SIZE {
            if bits & (1 << i) == 0 {
                let mut run = 1;
                let mut j = i;
                while j > 0 && bits & (1 << (j - 1)) != 0 {
                    run += 1;
                    j -= 1;
                }
                let mut j = i + 1;
                while j < WALL_SIZE && bits & (1 << j) != 0 {
                    run += 1;
                    j += 1;
                }
                if run > 1 {
                    sum += run;
                }
            }
            i += 1;
        }
        t[bits] = sum;
        bits += 1;
    }
    t
};

/// Per 5-bit row of tiles, the same cells as a column: bit `c` moves to bit `5 * c`.
const ROW_TO_COLUMN: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut bits = 0;
    while bits < 32 {
        let mut c = 0;
        while c < WALL_SIZE {
            if bits & (1 << c) != 0 {
                t[bits] |= 1 << (c * WALL_SIZE);
            }
            c += 1;
        }
        bits += 1;
    }
    t
};

/// The wall mirrored on its main diagonal: cell `(r, c)` moves to `(c, r)`.
#[inline]
pub fn transpose(wall: u32) -> u32 {
    let mut t = 0;
    for r in 0..WALL_SIZE {
        t |= ROW_TO_COLUMN[((wall >> (r * WALL_SIZE)) & 0x1F) as usize] << r;
    }
    t
}

/// The empty cells next to (left, right, above or below) a tiled cell.
#[inline]
pub fn empty_neighbours(wall: u32) -> u32 {
    let wall = wall & FULL_WALL;
    let beside = ((wall << 1) & !column_mask(0)) | ((wall >> 1) & !column_mask(WALL_SIZE - 1));
    let around = beside | (wall << WALL_SIZE) | (wall >> WALL_SIZE);
    around & !wall & FULL_WALL
}

/// The sum over the empty cells of `wall` of [`placement_score`] minus 1: the points beyond
/// 1 that tiling each empty cell alone would score. Bit-parallel (two table lookups per row
/// and a neighbour count), equal to the per-cell sum (tested on a million walls).
///
/// Per empty cell the points minus 1 are its horizontal run if longer than 1, plus its
/// vertical run if longer than 1, minus 1 if it touches any tile (and 0 if it touches none).
#[inline]
pub fn adjacency_potential(wall: u32) -> u32 {
    let wall = wall & FULL_WALL;
    let columns = transpose(wall);
    let mut runs = 0;
    for r in 0..WALL_SIZE {
        runs += LINE_RUNS[((wall >> (r * WALL_SIZE)) & 0x1F) as usize];
        runs += LINE_RUNS[((columns >> (r * WALL_SIZE)) & 0x1F) as usize];
    }
    runs - empty_neighbours(wall).count_ones()
}

/// Number of complete horizontal rows.
#[inline]
pub fn complete_rows(wall: u32) -> u32 {
    (0..WALL_SIZE)
        .filter(|&r| wall & row_mask(r) == row_mask(r))
        .count() as u32
}

/// Number of complete vertical columns.
#[inline]
pub fn complete_columns(wall: u32) -> u32 {
    (0..WALL_SIZE)
        .filter(|&c| wall & column_mask(c) == column_mask(c))
        .count() as u32
}

/// Number of colours with all five tiles on the wall.
#[inline]
pub fn complete_colours(wall: u32) -> u32 {
    Colour::ALL
        .iter()
        .filter(|&&c| wall & colour_mask(c) == colour_mask(c))
        .count() as u32
}

/// The end-of-game bonus of a wall: 2 per complete row, 7 per complete column, 10 per
/// complete colour.
#[inline]
pub fn wall_bonus(wall: u32) -> u32 {
    ROW_BONUS * complete_rows(wall)
        + COLUMN_BONUS * complete_columns(wall)
        + COLOUR_BONUS * complete_colours(wall)
}

/// The points scored by tiling cells one by one in the given order, starting from an empty
/// wall (bonuses not included). Cells already tiled are skipped.
pub fn order_score(order: &[(usize, usize)]) -> u32 {
    let mut wall = 0;
    let mut total = 0;
    for &(r, c) in order {
        if wall & cell_bit(r, c) == 0 {
            total += placement_score(wall, r, c);
            wall |= cell_bit(r, c);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_a_latin_square() {
        for r in 0..5 {
            for c in Colour::ALL {
                assert_eq!(wall_colour(r, wall_column(r, c)), c);
            }
        }
        let all: u32 = Colour::ALL.iter().map(|&c| colour_mask(c)).sum();
        assert_eq!(all, FULL_WALL);
        // Row 1 starts with white, row 0 with blue (the printed board).
        assert_eq!(wall_colour(0, 0), Colour::Blue);
        assert_eq!(wall_colour(1, 0), Colour::White);
        assert_eq!(wall_colour(1, 1), Colour::Blue);
    }

    /// The per-cell definition [`adjacency_potential`] must equal.
    fn adjacency_by_cells(wall: u32) -> u32 {
        let mut adj = 0;
        for r in 0..WALL_SIZE {
            for c in 0..WALL_SIZE {
                if wall & cell_bit(r, c) == 0 {
                    adj += placement_score(wall, r, c) - 1;
                }
            }
        }
        adj
    }

    #[test]
    fn adjacency_potential_equals_the_per_cell_sum() {
        // Worked examples: on an empty wall every cell scores just 1; a lone centre tile
        // gives each of its 4 neighbours 2 points (1 beyond 1); a full top row gives each
        // of row 1's 5 cells a vertical run of 2 (1 beyond 1), and nothing else touches it.
        assert_eq!(adjacency_potential(0), 0);
        assert_eq!(adjacency_potential(cell_bit(2, 2)), 4);
        assert_eq!(adjacency_potential(row_mask(0)), 5);
        assert_eq!(adjacency_potential(FULL_WALL), 0);
        // The wall with one gap at (2, 2): the gap completes a row and a column of 5.
        assert_eq!(adjacency_potential(FULL_WALL & !cell_bit(2, 2)), 9);
        // A million walls of every density from a fixed generator, and every wall of the
        // first two rows with the rest empty or full.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for i in 0..1_000_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = x as u32 & FULL_WALL;
            let b = (x >> 32) as u32 & FULL_WALL;
            let wall = match i % 3 {
                0 => a & b,
                1 => a,
                _ => a | b,
            };
            assert_eq!(
                adjacency_potential(wall),
                adjacency_by_cells(wall),
                "wall {wall:#x}"
            );
        }
        for low in 0..(1u32 << 10) {
            for wall in [low, low | (FULL_WALL & !0x3FF)] {
                assert_eq!(
                    adjacency_potential(wall),
                    adjacency_by_cells(wall),
                    "wall {wall:#x}"
                );
            }
        }
    }

    #[test]
    fn transpose_mirrors_the_diagonal() {
        for r in 0..WALL_SIZE {
            for c in 0..WALL_SIZE {
                assert_eq!(transpose(cell_bit(r, c)), cell_bit(c, r));
            }
        }
        assert_eq!(transpose(row_mask(3)), column_mask(3));
        assert_eq!(
            empty_neighbours(cell_bit(0, 0)),
            cell_bit(0, 1) | cell_bit(1, 0)
        );
        assert_eq!(
            empty_neighbours(cell_bit(1, 4)),
            cell_bit(0, 4) | cell_bit(2, 4) | cell_bit(1, 3)
        );
    }

    #[test]
    fn floor_penalties_add_up() {
        let mut s = 0;
        for (n, p) in FLOOR_PENALTIES.iter().enumerate() {
            assert_eq!(floor_penalty(n), s);
            s += p;
        }
        assert_eq!(floor_penalty(7), 14);
        assert_eq!(floor_penalty(9), 14);
    }
}
