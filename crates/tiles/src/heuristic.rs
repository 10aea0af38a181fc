//! Heuristics: estimates of the moves left, for greedy best-first search, A* and IDA*.
//!
//! | name | admissible | what it measures |
//! |---|---|---|
//! | `zero` | yes | nothing (A* becomes uniform-cost search) |
//! | `admissible` (alias `rook`) | yes, and consistent | the largest rook distance of a piece to its nearest own target |
//! | `manhattan` | no | the seed's first heuristic: sum of Manhattan distances to the nearest own target |
//! | `alignment` | no | the seed's intermediate heuristic: pairs of pieces ordered unlike their targets |
//! | `direction` | no | the seed's final heuristic: on target / in line with a clear or blocked path / slope deviation |
//! | `random[:SEED]` | no | a pseudo-random value in [0, 3) fixed per position and seed |
//!
//! The rook distance of a cell is the least number of straight runs through free cells from
//! it to a target; a move slides each piece along one such run (or not at all), so no piece
//! can reach a target in fewer moves than its rook distance, and a move lowers the largest
//! one by at most 1. A piece with no rook path makes the position hopeless: the estimate is
//! then infinite.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::model::{Level, State};

/// A heuristic of Match the Tiles positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Heuristic {
    /// Always 0.
    Zero,
    /// Largest rook distance of a piece to its nearest own target: admissible and consistent.
    Admissible,
    /// Sum over pieces of the Manhattan distance to the nearest own target (the seed's first).
    Manhattan,
    /// Pairs of pieces whose relative order differs from their targets' (the seed's second).
    Alignment,
    /// The seed's final heuristic (rewards on-target and clear in-line pieces, penalises
    /// blocked lines and slope deviation).
    Direction,
    /// A pseudo-random value in [0, 3) per position, fixed by the seed.
    Random {
        /// Seed of the values.
        seed: u64,
    },
}

impl Heuristic {
    /// Every heuristic, the random one with seed 0.
    pub const ALL: [Heuristic; 6] = [
        Heuristic::Zero,
        Heuristic::Admissible,
        Heuristic::Manhattan,
        Heuristic::Alignment,
        Heuristic::Direction,
        Heuristic::Random { seed: 0 },
    ];

    /// True if the estimate never exceeds the true number of moves left (A* and IDA* with it
    /// return optimal solutions).
    pub const fn is_admissible(self) -> bool {
        matches!(self, Heuristic::Zero | Heuristic::Admissible)
    }

    /// The estimate for `state` of `level` (`f64::INFINITY` means no solution from there).
    #[inline]
    pub fn evaluate(self, level: &Level, state: &State) -> f64 {
        match self {
            Heuristic::Zero => 0.0,
            Heuristic::Admissible => rook(level, state),
            Heuristic::Manhattan => manhattan(level, state),
            Heuristic::Alignment => alignment(level, state),
            Heuristic::Direction => direction(level, state),
            Heuristic::Random { seed } => {
                let x = tessera_core::rng::mix64(seed ^ state.to_u64());
                (x >> 11) as f64 / (1u64 << 53) as f64 * 3.0
            }
        }
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Heuristic::Zero => write!(f, "zero"),
            Heuristic::Admissible => write!(f, "admissible"),
            Heuristic::Manhattan => write!(f, "manhattan"),
            Heuristic::Alignment => write!(f, "alignment"),
            Heuristic::Direction => write!(f, "direction"),
            Heuristic::Random { seed: 0 } => write!(f, "random"),
            Heuristic::Random { seed } => write!(f, "random:{seed}"),
        }
    }
}

/// A heuristic name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown heuristic {0:?}: expected zero, admissible (or rook), manhattan, alignment, direction, random or random:SEED"
)]
pub struct ParseHeuristicError(pub String);

