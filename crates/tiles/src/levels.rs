//! The 12 levels of the course project, shipped inside the crate.

use std::sync::OnceLock;

use crate::format::parse_levels;
use crate::model::Level;

/// The level file as shipped (`levels/match-the-tiles-levels.txt`).
pub const LEVELS_TEXT: &str = include_str!("../levels/match-the-tiles-levels.txt");

/// Number of built-in levels.
pub const NUM_LEVELS: usize = 12;

/// The 12 built-in levels, numbered 1 to 12 (index 0 is level 1).
///
/// ```
/// let levels = tessera_tiles::builtin_levels();
/// assert_eq!(levels.len(), 12);
/// assert_eq!(levels[7].known_optimal(), Some(13));
/// ```
pub fn builtin_levels() -> &'static [Level] {
    static LEVELS: OnceLock<Vec<Level>> = OnceLock::new();
    // The shipped file is checked by the crate's tests; a broken copy cannot be built into a
    // release without failing them.
    LEVELS.get_or_init(|| parse_levels(LEVELS_TEXT).unwrap_or_default())
}

/// Built-in level `number` (1 to 12).
pub fn builtin_level(number: usize) -> Option<&'static Level> {
    number.checked_sub(1).and_then(|i| builtin_levels().get(i))
}
