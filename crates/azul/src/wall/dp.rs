//! The dynamic program over pictures (thesis sections 3.1.3 and 3.2.2), layered and parallel.
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
//!    picture: no score exceeds 150). Pictures are grouped into layers by their number k of
//!    added tiles; a layer is indexed by the colex rank of x among the k-subsets of the m
//!    cells (layer k of a 5x5 wall has exactly C(25, k) entries, the largest 5,200,300), so
//!    the 2^25 pictures take 64 MiB. A layer's entries depend only on the previous layer, so
//!    each layer is split into chunks computed in parallel (rayon).
//! 2. Backward, only the pictures on some optimal order: starting from the full wall, follow
//!    tight steps back and add up the number of tight orders from each picture to the full
//!    wall. The count of the empty start is the number of optimal orders. Counts are u128: a
//!    picture with j empty cells has at most j! <= 25! < 2^84 orders to the full wall, so no
//!    overflow is possible.
//!
//! Keeping counts only for the (few) pictures on optimal orders, instead of a u128 pair for
//! every picture of two layers, is what makes the 5x5 program fit in cache-friendly memory.

use rayon::prelude::*;

use super::grid::{Picture, Placement, TilingOrder};

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
    /// `scores[k][rank]`: the best and the worst score from `start` to `start + x`, x the
    /// k-subset of that colex rank.
    scores: Vec<Vec<[u8; 2]>>,
    best: Extreme,
    worst: Extreme,
}

/// Binomial coefficients C(a, b) for a, b <= 32.
struct Binom([[u32; 33]; 33]);

impl Binom {
    fn new() -> Self {
        let mut t = [[0u32; 33]; 33];
        for a in 0..33 {
            t[a][0] = 1;
            for b in 1..=a {
                t[a][b] = t[a - 1][b - 1] + if b < a { t[a - 1][b] } else { 0 };
            }
        }
        Binom(t)
    }

    #[inline(always)]
    fn c(&self, a: usize, b: usize) -> u32 {
        self.0[a][b]
    }

    /// The k-subset of colex rank `rank`.
    fn unrank(&self, mut rank: u32, k: usize) -> u64 {
        let mut x = 0u64;
        for i in (1..=k).rev() {
            let mut p = i - 1;
            while self.c(p + 1, i) <= rank {
                p += 1;
            }
            rank -= self.c(p, i);
            x |= 1 << p;
        }
        x
    }
}

/// The next larger integer with the same number of set bits (Gosper's hack).
#[inline(always)]
fn next_subset(x: u64) -> u64 {
    let t = x | (x - 1);
    (t + 1) | (((!t & t.wrapping_add(1)) - 1) >> (x.trailing_zeros() + 1))
}

/// Per-side lookup tables: the run length through each column of a row mask, and the
/// transposition of a row into column bits.
struct Tables {
    n: usize,
    /// `run[mask * 8 + c]`: length of the run of set bits of `mask` through bit c.
    run: Vec<u8>,
    /// `transpose[r * 32 + mask]`: the bits of row r placed as column bits (cell c*n + r).
    transpose: Vec<u32>,
    /// `points[h * 8 + v]`: the thesis' equation (1).
    points: [u8; 64],
}

impl Tables {
    fn new(n: usize) -> Self {
        let mut run = vec![0u8; 32 * 8];
        for mask in 0..(1usize << n) {
            for c in 0..n {
                if mask >> c & 1 == 0 {
                    continue;
                }
                let mut len = 1;
                let mut d = c;
                while d > 0 && mask >> (d - 1) & 1 == 1 {
                    len += 1;
                    d -= 1;
                }
                d = c + 1;
                while d < n && mask >> d & 1 == 1 {
                    len += 1;
                    d += 1;
                }
                run[mask * 8 + c] = len;
            }
        }
        let mut transpose = vec![0u32; 8 * 32];
        for r in 0..n {
            for mask in 0..(1usize << n) {
                let mut t = 0u32;
                for c in 0..n {
                    if mask >> c & 1 == 1 {
                        t |= 1 << (c * n + r);
                    }
                }
                transpose[r * 32 + mask] = t;
            }
        }
        let mut points = [0u8; 64];
        for h in 1..8 {
            for v in 1..8 {
                points[h * 8 + v] = Placement {
                    horizontal: h as u32,
                    vertical: v as u32,
                }
                .score() as u8;
            }
        }
        Tables {
            n,
            run,
            transpose,
            points,
        }
    }

