//! n x n wall pictures (n = 1..=5) and the placement score of one tile.
//!
//! A *picture* is the set of covered cells of an n x n wall, stored as a bit mask: cell
//! `(row, col)` (both from 0, row 0 on top) is bit `row * n + col`. This is the thesis' cell
//! numbering (Figure 12: left to right, top to bottom).

use std::fmt;
use std::str::FromStr;

use super::WallError;

/// The largest wall side the picture-based analyses accept (2^25 pictures for n = 5).
pub const MAX_SIDE: usize = 5;

/// A (partial) covering of an n x n wall, n = 1..=5.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Picture {
    n: usize,
    bits: u32,
}

/// The score of one tile placed on a wall, split as in the thesis' equation (1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placement {
    /// `score_x`: 1 + the number of tiles horizontally connected to the new tile.
    pub horizontal: u32,
    /// `score_y`: 1 + the number of tiles vertically connected to the new tile.
    pub vertical: u32,
}

impl Placement {
    /// The points the tile scores: `score_x` if `score_y = 1`, `score_y` if `score_x = 1`,
    /// otherwise `score_x + score_y` (so a lone tile scores 1).
    pub fn score(self) -> u32 {
        match (self.horizontal, self.vertical) {
            (1, v) => v,
            (h, 1) => h,
            (h, v) => h + v,
        }
    }
}

impl Picture {
    /// The empty n x n wall.
    pub fn empty(n: usize) -> Result<Self, WallError> {
        check_side(n)?;
        Ok(Picture { n, bits: 0 })
    }

    /// The full n x n wall.
    pub fn full(n: usize) -> Result<Self, WallError> {
        check_side(n)?;
        Ok(Picture {
            n,
            bits: full_mask(n),
        })
    }

    /// A picture from its bit mask (bit `row * n + col` set = covered).
    pub fn from_bits(n: usize, bits: u32) -> Result<Self, WallError> {
        check_side(n)?;
        if bits & !full_mask(n) != 0 {
            return Err(WallError::BitsOutOfRange { n, bits });
        }
        Ok(Picture { n, bits })
    }

    /// The side n.
    pub fn side(self) -> usize {
        self.n
    }

    /// The bit mask.
    pub fn bits(self) -> u32 {
        self.bits
    }

    /// The number of covered cells.
    pub fn count(self) -> u32 {
        self.bits.count_ones()
    }

    /// Whether cell `(row, col)` is covered (false outside the wall).
    pub fn is_covered(self, row: usize, col: usize) -> bool {
        row < self.n && col < self.n && self.bits >> (row * self.n + col) & 1 == 1
    }

    /// The picture with cell `(row, col)` covered.
    pub fn with(self, row: usize, col: usize) -> Self {
        debug_assert!(row < self.n && col < self.n);
        Picture {
            n: self.n,
            bits: self.bits | 1 << (row * self.n + col),
        }
    }

    /// The score components of a tile put on the empty cell `(row, col)` of this picture,
    /// found by walking along the row and the column (the reference scorer: the dynamic
    /// program uses lookup tables instead and is tested against this).
    pub fn placement(self, row: usize, col: usize) -> Result<Placement, WallError> {
        if row >= self.n || col >= self.n {
            return Err(WallError::CellOutOfRange {
                n: self.n,
                row,
                col,
            });
        }
        if self.is_covered(row, col) {
            return Err(WallError::CellCovered { row, col });
        }
        let mut horizontal = 1;
        let mut c = col;
        while c > 0 && self.is_covered(row, c - 1) {
            horizontal += 1;
            c -= 1;
        }
        c = col + 1;
        while self.is_covered(row, c) {
            horizontal += 1;
            c += 1;
        }
        let mut vertical = 1;
        let mut r = row;
        while r > 0 && self.is_covered(r - 1, col) {
            vertical += 1;
            r -= 1;
        }
        r = row + 1;
        while self.is_covered(r, col) {
            vertical += 1;
            r += 1;
        }
        Ok(Placement {
            horizontal,
            vertical,
        })
    }
}

/// The mask of all n^2 cells.
pub(crate) fn full_mask(n: usize) -> u32 {
    if n * n >= 32 {
        u32::MAX
    } else {
        (1u32 << (n * n)) - 1
    }
}

pub(crate) fn check_side(n: usize) -> Result<(), WallError> {
    if (1..=MAX_SIDE).contains(&n) {
        Ok(())
    } else {
        Err(WallError::Side { n, max: MAX_SIDE })
    }
}

impl fmt::Display for Picture {
    /// Rows top to bottom separated by `/`, `#` = covered, `.` = empty (the `FromStr` format).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.n {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..self.n {
                f.write_str(if self.is_covered(r, c) { "#" } else { "." })?;
            }
        }
        Ok(())
    }
}

impl FromStr for Picture {
    type Err = WallError;

