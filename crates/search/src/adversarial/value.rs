//! The search's value type, below the tree, the transposition table and the searches.

/// A search value (integer, so every search variant can be compared exactly).
pub type Value = i32;

/// Larger than any value an evaluator returns.
pub const INF: Value = 1_000_000_000;
