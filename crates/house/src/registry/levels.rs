//! Difficulty levels: named, numbered player specifications spaced in strength from `random`
//! to the strongest player, so a front end can offer "level 3 (casual)" without knowing the
//! players. `level:N` or `level:NAME` is accepted anywhere an agent specification is
//! (`tessera tournament azul --agents level:4,level:2`, `tessera play azul --opponent
//! level:3`, the browser's setup).
//!
//! The specifications and their ratings come from the round robins documented in
//! docs/players.md ("Difficulty levels and the ladder"); every level uses a node budget or
//! no search, so its strength does not depend on the machine.

use serde::Serialize;

/// One difficulty level of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Level {
    /// 1 is the weakest.
    pub number: u8,
    /// A one-word name (`novice`, `expert`).
    pub name: &'static str,
    /// One line for a setup screen.
    pub summary: &'static str,
    /// The agent specification it stands for.
    pub spec: &'static str,
}

/// The specification name that selects a level (`level:3`, `level:expert`).
pub const LEVEL_NAME: &str = "level";

/// Finds `key` (a number or a name, case-insensitive) among `levels`.
pub fn find<'a>(levels: &'a [Level], key: &str) -> Option<&'a Level> {
    match key.parse::<u8>() {
        Ok(n) => levels.iter().find(|l| l.number == n),
        Err(_) => levels.iter().find(|l| l.name.eq_ignore_ascii_case(key)),
    }
}

/// The levels as `1 beginner, 2 novice, ...`, for error messages.
pub fn listing(levels: &[Level]) -> String {
    levels
        .iter()
        .map(|l| format!("{} {}", l.number, l.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The level a front end offers by default: the middle one (the lower of two middles).
pub fn default_level(levels: &[Level]) -> Option<&Level> {
    levels.get(levels.len().saturating_sub(1) / 2)
}

/// Azul's levels.
pub const AZUL: &[Level] = &[
    Level {
        number: 1,
        name: "beginner",
        summary: "plays any legal move at random",
        spec: "random",
    },
    Level {
        number: 2,
        name: "novice",
        summary: "grabs the most tiles that fit, but half its moves are random",
        spec: "greedy:blunder=0.5",
    },
    Level {
        number: 3,
        name: "apprentice",
        summary: "grabs the most tiles that fit; a quarter of its moves are random",
        spec: "greedy:blunder=0.25",
    },
    Level {
        number: 4,
        name: "casual",
        summary: "always grabs the most tiles that fit a line, with no plan",
        spec: "greedy",
    },
    Level {
        number: 5,
        name: "intermediate",
        summary: "fills lines exactly and builds next to its tiles",
        spec: "strategic",
    },
    Level {
        number: 6,
        name: "club",
        summary: "looks a few moves ahead to the round's end (500 positions a move)",
        spec: "presort:nodes=500",
    },
    Level {
        number: 7,
        name: "advanced",
        summary: "searches the round and values wall bonuses (500 positions a move)",
        spec: "strong:nodes=500",
    },
    Level {
        number: 8,
        name: "expert",
        summary: "searches the round deeply and values wall bonuses (20,000 positions a move)",
        spec: "strong:nodes=20000",
    },
    Level {
        number: 9,
        name: "master",
        summary: "deep search valuing the chance to win the game (100,000 positions a move)",
        spec: "augur:nodes=100000:extend=0:weights=v3",
    },
    Level {
        number: 10,
        name: "grandmaster",
        summary: "the strongest: a tree search past the round's end, valuing positions with a learned network (100,000 positions a move)",
        spec: "oracle:mcts:outcomes=8:weights=v10:nodes=100000",
    },
];

/// Qwirkle's levels.
pub const QWIRKLE: &[Level] = &[
    Level {
        number: 1,
        name: "beginner",
        summary: "plays any legal move at random",
        spec: "random",
    },
    Level {
        number: 2,
        name: "novice",
        summary: "plays the highest-scoring placement, but 80% of its moves are random",
        spec: "points:blunder=0.8",
    },
    Level {
        number: 3,
        name: "casual",
        summary: "plays the highest-scoring placement half the time, else a random one",
        spec: "points:blunder=0.5",
    },
    Level {
        number: 4,
        name: "club",
        summary: "plays the highest-scoring placement; a quarter of its moves are random",
        spec: "points:blunder=0.25",
    },
    Level {
        number: 5,
        name: "master",
        summary: "the strongest: plays out its best placements in 16 sampled worlds",
        spec: "montecarlo:nodes=16",
    },
];
