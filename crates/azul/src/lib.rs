//! # tessera-azul
//!
//! Azul for 2-4 players: the complete official rules ([`AzulState`] implements
//! [`tessera_core::Game`]), action and state notation, JSON forms, and pure scoring
//! functions ([`scoring`]).
//!
//! ```
//! use tessera_azul::AzulState;
//! use tessera_core::{Game, Turn, rng::seeded};
//! let mut rng = seeded(42);
//! let mut s = AzulState::new_random(2, &mut rng);
//! while s.turn() != Turn::Terminal {
//!     match s.turn() {
//!         Turn::Chance => {
//!             let deal = s.sample_chance(&mut rng);
//!             s.apply_chance(&deal).unwrap();
//!         }
//!         _ => {
//!             let a = s.random_action(&mut rng).unwrap();
//!             s.apply(a);
//!         }
//!     }
//! }
//! assert!(s.outcome().is_some());
//! ```
//!
//! Module owners while the crate is being built (keep to your own files):
//! - `wall`: the thesis' wall analysis;
//! - `eval`: evaluators for search players;
//! - `augur`: the learned win-chance evaluator (weights in `weights/`);
//! - `players`: the thesis' heuristic players (Greedy, Smart, Strategic);
//! - everything else: the rules engine, notation and records.

#![warn(missing_docs)]

pub mod action;
pub mod augur;
pub mod board_net;
pub mod colour;
pub mod eval;
pub mod notation;
pub mod observation;
pub mod players;
pub mod policy;
pub mod scoring;
pub mod state;
pub mod state_error;
pub mod wall;

pub use action::{ActionParseError, AzulAction, Dest, MAX_FACTORIES, Source};
pub use colour::{Colour, NUM_COLOURS, Tiles, TilesParseError};
pub use notation::{StateJson, StateParseError};
pub use state::{
    ActionError, AzulState, Board, BoardScoring, Deal, DealError, Phase, RoundReport, num_factories,
};
