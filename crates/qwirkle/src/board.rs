//! The unbounded board: a growable grid addressed by signed coordinates.
//!
//! Users address cells by `(x, y)` with `x` growing to the right and `y` growing downwards;
//! the first tile of the game lies at `(0, 0)`. Internally the board keeps a dense grid with
//! a margin of at least [`MARGIN`] empty cells around every tile and re-allocates when a tile
//! comes closer to the edge; the coordinates users see never shift.

use serde::{Deserialize, Serialize};

use crate::tile::{Line, Tile};

/// Empty cells kept around every tile inside the dense grid.
pub const MARGIN: i32 = 8;
const GROW: i32 = 16;
/// Coordinates stay within this range (a connected board of 108 tiles around (0, 0) needs
/// at most 108 in each direction).
pub const COORD_LIMIT: i32 = 120;

/// A tile on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardTile {
    /// Column, growing to the right.
    pub x: i32,
    /// Row, growing downwards.
    pub y: i32,
    /// The tile.
    pub tile: Tile,
}

/// The board.
///
/// ```
/// use tessera_qwirkle::{Board, Tile};
/// let mut b = Board::new();
/// b.place(0, 0, "R1".parse().unwrap());
/// b.place(-50, 0, "R2".parse().unwrap());
/// assert_eq!(b.get(-50, 0).map(|t| t.to_string()), Some("R2".into()));
/// assert_eq!(b.get(1, 0), None);
/// assert_eq!(b.len(), 2);
/// ```
#[derive(Debug, Default)]
pub struct Board {
    /// Coordinates of grid cell 0.
    x0: i32,
    y0: i32,
    w: i32,
    h: i32,
    /// 0 = empty, else tile index + 1.
    cells: Vec<u8>,
    count: usize,
    /// Bounding box of the tiles (valid when count > 0).
    min_x: i32,
    max_x: i32,
    min_y: i32,
    max_y: i32,
}

impl Clone for Board {
    fn clone(&self) -> Self {
        Board {
            cells: self.cells.clone(),
            ..*self
        }
    }

    /// Reuses the grid's allocation (the play-outs copy a world's board into the same
    /// scratch state every time).
    fn clone_from(&mut self, source: &Self) {
        self.cells.clone_from(&source.cells);
        self.x0 = source.x0;
        self.y0 = source.y0;
        self.w = source.w;
        self.h = source.h;
        self.count = source.count;
        self.min_x = source.min_x;
        self.max_x = source.max_x;
        self.min_y = source.min_y;
        self.max_y = source.max_y;
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.count == other.count
            && self
                .tiles()
                .all(|bt| other.get(bt.x, bt.y) == Some(bt.tile))
    }
}

impl Eq for Board {}

impl Board {
    /// The empty board.
    pub fn new() -> Self {
        Board::default()
    }

    /// Number of tiles on the board.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when no tile has been placed.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The bounding box of the tiles as `(min_x, min_y, max_x, max_y)`, if any.
    pub fn bounds(&self) -> Option<(i32, i32, i32, i32)> {
        (self.count > 0).then_some((self.min_x, self.min_y, self.max_x, self.max_y))
    }

    /// The tile at `(x, y)`.
    #[inline]
    pub fn get(&self, x: i32, y: i32) -> Option<Tile> {
        let gx = x - self.x0;
        let gy = y - self.y0;
        if gx < 0 || gy < 0 || gx >= self.w || gy >= self.h {
            return None;
        }
        let v = self.cells[(gy * self.w + gx) as usize];
        (v != 0).then(|| Tile::from_index(v as usize - 1))
    }

    /// True if `(x, y)` holds a tile.
    #[inline]
    pub fn occupied(&self, x: i32, y: i32) -> bool {
        self.get(x, y).is_some()
    }

    /// True if an orthogonal neighbour of `(x, y)` holds a tile.
    #[inline]
    pub fn has_neighbor(&self, x: i32, y: i32) -> bool {
        self.occupied(x - 1, y)
            || self.occupied(x + 1, y)
            || self.occupied(x, y - 1)
            || self.occupied(x, y + 1)
    }

    /// The placed tiles as `TILE@X,Y` joined by `;` (`-` when empty), the board's part of
    /// the state notation and of the engine protocol's positions.
    pub fn notation(&self) -> String {
        let tiles: Vec<String> = self
            .tiles()
            .map(|bt| format!("{}@{},{}", bt.tile, bt.x, bt.y))
            .collect();
        if tiles.is_empty() {
            "-".to_string()
        } else {
            tiles.join(";")
        }
    }

