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
use rand::Rng;
use rand::seq::SliceRandom;
use tessera_core::GameRng;

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

/// Points of a line of `len` tiles (0 for a lone tile, 12 for a Qwirkle).
#[inline]
const fn line_points(len: u8) -> i32 {
    match len {
        0 | 1 => 0,
        6 => 12,
        n => n as i32,
    }
}

/// One cell of the line being scanned by [`best_placement`].
#[derive(Copy, Clone, Debug, Default)]
struct LineCell {
    /// The tile there, if any.
    tile: Option<Tile>,
    /// For an empty cell: the crossing line (perpendicular to the scan).
    cross: Line,
    /// For an empty cell: an orthogonal neighbour holds a tile.
    touches: bool,
    /// Empty cells from this one on (this one included) up to the first that touches the
    /// board (`u8::MAX`: none).
    reach: u8,
    /// For an empty cell: the distinct hand tiles (bits by their index in the hand's
    /// distinct tiles) that fit its crossing line.
    fit: u8,
    /// The run of tiles just before this cell (along the scan).
    before: Line,
    /// The run of tiles just after this cell (along the scan).
    after: Line,
}

/// A start cell of [`best_placement`]'s generation with everything its placements need.
///
/// From a start cell the `k`-th placed tile always lands on the `k`-th empty cell along the
/// line (the existing tiles between are stepped over), so the score of a placement of `j`
/// tiles depends only on `j`, not on which tiles: the main line's length and the crossing
/// lines' lengths are fixed by the board. Only whether some hand tiles fit depends on the
/// hand.
#[derive(Copy, Clone, Debug, Default)]
struct Start {
    /// The run of tiles before the start cell.
    before: Line,
    /// Usable empty cells (at most the hand's size).
    k: u8,
    /// The empty cells.
    cells: [(i8, i8); HAND_SIZE],
    /// Their crossing lines.
    cross: [Line; HAND_SIZE],
    /// The runs of tiles stepped over after each.
    after: [Line; HAND_SIZE],
    /// The distinct hand tiles fitting each cell's crossing line (bits).
    fit: [u8; HAND_SIZE],
    /// The tiles already on the main line of a placement of `j + 1` tiles (the run before
    /// the start and the runs stepped over).
    span: [Line; HAND_SIZE],
    /// The score of a placement of `j + 1` tiles (0: none can be emitted at that size: the
    /// placement would not touch the board or is too short for the pass).
    score: [u8; HAND_SIZE],
}

/// Reusable scratch space of [`best_placement`] (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub struct BestScratch {
    line: Vec<LineCell>,
    starts: Vec<Start>,
    /// (start, size - 1, score) of every placement size that can score, in generation
    /// order, and sorted by score.
    entries: Vec<(u32, u8, u8)>,
    sorted: Vec<(u32, u8, u8)>,
    all: Vec<Scored>,
    /// When set, [`best_placement`] breaks ties between the best-scoring start cells (and
    /// sizes) at random with this generator instead of taking the first in generation
    /// order ([`BestScratch::break_ties`]).
    tie: Option<GameRng>,
    /// Whether the play-outs of `seer` and `sage` (`crate::mc`) break ties at random, each
    /// candidate's play-out in a world from the same seed (their `ties` setting).
    pub(crate) play_out_ties: bool,
}

impl BestScratch {
    /// Empty scratch space.
    pub fn new() -> Self {
        BestScratch::default()
    }

    /// From now on [`best_placement`] picks, among the start cells (with their sizes) whose
    /// placements score the most, one uniformly at random with `rng`, and that start's first
    /// placement of the score in generation order (so the tiles are chosen as before, the
    /// cells at random: a policy that breaks ties at random, as `points` does, modelled per
    /// start cell rather than per placement). `None`: the first best placement in generation
    /// order again, exactly as [`placements`] lists it.
    pub fn break_ties(&mut self, rng: Option<GameRng>) {
        self.tie = rng;
    }
}

