//! Single-agent solvers over [`tessera_core::Puzzle`], instrumented.
//!
//! | solver | function | optimal | memory |
//! |---|---|---|---|
//! | breadth-first search | [`bfs`] | yes | every position seen |
//! | depth-first search, depth cap (20 by default) | [`dfs`] | no | positions seen with their depth |
//! | iterative deepening | [`iddfs`] | yes | the current path only |
//! | greedy best-first | [`greedy`] | no | every position seen + open list |
//! | A* | [`astar`] | with an admissible heuristic | every position seen + open list |
//! | IDA* | [`idastar`] | with an admissible heuristic | the current path only |
//!
//! Every run returns a [`SearchResult`]: the solution (if one was found), and [`SearchStats`]:
//! nodes expanded (positions whose successors were generated), nodes generated (successors
//! produced, duplicates included, opposite moves skipped excluded), the peak bytes of the
//! search's own containers and the wall-clock time.
//!
//! **Memory** is measured from the containers' real capacities at their peak: `Vec` and
//! `BinaryHeap` as `capacity * size_of::<T>()`, the standard `HashMap` as its allocated
//! buckets (`buckets * (size_of::<(K, V)>() + 1) + 16`, the bucket count recovered exactly from
//! `capacity()`), plus [`Puzzle::state_heap_bytes`] of every stored position. Containers never
//! shrink during a run, so their final size is their peak. A test with a counting global
//! allocator checks the figure against the allocator's own count.
//!
//! **Opposite moves**: with [`Options::skip_opposite`], a move for which
//! [`Puzzle::is_opposite`]`(previous, move)` holds is not generated.
//!
//! ```
//! use tessera_search::single::{self, Algorithm, Options};
//! use tessera_tiles::{builtin_level, Heuristic};
//! let level = builtin_level(8).unwrap();
//! let r = single::solve(level, Algorithm::AStar, |s| Heuristic::Admissible.evaluate(level, s),
//!                       &Options::default());
//! assert_eq!(r.solution.as_ref().map(Vec::len), Some(13));
//! assert!(r.stats.expanded > 0 && r.stats.peak_bytes > 0);
//! ```

mod best_first;
mod bfs;
mod depth_first;
mod memory;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tessera_core::Puzzle;

pub use best_first::{astar, greedy};
pub use bfs::bfs;
pub use depth_first::{dfs, idastar, iddfs};

/// Search settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Skip a move that [`Puzzle::is_opposite`] says is redundant after the previous one.
    pub skip_opposite: bool,
    /// Depth cap of [`dfs`].
    pub dfs_depth_cap: u32,
    /// Deepest iteration of [`iddfs`] and the largest f-bound of [`idastar`].
    pub max_depth: u32,
    /// Stop after this many expansions (then the status is [`Status::NodeLimit`]).
    pub node_limit: Option<u64>,
    /// Stop when this instant passes (the clock is read every 64 expansions; then the
    /// status is [`Status::TimeLimit`]): a caller's time budget. Not serialized.
    #[serde(skip)]
    pub deadline: Option<std::time::Instant>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            skip_opposite: true,
            dfs_depth_cap: 20,
            max_depth: 100,
            node_limit: None,
            deadline: None,
        }
    }
}

/// How a run ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A solution was found.
    Solved,
    /// The search space (within the depth cap, if any) holds no solution.
    NoSolution,
    /// The node limit was reached first.
    NodeLimit,
    /// The deadline passed first.
    TimeLimit,
}

/// What a run measured.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchStats {
    /// Positions whose successors were generated.
    pub expanded: u64,
    /// Successors generated (duplicates included).
    pub generated: u64,
    /// Peak bytes held by the search's containers (see the module docs).
    pub peak_bytes: usize,
    /// Iterations (iterative deepening and IDA*; 1 for the others).
    pub iterations: u32,
    /// Wall-clock time of the run.
    #[serde(with = "duration_micros")]
    pub elapsed: Duration,
}

mod duration_micros {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;
    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64() * 1e6)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let us = f64::deserialize(d)?;
        Ok(Duration::from_secs_f64(us.max(0.0) / 1e6))
    }
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// How the run ended.
    pub status: Status,
    /// The moves from the initial position to a goal, when solved.
    pub solution: Option<Vec<M>>,
    /// Measurements.
    pub stats: SearchStats,
}

