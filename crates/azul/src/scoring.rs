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
