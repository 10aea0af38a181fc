//! # tessera-core
//!
//! The contract shared by every Tessera game and agent:
//! - [`Game`]: states whose turn is a player's, chance's or nobody's ([`Turn`]); legal actions
//!   written into a caller-owned buffer; checked and unchecked `apply`; explicit, seeded
//!   chance; per-player views and determinization for hidden information; text and JSON forms.
//! - [`Agent`]: anything that picks an action within a [`Budget`].
//! - [`table`]: the match driver every front end drives (seats, seeds, steps, record, undo,
//!   agents' thinking as `Send` jobs); [`GameInfo`]: a game's facts, declared once.
//! - [`record`]: JSON game records that replay exactly, and [`play_game`], a table of agents.
//! - [`clock`]: game clocks (`60s+1s`) and the time manager that budgets each move.
//! - [`rng`]: the one seeded, portable generator.
//! - [`conformance`]: the kit of random-playout checks every game runs on itself.
//! - [`testgame`]: a tiny game for testing generic code.

#![warn(missing_docs)]

pub mod agent;
pub mod clock;
pub mod conformance;
pub mod fault;
pub mod game;
pub mod player;
pub mod puzzle;
pub mod record;
pub mod rng;
pub mod table;
pub mod testgame;

pub use agent::{Agent, Blundering, Budget, RandomAgent, SearchInfo};
pub use clock::Clock;
pub use game::{Game, GameInfo, Outcome, SeatsError, Turn};
pub use player::{MAX_PLAYERS, PerPlayer, PlayerId};
pub use puzzle::Puzzle;
pub use record::{Event, GameRecord, replay};
pub use rng::GameRng;
pub use table::{Seat, Table, play_game};
