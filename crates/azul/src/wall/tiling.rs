//! The OptimalAzulTiling problem (thesis section 3.1.2): instances of any side up to
//! [`MAX_INSTANCE_SIDE`], and the enumerating deciders and Table 1 for sides up to
//! [`MAX_PERM_SIDE`] = 16 (the polynomial decider (c) is in [`super::separable`]).
//!
//! An instance is a wall with k <= n tiles in distinct rows and columns, written like the
//! thesis as a (partial) permutation: entry i is the column of the tile in row i, `_` for an
//! empty row, both 1-based, e.g. `(2,5,1,_,_)`. It is a yes-instance when the full wall can
//! still score n^3 + n^2 - n without bonuses. Two enumerating deciders:
//!
//! - (a) [`decide_closure`], the thesis' search: try every completion to a permutation, then
//!   repeatedly cover empty cells that have both a horizontal and a vertical covered
//!   neighbour; yes if some completion covers the whole wall this way.
//! - (b) [`decide_patterns`], the pattern criterion: yes if some completion contains neither
//!   2413 nor 3142 (is separable).
//!
//! Table 1 (yes-instances among all n! permutations) is counted by decider (a) with
//! [`count_yes_plain`] (every permutation, closures shared along common prefixes) and
//! [`count_yes_pruned`] (the same, with a sound pruning of prefixes and the mirror symmetry).

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;

use super::WallError;

/// The largest wall side the enumerating tools accept (deciders (a) and (b), Table 1,
/// completions: rows are 16-bit masks).
pub const MAX_PERM_SIDE: usize = 16;

/// The largest wall side an instance may have (columns are 16-bit numbers); the polynomial
/// decider has its own, smaller limit ([`super::separable::MAX_SEPARABLE_SIDE`]).
pub const MAX_INSTANCE_SIDE: usize = u16::MAX as usize;

/// A wall with at most one tile per row and per column.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PartialPerm {
    /// `cols[row]` = the column (from 0) of the row's tile, if any.
    cols: Vec<Option<u16>>,
}

impl PartialPerm {
    /// From 0-based columns per row; columns must be distinct and below n = `cols.len()`.
    pub fn new(cols: Vec<Option<u16>>) -> Result<Self, WallError> {
        let n = cols.len();
        if n == 0 || n > MAX_INSTANCE_SIDE {
            return Err(WallError::Parse(format!(
                "a wall of side {n}: expected 1 to {MAX_INSTANCE_SIDE} rows"
            )));
        }
        let mut row_of = vec![None; n];
        for (r, c) in cols.iter().enumerate() {
            if let Some(c) = *c {
                let Some(slot) = row_of.get_mut(c as usize) else {
                    return Err(WallError::Parse(format!(
                        "row {} has column {}, but the wall has only {n} columns",
                        r + 1,
                        c as usize + 1
                    )));
                };
                if let Some(first) = *slot {
                    return Err(WallError::Parse(format!(
                        "column {} is used twice (rows {} and {}): tiles must be in distinct \
                         columns",
                        c as usize + 1,
                        first + 1,
                        r + 1
                    )));
                }
                *slot = Some(r);
            }
        }
        Ok(PartialPerm { cols })
    }

    /// A complete permutation from 0-based columns.
    pub fn complete(perm: &[u16]) -> Result<Self, WallError> {
        PartialPerm::new(perm.iter().map(|&c| Some(c)).collect())
    }

    /// The side n.
    pub fn side(&self) -> usize {
        self.cols.len()
    }

    /// The column of row `r`'s tile.
    pub fn col(&self, r: usize) -> Option<u16> {
        self.cols.get(r).copied().flatten()
    }

    /// The number of tiles.
    pub fn tiles(&self) -> usize {
        self.cols.iter().flatten().count()
    }

    /// The columns per row if every row has a tile.
    pub fn as_complete(&self) -> Option<Vec<u16>> {
        self.cols.iter().copied().collect()
    }

