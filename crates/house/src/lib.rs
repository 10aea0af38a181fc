//! # tessera-house
//!
//! The registrations every front end names a game and a player by (the CLI, the web server,
//! the Python package and the tournaments of `tessera-arena`):
//! - [`games`]: every game behind one object-safe [`GameDriver`], found by name
//!   ([`driver`], [`drivers`]); a game joins by implementing [`ArenaGame`];
//! - [`handle`]: any registered game and its agents behind object-safe handles, picked by
//!   name at run time (the Python package's `tessera.make`);
//! - [`registry`]: every player of every game by name (`greedy`, `strategic:diagonal`,
//!   `alphabeta:depth=3`), with parameters, descriptions and difficulty levels;
//! - [`spec`]: the text of an agent specification;
//! - [`protocol`]: the engine protocol's commands and replies, shared by the server
//!   ([`engine`], every game through [`engine::EngineGame`]) and the external-engine client
//!   ([`ext`]);
//! - [`terminal`]: terminal play for any game from its protocol notation (`tessera play nim`);
//! - [`error`]: the typed errors.
//!
//! One game of the Nim test game between two registered players:
//!
//! ```
//! let driver = tessera_house::driver("nim").unwrap();
//! let played = driver.play(&["first", "random"], 7).unwrap();
//! assert_eq!(played.scores.len(), 2);
//! ```

#![warn(missing_docs)]

pub mod engine;
pub mod error;
pub mod ext;
pub mod ext_error;
pub mod game;
pub mod games;
pub mod handle;
pub mod protocol;
pub mod registry;
pub mod spec;
pub mod terminal;

pub use engine::EngineGame;
pub use error::{ArenaError, MergeError, ParamsError, RunError};
pub use games::{ArenaGame, GameDriver, GameVisitor, Lineup, Worker, driver, drivers, visit_games};
pub use registry::{AgentEntry, Registry};
