//! The complete placement generator.
//!
//! Every legal placement of a hand on a board is produced exactly once, with its score. The
//! search runs once along rows and once along columns. For a row it tries every empty cell
//! that can be the leftmost placed tile, places a hand tile there, steps over the existing
//! tiles to its right (gap filling), and either stops (emitting the placement if it touches
//! the board) or places the next tile at the next empty cell. Three facts keep it exact and
//! fast:
//! - line validity is monotone (a line containing an invalid line is invalid), so a branch is
//!   cut as soon as the line being built or a crossing line breaks;
//! - a placement is identified by its leftmost cell and its tile sequence, and the search
//!   branches over *distinct* hand tiles, so no placement comes twice even with duplicate
//!   tiles in hand; single tiles are produced only by the row pass;
//! - a start cell is skipped when more empty cells than hand tiles lie before the first cell
//!   touching the board.
//!
//! The first move of the game (empty board) places a line of the size the first-move rule
//! demands on row 0 from cell `(0, 0)` to the right.

use arrayvec::ArrayVec;

use crate::action::{HAND_SIZE, Placed, Placement};
use crate::board::Board;
use crate::tile::{Line, TILE_TYPES, Tile};

/// A placement with the points it scores.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scored {
    /// The placement.
    pub placement: Placement,
    /// Points it scores (lines, Qwirkle bonuses; not the end-of-game bonus).
    pub score: i32,
}

struct Ctx<'a> {
    board: &'a Board,
    counts: [u8; TILE_TYPES],
    distinct: ArrayVec<Tile, HAND_SIZE>,
    hand_len: usize,
    dx: i32,
    dy: i32,
    min_len: usize,
    stack: [Placed; HAND_SIZE],
    n: usize,
    cross_points: i32,
    out: &'a mut Vec<Scored>,
}

impl Ctx<'_> {
    /// Places a tile on the empty cell `(x, y)`; `line` is the line so far (the run before
    /// this cell plus everything placed or stepped over).
    fn dfs(&mut self, x: i32, y: i32, line: Line, touched: bool) {
        let (dx, dy) = (self.dx, self.dy);
        // The crossing line at this cell (perpendicular to the placement).
        let cross = self.board.line_around(x, y, dy, dx);
        let touched = touched || self.board.has_neighbor(x, y);
        for i in 0..self.distinct.len() {
            let t = self.distinct[i];
            if self.counts[t.index()] == 0 {
                continue;
            }
            let l2 = line.with(t);
            if !l2.is_valid() {
                continue;
            }
            let c2 = cross.with(t);
            if !c2.is_valid() {
                continue;
            }
            self.counts[t.index()] -= 1;
            self.stack[self.n] = Placed {
                x: x as i8,
                y: y as i8,
                tile: t,
            };
            self.n += 1;
            let cp = c2.points();
            self.cross_points += cp;
            // Step over the existing tiles after this cell.
            let (mut ex, mut ey) = (x + dx, y + dy);
            let mut l3 = l2;
            while let Some(u) = self.board.get(ex, ey) {
                l3 = l3.with(u);
                ex += dx;
                ey += dy;
            }
            if l3.is_valid() {
                if touched && self.n >= self.min_len {
                    let main = if l3.len >= 2 { l3.points() } else { 0 };
                    let score = (main + self.cross_points).max(1);
                    if let Some(placement) = Placement::new(&self.stack[..self.n]) {
                        self.out.push(Scored { placement, score });
                    }
                }
                if self.n < self.hand_len {
                    self.dfs(ex, ey, l3, touched);
                }
            }
            self.cross_points -= cp;
            self.n -= 1;
            self.counts[t.index()] += 1;
        }
    }

    /// True if, from `(x, y)` along the direction, a cell touching the board is reached
    /// within `hand_len` empty cells.
    fn can_touch(&self, x: i32, y: i32) -> bool {
        let (mut cx, mut cy) = (x, y);
        let mut empties = 0;
        loop {
            if !self.board.occupied(cx, cy) {
                empties += 1;
                if empties > self.hand_len {
                    return false;
                }
                if self.board.has_neighbor(cx, cy) {
                    return true;
                }
            }
            cx += self.dx;
            cy += self.dy;
        }
    }
}

fn hand_counts(hand: &[Tile]) -> ([u8; TILE_TYPES], ArrayVec<Tile, HAND_SIZE>) {
    let mut counts = [0u8; TILE_TYPES];
    let mut distinct = ArrayVec::new();
    for &t in hand.iter().take(HAND_SIZE) {
        if counts[t.index()] == 0 {
            distinct.push(t);
        }
        counts[t.index()] += 1;
    }
    (counts, distinct)
}

/// The size of the largest group of hand tiles sharing a colour or a shape, duplicates not
/// counted (the first-move rule).
///
/// ```
/// use tessera_qwirkle::{movegen::largest_group, Tile};
/// let hand: Vec<Tile> = ["R1", "R2", "R2", "O1", "Y1", "B5"].iter().map(|s| s.parse().unwrap()).collect();
/// assert_eq!(largest_group(&hand), 3); // circles R1 O1 Y1 (reds: R1 R2 count 2)
/// ```
pub fn largest_group(hand: &[Tile]) -> usize {
    let mut by_color = [0u8; 6];
    let mut by_shape = [0u8; 6];
    let mut seen = [false; TILE_TYPES];
    for &t in hand {
        if !std::mem::replace(&mut seen[t.index()], true) {
            by_color[t.color() as usize] += 1;
            by_shape[t.shape() as usize] += 1;
        }
    }
    by_color.iter().chain(&by_shape).copied().max().unwrap_or(0) as usize
}