    /// The columns per row (0-based, `None` for an empty row).
    pub fn cols(&self) -> &[Option<u16>] {
        &self.cols
    }

    /// The partial permutation without the tile of row `r` (the row and its column become
    /// empty).
    pub fn without_row(&self, r: usize) -> PartialPerm {
        let mut cols = self.cols.clone();
        if let Some(c) = cols.get_mut(r) {
            *c = None;
        }
        PartialPerm { cols }
    }

    fn used_cols(&self) -> u32 {
        debug_assert!(self.side() <= MAX_PERM_SIDE);
        self.cols.iter().flatten().fold(0, |m, &c| m | 1 << c)
    }

    /// Every completion to a permutation (the empty rows filled with the unused columns in
    /// every way), in lexicographic order; `f` returns false to stop. Only for sides up to
    /// [`MAX_PERM_SIDE`] (an error otherwise).
    pub fn for_each_completion(&self, mut f: impl FnMut(&[u16]) -> bool) -> Result<(), WallError> {
        check_perm_side(self.side())?;
        let n = self.side();
        let mut perm: Vec<u16> = self.cols.iter().map(|c| c.unwrap_or(0)).collect();
        let empty: Vec<usize> = (0..n).filter(|&r| self.cols[r].is_none()).collect();
        fn go(
            i: usize,
            empty: &[usize],
            free: u32,
            perm: &mut Vec<u16>,
            f: &mut dyn FnMut(&[u16]) -> bool,
        ) -> bool {
            if i == empty.len() {
                return f(perm);
            }
            let mut rest = free;
            while rest != 0 {
                let c = rest.trailing_zeros();
                rest &= rest - 1;
                perm[empty[i]] = c as u16;
                if !go(i + 1, empty, free & !(1 << c), perm, f) {
                    return false;
                }
            }
            true
        }
        let free = ((1u32 << n) - 1) & !self.used_cols();
        go(0, &empty, free, &mut perm, &mut f);
        Ok(())
    }
}

impl fmt::Display for PartialPerm {
    /// The thesis' notation, 1-based: `(3, 1, 2, _, _)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, c) in self.cols.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match c {
                Some(c) => write!(f, "{}", c + 1)?,
                None => f.write_str("_")?,
            }
        }
        f.write_str(")")
    }
}

impl FromStr for PartialPerm {
    type Err = WallError;

    /// Parses the thesis' notation: 1-based columns per row separated by commas or spaces
    /// (newlines too, so a file can hold a large instance), `_`, `.`, `-` or `0` for an empty
    /// row, optionally in parentheses: `(2,5,1,_,_)`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let inner = s.trim().trim_start_matches('(').trim_end_matches(')');
        let mut cols = Vec::new();
        for tok in inner
            .split(|ch: char| ch == ',' || ch.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            let row = cols.len() + 1;
            match tok {
                "_" | "." | "-" | "0" | "\u{2294}" => cols.push(None),
                t => {
                    let c: usize = t.parse().map_err(|_| {
                        WallError::Parse(format!(
                            "entry {row} ({t:?}) is not a column: expected a number 1..n or _ \
                             for an empty row"
                        ))
                    })?;
                    if c == 0 || c > MAX_INSTANCE_SIDE {
                        return Err(WallError::Parse(format!(
                            "entry {row}: column {c} is out of range 1..={MAX_INSTANCE_SIDE}"
                        )));
                    }
                    cols.push(Some((c - 1) as u16));
                }
            }
        }
        PartialPerm::new(cols)
    }
}

/// An n x n wall as row masks, for the closure rule.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    n: usize,
    rows: [u16; MAX_PERM_SIDE],
}

impl Board {
    /// The empty n x n board.
    pub fn empty(n: usize) -> Self {
        debug_assert!((1..=MAX_PERM_SIDE).contains(&n));
        Board {
            n,
            rows: [0; MAX_PERM_SIDE],
        }
    }

