//! Agents: anything that picks an action for the player to move.

use std::time::{Duration, Instant};

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::rng::GameRng;

/// Limits on one decision. Fields left `None` mean "no limit of this kind"; an agent with no
/// limit at all uses its own default.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Wall-clock time for this move.
    pub time: Option<Duration>,
    /// Nodes (or iterations, for sampling agents).
    pub nodes: Option<u64>,
    /// Search depth in plies.
    pub depth: Option<u32>,
}

impl Budget {
    /// A time-only budget.
    pub fn time(d: Duration) -> Self {
        Budget {
            time: Some(d),
            ..Budget::default()
        }
    }

    /// A depth-only budget.
    pub fn depth(d: u32) -> Self {
        Budget {
            depth: Some(d),
            ..Budget::default()
        }
    }

    /// A node/iteration-only budget.
    pub fn nodes(n: u64) -> Self {
        Budget {
            nodes: Some(n),
            ..Budget::default()
        }
    }

    /// The deadline of a time budget started now.
    pub fn deadline_from(&self, start: Instant) -> Option<Instant> {
        self.time.map(|t| start + t)
    }
}

/// What a search reported about its last decision (for the engine protocol and analysis).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchInfo {
    /// Deepest fully completed depth.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Leaf nodes evaluated.
    pub leaves: u64,
    /// Value of the chosen action from the mover's point of view, if the agent computes one.
    pub value: Option<f64>,
    /// Time used.
    pub elapsed: Duration,
}

/// A player: picks an action for the player to move.
///
/// Agents receive the state from the mover's point of view: for games with hidden
/// information the arena passes a [`Game::determinize`]d state, so hidden tiles are
/// resampled and cannot be peeked at.
pub trait Agent<G: Game>: Send {
    /// The agent's name with its parameters, as the registry spells it (`random`,
    /// `alphabeta:depth=3`).
    fn name(&self) -> String;

    /// Picks a legal action. Called only when `state.turn()` is a player's turn.
    fn choose(&mut self, state: &G, budget: &Budget, rng: &mut GameRng) -> G::Action;

    /// Called before a new game starts; agents with per-game memory reset it here.
    fn reset(&mut self) {}

    /// Statistics of the last decision, if the agent keeps any.
    fn last_info(&self) -> Option<SearchInfo> {
        None
    }
}

/// Picks uniformly among the legal actions.
///
/// ```
/// use tessera_core::{Agent, Budget, Game, RandomAgent, rng::seeded, testgame::Nim};
/// let mut agent = RandomAgent::<Nim>::new();
/// let state: Nim = "2 1 3,4 0,0".parse().unwrap();
/// let action = agent.choose(&state, &Budget::default(), &mut seeded(1));
/// let mut legal = Vec::new();
/// state.legal_actions(&mut legal);
/// assert!(legal.contains(&action));
/// ```
#[derive(Clone, Debug)]
pub struct RandomAgent<G: Game> {
    buf: Vec<G::Action>,
}

impl<G: Game> RandomAgent<G> {
    /// A new random player.
    pub fn new() -> Self {
        RandomAgent { buf: Vec::new() }
    }
}

impl<G: Game> Default for RandomAgent<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &G, _budget: &Budget, rng: &mut GameRng) -> G::Action {
        state.legal_actions(&mut self.buf);
        assert!(
            !self.buf.is_empty(),
            "RandomAgent asked to move with no legal action"
        );
        self.buf[rng.random_range(0..self.buf.len())]
    }
}