/// The placement [`placements`] would list first among those with the most points, with
/// its score; `None` when there is none.
///
/// It gives exactly the same placement as generating every placement and keeping the first
/// strict maximum in generation order (the `points` policy of the play-outs), without
/// generating them: every placement from a start cell with `j` tiles scores the same (see
/// `Start`), so the scores of all (start, size) pairs are known from the board alone, and
/// only the pairs with the best score are searched for hand tiles that fit, the first start
/// cell in generation order first, its tiles in the generator's order. Tested against the
/// full generator on many positions.
pub fn best_placement(
    board: &Board,
    hand: &[Tile],
    first: Option<u8>,
    scratch: &mut BestScratch,
) -> Option<Scored> {
    let hand_len = hand.len().min(HAND_SIZE);
    if hand_len == 0 {
        return None;
    }
    let Some((min_x, min_y, max_x, max_y)) = board.bounds() else {
        // The first move: every placement is a line of the required size from (0, 0).
        let mut all = std::mem::take(&mut scratch.all);
        placements(board, hand, first, &mut all);
        let mut best: Option<Scored> = None;
        let mut tied = 0u32;
        for c in &all {
            if best.is_none_or(|b| c.score > b.score) {
                best = Some(*c);
                tied = 1;
            } else if let (Some(b), Some(rng)) = (best, scratch.tie.as_mut())
                && c.score == b.score
            {
                tied += 1;
                if rng.random_range(0..tied) == 0 {
                    best = Some(*c);
                }
            }
        }
        scratch.all = all;
        return best;
    };
    let (counts, distinct) = hand_counts(hand);
    let all_fit = ((1u16 << distinct.len()) - 1) as u8;
    let grid = board.grid();
    let h = hand_len as i32;
    scratch.starts.clear();
    scratch.entries.clear();
    let mut per_score = [0u32; 128];
    // Rows, then columns (at least two tiles: single tiles come with the rows).
    for vertical in [false, true] {
        if vertical && hand_len < 2 {
            break;
        }
        let min_len = if vertical { 2 } else { 1 };
        let (lines, along_lo, along_hi) = if vertical {
            (min_x - 1..=max_x + 1, min_y, max_y)
        } else {
            (min_y - 1..=max_y + 1, min_x, max_x)
        };
        for fixed in lines {
            // The cells from the leftmost possible start to the last a walk can reach.
            let lo = along_lo - h;
            let hi = along_hi + h;
            let at = |v: i32| if vertical { (fixed, v) } else { (v, fixed) };
            scratch.line.clear();
            // The grid's cells along the line (`along` apart) and across it (`across`).
            let (gx, gy) = at(lo);
            let mut idx = grid.index(gx, gy);
            let (along, across) = if vertical {
                (grid.width, 1)
            } else {
                (1, grid.width)
            };
            let mut run = Line::EMPTY;
            for _ in lo..=hi {
                let tile = grid.tile(idx);
                let mut cell = LineCell {
                    tile,
                    before: run,
                    ..LineCell::default()
                };
                if tile.is_none() {
                    cell.cross = grid.run(idx, across).union(grid.run(idx, -across));
                    if cell.cross.len > 0 {
                        for (d, &t) in distinct.iter().enumerate() {
                            if cell.cross.with(t).is_valid() {
                                cell.fit |= 1 << d;
                            }
                        }
                    } else {
                        cell.fit = all_fit;
                    }
                }
                run = match tile {
                    Some(t) => run.with(t),
                    None => Line::EMPTY,
                };
                scratch.line.push(cell);
                idx = idx.wrapping_add_signed(along);
            }
            let mut run = Line::EMPTY;
            let mut reach = u8::MAX;
            for cell in scratch.line.iter_mut().rev() {
                cell.after = run;
                if cell.tile.is_none() {
                    // A neighbour across the line, or just before or after along it.
                    cell.touches = cell.cross.len > 0 || cell.before.len > 0 || run.len > 0;
                    reach = if cell.touches {
                        1
                    } else {
                        reach.saturating_add(1)
                    };
                }
                cell.reach = reach;
                run = match cell.tile {
                    Some(t) => run.with(t),
                    None => Line::EMPTY,
                };
            }
            // Start cells: the same range as the generator's.
            for s in 0..=(along_hi + 1 - lo) as usize {
                let c0 = &scratch.line[s];
                if c0.tile.is_some() || c0.reach as usize > hand_len {
                    continue;
                }
                let mut st = Start {
                    before: c0.before,
                    ..Start::default()
                };
                let mut main_len = c0.before.len;
                let mut span = c0.before;
                let mut cross_sum = 0;
                let mut touched = false;
                let mut i = s;
                let mut any = false;
                while (st.k as usize) < hand_len && i < scratch.line.len() {
                    let c = &scratch.line[i];
                    main_len += 1 + c.after.len;
                    if c.fit == 0 || main_len > 6 {
                        break;
                    }
                    let k = st.k as usize;
                    let (x, y) = at(lo + i as i32);
                    st.cells[k] = (x as i8, y as i8);
                    st.cross[k] = c.cross;
                    st.after[k] = c.after;
                    st.fit[k] = c.fit;
                    span = span.union(c.after);
                    st.span[k] = span;
                    touched |= c.touches;
                    cross_sum += line_points(c.cross.len + 1);
                    if touched && k + 1 >= min_len {
                        let score = (line_points(main_len) + cross_sum).max(1);
                        st.score[k] = score as u8;
                        per_score[score as usize] += 1;
                        scratch
                            .entries
                            .push((scratch.starts.len() as u32, k as u8, score as u8));
                        any = true;
                    }
                    st.k += 1;
                    i += c.after.len as usize + 1;
                }
                if any {
                    scratch.starts.push(st);
                }
            }
        }
    }
    let mut search = Search {
        counts,
        distinct: distinct.clone(),
        stack: [Placed::default(); HAND_SIZE],
        want: 0,
    };
    // The tiles of each colour and each shape among the hand's distinct tiles (bits).
    let mut groups = [0u8; 12];
    for (d, t) in distinct.iter().enumerate() {
        groups[t.color() as usize] |= 1 << d;
        groups[6 + t.shape() as usize] |= 1 << d;
    }
    // The (start, size) pairs by score, best first, in generation order within a score
    // (a counting sort).
    let mut at = [0u32; 128];
    let mut next = 0;
    for score in (0..128).rev() {
        at[score] = next;
        next += per_score[score];
    }
    scratch.sorted.clear();
    scratch.sorted.resize(scratch.entries.len(), (0, 0, 0));
    for &e in &scratch.entries {
        let slot = &mut at[e.2 as usize];
        scratch.sorted[*slot as usize] = e;
        *slot += 1;
    }
    // With ties broken at random: the level (score) of the first start that can be filled,
    // the starts of that level filled so far, and the one kept (reservoir sampling).
    let mut level: Option<u8> = None;
    let mut tied = 0u32;
    let mut chosen: Option<Scored> = None;
    let mut i = 0;
    while i < scratch.sorted.len() {
        // The pairs of one start with one score (consecutive).
        let (start, _, want) = scratch.sorted[i];
        if level.is_some_and(|l| want != l) {
            break;
        }
        let mut end = i;
        let mut feasible = false;
        let st = &scratch.starts[start as usize];
        while end < scratch.sorted.len()
            && scratch.sorted[end].0 == start
            && scratch.sorted[end].2 == want
        {
            let j = scratch.sorted[end].1 as usize;
            if !feasible && can_fill(st, j, &distinct, &groups) {
                feasible = true;
            }
            end += 1;
        }
        if feasible {
            search.want = want;
            let deepest = scratch.sorted[end - 1].1 as usize;
            if let Some(n) = search.dfs(st, 0, st.before, deepest) {
                let found = Scored {
                    placement: Placement::new(&search.stack[..n])?,
                    score: i32::from(want),
                };
                let Some(rng) = scratch.tie.as_mut() else {
                    return Some(found);
                };
                level = Some(want);
                tied += 1;
                if rng.random_range(0..tied) == 0 {
                    chosen = Some(found);
                }
            }
        }
        i = end;
    }
    chosen
}