    /// The board with the tiles of `p`.
    pub fn of(p: &PartialPerm) -> Self {
        let mut b = Board::empty(p.side());
        for (r, c) in p.cols.iter().enumerate() {
            if let Some(c) = c {
                b.rows[r] |= 1 << c;
            }
        }
        b
    }

    fn full_row(&self) -> u16 {
        (((1u32) << self.n) - 1) as u16
    }

    /// Whether every cell is covered.
    pub fn is_full(&self) -> bool {
        let full = self.full_row();
        self.rows[..self.n].iter().all(|&r| r == full)
    }

    /// Whether cell `(row, col)` is covered.
    pub fn is_covered(&self, row: usize, col: usize) -> bool {
        row < self.n && col < self.n && self.rows[row] >> col & 1 == 1
    }

    /// The number of covered cells.
    pub fn count(&self) -> u32 {
        self.rows[..self.n].iter().map(|r| r.count_ones()).sum()
    }

    /// Covers, until nothing changes, every empty cell with both a horizontally and a
    /// vertically adjacent covered cell (the thesis' closure). Only rows `0..rows_used`
    /// can hold tiles (the rest must be empty); pass `n` if unsure.
    #[inline]
    pub fn close(&mut self, rows_used: usize) {
        let n = rows_used.min(self.n);
        let full = self.full_row();
        loop {
            let mut changed = false;
            for r in 0..n {
                let above = if r > 0 { self.rows[r - 1] } else { 0 };
                let below = if r + 1 < n { self.rows[r + 1] } else { 0 };
                let support = (above | below) & full;
                let mut row = self.rows[r];
                if row == 0 || support & !row == 0 {
                    continue;
                }
                loop {
                    let grow = (row << 1 | row >> 1) & support & !row;
                    if grow == 0 {
                        break;
                    }
                    row |= grow;
                    changed = true;
                }
                self.rows[r] = row;
            }
            if !changed {
                return;
            }
        }
    }

    /// The closure of the board, cell by cell, in the order a sweep covers them (the
    /// thesis' description: iterate over all cells, cover every cell with both kinds of
    /// neighbour, until a sweep adds nothing).
    pub fn closure_order(&self) -> (Board, Vec<(u8, u8)>) {
        let mut b = *self;
        let mut order = Vec::new();
        loop {
            let mut added = false;
            for r in 0..b.n {
                for c in 0..b.n {
                    if b.is_covered(r, c) {
                        continue;
                    }
                    let h = (c > 0 && b.is_covered(r, c - 1)) || b.is_covered(r, c + 1);
                    let v = (r > 0 && b.is_covered(r - 1, c)) || b.is_covered(r + 1, c);
                    if h && v {
                        b.rows[r] |= 1 << c;
                        order.push((r as u8, c as u8));
                        added = true;
                    }
                }
            }
            if !added {
                return (b, order);
            }
        }
    }
}

impl fmt::Display for Board {
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

/// One of the two forbidden patterns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pattern {
    /// 2413.
    P2413,
    /// 3142.
    P3142,
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pattern::P2413 => "2413",
            Pattern::P3142 => "3142",
        })
    }
}

/// An occurrence of 2413 or 3142: four rows (ascending) whose columns are ordered like the
/// pattern.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Occurrence {
    /// The pattern.
    pub pattern: Pattern,
    /// The rows (0-based, ascending).
    pub rows: [usize; 4],
}

/// The first occurrence of 2413 or 3142 among the tiles of `p` (rows with tiles only).
pub fn find_pattern(p: &PartialPerm) -> Option<Occurrence> {
    let pts: Vec<(usize, u16)> = (0..p.side())
        .filter_map(|r| p.col(r).map(|c| (r, c)))
        .collect();
    let m = pts.len();
    for a in 0..m {
        for b in a + 1..m {
            for c in b + 1..m {
                for d in c + 1..m {
                    let (w, x, y, z) = (pts[a].1, pts[b].1, pts[c].1, pts[d].1);
                    let rows = [pts[a].0, pts[b].0, pts[c].0, pts[d].0];
                    // 2413: y < w < z < x. 3142: x < z < w < y.
                    if y < w && w < z && z < x {
                        return Some(Occurrence {
                            pattern: Pattern::P2413,
                            rows,
                        });
                    }
                    if x < z && z < w && w < y {
                        return Some(Occurrence {
                            pattern: Pattern::P3142,
                            rows,
                        });
                    }
                }
            }
        }
    }
    None
}