    /// Parses `#..#./...../...` (n rows of n cells separated by `/`; `#`, `x`, `X` or `1` =
    /// covered, `.`, `_` or `0` = empty) or the thesis' bit string of n^2 characters `0`/`1`
    /// with cell 0 first (Figure 12).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let rows: Vec<&str> = if s.contains('/') {
            s.split('/').map(str::trim).collect()
        } else {
            let len = s.chars().count();
            let n = (1..=MAX_SIDE).find(|&n| n * n == len).ok_or_else(|| {
                WallError::Parse(format!(
                    "a bit string must have n^2 characters for n = 1..={MAX_SIDE} \
                     (1, 4, 9, 16 or 25), got {len} in {s:?}"
                ))
            })?;
            (0..n)
                .map(|r| {
                    let start = s.char_indices().nth(r * n).map_or(s.len(), |(i, _)| i);
                    let end = s
                        .char_indices()
                        .nth((r + 1) * n)
                        .map_or(s.len(), |(i, _)| i);
                    &s[start..end]
                })
                .collect()
        };
        let n = rows.len();
        check_side(n).map_err(|_| {
            WallError::Parse(format!(
                "expected 1 to {MAX_SIDE} rows separated by '/', got {n} in {s:?}"
            ))
        })?;
        let mut bits = 0u32;
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != n {
                return Err(WallError::Parse(format!(
                    "row {} of {s:?} has {} cells, expected {n} (one per column)",
                    r + 1,
                    cells.len()
                )));
            }
            for (c, ch) in cells.iter().enumerate() {
                match ch {
                    '#' | 'x' | 'X' | '1' => bits |= 1 << (r * n + c),
                    '.' | '_' | '0' => {}
                    other => {
                        return Err(WallError::Parse(format!(
                            "cell {other:?} at row {}, column {} of {s:?}: expected '#' \
                             (covered) or '.' (empty)",
                            r + 1,
                            c + 1
                        )));
                    }
                }
            }
        }
        Ok(Picture { n, bits })
    }
}

/// A complete tiling order: `order[i]` is the cell (`row * n + col`) covered by the
/// (i+1)-th tile.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TilingOrder {
    n: usize,
    start: u32,
    cells: Vec<u8>,
}

impl TilingOrder {
    /// An order of the empty cells of `start`; every empty cell must appear exactly once.
    pub fn new(start: Picture, cells: Vec<u8>) -> Result<Self, WallError> {
        let n = start.side();
        let mut seen = start.bits();
        for &cell in &cells {
            let cell = cell as usize;
            if cell >= n * n {
                return Err(WallError::CellOutOfRange {
                    n,
                    row: cell / n,
                    col: cell % n,
                });
            }
            if seen >> cell & 1 == 1 {
                return Err(WallError::CellCovered {
                    row: cell / n,
                    col: cell % n,
                });
            }
            seen |= 1 << cell;
        }
        if seen != full_mask(n) {
            return Err(WallError::Parse(format!(
                "the order leaves {} cells empty; it must cover the whole wall",
                (full_mask(n) & !seen).count_ones()
            )));
        }
        Ok(TilingOrder {
            n,
            start: start.bits(),
            cells,
        })
    }

    /// Reads an order given as an n x n grid of placement numbers (1 = first tile), rows
    /// separated by `/` and numbers by spaces or commas, e.g. the thesis' Figure 7
    /// `25 24 23 22 11/21 20 19 7 12/...`. A `0` or `.` marks a cell covered before the order.
    pub fn from_grid(s: &str) -> Result<Self, WallError> {
        let rows: Vec<Vec<&str>> = s
            .trim()
            .split('/')
            .map(|r| {
                r.split(|ch: char| ch == ',' || ch.is_whitespace())
                    .filter(|t| !t.is_empty())
                    .collect()
            })
            .collect();
        let n = rows.len();
        check_side(n)
            .map_err(|_| WallError::Parse(format!("expected 1 to {MAX_SIDE} rows, got {n}")))?;
        let mut start = 0u32;
        let mut by_number: Vec<Option<u8>> = vec![None; n * n + 1];
        for (r, row) in rows.iter().enumerate() {
            if row.len() != n {
                return Err(WallError::Parse(format!(
                    "row {} has {} numbers, expected {n}",
                    r + 1,
                    row.len()
                )));
            }
            for (c, tok) in row.iter().enumerate() {
                let cell = (r * n + c) as u8;
                if *tok == "." || *tok == "0" {
                    start |= 1 << cell;
                    continue;
                }
                let k: usize = tok.parse().map_err(|_| {
                    WallError::Parse(format!(
                        "{tok:?} at row {}, column {} is not a placement number",
                        r + 1,
                        c + 1
                    ))
                })?;
                if k == 0 || k > n * n || by_number[k].is_some() {
                    return Err(WallError::Parse(format!(
                        "placement number {k} at row {}, column {} is out of range or repeated",
                        r + 1,
                        c + 1
                    )));
                }
                by_number[k] = Some(cell);
            }
        }
        let cells: Vec<u8> = by_number.iter().flatten().copied().collect();
        let free = n * n - start.count_ones() as usize;
        if (1..=free).any(|k| by_number[k].is_none()) {
            return Err(WallError::Parse(format!(
                "placement numbers must be 1..={free} without gaps"
            )));
        }
        TilingOrder::new(Picture { n, bits: start }, cells)
    }