/// True if some distinct hand tiles fill the start's first `j + 1` empty cells legally:
/// they and the tiles already on the main line share a colour (distinct shapes) or a shape
/// (distinct colours), and every cell gets a tile fitting its crossing line, each tile once
/// (Hall's condition on the cells and the tiles that fit them).
fn can_fill(st: &Start, j: usize, distinct: &[Tile], groups: &[u8; 12]) -> bool {
    let e = st.span[j];
    let cells = j + 1;
    if e.len == 0 && cells == 1 {
        return st.fit[0] != 0;
    }
    for (g, &group) in groups.iter().enumerate() {
        if group.count_ones() < cells as u32 {
            continue;
        }
        // The line's kind: colour `g` (shapes distinct) or shape `g - 6` (colours distinct).
        let (same, other) = if g < 6 {
            (e.colors_mask(), e.shapes_mask())
        } else {
            (e.shapes_mask(), e.colors_mask())
        };
        let kind = (g % 6) as u8;
        if e.len > 0 && (same != 1 << kind || other.count_ones() != u32::from(e.len)) {
            continue;
        }
        // Hand tiles of this kind not repeating a tile of the line.
        let mut cand = 0u8;
        for (d, t) in distinct.iter().enumerate() {
            let attr = if g < 6 { t.shape() } else { t.color() };
            if group & (1 << d) != 0 && other & (1 << attr) == 0 {
                cand |= 1 << d;
            }
        }
        if (cand.count_ones() as usize) < cells {
            continue;
        }
        // Hall: every set of cells is fitted by at least as many distinct tiles.
        let mut union = [0u8; 1 << HAND_SIZE];
        let mut ok = true;
        for set in 1usize..(1 << cells) {
            let low = set.trailing_zeros() as usize;
            union[set] = union[set & (set - 1)] | (st.fit[low] & cand);
            if union[set].count_ones() < set.count_ones() {
                ok = false;
                break;
            }
        }
        if ok {
            return true;
        }
    }
    false
}