/// A decision with its reason.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Decision {
    /// Decider (a) yes: a completion and the order in which the closure covers the rest of
    /// the wall (every one of those tiles has a horizontal and a vertical neighbour).
    Closes {
        /// The completed permutation (0-based columns per row).
        completion: Vec<u16>,
        /// The closure's tiles in order (row, col), 0-based.
        order: Vec<(u8, u8)>,
    },
    /// Decider (a) no: every completion's closure stops short of the full wall.
    Stuck {
        /// How many completions were tried.
        completions: u64,
        /// The first completion and where its closure stopped.
        example: Option<(Vec<u16>, Board)>,
    },
    /// Decider (b) yes: a completion with neither pattern.
    Separable {
        /// The completed permutation (0-based columns per row).
        completion: Vec<u16>,
    },
    /// Decider (b) no: every completion contains a pattern.
    Blocked {
        /// An occurrence among the given tiles, if there is one (then every completion has it).
        in_given: Option<Occurrence>,
        /// The first completion and one of its occurrences.
        example: Option<(Vec<u16>, Occurrence)>,
    },
}

impl Decision {
    /// Whether the instance is a yes-instance.
    pub fn is_yes(&self) -> bool {
        matches!(self, Decision::Closes { .. } | Decision::Separable { .. })
    }
}

/// Decider (a): the thesis' search over completions with the closure rule (sides up to
/// [`MAX_PERM_SIDE`]; it tries up to (n - k)! completions).
pub fn decide_closure(p: &PartialPerm) -> Result<Decision, WallError> {
    let n = p.side();
    let mut found = None;
    let mut tried = 0u64;
    let mut example = None;
    p.for_each_completion(|perm| {
        tried += 1;
        let mut b = Board::empty(n);
        for (r, &c) in perm.iter().enumerate() {
            b.rows[r] |= 1 << c;
        }
        let mut closed = b;
        closed.close(n);
        if closed.is_full() {
            found = Some((perm.to_vec(), b.closure_order().1));
            return false;
        }
        if example.is_none() {
            example = Some((perm.to_vec(), closed));
        }
        true
    })?;
    Ok(match found {
        Some((completion, order)) => Decision::Closes { completion, order },
        None => Decision::Stuck {
            completions: tried,
            example,
        },
    })
}

/// Decider (b): is there a completion avoiding 2413 and 3142? Completions are built row by
/// row and abandoned as soon as the tiles placed so far contain a pattern (sides up to
/// [`MAX_PERM_SIDE`]).
pub fn decide_patterns(p: &PartialPerm) -> Result<Decision, WallError> {
    check_perm_side(p.side())?;
    if let Some(occ) = find_pattern(p) {
        let mut example = None;
        p.for_each_completion(|perm| {
            example = Some(perm.to_vec());
            false
        })?;
        return Ok(Decision::Blocked {
            in_given: Some(occ),
            example: example.map(|perm| (perm, occ)),
        });
    }
    let n = p.side();
    let empty: Vec<usize> = (0..n).filter(|&r| p.col(r).is_none()).collect();
    fn go(i: usize, empty: &[usize], cur: &mut PartialPerm) -> Option<Vec<u16>> {
        if i == empty.len() {
            return cur.as_complete();
        }
        let free = ((1u32 << cur.side()) - 1) & !cur.used_cols();
        let mut rest = free;
        while rest != 0 {
            let c = rest.trailing_zeros() as u16;
            rest &= rest - 1;
            cur.cols[empty[i]] = Some(c);
            if find_pattern(cur).is_none()
                && let Some(done) = go(i + 1, empty, cur)
            {
                return Some(done);
            }
            cur.cols[empty[i]] = None;
        }
        None
    }
    let mut cur = p.clone();
    Ok(match go(0, &empty, &mut cur) {
        Some(completion) => Decision::Separable { completion },
        None => {
            let mut example = None;
            p.for_each_completion(|perm| {
                if let Ok(c) = PartialPerm::complete(perm) {
                    example = find_pattern(&c).map(|o| (perm.to_vec(), o));
                }
                false
            })?;
            Decision::Blocked {
                in_given: None,
                example,
            }
        }
    })
}

