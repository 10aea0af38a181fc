//! # tessera-tiles
//!
//! Match the Tiles, the one-player sliding puzzle of the course project (seed 004): an N x M
//! grid with obstacles, coloured pieces and targets; a move slides ALL pieces left, right, up
//! or down until each meets the border, an obstacle or a piece; the level is solved when every
//! piece stands on a target of its colour.
//!
//! - [`Level`]: the model ([`Level::apply`], [`Level::is_solved`], [`Level::replay`]) and the
//!   [`tessera_core::Puzzle`] implementation the generic solvers of `tessera-search` use.
//! - [`parse_levels`] / `Level::from_str` / `Display`: the level text format, errors with
//!   line and column.
//! - [`builtin_levels`]: the 12 levels with their optima.
//! - [`Heuristic`]: the seed's heuristics and an admissible one.
//! - [`Level::optimal_solution`] / [`Level::hint`]: built-in optimal solving for hints.
//! - [`generator`]: seeded random levels with a wanted optimum.
//!
//! ```
//! use tessera_tiles::{builtin_level, Dir};
//! let level = builtin_level(2).unwrap();
//! let solution = level.optimal_solution(&level.start()).unwrap().unwrap();
//! assert_eq!(solution.len(), 4);
//! assert!(level.is_solution(&solution));
//! assert_eq!(level.hint(&level.start()).unwrap(), Some(solution[0]));
//! ```

#![warn(missing_docs)]

mod format;
pub mod generator;
mod heuristic;
mod levels;
mod model;
mod solve;

pub use format::{ParseError, ParseErrorKind, parse_levels};
pub use heuristic::{Heuristic, ParseHeuristicError};
pub use levels::{LEVELS_TEXT, NUM_LEVELS, builtin_level, builtin_levels};
pub use model::{
    Colour, Dir, Level, LevelError, MAX_PIECES, MAX_SIDE, ParseDirError, State, format_moves,
    parse_moves,
};
pub use solve::{DEFAULT_STATE_LIMIT, SolveStopped, StateLimit};