    /// The points scored by the last tile on `cell` of the picture `pic` (which covers it).
    #[inline(always)]
    fn points_in(&self, rows: &[u32; 5], cols: &[u32; 5], cell: usize) -> u8 {
        let n = self.n;
        let (r, c) = (cell / n, cell % n);
        let h = self.run[rows[r] as usize * 8 + c] as usize;
        let v = self.run[cols[c] as usize * 8 + r] as usize;
        self.points[h * 8 + v]
    }

    /// The points scored by the last tile on `(r, c)` of the picture split into `rows`
    /// and `cols` (which cover it).
    #[inline(always)]
    fn points_at(&self, rows: &[u32; 5], cols: &[u32; 5], r: usize, c: usize) -> u8 {
        let h = self.run[(rows[r] as usize) * 8 + c] as usize;
        let v = self.run[(cols[c] as usize) * 8 + r] as usize;
        self.points[h * 8 + v]
    }

    #[inline(always)]
    fn split(&self, pic: u32) -> ([u32; 5], [u32; 5]) {
        match self.n {
            1 => self.split_n::<1>(pic),
            2 => self.split_n::<2>(pic),
            3 => self.split_n::<3>(pic),
            4 => self.split_n::<4>(pic),
            _ => self.split_n::<5>(pic),
        }
    }