/// Table 1 by decider (a), plainly: every one of the n! permutations is built row by row and
/// its closure computed, the closure of each prefix being shared by all permutations that
/// extend it. Parallel over the first two rows.
pub fn count_yes_plain(n: usize) -> Result<u64, WallError> {
    check_perm_side(n)?;
    if n == 1 {
        return Ok(1);
    }
    let full = ((1u32 << n) - 1) as u16;
    let starts: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
        .collect();
    Ok(starts
        .par_iter()
        .map(|&(a, b)| {
            let mut board = Board::empty(n);
            board.rows[0] = 1 << a;
            board.rows[1] = 1 << b;
            board.close(2);
            plain(&board, 2, full & !(1 << a) & !(1 << b))
        })
        .sum())
}

fn plain(board: &Board, k: usize, free: u16) -> u64 {
    let n = board.n;
    if k == n {
        return u64::from(board.is_full());
    }
    let mut total = 0;
    let mut rest = free;
    while rest != 0 {
        let c = rest.trailing_zeros();
        rest &= rest - 1;
        let mut next = *board;
        next.rows[k] = 1 << c;
        next.close(k + 1);
        total += plain(&next, k + 1, free & !(1 << c));
    }
    total
}

/// Whether some completion of a prefix could still close the wall, by an optimistic
/// relaxation: give the future rows `k..n` *every* free column at once. The closure is
/// monotone (more tiles never cover less), and every completion's tiles are a subset of that
/// block, so if even the block's closure leaves a cell empty, no completion closes the wall.
fn may_close(board: &Board, k: usize, free: u16) -> bool {
    let mut relaxed = *board;
    for r in k..board.n {
        relaxed.rows[r] = free;
    }
    relaxed.close(board.n);
    relaxed.is_full()
}

fn pruned(board: &Board, k: usize, free: u16, stats: &mut [u64; 2]) -> u64 {
    let n = board.n;
    if k == n {
        return u64::from(board.is_full());
    }
    if k + 2 < n {
        stats[0] += 1;
        if !may_close(board, k, free) {
            stats[1] += 1;
            return 0;
        }
    }
    let mut total = 0;
    let mut rest = free;
    while rest != 0 {
        let c = rest.trailing_zeros();
        rest &= rest - 1;
        let mut next = *board;
        next.rows[k] = 1 << c;
        next.close(k + 1);
        total += pruned(&next, k + 1, free & !(1 << c), stats);
    }
    total
}

/// Table 1 by decider (a), faster: [`count_yes_plain`] with a sound pruning (a prefix is
/// abandoned when even giving the remaining rows every free column cannot close the wall)
/// and the left-right mirror (a permutation and its mirror image close alike, so only first
/// tiles in the left half are enumerated and counted twice). Returns the count and the
/// number of prefixes tested and pruned.
pub fn count_yes_pruned(n: usize) -> Result<(u64, [u64; 2]), WallError> {
    check_perm_side(n)?;
    if n == 1 {
        return Ok((1, [0, 0]));
    }
    let full = ((1u32 << n) - 1) as u16;
    let starts: Vec<(usize, usize)> = (0..n.div_ceil(2))
        .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
        .collect();
    Ok(starts
        .par_iter()
        .map(|&(a, b)| {
            let mut board = Board::empty(n);
            board.rows[0] = 1 << a;
            board.rows[1] = 1 << b;
            board.close(2);
            let mut stats = [0u64; 2];
            let c = pruned(&board, 2, full & !(1 << a) & !(1 << b), &mut stats);
            // Column a and its mirror n - 1 - a (the middle column of an odd side is its
            // own mirror).
            let weight = if 2 * a + 1 == n { 1 } else { 2 };
            (weight * c, stats)
        })
        .reduce(
            || (0, [0, 0]),
            |x, y| (x.0 + y.0, [x.1[0] + y.1[0], x.1[1] + y.1[1]]),
        ))
}

