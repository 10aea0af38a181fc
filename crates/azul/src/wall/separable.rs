//! Decider (c): OptimalAzulTiling in polynomial time (the thesis' open question, issue 17).
//!
//! A partial wall is a yes-instance exactly when its partial permutation has a *separable*
//! completion (docs/azul-wall-analysis.md, section 2). A permutation is separable when it
//! is a single point or a direct sum (`σ = α ⊕ β`: the first rows map onto the first
//! columns) or a skew sum (`σ = α ⊖ β`: the first rows map onto the last columns) of two
//! smaller separable permutations. This module decides the completion problem by a dynamic
//! program over *blocks*: a block `(r, c, m)` is the square of rows `r..r+m` and columns
//! `c..c+m`, and it is *feasible* when some separable bijection from its rows onto its
//! columns extends the given tiles, i.e. when
//!
//! - every given tile in rows `r..r+m` lies in columns `c..c+m` and every given tile in
//!   columns `c..c+m` lies in rows `r..r+m` (the block is *consistent*), and
//! - `m = 1`, or some split `1 <= a < m` makes both halves feasible: `(r, c, a)` and
//!   `(r+a, c+a, m-a)` (direct), or `(r, c+m-a, a)` and `(r+a, c, m-a)` (skew).
//!
//! The instance is a yes-instance iff the block `(0, 0, n)` is feasible. There are
//! n(n+1)(2n+1)/6 blocks and each tries at most 2(m-1) splits, so the program takes
//! O(n^4) time (about n^4/6 split tests) and n^3/3 bits; consistency is O(1) per block from
//! a 2-D prefix count of the given tiles. A consistent block without given tiles is
//! feasible at once (the identity is separable), so only blocks holding given tiles try
//! splits. The proof and the measured figures are in docs/azul-wall-analysis.md.
//!
//! For a yes-instance the split choices, read back from the table, give the completing
//! permutation and its separating tree, and the tree gives a full optimal tiling order
//! directly: the n permutation tiles first (each is alone in its row and column), then,
//! children before parents, the two empty rectangles of every split, each filled from the
//! corner where its two sub-blocks touch, so every later tile has a horizontal and a
//! vertical neighbour and every row and column grows as one segment: n^3 + n^2 - n points.
//!
//! ```
//! use tessera_azul::wall::separable::{Verdict, decide};
//! use tessera_azul::wall::tiling::PartialPerm;
//! let fig8: PartialPerm = "(3,1,2,_,_)".parse().unwrap();
//! let Verdict::Yes(done) = decide(&fig8).unwrap() else { panic!() };
//! assert_eq!(done.order().len(), 25);
//! let fig9b: PartialPerm = "(2,5,1,_,_)".parse().unwrap();
//! assert!(!decide(&fig9b).unwrap().is_yes());
//! ```

use rand::Rng;

use super::WallError;
use rayon::prelude::*;

use super::tiling::{
    Occurrence, PartialPerm, Pattern, all_partial_perms, decide_closure, decide_patterns,
};

/// The largest side decider (c) accepts: its table has n(n+1)(2n+1)/6 bits (at 3,000 that
/// is 1.1 GB of address space, zero-filled lazily, so only the pages of blocks the program
/// visits take memory) and its 2-D prefix count (n+1)^2 32-bit numbers (36 MB).
pub const MAX_SEPARABLE_SIDE: usize = 3000;

/// How a block is split into two smaller blocks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sum {
    /// `α ⊕ β`: the first rows map onto the first columns.
    Direct,
    /// `α ⊖ β`: the first rows map onto the last columns.
    Skew,
}

/// A square of the wall: rows `row..row+size`, columns `col..col+size` (0-based).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Block {
    /// The first row.
    pub row: usize,
    /// The first column.
    pub col: usize,
    /// The side.
    pub size: usize,
}

/// One inner node of the separating tree of a completion: a block and how it splits (its
/// first `first` rows form the first child).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Node {
    /// The block.
    pub block: Block,
    /// Direct or skew.
    pub sum: Sum,
    /// The side of the first child (the block of the first rows).
    pub first: usize,
}

