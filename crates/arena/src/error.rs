//! The arena's errors.

use thiserror::Error;

use crate::registry::RegistryError;

/// Anything that stops a tournament, a merge or a report.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// No game of that name.
    #[error("unknown game '{name}'; known games: {known}")]
    UnknownGame {
        /// The name given.
        name: String,
        /// The games that exist.
        known: String,
    },
    /// An agent specification is wrong.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// The tournament's parameters do not make a tournament.
    #[error("{0}")]
    Params(String),
    /// The results database cannot be used.
    #[error("database {path}: {detail}")]
    Store {
        /// The file.
        path: String,
        /// What went wrong.
        detail: String,
    },
    /// An agent chose an illegal move.
    #[error("{0}")]
    IllegalMove(String),
    /// A game ran past the action limit.
    #[error("game with seed {seed} did not finish within {actions} actions")]
    Unfinished {
        /// The game's seed.
        seed: u64,
        /// The limit.
        actions: usize,
    },
    /// A game record could not be written or read.
    #[error("game record: {0}")]
    Record(String),
    /// The run was stopped (Ctrl-C) before it finished; finished games are stored.
    #[error(
        "stopped after {done} of {total} games; finished games are stored, complete the run with --resume"
    )]
    Interrupted {
        /// Games stored for this run (this shard).
        done: u64,
        /// Games in the run (this shard).
        total: u64,
    },
    /// Writing a report failed.
    #[error("writing {path}: {detail}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        detail: String,
    },
}
