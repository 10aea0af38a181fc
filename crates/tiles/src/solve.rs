//! A breadth-first solver built into the puzzle crate: optimal solutions and hints for the
//! front ends, and exact distances for the level generator. (The instrumented, generic
//! solvers live in `tessera-search`; tests check the two against each other.)

use std::collections::HashMap;
use std::time::Instant;

use crate::model::{Dir, Level, State};

/// The search stopped because the position space is larger than the limit given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("more than {0} positions are reachable; raise the limit to search further")]
pub struct StateLimit(pub usize);

/// Why [`Level::optimal_solution_before`] stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveStopped {
    /// More positions than the limit.
    #[error(transparent)]
    Positions(#[from] StateLimit),
    /// The deadline passed first.
    #[error("the search ran out of time after {positions} positions")]
    Time {
        /// Positions kept when it stopped.
        positions: usize,
    },
}

/// Positions expanded between two looks at the clock.
const CLOCK_EVERY: usize = 64;

/// Default limit of [`Level::optimal_solution`]: positions kept in memory (about 40 bytes
/// each with the hash table, so at most some 200 MB).
pub const DEFAULT_STATE_LIMIT: usize = 5_000_000;

impl Level {
    /// A shortest solution from `from` (empty if already solved), `None` if there is none.
    /// Breadth-first search with the opposite-move pruning; stops with an error after
    /// [`DEFAULT_STATE_LIMIT`] positions.
    pub fn optimal_solution(&self, from: &State) -> Result<Option<Vec<Dir>>, StateLimit> {
        self.optimal_solution_within(from, DEFAULT_STATE_LIMIT)
    }

    /// [`Level::optimal_solution`] with an explicit limit on the positions kept.
    pub fn optimal_solution_within(
        &self,
        from: &State,
        limit: usize,
    ) -> Result<Option<Vec<Dir>>, StateLimit> {
        self.optimal_solution_before(from, limit, None)
            .map_err(|e| match e {
                SolveStopped::Positions(l) => l,
                // Without a deadline the clock never stops it.
                SolveStopped::Time { .. } => StateLimit(limit),
            })
    }

    /// [`Level::optimal_solution_within`] that also gives up when `deadline` passes (the
    /// clock is read every 64 expansions), so a hint honours a time budget.
    pub fn optimal_solution_before(
        &self,
        from: &State,
        limit: usize,
        deadline: Option<Instant>,
    ) -> Result<Option<Vec<Dir>>, SolveStopped> {
        if self.is_solved(from) {
            return Ok(Some(Vec::new()));
        }
        // nodes[i] = (position, parent index, move from parent)
        let mut nodes: Vec<(State, u32, Option<Dir>)> = vec![(*from, u32::MAX, None)];
        let mut seen: HashMap<u64, ()> = HashMap::new();
        seen.insert(from.to_u64(), ());
        let mut head = 0;
        while head < nodes.len() {
            if head % CLOCK_EVERY == CLOCK_EVERY - 1
                && deadline.is_some_and(|d| Instant::now() >= d)
            {
                return Err(SolveStopped::Time {
                    positions: nodes.len(),
                });
            }
            let (s, _, last) = nodes[head];
            for d in Dir::ALL {
                if last == Some(d.opposite()) {
                    continue;
                }
                let Some(t) = self.apply(&s, d) else { continue };
                if seen.insert(t.to_u64(), ()).is_some() {
                    continue;
                }
                if nodes.len() >= limit {
                    return Err(StateLimit(limit).into());
                }
                nodes.push((t, head as u32, Some(d)));
                if self.is_solved(&t) {
                    let mut path = Vec::new();
                    let mut i = nodes.len() - 1;
                    while let (_, parent, Some(d)) = nodes[i] {
                        path.push(d);
                        i = parent as usize;
                    }
                    path.reverse();
                    return Ok(Some(path));
                }
            }
            head += 1;
        }
        Ok(None)
    }

    /// The optimum from the start, `None` if the level cannot be solved.
    pub fn optimal_length(&self) -> Result<Option<usize>, StateLimit> {
        self.optimal_length_within(DEFAULT_STATE_LIMIT)
    }

    /// [`Level::optimal_length`] with an explicit limit on the positions kept.
    pub fn optimal_length_within(&self, limit: usize) -> Result<Option<usize>, StateLimit> {
        Ok(self
            .optimal_solution_within(&self.start(), limit)?
            .map(|s| s.len()))
    }

    /// The first move of a shortest solution from `state` (`None` if solved or hopeless).
    pub fn hint(&self, state: &State) -> Result<Option<Dir>, StateLimit> {
        Ok(self
            .optimal_solution(state)?
            .and_then(|s| s.first().copied()))
    }

    /// Every position reachable from `from` with its distance, in breadth-first order, up to
    /// distance `max_depth`; an error after `limit` positions.
    pub fn distances(
        &self,
        from: &State,
        max_depth: u32,
        limit: usize,
    ) -> Result<Vec<(State, u32)>, StateLimit> {
        let mut out = vec![(*from, 0u32)];
        let mut seen: HashMap<u64, ()> = HashMap::new();
        seen.insert(from.to_u64(), ());
        let mut head = 0;
        while head < out.len() {
            let (s, d) = out[head];
            head += 1;
            if d >= max_depth {
                continue;
            }
            for dir in Dir::ALL {
                if let Some(t) = self.apply(&s, dir)
                    && seen.insert(t.to_u64(), ()).is_none()
                {
                    if out.len() >= limit {
                        return Err(StateLimit(limit));
                    }
                    out.push((t, d + 1));
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_the_callers() {
        let level = crate::builtin_level(3).unwrap();
        // Level 3 is solved in 5 moves (LULUR) within the default limit.
        assert_eq!(level.optimal_length(), Ok(Some(5)));
        assert_eq!(
            level.optimal_length_within(DEFAULT_STATE_LIMIT),
            Ok(Some(5))
        );
        // Two positions are not enough to find it: the error names the limit given.
        assert_eq!(level.optimal_length_within(2), Err(StateLimit(2)));
        assert!(StateLimit(2).to_string().contains("more than 2 positions"));
    }

    #[test]
    fn a_deadline_stops_the_search_and_only_a_deadline() {
        // With the deadline already past, a search that needs more than 64 expansions
        // stops with `Time`; one that needs fewer answers as without a deadline.
        let past = Some(Instant::now());
        let mut stopped = 0;
        for n in 1..=crate::levels::NUM_LEVELS {
            let level = crate::builtin_level(n).unwrap();
            let start = level.start();
            let free = level.optimal_solution_before(&start, DEFAULT_STATE_LIMIT, None);
            match level.optimal_solution_before(&start, DEFAULT_STATE_LIMIT, past) {
                Err(SolveStopped::Time { positions }) => {
                    assert!(positions >= CLOCK_EVERY, "level {n}: {positions}");
                    stopped += 1;
                }
                other => assert_eq!(other, free, "level {n}"),
            }
        }
        assert!(
            stopped > 0,
            "no shipped level needs more than 64 expansions"
        );
    }
}