/// A yes-instance's witness.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Completion {
    perm: Vec<u16>,
    tree: Vec<Node>,
    order: Vec<(u16, u16)>,
}

impl Completion {
    /// The side n.
    pub fn side(&self) -> usize {
        self.perm.len()
    }

    /// The completed permutation: the column (0-based) of each row's first tile.
    pub fn perm(&self) -> &[u16] {
        &self.perm
    }

    /// The separating tree's inner nodes, parents before children (the root first).
    pub fn tree(&self) -> &[Node] {
        &self.tree
    }

    /// A full tiling order of the n x n wall, (row, column) 0-based: the n permutation
    /// tiles first (row by row), then the rest. It scores n^3 + n^2 - n.
    pub fn order(&self) -> &[(u16, u16)] {
        &self.order
    }
}

/// The answer of decider (c).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// A separable completion exists; here it is with an optimal order.
    Yes(Completion),
    /// No completion is separable.
    No,
}

impl Verdict {
    /// Whether the instance is a yes-instance.
    pub fn is_yes(&self) -> bool {
        matches!(self, Verdict::Yes(_))
    }
}

/// Decides an instance and, for a yes-instance, builds a completion, its separating tree and
/// an optimal tiling order. Sides up to [`MAX_SEPARABLE_SIDE`].
pub fn decide(p: &PartialPerm) -> Result<Verdict, WallError> {
    let table = Table::solve(p)?;
    let n = p.side();
    if !table.get(0, 0, n) {
        return Ok(Verdict::No);
    }
    Ok(Verdict::Yes(table.completion()))
}

/// Whether the instance is a yes-instance (the table only, no witness).
pub fn is_completable(p: &PartialPerm) -> Result<bool, WallError> {
    let n = p.side();
    Ok(Table::solve(p)?.get(0, 0, n))
}

/// Why a no-instance is one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Obstruction {
    /// Four given tiles form 2413 or 3142, so every completion contains the pattern.
    Pattern(Occurrence),
    /// The given tiles avoid both patterns, but these given tiles (rows, 0-based), with all
    /// other rows empty, already cannot be completed on the n x n wall, and dropping any one
    /// of them makes the instance completable (an inclusion-minimal set).
    Tiles(Vec<usize>),
}

/// For a no-instance, why: a 2413 or 3142 among the given tiles if there is one, otherwise
/// an inclusion-minimal set of given tiles that cannot be completed. `None` for a
/// yes-instance. Costs one run of the decider per given tile (on the k given tiles alone,
/// then, if they avoid both patterns, on the n x n wall).
///
/// Both are found by dropping tiles one by one while the instance stays a no-instance.
/// Fewer tiles never hurt (a completion of an instance completes every instance with a
/// subset of its tiles), so a kept tile `t` was kept because the set tested then, minus
/// `t`, was completable, and the final set minus `t` is a subset of it: the final set is
/// inclusion-minimal. On the given tiles alone (a complete k x k permutation, columns
/// replaced by their ranks) the minimal non-separable permutations are exactly 2413 and
/// 3142, so the first stage ends with four tiles forming one of them.
pub fn minimal_obstruction(p: &PartialPerm) -> Result<Option<Obstruction>, WallError> {
    if is_completable(p)? {
        return Ok(None);
    }
    let given: Vec<usize> = (0..p.side()).filter(|&r| p.col(r).is_some()).collect();
    if !is_completable(&compress(p, &given)?)? {
        let mut keep = given;
        let mut i = 0;
        while i < keep.len() {
            let mut without = keep.clone();
            without.remove(i);
            if !is_completable(&compress(p, &without)?)? {
                keep = without;
            } else {
                i += 1;
            }
        }
        let rows: [usize; 4] = keep.as_slice().try_into().map_err(|_| {
            WallError::Parse(format!(
                "internal: a minimal non-separable pattern of {} tiles",
                keep.len()
            ))
        })?;
        let cols = rows.map(|r| p.col(r).unwrap_or(0));
        let pattern = if cols[2] < cols[0] && cols[0] < cols[3] && cols[3] < cols[1] {
            Pattern::P2413
        } else {
            Pattern::P3142
        };
        return Ok(Some(Obstruction::Pattern(Occurrence { pattern, rows })));
    }
    let mut cur = p.clone();
    for r in 0..p.side() {
        if cur.col(r).is_some() {
            let without = cur.without_row(r);
            if !is_completable(&without)? {
                cur = without;
            }
        }
    }
    Ok(Some(Obstruction::Tiles(
        (0..p.side()).filter(|&r| cur.col(r).is_some()).collect(),
    )))
}

