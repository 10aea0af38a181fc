//! Single-agent solvers over `tessera_core::Puzzle`.
