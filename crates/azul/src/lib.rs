//! # tessera-azul
//!
//! Azul for 2-4 players.
//!
//! Module owners while the crate is being built (keep to your own files):
//! - `wall`: the thesis' wall analysis;
//! - `eval`: evaluators for search players;
//! - `players`: the thesis' heuristic players (Greedy, Smart, Strategic);
//! - everything else: the rules engine, notation and records.

pub mod eval;
pub mod players;
pub mod wall;
