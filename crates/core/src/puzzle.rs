//! Single-agent puzzles: the contract between puzzle crates (Match the Tiles) and the
//! game-independent solvers of `tessera-search`.

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// A deterministic one-player puzzle: states, moves, goal test and successors.
///
/// Every move costs 1, so a shortest move sequence is an optimal solution.
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

    /// True when playing `next` right after `previous` can never be part of a shortest
    /// solution (for example because it undoes `previous`, or because the pair reaches the
    /// same position as `next` alone). Solvers asked to skip opposite moves do not generate
    /// such a `next`. The default says no pair is redundant.
    fn is_opposite(&self, previous: Self::Move, next: Self::Move) -> bool {
        let _ = (previous, next);
        false
    }

    /// Bytes of heap memory owned by `state` beyond `size_of::<Self::State>()` (for example a
    /// boxed board). Solvers add it to their memory figures; the default is 0, right for
    /// states that own no heap memory.
    fn state_heap_bytes(&self, state: &Self::State) -> usize {
        let _ = state;
        0
    }
}
