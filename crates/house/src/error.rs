//! The arena's errors: typed, with the underlying error as `#[source]` where there is one.

use thiserror::Error;

use crate::registry::RegistryError;

/// Why a tournament's parameters do not make a tournament.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParamsError {
    /// `--games 0`.
    #[error("--games must be at least 1")]
    NoGames,
    /// `--series 0`.
    #[error("--series must be at least 1")]
    NoSeries,
    /// Fewer than two agents.
    #[error(
        "a tournament needs at least two agents, got {0}; for self-play list one twice \
         (--agents greedy,greedy)"
    )]
    TooFewAgents(usize),
    /// A table size the game is not played at.
    #[error("{game} is played by {min} to {max} players, not {given}")]
    Seats {
        /// The game's name.
        game: &'static str,
        /// Fewest seats.
        min: usize,
        /// Most seats.
        max: usize,
        /// Seats asked for.
        given: usize,
    },
    /// Fewer agents than seats.
    #[error(
        "{seats} seats but only {agents} agents: list an agent once per seat \
         (e.g. --agents a,b,a,b for four seats)"
    )]
    FewerAgentsThanSeats {
        /// Seats per table.
        seats: usize,
        /// Agents listed.
        agents: usize,
    },
    /// A round robin too large to schedule.
    #[error("{agents} agents at {seats}-seat tables make {tables} tables; that is too many")]
    TooManyTables {
        /// Agents listed.
        agents: usize,
        /// Seats per table.
        seats: usize,
        /// Tables it would make.
        tables: u64,
    },
    /// More games than the store can number.
    #[error("too many games")]
    TooManyGames,
    /// The SPRT option is malformed or does not fit the run.
    #[error("{0}")]
    Sprt(String),
    /// The anchor of the ratings is malformed or names no agent.
    #[error("{0}")]
    Anchor(String),
    /// More worker threads than the machine can use.
    #[error(
        "--jobs {jobs} is more than {max} (4 per core on this machine's {cores} cores); use --jobs {max} or fewer (0: one per core)"
    )]
    TooManyJobs {
        /// Threads asked for.
        jobs: usize,
        /// The limit.
        max: usize,
        /// Cores available.
        cores: usize,
    },
    /// `--shard` is not `K/N`.
    #[error("shard '{0}' is malformed: expected K/N with 1 <= K <= N, e.g. 2/8")]
    Shard(String),
    /// The run names another game than the driver.
    #[error("run is for game '{run}', driver is '{driver}'")]
    WrongGame {
        /// The run's game.
        run: String,
        /// The driver's game.
        driver: &'static str,
    },
}

/// Why a run cannot be started or resumed in a results file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The file already holds this run, incomplete, and `--resume` was not given.
    #[error(
        "{path} already holds this run (run {run}, {done} of {total} games stored); add --resume \
         to complete it, use `tessera report --db {path}` to see it, or choose another --db"
    )]
    Exists {
        /// The file.
        path: String,
        /// The run's id.
        run: i64,
        /// Games stored.
        done: u64,
        /// Games in the run.
        total: u64,
    },
    /// `--resume` for a run the file does not hold.
    #[error("--resume: {path} holds no run with these parameters (shard {shard}); {listing}")]
    NotFound {
        /// The file.
        path: String,
        /// The shard asked for.
        shard: String,
        /// What the file holds.
        listing: String,
    },
}

/// Why files cannot be merged.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MergeError {
    /// No input.
    #[error("nothing to merge: name at least one input file")]
    NoInputs,
    /// An input is the output.
    #[error("{0} is both an input and the output")]
    InputIsOutput(String),
    /// A game beyond its run's size.
    #[error("{path}: run {run} has game {index} but the run has only {total} games")]
    GameOutOfRange {
        /// The input file.
        path: String,
        /// The run.
        run: i64,
        /// The game's index.
        index: u64,
        /// Games in the run.
        total: u64,
    },
    /// The same game differs between files.
    #[error(
        "game {index} of `{command}` differs between {path} and the files merged before it \
         (made by different versions?)"
    )]
    Differs {
        /// The game's index.
        index: u64,
        /// The run's command line.
        command: String,
        /// The input file.
        path: String,
    },
    /// A split needs at least two outputs.
    #[error(
        "a split needs at least two output files (one per shard), got {0}; to copy a run whole use tessera merge"
    )]
    TooFewShards(usize),
    /// The same output named twice.
    #[error("{0} is named twice among the outputs")]
    OutputTwice(String),
    /// A run with a sequential test cannot be split.
    #[error(
        "{path}: run {run} has a sequential test (--sprt), which decides from every pair in order, so it cannot be split into shards"
    )]
    SequentialRun {
        /// The input file.
        path: String,
        /// The run.
        run: i64,
    },
}

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
    #[error(transparent)]
    Params(#[from] ParamsError),
    /// The run cannot be started or resumed in this file.
    #[error(transparent)]
    Run(#[from] RunError),
    /// Files cannot be merged.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// The results database cannot be used.
    #[error("database {path}: {detail}")]
    Store {
        /// The file.
        path: String,
        /// What went wrong.
        detail: String,
    },
    /// The game could not be played (an agent chose an illegal move).
    #[error(transparent)]
    Table(#[from] tessera_core::table::TableError),
    /// A game ran past the action limit.
    #[error("game with seed {seed} did not finish within {actions} actions")]
    Unfinished {
        /// The game's seed.
        seed: u64,
        /// The limit.
        actions: usize,
    },
    /// A game record could not be written as JSON.
    #[error("game record")]
    RecordJson(#[source] serde_json::Error),
    /// The worker threads could not be started.
    #[error("cannot start worker threads")]
    Threads(#[source] rayon::ThreadPoolBuildError),
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