    /// The side n.
    pub fn side(&self) -> usize {
        self.n
    }

    /// The picture the order starts from.
    pub fn start(&self) -> Picture {
        Picture {
            n: self.n,
            bits: self.start,
        }
    }

    /// The cells in placement order.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The score components of every placement, in placement order.
    pub fn placements(&self) -> Vec<Placement> {
        let mut pic = self.start();
        let mut out = Vec::with_capacity(self.cells.len());
        for &cell in &self.cells {
            let (r, c) = (cell as usize / self.n, cell as usize % self.n);
            // The constructor checked every cell is in range and empty when placed.
            if let Ok(p) = pic.placement(r, c) {
                out.push(p);
            }
            pic = pic.with(r, c);
        }
        out
    }

    /// The total score of the order (without end-of-game bonuses).
    pub fn score(&self) -> u32 {
        self.placements().iter().map(|p| p.score()).sum()
    }

    /// The order as grids like the thesis' Figures 7 and 16: placement numbers, then
    /// `score_x` (horizontal), `score_y` (vertical) and the points of every tile.
    pub fn render(&self) -> String {
        let n = self.n;
        let placements = self.placements();
        let mut number = vec![0usize; n * n];
        let mut comp = vec![None; n * n];
        for (i, (&cell, p)) in self.cells.iter().zip(&placements).enumerate() {
            number[cell as usize] = i + 1;
            comp[cell as usize] = Some(*p);
        }
        let grid = |title: &str, f: &dyn Fn(usize) -> String| {
            let mut s = format!("{title}\n");
            for r in 0..n {
                let row: Vec<String> = (0..n).map(|c| format!("{:>3}", f(r * n + c))).collect();
                s.push_str(&row.join(""));
                s.push('\n');
            }
            s
        };
        let mut out = grid("order (placement numbers, . = covered before):", &|i| {
            if number[i] == 0 {
                ".".into()
            } else {
                number[i].to_string()
            }
        });
        out += &grid("horizontal (score_x = 1 + horizontally connected):", &|i| {
            comp[i].map_or(".".into(), |p| p.horizontal.to_string())
        });
        out += &grid("vertical (score_y = 1 + vertically connected):", &|i| {
            comp[i].map_or(".".into(), |p| p.vertical.to_string())
        });
        out += &grid("points of each tile:", &|i| {
            comp[i].map_or(".".into(), |p| p.score().to_string())
        });
        let h: u32 = placements.iter().map(|p| p.horizontal).sum();
        let v: u32 = placements.iter().map(|p| p.vertical).sum();
        let lone = placements
            .iter()
            .filter(|p| p.horizontal == 1 && p.vertical == 1)
            .count();
        let one_sided = placements
            .iter()
            .filter(|p| (p.horizontal == 1) != (p.vertical == 1))
            .count();
        out += &format!(
            "total {} = horizontal {h} + vertical {v} - {} (lone tiles count 1, not 2; a \
             missing direction counts 0, not 1): {lone} lone, {one_sided} one-sided tiles\n",
            self.score(),
            lone + one_sided
        );
        out
    }
}

/// Replays a tiling order on an n x n wall of any side (cells as (row, column), 0-based,
/// starting from the empty wall) with the same rule as [`Picture::placement`], walking
/// along the row and the column of every new tile, and returns the total score without
/// bonuses. The reference scorer for walls larger than [`MAX_SIDE`] (O(n) per tile); tested
/// against [`Picture::placement`] on small walls.
pub fn score_cells(n: usize, cells: &[(u16, u16)]) -> Result<u64, WallError> {
    let mut covered = vec![false; n * n];
    let is = |covered: &[bool], r: usize, c: usize| r < n && c < n && covered[r * n + c];
    let mut total = 0u64;
    for &(row, col) in cells {
        let (row, col) = (row as usize, col as usize);
        if row >= n || col >= n {
            return Err(WallError::CellOutOfRange { n, row, col });
        }
        if covered[row * n + col] {
            return Err(WallError::CellCovered { row, col });
        }
        let mut horizontal = 1;
        let mut c = col;
        while c > 0 && is(&covered, row, c - 1) {
            horizontal += 1;
            c -= 1;
        }
        c = col + 1;
        while is(&covered, row, c) {
            horizontal += 1;
            c += 1;
        }
        let mut vertical = 1;
        let mut r = row;
        while r > 0 && is(&covered, r - 1, col) {
            vertical += 1;
            r -= 1;
        }
        r = row + 1;
        while is(&covered, r, col) {
            vertical += 1;
            r += 1;
        }
        covered[row * n + col] = true;
        total += u64::from(
            Placement {
                horizontal,
                vertical,
            }
            .score(),
        );
    }
    Ok(total)
}