/// The given tiles of `rows` alone, as a complete permutation of their column ranks.
fn compress(p: &PartialPerm, rows: &[usize]) -> Result<PartialPerm, WallError> {
    let mut by_col: Vec<(u16, usize)> = rows
        .iter()
        .filter_map(|&r| p.col(r).map(|c| (c, r)))
        .collect();
    by_col.sort_unstable();
    let mut rank = vec![0u16; p.side()];
    for (i, &(_, r)) in by_col.iter().enumerate() {
        rank[r] = i as u16;
    }
    PartialPerm::new(rows.iter().map(|&r| Some(rank[r])).collect())
}

/// The given tiles, counted by 2-D prefix sums: O(1) consistency of any block.
struct Given {
    n: usize,
    /// `rows[r]` = given tiles in rows `< r`.
    rows: Vec<u32>,
    /// `cols[c]` = given tiles in columns `< c`.
    cols: Vec<u32>,
    /// `both[r * (n + 1) + c]` = given tiles in rows `< r` and columns `< c`.
    both: Vec<u32>,
}

impl Given {
    fn new(p: &PartialPerm) -> Self {
        let n = p.side();
        let w = n + 1;
        let mut in_row = vec![0u32; n];
        let mut in_col = vec![0u32; n];
        let mut both = vec![0u32; w * w];
        for (r, c) in p.cols().iter().enumerate() {
            if let Some(c) = *c {
                in_row[r] = 1;
                in_col[c as usize] = 1;
                both[(r + 1) * w + c as usize + 1] = 1;
            }
        }
        for r in 1..w {
            for c in 1..w {
                both[r * w + c] +=
                    both[(r - 1) * w + c] + both[r * w + c - 1] - both[(r - 1) * w + c - 1];
            }
        }
        let prefix = |v: &[u32]| {
            let mut out = vec![0u32; w];
            for i in 0..n {
                out[i + 1] = out[i] + v[i];
            }
            out
        };
        Given {
            n,
            rows: prefix(&in_row),
            cols: prefix(&in_col),
            both,
        }
    }

    /// The number of given tiles in the block if it is consistent (every given tile in its
    /// rows lies in its columns and vice versa), `None` otherwise.
    #[inline]
    fn tiles_in(&self, r: usize, c: usize, m: usize) -> Option<u32> {
        let w = self.n + 1;
        let in_rows = self.rows[r + m] - self.rows[r];
        let in_cols = self.cols[c + m] - self.cols[c];
        let inside = self.both[(r + m) * w + c + m] + self.both[r * w + c]
            - self.both[r * w + c + m]
            - self.both[(r + m) * w + c];
        (in_rows == inside && in_cols == inside).then_some(inside)
    }
}

/// The feasibility of every block, one bit each, blocks of side m at `offsets[m]`.
struct Table {
    n: usize,
    offsets: Vec<usize>,
    bits: Vec<u64>,
}

impl Table {
    fn solve(p: &PartialPerm) -> Result<Table, WallError> {
        let n = p.side();
        if n > MAX_SEPARABLE_SIDE {
            return Err(WallError::TooLarge(format!(
                "decider (c) on a wall of side {n}: at most {MAX_SEPARABLE_SIDE} (its table \
                 has n^3/3 bits)"
            )));
        }
        let given = Given::new(p);
        let mut offsets = vec![0usize; n + 2];
        for m in 1..=n {
            offsets[m + 1] = offsets[m] + (n - m + 1) * (n - m + 1);
        }
        let mut table = Table {
            n,
            bits: vec![0u64; offsets[n + 1].div_ceil(64)],
            offsets,
        };
        for m in 1..=n {
            for r in 0..=n - m {
                for c in 0..=n - m {
                    let Some(tiles) = given.tiles_in(r, c, m) else {
                        continue;
                    };
                    if m == 1 || tiles == 0 || table.split(r, c, m).is_some() {
                        table.set(r, c, m);
                    }
                }
            }
        }
        Ok(table)
    }