impl<M> SearchResult<M> {
    /// The solution's length, when solved.
    pub fn solution_len(&self) -> Option<usize> {
        self.solution.as_ref().map(Vec::len)
    }
}

/// The solvers by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Breadth-first search.
    Bfs,
    /// Depth-first search with a depth cap.
    Dfs,
    /// Iterative deepening depth-first search.
    Iddfs,
    /// Greedy best-first search.
    Greedy,
    /// A*.
    AStar,
    /// Iterative deepening A*.
    IdaStar,
}

impl Algorithm {
    /// Every solver.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Bfs,
        Algorithm::Dfs,
        Algorithm::Iddfs,
        Algorithm::Greedy,
        Algorithm::AStar,
        Algorithm::IdaStar,
    ];

    /// True if the solver uses a heuristic.
    pub const fn uses_heuristic(self) -> bool {
        matches!(
            self,
            Algorithm::Greedy | Algorithm::AStar | Algorithm::IdaStar
        )
    }

    /// True if its solutions are shortest (for A* and IDA*: given an admissible heuristic).
    pub const fn is_optimal(self, admissible_heuristic: bool) -> bool {
        match self {
            Algorithm::Bfs | Algorithm::Iddfs => true,
            Algorithm::Dfs | Algorithm::Greedy => false,
            Algorithm::AStar | Algorithm::IdaStar => admissible_heuristic,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::Bfs => "bfs",
            Algorithm::Dfs => "dfs",
            Algorithm::Iddfs => "iddfs",
            Algorithm::Greedy => "greedy",
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
        })
    }
}

/// An algorithm name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm {0:?}: expected bfs, dfs, iddfs, greedy, astar or idastar")]
pub struct ParseAlgorithmError(pub String);

impl FromStr for Algorithm {
    type Err = ParseAlgorithmError;
    fn from_str(s: &str) -> Result<Algorithm, ParseAlgorithmError> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "bfs" | "ucs" | "uniform" => Algorithm::Bfs,
            "dfs" => Algorithm::Dfs,
            "iddfs" | "id" | "iterative-deepening" => Algorithm::Iddfs,
            "greedy" | "gbfs" => Algorithm::Greedy,
            "astar" | "a*" => Algorithm::AStar,
            "idastar" | "ida*" | "ida" => Algorithm::IdaStar,
            _ => return Err(ParseAlgorithmError(s.to_string())),
        })
    }
}

/// Runs `algorithm` on `puzzle`; `heuristic` is used by greedy, A* and IDA* only. A heuristic
/// value of `f64::INFINITY` declares a position hopeless: it is not searched further.
pub fn solve<P, H>(
    puzzle: &P,
    algorithm: Algorithm,
    heuristic: H,
    options: &Options,
) -> SearchResult<P::Move>
where
    P: Puzzle,
    H: FnMut(&P::State) -> f64,
{
    match algorithm {
        Algorithm::Bfs => bfs(puzzle, options),
        Algorithm::Dfs => dfs(puzzle, options),
        Algorithm::Iddfs => iddfs(puzzle, options),
        Algorithm::Greedy => greedy(puzzle, heuristic, options),
        Algorithm::AStar => astar(puzzle, heuristic, options),
        Algorithm::IdaStar => idastar(puzzle, heuristic, options),
    }
}

/// Follows parent links from `node` back to the root of a node arena.
fn path_from<S, M: Copy>(nodes: &[Node<S, M>], mut node: u32) -> Vec<M> {
    let mut path = Vec::new();
    while let Some(m) = nodes[node as usize].mv {
        path.push(m);
        node = nodes[node as usize].parent;
    }
    path.reverse();
    path
}

/// A search-tree node kept by the graph searches.
#[derive(Clone, Debug)]
struct Node<S, M> {
    state: S,
    parent: u32,
    mv: Option<M>,
    g: u32,
}

/// Why the search must stop now, if it must: the node limit is reached, or the deadline has
/// passed (read every 64 expansions).
fn over_limit(options: &Options, expanded: u64) -> Option<Status> {
    if options.node_limit.is_some_and(|l| expanded >= l) {
        return Some(Status::NodeLimit);
    }
    let look = expanded % 64 == 63;
    (look
        && options
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d))
    .then_some(Status::TimeLimit)
}