    /// [`Tables::split`] for a side known at compile time (unrolled).
    #[inline(always)]
    fn split_n<const N: usize>(&self, pic: u32) -> ([u32; 5], [u32; 5]) {
        let n = N;
        let mask = (1u32 << n) - 1;
        let mut rows = [0u32; 5];
        let mut t = 0u32;
        for (r, row) in rows.iter_mut().enumerate().take(n) {
            *row = pic >> (r * n) & mask;
            t |= self.transpose[r * 32 + *row as usize];
        }
        let mut cols = [0u32; 5];
        for (c, col) in cols.iter_mut().enumerate().take(n) {
            *col = t >> (c * n) & mask;
        }
        (rows, cols)
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

/// How many entries one parallel task computes.
const CHUNK: usize = 1 << 14;

impl WallDp {
    /// Runs the dynamic program from `start` to the full wall, on all threads of the current
    /// rayon pool.
    pub fn solve(start: Picture) -> WallDp {
        let n = start.side();
        let free: Vec<u8> = (0..(n * n) as u8)
            .filter(|&c| start.bits() >> c & 1 == 0)
            .collect();
        let m = free.len();
        let binom = Binom::new();
        let tables = Tables::new(n);
        let deposit = Deposit::new(&free);
        let ctx = Ctx {
            binom: &binom,
            tables: &tables,
            deposit: &deposit,
            free_row: std::array::from_fn(|j| free.get(j).map_or(0, |&c| c as usize / n)),
            free_col: std::array::from_fn(|j| free.get(j).map_or(0, |&c| c as usize % n)),
            base: start.bits(),
        };
        let mut scores: Vec<Vec<[u8; 2]>> = vec![vec![[0, 0]]];
        for k in 1..=m {
            let mut cur = vec![[0u8; 2]; binom.c(m, k) as usize];
            match n {
                1 => ctx.layer::<1>(k, &scores[k - 1], &mut cur),
                2 => ctx.layer::<2>(k, &scores[k - 1], &mut cur),
                3 => ctx.layer::<3>(k, &scores[k - 1], &mut cur),
                4 => ctx.layer::<4>(k, &scores[k - 1], &mut cur),
                _ => ctx.layer::<5>(k, &scores[k - 1], &mut cur),
            }
            scores.push(cur);
        }
        let [best_count, worst_count] = [0, 1].map(|side| ctx.count_tight(m, &scores, side));
        let best = Extreme {
            score: scores[m][0][0] as u32,
            count: best_count,
        };
        let worst = Extreme {
            score: scores[m][0][1] as u32,
            count: worst_count,
        };
        WallDp {
            start,
            free,
            scores,
            best,
            worst,
        }
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
        let k = x.count_ones() as usize;
        let rank = colex_rank(&Binom::new(), x);
        Some(self.scores[k][rank as usize][usize::from(!best)] as u32)
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
        let binom = Binom::new();
        let tables = Tables::new(n);
        let m = self.free.len();
        let mut x: u64 = if m == 0 { 0 } else { (1u64 << m) - 1 };
        let mut reversed = Vec::with_capacity(m);
        for k in (1..=m).rev() {
            let side = usize::from(!best);
            let pic = self.start.bits() | self.cells_of(x);
            let target = self.scores[k][colex_rank(&binom, x) as usize][side];
            let (rows, cols) = tables.split(pic);
            let mut chosen = None;
            let mut rest = x;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let pred = x & !(1 << j);
                let pts = tables.points_in(&rows, &cols, self.free[j] as usize);
                if self.scores[k - 1][colex_rank(&binom, pred) as usize][side] + pts == target {
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

fn colex_rank(binom: &Binom, x: u64) -> u32 {
    let mut rank = 0;
    let mut rest = x;
    let mut i = 0;
    while rest != 0 {
        let p = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        i += 1;
        rank += binom.c(p, i);
    }
    rank
}

struct Ctx<'a> {
    binom: &'a Binom,
    tables: &'a Tables,
    deposit: &'a Deposit,
    free_row: [usize; 32],
    free_col: [usize; 32],
    base: u32,
}

impl Ctx<'_> {
    /// Fills layer k's scores from layer k - 1's.
    fn layer<const N: usize>(&self, k: usize, prev: &[[u8; 2]], cur: &mut [[u8; 2]]) {
        cur.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(chunk, out)| {
                let mut x = self.binom.unrank((chunk * CHUNK) as u32, k);
                for (i, slot) in out.iter_mut().enumerate() {
                    if i > 0 {
                        x = next_subset(x);
                    }
                    *slot = self.entry::<N>(k, x, (chunk * CHUNK + i) as u32, prev);
                }
            });
    }

    /// The best and worst score of the k-subset x from its predecessors' scores.
    #[inline(always)]
    fn entry<const N: usize>(&self, k: usize, x: u64, rank: u32, prev: &[[u8; 2]]) -> [u8; 2] {
        let pic = self.base | self.deposit.map(x);
        let (rows, cols) = self.tables.split_n::<N>(pic);
        let mut best = 0u8;
        let mut worst = u8::MAX;
        self.for_each_pred(k, x, rank, |j, rank| {
            let pts = self
                .tables
                .points_at(&rows, &cols, self.free_row[j], self.free_col[j]);
            let [hi, lo] = prev[rank as usize];
            best = best.max(hi + pts);
            worst = worst.min(lo + pts);
        });
        [best, worst]
    }

    /// Calls `f(p, rank)` for every set bit p of the k-subset x (of colex rank `rank`), with
    /// the colex rank of x minus bit p. Removing the j-th set bit p_j gives rank
    /// sum_{i<j} C(p_i, i+1) + sum_{i>j} C(p_i, i).
    #[inline(always)]
    fn for_each_pred(&self, k: usize, x: u64, rank: u32, mut f: impl FnMut(usize, u32)) {
        // One pass from the highest bit down, with rank(x) = sum_i C(p_i, i+1) known:
        // sum_{i<j} C(p_i, i+1) = rank - sum_{i>=j} C(p_i, i+1).
        let mut upper = 0u32; // sum_{i>=j} C(p_i, i+1)
        let mut shifted = 0u32; // sum_{i>j} C(p_i, i)
        let mut rest = x;
        for j in (0..k).rev() {
            let p = 63 - rest.leading_zeros() as usize;
            rest &= !(1u64 << p);
            upper += self.binom.c(p, j + 1);
            f(p, rank - upper + shifted);
            shifted += self.binom.c(p, j);
        }
    }

    /// The number of orders from the start to the full wall whose every step is tight for
    /// `side` (0 = best, 1 = worst), walking back from the full wall over tight steps only.
    fn count_tight(&self, m: usize, scores: &[Vec<[u8; 2]>], side: usize) -> u128 {
        // (subset, tight orders from it to the full wall), sorted by subset, one layer.
        let full: u64 = if m == 0 { 0 } else { (1u64 << m) - 1 };
        let mut layer: Vec<(u64, u128)> = vec![(full, 1)];
        for k in (1..=m).rev() {
            let mut preds: Vec<(u64, u128)> = layer
                .par_iter()
                .flat_map_iter(|&(x, count)| {
                    let pic = self.base | self.deposit.map(x);
                    let (rows, cols) = self.tables.split(pic);
                    let rank_x = colex_rank(self.binom, x);
                    let target = scores[k][rank_x as usize][side];
                    let mut out = Vec::new();
                    self.for_each_pred(k, x, rank_x, |j, rank| {
                        let pts =
                            self.tables
                                .points_at(&rows, &cols, self.free_row[j], self.free_col[j]);
                        if scores[k - 1][rank as usize][side] + pts == target {
                            out.push((x & !(1 << j), count));
                        }
                    });
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