    #[inline]
    fn index(&self, r: usize, c: usize, m: usize) -> usize {
        self.offsets[m] + r * (self.n - m + 1) + c
    }

    #[inline]
    fn get(&self, r: usize, c: usize, m: usize) -> bool {
        let i = self.index(r, c, m);
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }

    #[inline]
    fn set(&mut self, r: usize, c: usize, m: usize) {
        let i = self.index(r, c, m);
        self.bits[i / 64] |= 1 << (i % 64);
    }

    /// The first split of block `(r, c, m)` (m >= 2) whose two halves are feasible.
    #[inline]
    fn split(&self, r: usize, c: usize, m: usize) -> Option<(Sum, usize)> {
        (1..m).find_map(|a| {
            if self.get(r, c, a) && self.get(r + a, c + a, m - a) {
                Some((Sum::Direct, a))
            } else if self.get(r, c + m - a, a) && self.get(r + a, c, m - a) {
                Some((Sum::Skew, a))
            } else {
                None
            }
        })
    }

    /// Reads a separating tree back from the table (the root block must be feasible) and
    /// builds the permutation and the order from it.
    fn completion(&self) -> Completion {
        let n = self.n;
        let mut perm = vec![0u16; n];
        let mut tree = Vec::new();
        let mut stack = vec![Block {
            row: 0,
            col: 0,
            size: n,
        }];
        while let Some(b) = stack.pop() {
            let Block {
                row: r,
                col: c,
                size: m,
            } = b;
            if m == 1 {
                perm[r] = c as u16;
                continue;
            }
            // Every feasible block of side >= 2 has a feasible split: blocks with given
            // tiles were set only when one was found, and a block without given tiles splits
            // into two blocks without given tiles (direct, a = 1), which are feasible.
            let Some((sum, a)) = self.split(r, c, m) else {
                unreachable!("feasible block {b:?} without a feasible split");
            };
            tree.push(Node {
                block: b,
                sum,
                first: a,
            });
            let (first, second) = children(b, sum, a);
            stack.push(second);
            stack.push(first);
        }
        let order = tiling_order(&perm, &tree);
        Completion { perm, tree, order }
    }
}

/// The two children of a split block: (the block of its first `a` rows, the rest).
fn children(b: Block, sum: Sum, a: usize) -> (Block, Block) {
    let Block {
        row: r,
        col: c,
        size: m,
    } = b;
    match sum {
        Sum::Direct => (
            Block {
                row: r,
                col: c,
                size: a,
            },
            Block {
                row: r + a,
                col: c + a,
                size: m - a,
            },
        ),
        Sum::Skew => (
            Block {
                row: r,
                col: c + m - a,
                size: a,
            },
            Block {
                row: r + a,
                col: c,
                size: m - a,
            },
        ),
    }
}

/// The optimal order from a separating tree (nodes listed parents first): the permutation
/// tiles, then for every node, children before parents, its two empty rectangles, each from
/// the corner where the two children touch outwards.
fn tiling_order(perm: &[u16], tree: &[Node]) -> Vec<(u16, u16)> {
    let n = perm.len();
    let mut order = Vec::with_capacity(n * n);
    order.extend(perm.iter().enumerate().map(|(r, &c)| (r as u16, c)));
    let mut push = |r: usize, c: usize| order.push((r as u16, c as u16));
    for node in tree.iter().rev() {
        let Block {
            row: r,
            col: c,
            size: m,
        } = node.block;
        let a = node.first;
        match node.sum {
            Sum::Direct => {
                // Top right (rows of the first child, columns of the second): from its
                // bottom-left corner, each cell has its left and lower neighbour covered.
                for i in (r..r + a).rev() {
                    for j in c + a..c + m {
                        push(i, j);
                    }
                }
                // Bottom left: from its top-right corner (right and upper neighbours).
                for i in r + a..r + m {
                    for j in (c..c + a).rev() {
                        push(i, j);
                    }
                }
            }
            Sum::Skew => {
                // Top left (rows of the first child, columns of the second): from its
                // bottom-right corner (right and lower neighbours).
                for i in (r..r + a).rev() {
                    for j in (c..c + m - a).rev() {
                        push(i, j);
                    }
                }
                // Bottom right: from its top-left corner (left and upper neighbours).
                for i in r + a..r + m {
                    for j in c + m - a..c + m {
                        push(i, j);
                    }
                }
            }
        }
    }
    order
}