/// The tile search of [`best_placement`] from one start cell.
struct Search {
    counts: [u8; TILE_TYPES],
    distinct: ArrayVec<Tile, HAND_SIZE>,
    stack: [Placed; HAND_SIZE],
    /// The score looked for.
    want: u8,
}

impl Search {
    /// Places the `k`-th tile on the start's `k`-th empty cell, in the generator's order;
    /// returns the number of tiles of the first placement scoring `want` (left on the
    /// stack), not going deeper than `deepest` (the last size scoring `want`).
    fn dfs(&mut self, st: &Start, k: usize, line: Line, deepest: usize) -> Option<usize> {
        for i in 0..self.distinct.len() {
            let t = self.distinct[i];
            if self.counts[t.index()] == 0 {
                continue;
            }
            let l2 = line.with(t);
            if !l2.is_valid() || !st.cross[k].with(t).is_valid() {
                continue;
            }
            let l3 = l2.union(st.after[k]);
            if !l3.is_valid() {
                continue;
            }
            let (x, y) = st.cells[k];
            self.stack[k] = Placed { x, y, tile: t };
            if st.score[k] == self.want {
                return Some(k + 1);
            }
            if k < deepest {
                self.counts[t.index()] -= 1;
                let found = self.dfs(st, k + 1, l3, deepest);
                self.counts[t.index()] += 1;
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }
}

/// Orders placements best first by immediate points, exact ties in random order (shuffled
/// from `rng` first): the candidates of `lookahead`, `montecarlo`, `seer` and `sage`.
pub(crate) fn rank_by_points(placements: &mut [Scored], rng: &mut GameRng) {
    placements.shuffle(rng);
    placements.sort_by_key(|s| std::cmp::Reverse(s.score));
}