impl FromStr for Heuristic {
    type Err = ParseHeuristicError;
    fn from_str(s: &str) -> Result<Heuristic, ParseHeuristicError> {
        let t = s.trim().to_ascii_lowercase();
        Ok(match t.as_str() {
            "zero" | "none" => Heuristic::Zero,
            "admissible" | "rook" => Heuristic::Admissible,
            "manhattan" => Heuristic::Manhattan,
            "alignment" => Heuristic::Alignment,
            "direction" => Heuristic::Direction,
            "random" => Heuristic::Random { seed: 0 },
            _ => match t.strip_prefix("random:").and_then(|x| x.parse().ok()) {
                Some(seed) => Heuristic::Random { seed },
                None => return Err(ParseHeuristicError(s.to_string())),
            },
        })
    }
}

fn rook(level: &Level, state: &State) -> f64 {
    let mut worst = 0u8;
    for (i, c) in state.cells().enumerate() {
        worst = worst.max(level.rook_distance(i, c));
    }
    if worst == u8::MAX {
        f64::INFINITY
    } else {
        f64::from(worst)
    }
}

/// For each piece, (row, col) of its nearest own target by Manhattan distance.
fn nearest_targets(level: &Level, state: &State) -> arrayvec::ArrayVec<(i32, i32, i32, i32), 8> {
    let mut out = arrayvec::ArrayVec::new();
    for (i, c) in state.cells().enumerate() {
        let colour = level.piece_colour(i);
        let (r, col) = level.row_col(c);
        let (r, col) = (r as i32, col as i32);
        let mut best = (i32::MAX, r, col);
        for &(t, k) in level.targets() {
            if k == colour {
                let (tr, tc) = level.row_col(t);
                let (tr, tc) = (tr as i32, tc as i32);
                let d = (tr - r).abs() + (tc - col).abs();
                if d < best.0 {
                    best = (d, tr, tc);
                }
            }
        }
        out.push((r, col, best.1, best.2));
    }
    out
}

fn manhattan(level: &Level, state: &State) -> f64 {
    nearest_targets(level, state)
        .iter()
        .map(|&(r, c, tr, tc)| f64::from((tr - r).abs() + (tc - c).abs()))
        .sum()
}

fn alignment(level: &Level, state: &State) -> f64 {
    // Each pair of pieces earns 1 for the same horizontal order as its targets and 1 for the
    // same vertical order; the estimate is the reward missing from the maximum 2 per pair.
    let p = nearest_targets(level, state);
    let mut missing = 0;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let (a, b) = (p[i], p[j]);
            if (a.1 - b.1).signum() != (a.3 - b.3).signum() {
                missing += 1;
            }
            if (a.0 - b.0).signum() != (a.2 - b.2).signum() {
                missing += 1;
            }
        }
    }
    f64::from(missing)
}

fn direction(level: &Level, state: &State) -> f64 {
    // Per piece, the best over its own targets of: 0 on the target; 1 in line with a path
    // free of obstacles; 3 in line with an obstacle between; otherwise 2 + 3 * deviation,
    // deviation = min(|dy/dx|, |dx/dy|) in (0, 1]. These are the seed's rewards and
    // penalties shifted by a constant per piece, which changes no search.
    let mut total = 0.0;
    for (i, c) in state.cells().enumerate() {
        let colour = level.piece_colour(i);
        let (r, col) = level.row_col(c);
        let mut best = f64::INFINITY;
        for &(t, k) in level.targets() {
            if k != colour {
                continue;
            }
            let (tr, tc) = level.row_col(t);
            let v = if t == c {
                0.0
            } else if tr == r || tc == col {
                let clear = if tr == r {
                    (col.min(tc)..=col.max(tc)).all(|x| !level.is_obstacle(r * level.width() + x))
                } else {
                    (r.min(tr)..=r.max(tr)).all(|y| !level.is_obstacle(y * level.width() + col))
                };
                if clear { 1.0 } else { 3.0 }
            } else {
                let dy = (tr as f64 - r as f64).abs();
                let dx = (tc as f64 - col as f64).abs();
                2.0 + 3.0 * (dy / dx).min(dx / dy)
            };
            best = best.min(v);
        }
        total += best;
    }
    total
}