/// Writes every legal placement of `hand` on `board` into `out` (cleared first), each once,
/// with its score.
///
/// `first` is the first-move rule's demand: `Some(k)` on the first move of the game (the
/// board is empty) requires a line of exactly `k` tiles on row 0 from `(0, 0)` rightwards;
/// `None` otherwise. On an empty board with `first == None` (a free first move, used by
/// tests and analysis) any line of 1-6 tiles starting at `(0, 0)` rightwards is produced.
pub fn placements(board: &Board, hand: &[Tile], first: Option<u8>, out: &mut Vec<Scored>) {
    out.clear();
    let (counts, distinct) = hand_counts(hand);
    let hand_len = hand.len().min(HAND_SIZE);
    if hand_len == 0 {
        return;
    }
    let mut ctx = Ctx {
        board,
        counts,
        distinct,
        hand_len,
        dx: 1,
        dy: 0,
        min_len: 1,
        stack: [Placed::default(); HAND_SIZE],
        n: 0,
        cross_points: 0,
        out,
    };
    let Some((min_x, min_y, max_x, max_y)) = board.bounds() else {
        first_move(&mut ctx, first.map(|k| k as usize));
        return;
    };
    let h = hand_len as i32;
    // Rows: leftmost placed tile between min_x - h and max_x + 1.
    for y in min_y - 1..=max_y + 1 {
        for x in min_x - h..=max_x + 1 {
            if board.occupied(x, y) || !ctx.can_touch(x, y) {
                continue;
            }
            let before = board.run(x, y, -1, 0);
            ctx.dfs(x, y, before, false);
        }
    }
    // Columns: at least two tiles (single tiles came with the rows).
    if hand_len >= 2 {
        ctx.dx = 0;
        ctx.dy = 1;
        ctx.min_len = 2;
        for x in min_x - 1..=max_x + 1 {
            for y in min_y - h..=max_y + 1 {
                if board.occupied(x, y) || !ctx.can_touch(x, y) {
                    continue;
                }
                let before = board.run(x, y, 0, -1);
                ctx.dfs(x, y, before, false);
            }
        }
    }
}

fn first_move(ctx: &mut Ctx<'_>, k: Option<usize>) {
    fn rec(ctx: &mut Ctx<'_>, line: Line, want: Option<usize>) {
        for i in 0..ctx.distinct.len() {
            let t = ctx.distinct[i];
            if ctx.counts[t.index()] == 0 {
                continue;
            }
            let l2 = line.with(t);
            if !l2.is_valid() {
                continue;
            }
            ctx.counts[t.index()] -= 1;
            ctx.stack[ctx.n] = Placed {
                x: ctx.n as i8,
                y: 0,
                tile: t,
            };
            ctx.n += 1;
            if want.is_none_or(|k| k == ctx.n)
                && let Some(placement) = Placement::new(&ctx.stack[..ctx.n])
            {
                ctx.out.push(Scored {
                    placement,
                    score: l2.points().max(1),
                });
            }
            if want.is_none_or(|k| ctx.n < k) && ctx.n < ctx.hand_len {
                rec(ctx, l2, want);
            }
            ctx.n -= 1;
            ctx.counts[t.index()] += 1;
        }
    }
    rec(ctx, Line::EMPTY, k);
}

/// True if some tile of `hand` can be placed on `board` (after the first move). Any legal
/// placement contains a single tile that is legal alone, so this decides whether a player
/// can place at all.
pub fn can_place(board: &Board, hand: &[Tile]) -> bool {
    if hand.is_empty() {
        return false;
    }
    let Some((min_x, min_y, max_x, max_y)) = board.bounds() else {
        return true;
    };
    for y in min_y - 1..=max_y + 1 {
        for x in min_x - 1..=max_x + 1 {
            if board.occupied(x, y) || !board.has_neighbor(x, y) {
                continue;
            }
            let h = board.line_around(x, y, 1, 0);
            let v = board.line_around(x, y, 0, 1);
            if hand
                .iter()
                .any(|&t| h.with(t).is_valid() && v.with(t).is_valid())
            {
                return true;
            }
        }
    }
    false
}

/// Scores a placement already known to be legal on `board` (before it is placed).
pub fn score_placement(board: &Board, p: &Placement) -> i32 {
    let cells = p.cells();
    let horizontal = cells.len() < 2 || cells[0].y == cells[1].y;
    let (dx, dy) = if horizontal { (1, 0) } else { (0, 1) };
    let mut total = 0;
    // Main line: the run through all placed tiles.
    let first = cells[0];
    let mut main = board
        .run(first.x as i32, first.y as i32, -dx, -dy)
        .with(first.tile);
    let (mut cx, mut cy) = (first.x as i32 + dx, first.y as i32 + dy);
    let mut k = 1;
    loop {
        if k < cells.len() && (cells[k].x as i32, cells[k].y as i32) == (cx, cy) {
            main = main.with(cells[k].tile);
            k += 1;
        } else if let Some(t) = board.get(cx, cy) {
            main = main.with(t);
        } else {
            break;
        }
        cx += dx;
        cy += dy;
    }
    total += main.points();
    for c in cells {
        total += board
            .line_around(c.x as i32, c.y as i32, dy, dx)
            .with(c.tile)
            .points();
    }
    total.max(1)
}
