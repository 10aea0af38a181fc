//! The dynamic program over pictures (thesis sections 3.1.3 and 3.2.2), blocked and parallel.
//!
//! For a start picture P0 with m empty cells, every picture between P0 and the full wall is
//! P0 plus a subset x of the m empty cells. The best (worst) score to reach P0 + x is the best
//! (worst) over the cells c of x of `score(P0 + x - c) + points(c placed on P0 + x - c)`. The
//! points of a tile depend only on the picture it joins, so every optimal order has an optimal
//! prefix: an order is optimal exactly when every one of its steps is *tight* (the step's
//! points equal the difference of the best scores of its two pictures).
//!
//! Two passes:
//! 1. Forward, all 2^m pictures: the best and the worst score of each (one `[u8; 2]` per
//!    picture, indexed by x itself: no score exceeds 150), 64 MiB for a 5x5 wall. The m bits
//!    of x are split into high bits (at most [`HIGH_BITS`]) naming a *block* and low bits
//!    naming the entry inside it. An entry's predecessors (x minus one bit) lie in its own
//!    block at a smaller index, or at the same index of a block whose high part has one bit
//!    fewer. So blocks are computed group by group (by the number of high bits set), the
//!    blocks of a group in parallel (rayon), each block in increasing order. Every read is
//!    then either inside the block being written (256 KiB, in cache) or one of at most
//!    [`HIGH_BITS`] sequential streams through finished blocks, which the prefetcher follows.
//! 2. Backward, only the pictures on some optimal order: starting from the full wall, follow
//!    tight steps back and add up the number of tight orders from each picture to the full
//!    wall. The count of the empty start is the number of optimal orders. Counts are u128: a
//!    picture with j empty cells has at most j! <= 25! < 2^84 orders to the full wall, so no
//!    overflow is possible.
//!
//! An earlier version indexed each layer (pictures with k added tiles) by colex rank; its
//! predecessor reads jumped across a 10 MB layer and it was about twice as slow.

use rayon::prelude::*;

use super::grid::{Picture, TilingOrder};

/// Best or worst completion: its score and the number of orders reaching it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Extreme {
    /// The score of the completion (without end-of-game bonuses).
    pub score: u32,
    /// The exact number of orders of the empty cells reaching that score.
    pub count: u128,
}

/// The result of the dynamic program from a start picture to the full wall.
pub struct WallDp {
    start: Picture,
    /// The empty cells of `start`, ascending: bit j of a subset x stands for `free[j]`.
    free: Vec<u8>,
    /// How many low bits of x index inside a block.
    low_bits: usize,
    /// `blocks[x >> low_bits][x & low_mask]`: the best and the worst score from `start` to
    /// `start + x`.
    blocks: Vec<Vec<[u8; 2]>>,
    best: Extreme,
    worst: Extreme,
}

/// At most this many high bits of a subset name its block: 2^8 blocks for a 5x5 wall, so the
/// groups of blocks (1, 8, 28, 56, 70, ...) keep both cores busy.
pub const HIGH_BITS: usize = 8;

/// At least this many low bits index inside a block (2^17 entries, 256 KiB).
const LOW_BITS: usize = 17;

/// Per-side lookup tables giving, for a whole picture at once, the points each of its tiles
/// would score if it were the last one placed.
///
/// A tile with horizontal run h and vertical run v scores h if v = 1, v if h = 1, h + v
/// otherwise and 1 alone (the thesis' equation (1)): that is `max(1, h' + v')` with
/// `h' = h` if h >= 2 and 0 otherwise (likewise v'). For each row r and row content the
/// table `hor` holds the h' of every tile of the row as bytes at their cell numbers
/// (r * n + c) of a 32-byte vector; `ver` does the same for columns. Adding the n row
/// vectors and the n column vectors of a picture (four u64 additions each, no carries: every
/// byte stays <= 10) gives all its tiles' points.
struct Tables {
    n: usize,
    /// `hor[r * 32 + mask]`: the h' of each tile of row r holding `mask`, at byte r*n + c.
    hor: Vec<[u64; 4]>,
    /// `ver[c * 32 + mask]`: the v' of each tile of column c holding `mask` (bit r = row r),
    /// at byte r*n + c.
    ver: Vec<[u64; 4]>,
    /// `transpose[r * 32 + mask]`: the bits of row r placed as column bits (cell c*n + r).
    transpose: Vec<u32>,
}

