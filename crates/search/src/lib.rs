//! # tessera-search
//!
//! Game-independent search algorithms over the `tessera-core` contracts.
//!
//! - [`adversarial`]: minimax, alpha-beta, alpha-beta with presorting, iterative deepening
//!   under time / node / depth limits, a transposition table, expectimax over sampled chance,
//!   paranoid and max^n for 3-4 players, and [`adversarial::SearchAgent`] to play with them.
//! - [`mcts`]: Monte Carlo tree search guided by a learned value (PUCT, no play-outs), with
//!   sampled chance outcomes widened as time allows, and [`mcts::MctsAgent`] to play with it.
//! - [`learn`]: logistic regression on game results (for learned evaluators).
//! - `single`: single-agent solvers over [`tessera_core::Puzzle`] (BFS, DFS, IDDFS, greedy,
//!   A*, IDA*) with statistics.

#![warn(missing_docs)]

pub mod adversarial;
pub mod learn;
pub mod mcts;
pub mod single;
