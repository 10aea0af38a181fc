//! The thesis' wall analysis (section 3 of seed 000), as exact and verified computations.
//!
//! - [`grid`]: n x n pictures, the placement score of a tile, tiling orders and their grids;
//! - [`dp`]: the dynamic program over all pictures (best/worst score and exact counts of the
//!   orders reaching them, from the empty wall or any partial wall);
//! - [`brute`]: the same figures by enumerating every order (small walls), the cross-check;
//! - [`tiling`]: the OptimalAzulTiling problem, its two enumerating deciders and Table 1;
//! - [`separable`]: decider (c), the same problem in polynomial time (O(n^4)), with a
//!   completion and an optimal order for yes-instances;
//! - [`symmetry`]: pictures up to the 8 symmetries of the square (Burnside and brute force).
//!
//! ```
//! use tessera_azul::wall::{dp::WallDp, grid::Picture};
//! let dp = WallDp::solve(Picture::empty(3).unwrap());
//! assert_eq!(dp.best().score, 3 * 3 * 3 + 3 * 3 - 3); // n^3 + n^2 - n
//! assert_eq!(dp.example_order(true).score(), dp.best().score);
//! ```

pub mod brute;
pub mod dp;
pub mod grid;
pub mod separable;
pub mod symmetry;
pub mod tiling;

pub use dp::{Extreme, WallDp};
pub use grid::{Picture, Placement, TilingOrder};

/// What can go wrong with wall-analysis input.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum WallError {
    /// The wall side is outside the supported range.
    #[error("wall side {n} is not supported: expected 1 to {max}")]
    Side {
        /// The side given.
        n: usize,
        /// The largest side supported.
        max: usize,
    },
    /// A bit mask names cells outside the n x n wall.
    #[error("bit mask {bits:#x} has cells outside the {n}x{n} wall")]
    BitsOutOfRange {
        /// The side.
        n: usize,
        /// The mask given.
        bits: u32,
    },
    /// A cell outside the wall.
    #[error("cell (row {row}, column {col}) is outside the {n}x{n} wall")]
    CellOutOfRange {
        /// The side.
        n: usize,
        /// The row (from 0).
        row: usize,
        /// The column (from 0).
        col: usize,
    },
    /// A tile placed on a covered cell.
    #[error("cell (row {row}, column {col}) is already covered")]
    CellCovered {
        /// The row (from 0).
        row: usize,
        /// The column (from 0).
        col: usize,
    },
    /// Text that does not describe a wall, an order or an instance.
    #[error("{0}")]
    Parse(String),
    /// A computation too large for the method asked for.
    #[error("{0}")]
    TooLarge(String),
}