/// Length of the run of set bits of `mask` through bit `i` (0 if bit i is clear).
fn run_through(mask: usize, i: usize, n: usize) -> u64 {
    if mask >> i & 1 == 0 {
        return 0;
    }
    let mut len = 1;
    let mut d = i;
    while d > 0 && mask >> (d - 1) & 1 == 1 {
        len += 1;
        d -= 1;
    }
    d = i + 1;
    while d < n && mask >> d & 1 == 1 {
        len += 1;
        d += 1;
    }
    len
}

impl Tables {
    fn new(n: usize) -> Self {
        let mut hor = vec![[0u64; 4]; 32 * 8];
        let mut ver = vec![[0u64; 4]; 32 * 8];
        let mut transpose = vec![0u32; 8 * 32];
        let put = |v: &mut [u64; 4], cell: usize, value: u64| {
            v[cell / 8] |= value << (8 * (cell % 8));
        };
        for line in 0..n {
            for mask in 0..(1usize << n) {
                for i in 0..n {
                    let len = run_through(mask, i, n);
                    let part = if len >= 2 { len } else { 0 };
                    // Row `line`, column i; and column `line`, row i.
                    put(&mut hor[line * 32 + mask], line * n + i, part);
                    put(&mut ver[line * 32 + mask], i * n + line, part);
                    if mask >> i & 1 == 1 {
                        transpose[line * 32 + mask] |= 1 << (i * n + line);
                    }
                }
            }
        }
        Tables {
            n,
            hor,
            ver,
            transpose,
        }
    }

    /// The points each tile of `pic` would score if placed last, by cell (meaningful for the
    /// cells `pic` covers).
    #[inline(always)]
    fn cell_points_n<const N: usize>(&self, pic: u32) -> [u8; 32] {
        let mask = (1u32 << N) - 1;
        let mut acc = [0u64; 4];
        let mut t = 0u32;
        for r in 0..N {
            let row = (pic >> (r * N) & mask) as usize;
            let h = &self.hor[r * 32 + row];
            for (a, b) in acc.iter_mut().zip(h) {
                *a += b;
            }
            t |= self.transpose[r * 32 + row];
        }
        for c in 0..N {
            let col = (t >> (c * N) & mask) as usize;
            let v = &self.ver[c * 32 + col];
            for (a, b) in acc.iter_mut().zip(v) {
                *a += b;
            }
        }
        let mut out = [0u8; 32];
        for (chunk, a) in out.chunks_exact_mut(8).zip(acc) {
            chunk.copy_from_slice(&a.to_le_bytes());
        }
        out
    }

    /// [`Tables::cell_points_n`] for the side known at run time.
    fn cell_points(&self, pic: u32) -> [u8; 32] {
        match self.n {
            1 => self.cell_points_n::<1>(pic),
            2 => self.cell_points_n::<2>(pic),
            3 => self.cell_points_n::<3>(pic),
            4 => self.cell_points_n::<4>(pic),
            _ => self.cell_points_n::<5>(pic),
        }
    }
}

/// Maps a subset of the free cells (bit j = `free[j]`) to the cells it covers, by bytes.
struct Deposit {
    parts: [[u32; 256]; 4],
}

impl Deposit {
    fn new(free: &[u8]) -> Self {
        let mut parts = [[0u32; 256]; 4];
        for (p, part) in parts.iter_mut().enumerate() {
            for (byte, out) in part.iter_mut().enumerate() {
                for bit in 0..8 {
                    let j = p * 8 + bit;
                    if byte >> bit & 1 == 1 && j < free.len() {
                        *out |= 1 << free[j];
                    }
                }
            }
        }
        Deposit { parts }
    }

    #[inline(always)]
    fn map(&self, x: u64) -> u32 {
        self.parts[0][(x & 0xff) as usize]
            | self.parts[1][(x >> 8 & 0xff) as usize]
            | self.parts[2][(x >> 16 & 0xff) as usize]
            | self.parts[3][(x >> 24 & 0xff) as usize]
    }
}

