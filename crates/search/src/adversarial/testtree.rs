//! A synthetic perfect-information game for testing searches: a pseudo-random game tree
//! grown from a seed. Every node has 1-5 children (or none: an early end), the next player
//! is chosen pseudo-randomly (turns do not simply alternate), and every node has a value per
//! player, so depth-limited searches have something to evaluate everywhere.
//!
//! State notation: `PLAYERS MOVER DEPTH_LEFT ID` (mover from 1), e.g. `2 1 6 12345`. Action
//! notation: the child index from 0.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tessera_core::rng::mix64;
use tessera_core::{Game, GameRng, Outcome, PerPlayer, PlayerId, Turn};
use thiserror::Error;

use super::{Evaluator, Value};

/// A node of the synthetic tree.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TreeGame {
    players: u8,
    mover: u8,
    depth_left: u8,
    id: u64,
}

/// A child index.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Branch(pub u8);

/// Errors of the synthetic game.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TreeError {
    /// Malformed text.
    #[error("malformed tree game text: {0}")]
    Parse(String),
    /// A child that does not exist.
    #[error("no such child: {0}")]
    Illegal(u8),
    /// The game has no chance.
    #[error("the tree game has no chance events")]
    NoChance,
}

impl TreeGame {
    /// The root of the tree `seed` with `players` players and `depth` plies.
    pub fn new(players: usize, depth: u8, seed: u64) -> Self {
        assert!((1..=4).contains(&players));
        TreeGame {
            players: players as u8,
            mover: (mix64(seed) % players as u64) as u8,
            depth_left: depth,
            id: seed,
        }
    }

    /// Plies left to the tree's depth (0: a leaf of the tree).
    pub fn depth_left(&self) -> u8 {
        self.depth_left
    }

    /// Number of children of this node.
    pub fn branching(&self) -> u8 {
        if self.depth_left == 0 {
            return 0;
        }
        let h = mix64(self.id ^ 0x5151 ^ u64::from(self.depth_left));
        if h.is_multiple_of(13) {
            0
        } else {
            1 + (h >> 8) as u8 % 5
        }
    }

    /// The node's value for every player (in -10..=10).
    pub fn values(&self) -> PerPlayer<Value> {
        PerPlayer::from_fn(self.players as usize, |p| {
            (mix64(self.id ^ (u64::from(self.depth_left) << 40)).wrapping_add(p.0 as u64 * 0x9E37)
                % 21) as Value
                - 10
        })
    }
}

impl fmt::Display for Branch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Branch {
    type Err = TreeError;
    fn from_str(s: &str) -> Result<Self, TreeError> {
        s.trim()
            .parse()
            .map(Branch)
            .map_err(|_| TreeError::Parse(format!("'{s}' is not a child index")))
    }
}

impl fmt::Display for TreeGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.players,
            self.mover + 1,
            self.depth_left,
            self.id
        )
    }
}

impl FromStr for TreeGame {
    type Err = TreeError;
    fn from_str(s: &str) -> Result<Self, TreeError> {
        let p: Vec<&str> = s.split_whitespace().collect();
        if p.len() != 4 {
            return Err(TreeError::Parse("expected PLAYERS MOVER DEPTH ID".into()));
        }
        let num = |x: &str| {
            x.parse::<u64>()
                .map_err(|_| TreeError::Parse(format!("'{x}' is not a number")))
        };
        let players = num(p[0])?;
        let mover = num(p[1])?;
        let depth = num(p[2])?;
        if !(1..=4).contains(&players) || mover == 0 || mover > players || depth > 255 {
            return Err(TreeError::Parse(
                "players 1-4, mover 1..=players, depth <= 255".into(),
            ));
        }
        Ok(TreeGame {
            players: players as u8,
            mover: mover as u8 - 1,
            depth_left: depth as u8,
            id: num(p[3])?,
        })
    }
}

impl Game for TreeGame {
    type Action = Branch;
    type Chance = ();
    type View = TreeGame;
    type ActionError = TreeError;
    type ChanceError = TreeError;
    type ParseError = TreeError;
    type ActionParseError = TreeError;
    const INFO: tessera_core::GameInfo = tessera_core::GameInfo {
        name: "tree",
        title: "Test tree",
        min_players: 1,
        max_players: tessera_core::MAX_PLAYERS,
        chance: false,
        hidden_info: false,
    };

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn turn(&self) -> Turn {
        if self.branching() == 0 {
            Turn::Terminal
        } else {
            Turn::Player(PlayerId(self.mover))
        }
    }

    fn legal_actions(&self, out: &mut Vec<Branch>) {
        out.clear();
        out.extend((0..self.branching()).map(Branch));
    }

    fn apply(&mut self, a: Branch) {
        debug_assert!(a.0 < self.branching());
        // Commutative update: different move orders reach the same node (transpositions).
        self.id = self.id.wrapping_add(mix64(u64::from(a.0) + 7));
        self.depth_left -= 1;
        self.mover =
            (mix64(self.id ^ 0xABCD ^ u64::from(self.depth_left)) % u64::from(self.players)) as u8;
    }

    fn try_apply(&mut self, a: Branch) -> Result<(), TreeError> {
        if a.0 >= self.branching() {
            return Err(TreeError::Illegal(a.0));
        }
        self.apply(a);
        Ok(())
    }

    fn sample_chance(&self, _rng: &mut GameRng) {}

    fn apply_chance(&mut self, _outcome: &()) -> Result<(), TreeError> {
        Err(TreeError::NoChance)
    }

    fn scores(&self) -> PerPlayer<i32> {
        self.values()
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.turn() != Turn::Terminal {
            return None;
        }
        let v = self.values();
        let best = v.as_slice().iter().copied().max().unwrap_or(0);
        Some(Outcome {
            winners: v
                .iter()
                .filter(|(_, x)| **x == best)
                .map(|(p, _)| p)
                .collect(),
            scores: v,
        })
    }

    fn view(&self, _player: PlayerId) -> TreeGame {
        self.clone()
    }
}

/// The evaluator of the synthetic game: its node values; keys are the node ids (so the
/// transposition table can be exercised).
#[derive(Clone, Debug, Default)]
pub struct TreeEval;

impl Evaluator<TreeGame> for TreeEval {
    fn evaluate(&mut self, state: &TreeGame) -> PerPlayer<Value> {
        state.values()
    }

    fn key(&self, state: &TreeGame) -> Option<u64> {
        Some(mix64(state.id ^ (u64::from(state.depth_left) << 56)))
    }
}
