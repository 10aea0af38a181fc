//! Single-agent puzzles: the contract between puzzle crates (Match the Tiles) and the
//! game-independent solvers of `tessera-search`.

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// A deterministic one-player puzzle: states, moves, goal test and successors.
pub trait Puzzle {
    /// A position; hashed and compared by the graph searches.
    type State: Clone + Eq + Hash + Debug;
    /// A move, with its notation.
    type Move: Copy + Eq + Hash + Debug + Display;

    /// The starting position.
    fn initial(&self) -> Self::State;

    /// True when `state` is solved.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// Clears `out` and writes every move from `state` with the position it leads to. Every
    /// move costs 1.
    fn successors(&self, state: &Self::State, out: &mut Vec<(Self::Move, Self::State)>);
}