/// The number of separable permutations of n by decider (b) (every permutation, built row by
/// row, abandoned at the first pattern), for checking Table 1 independently on small n.
pub fn count_separable(n: usize) -> Result<u64, WallError> {
    check_perm_side(n)?;
    fn go(cur: &mut PartialPerm, k: usize) -> u64 {
        let n = cur.side();
        if k == n {
            return 1;
        }
        let free = ((1u32 << n) - 1) & !cur.used_cols();
        let mut rest = free;
        let mut total = 0;
        while rest != 0 {
            let c = rest.trailing_zeros() as u16;
            rest &= rest - 1;
            cur.cols[k] = Some(c);
            if !creates_pattern(cur, k) {
                total += go(cur, k + 1);
            }
            cur.cols[k] = None;
        }
        total
    }
    Ok(go(
        &mut PartialPerm {
            cols: vec![None; n],
        },
        0,
    ))
}

/// Whether the tile of row `last` (the last row placed so far, rows `0..=last` all placed)
/// completes a 2413 or 3142 with three earlier rows.
fn creates_pattern(p: &PartialPerm, last: usize) -> bool {
    let z = p.cols[last].unwrap_or(0);
    let col = |r: usize| p.cols[r].unwrap_or(0);
    for a in 0..last {
        let w = col(a);
        for b in a + 1..last {
            let x = col(b);
            for c in b + 1..last {
                let y = col(c);
                if (y < w && w < z && z < x) || (x < z && z < w && w < y) {
                    return true;
                }
            }
        }
    }
    false
}

/// The large Schröder numbers r_0, r_1, ...: 1, 2, 6, 22, 90, ... (r_{n-1} separable
/// permutations of n, West 1995). Recurrence (m+1) r_m = 3(2m-1) r_{m-1} - (m-2) r_{m-2}.
pub fn schroder(m: usize) -> u128 {
    let mut r = [1u128, 2u128];
    if m < 2 {
        return r[m];
    }
    for i in 2..=m {
        let i128v = i as u128;
        let next = (3 * (2 * i128v - 1) * r[1] - (i128v - 2) * r[0]) / (i128v + 1);
        r = [r[1], next];
    }
    r[1]
}

/// Every partial permutation of side n (each row gets a column or nothing, columns
/// distinct; sum over k of C(n,k)^2 k! of them), sides up to [`MAX_PERM_SIDE`].
pub fn all_partial_perms(n: usize) -> Result<Vec<PartialPerm>, WallError> {
    check_perm_side(n)?;
    let mut all = Vec::new();
    fn generate(r: usize, used: u32, cur: &mut Vec<Option<u16>>, out: &mut Vec<PartialPerm>) {
        let n = cur.len();
        if r == n {
            out.push(PartialPerm { cols: cur.clone() });
            return;
        }
        cur[r] = None;
        generate(r + 1, used, cur, out);
        for c in 0..n as u16 {
            if used >> c & 1 == 0 {
                cur[r] = Some(c);
                generate(r + 1, used | 1 << c, cur, out);
            }
        }
        cur[r] = None;
    }
    generate(0, 0, &mut vec![None; n], &mut all);
    Ok(all)
}

fn check_perm_side(n: usize) -> Result<(), WallError> {
    if (1..=MAX_PERM_SIDE).contains(&n) {
        Ok(())
    } else {
        Err(WallError::Side {
            n,
            max: MAX_PERM_SIDE,
        })
    }
}
