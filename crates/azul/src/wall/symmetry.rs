//! Wall pictures up to the 8 symmetries of the square (thesis section 3.3): Burnside's
//! lemma, and brute-force canonical forms as the independent check.

use rayon::prelude::*;

use super::WallError;
use super::grid::{check_side, full_mask};

/// The 8 symmetries of the square, as maps of (row, col) on an n x n wall.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Symmetry {
    /// The identity.
    Identity,
    /// Rotation by 90 degrees clockwise.
    Rot90,
    /// Rotation by 180 degrees.
    Rot180,
    /// Rotation by 270 degrees clockwise.
    Rot270,
    /// Mirror top-bottom (about the horizontal axis).
    FlipRows,
    /// Mirror left-right (about the vertical axis).
    FlipCols,
    /// Mirror about the main diagonal (transpose).
    Diagonal,
    /// Mirror about the anti-diagonal.
    AntiDiagonal,
}

impl Symmetry {
    /// All eight.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rot90,
        Symmetry::Rot180,
        Symmetry::Rot270,
        Symmetry::FlipRows,
        Symmetry::FlipCols,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
    ];

    /// Where cell (r, c) goes.
    pub fn map(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        let m = n - 1;
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rot90 => (c, m - r),
            Symmetry::Rot180 => (m - r, m - c),
            Symmetry::Rot270 => (m - c, r),
            Symmetry::FlipRows => (m - r, c),
            Symmetry::FlipCols => (r, m - c),
            Symmetry::Diagonal => (c, r),
            Symmetry::AntiDiagonal => (m - c, m - r),
        }
    }

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rot90 => "rotate 90",
            Symmetry::Rot180 => "rotate 180",
            Symmetry::Rot270 => "rotate 270",
            Symmetry::FlipRows => "mirror top-bottom",
            Symmetry::FlipCols => "mirror left-right",
            Symmetry::Diagonal => "mirror main diagonal",
            Symmetry::AntiDiagonal => "mirror anti-diagonal",
        }
    }

    /// The lengths of the cycles of this symmetry on the n^2 cells.
    pub fn cycles(self, n: usize) -> Vec<usize> {
        let mut seen = vec![false; n * n];
        let mut out = Vec::new();
        for start in 0..n * n {
            if seen[start] {
                continue;
            }
            let mut len = 0;
            let mut cell = start;
            while !seen[cell] {
                seen[cell] = true;
                len += 1;
                let (r, c) = self.map(n, cell / n, cell % n);
                cell = r * n + c;
            }
            out.push(len);
        }
        out
    }
}

/// Burnside's count for an n x n wall (n <= 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurnsideCount {
    /// Per symmetry: its number of cycles c and of pictures it fixes (2^c).
    pub fixed: Vec<(Symmetry, usize, u64)>,
    /// The number of orbits: the average number of fixed pictures.
    pub orbits: u64,
    /// Orbits by number of tiles k = 0..=n^2 (Burnside on each layer: a symmetry fixes the
    /// pictures that are unions of its cycles, counted by the coefficient of x^k in the
    /// product over cycles of (1 + x^len)).
    pub orbits_by_tiles: Vec<u64>,
}

/// Burnside's lemma on the n x n wall.
pub fn burnside(n: usize) -> Result<BurnsideCount, WallError> {
    check_side(n)?;
    let cells = n * n;
    let mut fixed = Vec::new();
    let mut total = 0u64;
    let mut by_tiles = vec![0u64; cells + 1];
    for g in Symmetry::ALL {
        let cycles = g.cycles(n);
        let f = 1u64 << cycles.len();
        total += f;
        fixed.push((g, cycles.len(), f));
        let mut poly = vec![0u64; cells + 1];
        poly[0] = 1;
        for &len in &cycles {
            for k in (len..=cells).rev() {
                poly[k] += poly[k - len];
            }
        }
        for (acc, p) in by_tiles.iter_mut().zip(&poly) {
            *acc += p;
        }
    }
    Ok(BurnsideCount {
        fixed,
        orbits: total / 8,
        orbits_by_tiles: by_tiles.into_iter().map(|t| t / 8).collect(),
    })
}

/// The brute-force count: every picture is mapped by all 8 symmetries and counted when it is
/// the smallest of its images (one representative per orbit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BruteCount {
    /// The number of canonical pictures (= orbits).
    pub orbits: u64,
    /// Canonical pictures by number of tiles.
    pub orbits_by_tiles: Vec<u64>,
    /// Orbits by size: `orbit_sizes[s]` = orbits with s pictures (s = 1, 2, 4, 8).
    pub orbit_sizes: [u64; 9],
}

/// Per-row image tables for the 8 symmetries.
struct Images {
    n: usize,
    /// `table[g][r * 32 + rowmask]` = the image of row r's bits under symmetry g.
    table: Vec<Vec<u32>>,
}

impl Images {
    fn new(n: usize) -> Self {
        let table = Symmetry::ALL
            .iter()
            .map(|&g| {
                let mut t = vec![0u32; n * 32];
                for r in 0..n {
                    for mask in 0..(1usize << n) {
                        let mut img = 0u32;
                        for c in 0..n {
                            if mask >> c & 1 == 1 {
                                let (r2, c2) = g.map(n, r, c);
                                img |= 1 << (r2 * n + c2);
                            }
                        }
                        t[r * 32 + mask] = img;
                    }
                }
                t
            })
            .collect();
        Images { n, table }
    }

    #[inline(always)]
    fn image(&self, g: usize, pic: u32) -> u32 {
        let n = self.n;
        let mask = (1u32 << n) - 1;
        let t = &self.table[g];
        let mut out = 0;
        for r in 0..n {
            out |= t[r * 32 + (pic >> (r * n) & mask) as usize];
        }
        out
    }
}

/// Counts orbits by canonical forms over all 2^(n^2) pictures (parallel).
pub fn brute_orbits(n: usize) -> Result<BruteCount, WallError> {
    check_side(n)?;
    let images = Images::new(n);
    let cells = n * n;
    let total = full_mask(n) as u64 + 1;
    let chunk = 1u64 << 16.min(cells);
    let per_chunk: Vec<(Vec<u64>, [u64; 9])> = (0..total.div_ceil(chunk))
        .into_par_iter()
        .map(|i| {
            let mut by_tiles = vec![0u64; cells + 1];
            let mut sizes = [0u64; 9];
            for pic in (i * chunk)..((i + 1) * chunk).min(total) {
                let pic = pic as u32;
                let mut canonical = true;
                let mut stabiliser = 1;
                for g in 1..8 {
                    let img = images.image(g, pic);
                    if img < pic {
                        canonical = false;
                        break;
                    }
                    if img == pic {
                        stabiliser += 1;
                    }
                }
                if canonical {
                    by_tiles[pic.count_ones() as usize] += 1;
                    sizes[8 / stabiliser] += 1;
                }
            }
            (by_tiles, sizes)
        })
        .collect();
    let mut by_tiles = vec![0u64; cells + 1];
    let mut sizes = [0u64; 9];
    for (t, s) in per_chunk {
        for (a, b) in by_tiles.iter_mut().zip(&t) {
            *a += b;
        }
        for (a, b) in sizes.iter_mut().zip(&s) {
            *a += b;
        }
    }
    Ok(BruteCount {
        orbits: by_tiles.iter().sum(),
        orbits_by_tiles: by_tiles,
        orbit_sizes: sizes,
    })
}