    /// Every tile, row by row from the top, left to right.
    pub fn tiles(&self) -> impl Iterator<Item = BoardTile> + '_ {
        let w = self.w.max(1);
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .map(move |(i, &v)| BoardTile {
                x: self.x0 + i as i32 % w,
                y: self.y0 + i as i32 / w,
                tile: Tile::from_index(v as usize - 1),
            })
    }

    /// Puts a tile on an empty cell (the caller checks the rules). Panics if the cell is
    /// occupied or outside `±COORD_LIMIT` (programming errors).
    pub fn place(&mut self, x: i32, y: i32, t: Tile) {
        assert!(
            x.abs() <= COORD_LIMIT && y.abs() <= COORD_LIMIT,
            "cell out of range"
        );
        self.ensure_room(x, y);
        let i = self.idx(x, y);
        assert_eq!(self.cells[i], 0, "cell ({x}, {y}) is occupied");
        self.cells[i] = t.index() as u8 + 1;
        if self.count == 0 {
            (self.min_x, self.max_x, self.min_y, self.max_y) = (x, x, y, y);
        } else {
            self.min_x = self.min_x.min(x);
            self.max_x = self.max_x.max(x);
            self.min_y = self.min_y.min(y);
            self.max_y = self.max_y.max(y);
        }
        self.count += 1;
    }

    #[inline]
    fn idx(&self, x: i32, y: i32) -> usize {
        ((y - self.y0) * self.w + (x - self.x0)) as usize
    }

    fn ensure_room(&mut self, x: i32, y: i32) {
        if self.w > 0
            && x - MARGIN >= self.x0
            && y - MARGIN >= self.y0
            && x + MARGIN < self.x0 + self.w
            && y + MARGIN < self.y0 + self.h
        {
            return;
        }
        let (mut lx, mut ly, mut hx, mut hy) = (x, y, x, y);
        if self.count > 0 {
            lx = lx.min(self.min_x);
            ly = ly.min(self.min_y);
            hx = hx.max(self.max_x);
            hy = hy.max(self.max_y);
        }
        let (nx0, ny0) = (lx - GROW, ly - GROW);
        let (nw, nh) = (hx - lx + 1 + 2 * GROW, hy - ly + 1 + 2 * GROW);
        let mut cells = vec![0u8; (nw * nh) as usize];
        for bt in self.tiles() {
            cells[((bt.y - ny0) * nw + (bt.x - nx0)) as usize] = bt.tile.index() as u8 + 1;
        }
        self.x0 = nx0;
        self.y0 = ny0;
        self.w = nw;
        self.h = nh;
        self.cells = cells;
    }

    /// The run of tiles starting next to `(x, y)` in direction `(dx, dy)` (not including
    /// `(x, y)` itself), as a line.
    #[inline]
    pub fn run(&self, x: i32, y: i32, dx: i32, dy: i32) -> Line {
        let mut line = Line::EMPTY;
        let (mut cx, mut cy) = (x + dx, y + dy);
        while let Some(t) = self.get(cx, cy) {
            line = line.with(t);
            cx += dx;
            cy += dy;
        }
        line
    }

    /// The line through the empty or occupied cell `(x, y)` along `(dx, dy)`, made of the
    /// runs on both sides (the cell itself excluded).
    #[inline]
    pub fn line_around(&self, x: i32, y: i32, dx: i32, dy: i32) -> Line {
        let a = self.run(x, y, dx, dy);
        a.union(self.run(x, y, -dx, -dy))
    }
}

/// The board's dense grid, read directly by the placement search (no coordinate checks):
/// cell `(x, y)` is at [`Grid::index`]; the grid keeps [`MARGIN`] empty cells around every
/// tile, so a walk from a cell within `MARGIN - 1` of the tiles stops at an empty cell
/// before leaving it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Grid<'a> {
    cells: &'a [u8],
    x0: i32,
    y0: i32,
    /// Cells per row (the step from a cell to the one below).
    pub(crate) width: isize,
}

impl Grid<'_> {
    /// The index of cell `(x, y)` (inside the grid: within `MARGIN` of the tiles).
    #[inline]
    pub(crate) fn index(&self, x: i32, y: i32) -> usize {
        ((y - self.y0) as isize * self.width + (x - self.x0) as isize) as usize
    }

    /// The tile at an index.
    #[inline]
    pub(crate) fn tile(&self, i: usize) -> Option<Tile> {
        let v = self.cells[i];
        (v != 0).then(|| Tile::from_index(v as usize - 1))
    }

    /// The run of tiles from the cell after `i` in steps of `step` (the cell `i` excluded).
    #[inline]
    pub(crate) fn run(&self, i: usize, step: isize) -> Line {
        let mut line = Line::EMPTY;
        let mut j = i.wrapping_add_signed(step);
        loop {
            let v = self.cells[j];
            if v == 0 {
                return line;
            }
            line = line.with(Tile::from_index(v as usize - 1));
            j = j.wrapping_add_signed(step);
        }
    }
}

impl Board {
    /// The dense grid (see [`Grid`]).
    pub(crate) fn grid(&self) -> Grid<'_> {
        Grid {
            cells: &self.cells,
            x0: self.x0,
            y0: self.y0,
            width: self.w as isize,
        }
    }
}

impl Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.tiles())
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<BoardTile>::deserialize(d)?;
        let mut b = Board::new();
        for bt in v {
            if bt.x.abs() > COORD_LIMIT || bt.y.abs() > COORD_LIMIT {
                return Err(serde::de::Error::custom(format!(
                    "cell ({}, {}) is out of range ±{COORD_LIMIT}",
                    bt.x, bt.y
                )));
            }
            if b.occupied(bt.x, bt.y) {
                return Err(serde::de::Error::custom(format!(
                    "cell ({}, {}) given twice",
                    bt.x, bt.y
                )));
            }
            b.place(bt.x, bt.y, bt.tile);
        }
        Ok(b)
    }
}