impl WallDp {
    /// Runs the dynamic program from `start` to the full wall, on all threads of the current
    /// rayon pool.
    pub fn solve(start: Picture) -> WallDp {
        let n = start.side();
        let free: Vec<u8> = (0..(n * n) as u8)
            .filter(|&c| start.bits() >> c & 1 == 0)
            .collect();
        let m = free.len();
        let tables = Tables::new(n);
        let deposit = Deposit::new(&free);
        let low_bits = m.min(LOW_BITS.max(m.saturating_sub(HIGH_BITS)));
        let high_bits = m - low_bits;
        let ctx = Ctx {
            tables: &tables,
            deposit: &deposit,
            cell: std::array::from_fn(|j| free.get(j).map_or(0, |&c| c as usize)),
            base: start.bits(),
            low_bits,
        };
        let mut blocks: Vec<Vec<[u8; 2]>> = vec![Vec::new(); 1 << high_bits];
        for ones in 0..=high_bits as u32 {
            let group: Vec<usize> = (0..blocks.len())
                .filter(|h| h.count_ones() == ones)
                .collect();
            let done: Vec<(usize, Vec<[u8; 2]>)> = group
                .par_iter()
                .map(|&h| {
                    let out = match n {
                        1 => ctx.block::<1>(h, &blocks),
                        2 => ctx.block::<2>(h, &blocks),
                        3 => ctx.block::<3>(h, &blocks),
                        4 => ctx.block::<4>(h, &blocks),
                        _ => ctx.block::<5>(h, &blocks),
                    };
                    (h, out)
                })
                .collect();
            for (h, out) in done {
                blocks[h] = out;
            }
        }
        let mut dp = WallDp {
            start,
            free,
            low_bits,
            blocks,
            best: Extreme { score: 0, count: 0 },
            worst: Extreme { score: 0, count: 0 },
        };
        let full: u64 = if m == 0 { 0 } else { (1u64 << m) - 1 };
        let [best_count, worst_count] = [0, 1].map(|side| ctx.count_tight(m, &dp, side));
        let [hi, lo] = dp.get(full);
        dp.best = Extreme {
            score: hi as u32,
            count: best_count,
        };
        dp.worst = Extreme {
            score: lo as u32,
            count: worst_count,
        };
        dp
    }

    /// The stored best and worst score of the subset x of the free cells.
    #[inline(always)]
    fn get(&self, x: u64) -> [u8; 2] {
        let low = x & ((1u64 << self.low_bits) - 1);
        self.blocks[(x >> self.low_bits) as usize][low as usize]
    }

    /// The picture the program started from.
    pub fn start(&self) -> Picture {
        self.start
    }

    /// The best completion score and the number of orders reaching it.
    pub fn best(&self) -> Extreme {
        self.best
    }

    /// The worst completion score and the number of orders reaching it.
    pub fn worst(&self) -> Extreme {
        self.worst
    }

    /// The best (worst if `best` is false) score to reach `start + cells` from the start,
    /// `None` if `pic` does not contain the start picture or has another side.
    pub fn score_of(&self, pic: Picture, best: bool) -> Option<u32> {
        if pic.side() != self.start.side() || pic.bits() & self.start.bits() != self.start.bits() {
            return None;
        }
        let x = self.subset_of(pic.bits());
        Some(self.get(x)[usize::from(!best)] as u32)
    }

    fn subset_of(&self, bits: u32) -> u64 {
        let mut x = 0u64;
        for (j, &cell) in self.free.iter().enumerate() {
            if bits >> cell & 1 == 1 {
                x |= 1 << j;
            }
        }
        x
    }

    /// One order reaching the best (worst if `best` is false) score, traced back from the
    /// full wall through the stored scores.
    pub fn example_order(&self, best: bool) -> TilingOrder {
        let n = self.start.side();
        let tables = Tables::new(n);
        let m = self.free.len();
        let side = usize::from(!best);
        let mut x: u64 = if m == 0 { 0 } else { (1u64 << m) - 1 };
        let mut reversed = Vec::with_capacity(m);
        while x != 0 {
            let pic = self.start.bits() | self.cells_of(x);
            let target = self.get(x)[side];
            let points = tables.cell_points(pic);
            let mut chosen = None;
            let mut rest = x;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let pts = points[self.free[j] as usize].max(1);
                if self.get(x & !(1 << j))[side] + pts == target {
                    chosen = Some(j);
                    break;
                }
            }
            // Every stored score was reached through some predecessor, so one always ties.
            let j = chosen.unwrap_or_else(|| x.trailing_zeros() as usize);
            reversed.push(self.free[j]);
            x &= !(1 << j);
        }
        reversed.reverse();
        TilingOrder::new(self.start, reversed)
            .unwrap_or_else(|_| unreachable!("the traced order covers each empty cell once"))
    }

    fn cells_of(&self, x: u64) -> u32 {
        let mut bits = 0u32;
        for (j, &cell) in self.free.iter().enumerate() {
            if x >> j & 1 == 1 {
                bits |= 1 << cell;
            }
        }
        bits
    }
}