/// A random separable permutation of side n (0-based columns per row): every block splits
/// at a uniformly random point, direct or skew with probability 1/2 (not uniform over the
/// separable permutations; good for tests and benchmarks).
pub fn random_separable(n: usize, rng: &mut impl Rng) -> Vec<u16> {
    let mut perm = vec![0u16; n];
    if n == 0 {
        return perm;
    }
    let mut stack = vec![Block {
        row: 0,
        col: 0,
        size: n,
    }];
    while let Some(b) = stack.pop() {
        if b.size == 1 {
            perm[b.row] = b.col as u16;
            continue;
        }
        let a = rng.random_range(1..b.size);
        let sum = if rng.random_bool(0.5) {
            Sum::Direct
        } else {
            Sum::Skew
        };
        let (x, y) = children(b, sum, a);
        stack.push(x);
        stack.push(y);
    }
    perm
}

/// `perm` with only `keep` of its rows given (chosen uniformly at random), the others empty.
pub fn hide_rows(perm: &[u16], keep: usize, rng: &mut impl Rng) -> Result<PartialPerm, WallError> {
    let n = perm.len();
    let mut rows: Vec<usize> = (0..n).collect();
    let keep = keep.min(n);
    for i in 0..keep {
        let j = rng.random_range(i..n);
        rows.swap(i, j);
    }
    let mut cols = vec![None; n];
    for &r in &rows[..keep] {
        cols[r] = Some(perm[r]);
    }
    PartialPerm::new(cols)
}

/// A uniformly random permutation of side n with only `keep` random rows given: for n >= 10
/// and half the rows given almost always a no-instance.
pub fn random_partial(n: usize, keep: usize, rng: &mut impl Rng) -> Result<PartialPerm, WallError> {
    let mut perm: Vec<u16> = (0..n as u16).collect();
    for i in (1..n).rev() {
        let j = rng.random_range(0..=i);
        perm.swap(i, j);
    }
    hide_rows(&perm, keep, rng)
}

/// One row of the comparison of the two deciders on every partial permutation of side n.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// The side n.
    pub n: usize,
    /// Partial permutations examined (all k = 0..=n).
    pub instances: u64,
    /// Yes-instances by decider (a).
    pub yes_closure: u64,
    /// Yes-instances by decider (b).
    pub yes_patterns: u64,
    /// Yes-instances by decider (c), the polynomial one ([`decide`]).
    pub yes_separable: u64,
    /// Instances where the deciders disagree (up to 20 kept).
    pub disagreements: Vec<PartialPerm>,
    /// The number of disagreements.
    pub disagreement_count: u64,
}

/// Runs the three deciders on every partial permutation of side n (parallel over
/// instances); a disagreement is any instance where they do not all agree.
pub fn compare_deciders(n: usize) -> Result<Comparison, WallError> {
    let all = all_partial_perms(n)?;
    let results: Vec<(bool, bool, bool)> = all
        .par_iter()
        .map(|p| {
            Ok((
                decide_closure(p)?.is_yes(),
                decide_patterns(p)?.is_yes(),
                decide(p)?.is_yes(),
            ))
        })
        .collect::<Result<_, WallError>>()?;
    let mut cmp = Comparison {
        n,
        instances: all.len() as u64,
        ..Comparison::default()
    };
    for (p, &(a, b, c)) in all.iter().zip(&results) {
        cmp.yes_closure += u64::from(a);
        cmp.yes_patterns += u64::from(b);
        cmp.yes_separable += u64::from(c);
        if a != b || a != c {
            cmp.disagreement_count += 1;
            if cmp.disagreements.len() < 20 {
                cmp.disagreements.push(p.clone());
            }
        }
    }
    Ok(cmp)
}
