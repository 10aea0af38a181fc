//! # tessera-search
//!
//! Game-independent search algorithms over the `tessera-core` contracts.
//!
//! - `single`: single-agent solvers over [`tessera_core::Puzzle`] (BFS, DFS, IDDFS, greedy,
//!   A*, IDA*) with statistics.
//! - adversarial searches (minimax, alpha-beta, move ordering, iterative deepening, paranoid /
//!   max^n, MCTS) over [`tessera_core::Game`].

pub mod single;