struct Ctx<'a> {
    tables: &'a Tables,
    deposit: &'a Deposit,
    /// `cell[j]`: the cell of bit j (`free[j]`).
    cell: [usize; 32],
    base: u32,
    low_bits: usize,
}

impl Ctx<'_> {
    /// Computes block h, whose blocks with one high bit fewer are already in `blocks`.
    fn block<const N: usize>(&self, h: usize, blocks: &[Vec<[u8; 2]>]) -> Vec<[u8; 2]> {
        let lb = self.low_bits;
        // The finished blocks holding this block's cross-block predecessors, with the bit
        // (of x) each one lacks.
        let mut others: [(&[[u8; 2]], usize); HIGH_BITS] = [(&[], 0); HIGH_BITS];
        let mut n_others = 0;
        let mut rest = h;
        while rest != 0 {
            let q = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            others[n_others] = (&blocks[h & !(1 << q)], lb + q);
            n_others += 1;
        }
        let others = &others[..n_others];
        let size = 1usize << lb;
        let mut out = vec![[0u8; 2]; size];
        let high = (h as u64) << lb;
        for low in 0..size {
            if low == 0 && h == 0 {
                continue; // the start itself: [0, 0]
            }
            let x = high | low as u64;
            let pic = self.base | self.deposit.map(x);
            let points = self.tables.cell_points_n::<N>(pic);
            let mut best = 0u8;
            let mut worst = u8::MAX;
            let mut bits = low;
            while bits != 0 {
                let p = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let pts = points[self.cell[p & 31] & 31].max(1);
                let [hi, lo] = out[low & !(1 << p)];
                best = best.max(hi + pts);
                worst = worst.min(lo + pts);
            }
            for &(prev, p) in others {
                let pts = points[self.cell[p & 31] & 31].max(1);
                let [hi, lo] = prev[low];
                best = best.max(hi + pts);
                worst = worst.min(lo + pts);
            }
            out[low] = [best, worst];
        }
        out
    }

    /// The number of orders from the start to the full wall whose every step is tight for
    /// `side` (0 = best, 1 = worst), walking back from the full wall over tight steps only.
    fn count_tight(&self, m: usize, dp: &WallDp, side: usize) -> u128 {
        // (subset, tight orders from it to the full wall), sorted by subset, one layer.
        let full: u64 = if m == 0 { 0 } else { (1u64 << m) - 1 };
        let mut layer: Vec<(u64, u128)> = vec![(full, 1)];
        for _ in 0..m {
            let mut preds: Vec<(u64, u128)> = layer
                .par_iter()
                .flat_map_iter(|&(x, count)| {
                    let pic = self.base | self.deposit.map(x);
                    let points = self.tables.cell_points(pic);
                    let target = dp.get(x)[side];
                    let mut out = Vec::new();
                    let mut rest = x;
                    while rest != 0 {
                        let j = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let pts = points[self.cell[j & 31] & 31].max(1);
                        let pred = x & !(1 << j);
                        if dp.get(pred)[side] + pts == target {
                            out.push((pred, count));
                        }
                    }
                    out
                })
                .collect();
            preds.par_sort_unstable_by_key(|&(x, _)| x);
            layer = Vec::with_capacity(preds.len());
            for (x, count) in preds {
                match layer.last_mut() {
                    Some((last, total)) if *last == x => *total += count,
                    _ => layer.push((x, count)),
                }
            }
        }
        layer.first().map_or(0, |&(_, count)| count)
    }
}

/// The full n x n wall from empty: best and worst score with their counts.
pub fn full_wall(n: usize) -> Result<WallDp, super::WallError> {
    Ok(WallDp::solve(Picture::empty(n)?))
}

/// The bonus a full 5x5 wall earns at the end of the game: 5 rows x 2 + 5 columns x 7 +
/// 5 colours x 10 = 95 (the same for every order, so it shifts scores, not counts).
pub const FULL_WALL_BONUS_5: u32 = 5 * 2 + 5 * 7 + 5 * 10;
