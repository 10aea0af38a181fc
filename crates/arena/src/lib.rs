//! # tessera-arena
//!
//! Tournaments between agents, with real statistics and a durable store, over the games and
//! players named by `tessera-house` (re-exported here: [`games`], [`registry`], [`spec`],
//! [`protocol`], [`engine`], [`ext`], [`terminal`], [`error`]):
//! - [`schedule`]: seeded deals played once per seat rotation, round robins, shards;
//! - [`runner`]: parallel play (rayon) with batched, resumable storage;
//! - [`store`]: the SQLite results file (WAL, one row and one full record per game);
//! - [`merge`]: combining the files of a sharded run;
//! - [`stats`]: Wilson intervals, score spreads, per-series rows, Elo-style ratings,
//!   the thesis' Figure 20 curve;
//! - [`pentanomial`], [`sprt`], [`ratings`]: pair-aware statistics of paired games, the
//!   sequential probability ratio test and maximum-likelihood ratings with error bars
//!   (docs/statistics.md);
//! - [`analysis`]: those applied to a stored run (pairs, rotation sets, ratings with an
//!   anchor, the SPRT's state), as every report prints them;
//! - [`report`]: tables (text, CSV, JSON) and SVG/PNG charts.
//!
//! A whole tournament of the Nim test game, stored in a temporary file:
//!
//! ```
//! use tessera_arena::{games, runner, schedule::RunParams, store::Store};
//! let dir = tempfile::tempdir().unwrap();
//! let mut store = Store::open(&dir.path().join("runs.sqlite")).unwrap();
//! let params = RunParams::new("nim", &["first", "random"], 2, 10, 2, 7);
//! let driver = games::driver("nim").unwrap();
//! let report = runner::run_tournament(
//!     driver.as_ref(), &params, &mut store, &runner::RunOptions::default(), &mut (),
//! ).unwrap();
//! assert_eq!(report.summary.games, 20);
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod merge;
pub mod pentanomial;
pub mod ratings;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod sprt;
pub mod stats;
pub mod store;

pub use tessera_house::{engine, error, ext, games, handle, protocol, registry, spec, terminal};

pub use engine::EngineGame;
pub use error::{ArenaError, MergeError, ParamsError, RunError};
pub use games::{ArenaGame, GameDriver, Lineup, Worker, driver, drivers};
pub use registry::{AgentEntry, Registry};
