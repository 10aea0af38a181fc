//! The games the arena can run, behind one object-safe interface.
//!
//! A game joins the arena by implementing [`ArenaGame`] (how to set up a table, which
//! players exist) and adding `Driver::<G>::boxed()` to [`drivers`]. Everything else
//! (schedule, runner, store, statistics) is game-independent.

use std::marker::PhantomData;

use tessera_core::record::GameSeeds;
use tessera_core::{Agent, Budget, Game, GameRng, play_game};

use crate::error::ArenaError;
use crate::registry::{AgentInfo, Registry, RegistryError};

/// A game the arena can play.
pub trait ArenaGame: Game {
    /// Fewest seats at a table.
    const MIN_PLAYERS: usize;
    /// Most seats at a table.
    const MAX_PLAYERS: usize;
    /// A guard against agents that never finish: a game longer than this many actions is
    /// an error.
    const MAX_ACTIONS: usize = 100_000;

    /// A new game for `players` seats (checked to be in range), set up with `rng` (for
    /// example the random starting player).
    fn new_game(players: usize, rng: &mut GameRng) -> Self;

    /// The game's players.
    fn registry() -> Registry<Self>;
}

/// One finished game, in game-independent form.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// Final scores, seat 0 first.
    pub scores: Vec<i32>,
    /// Winning seats (several for a shared win).
    pub winners: Vec<usize>,
    /// Number of actions played.
    pub actions: u32,
    /// The full game record as JSON ([`tessera_core::GameRecord`]).
    pub record: String,
}

/// A game behind an object-safe interface, so the command line picks it by name.
pub trait GameDriver: Send + Sync {
    /// The game's name (`azul`, `nim`).
    fn name(&self) -> &'static str;
    /// Fewest and most seats.
    fn players(&self) -> (usize, usize);
    /// Its registered players.
    fn agents(&self) -> Vec<AgentInfo>;
    /// Checks an agent specification by building the agent once (so a bad parameter value
    /// is reported before a run starts).
    fn check_agent(&self, spec: &str) -> Result<(), RegistryError>;
    /// Plays one game with `seats[i]` (agent specifications) at seat `i` from `seed`.
    fn play(&self, seats: &[&str], seed: u64) -> Result<PlayedGame, ArenaError>;
}

/// The [`GameDriver`] of an [`ArenaGame`].
pub struct Driver<G>(PhantomData<fn() -> G>);

impl<G: ArenaGame> Driver<G> {
    /// The driver, boxed for [`drivers`].
    pub fn boxed() -> Box<dyn GameDriver> {
        Box::new(Driver::<G>(PhantomData))
    }
}

/// Plays one game of `G` from `seed` with the given agents, as the arena does: the table is
/// set up with [`GameSeeds::setup_rng`], agents see [`Budget::default`] (their own limits
/// come from their specification).
pub fn play_seeded<G: ArenaGame>(
    agents: &mut [Box<dyn Agent<G>>],
    seed: u64,
) -> Result<(G, tessera_core::GameRecord<G::Chance>), ArenaError> {
    let players = agents.len();
    let mut setup = GameSeeds { seed }.setup_rng();
    let initial = G::new_game(players, &mut setup);
    let mut refs: Vec<&mut dyn Agent<G>> = agents
        .iter_mut()
        .map(|a| a.as_mut() as &mut dyn Agent<G>)
        .collect();
    let (state, record) = play_game(
        initial,
        &mut refs,
        &Budget::default(),
        seed,
        Some(G::MAX_ACTIONS),
        &mut (),
    )
    .map_err(|e| ArenaError::IllegalMove(e.to_string()))?;
    if record.result.is_none() {
        return Err(ArenaError::Unfinished {
            seed,
            actions: G::MAX_ACTIONS,
        });
    }
    Ok((state, record))
}

impl<G: ArenaGame> GameDriver for Driver<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn players(&self) -> (usize, usize) {
        (G::MIN_PLAYERS, G::MAX_PLAYERS)
    }

    fn agents(&self) -> Vec<AgentInfo> {
        G::registry().infos()
    }

    fn check_agent(&self, spec: &str) -> Result<(), RegistryError> {
        G::registry().build(spec).map(|_| ())
    }

    fn play(&self, seats: &[&str], seed: u64) -> Result<PlayedGame, ArenaError> {
        let registry = G::registry();
        let mut agents = seats
            .iter()
            .map(|s| registry.build(s))
            .collect::<Result<Vec<_>, _>>()?;
        let (_, record) = play_seeded::<G>(&mut agents, seed)?;
        let result = record.result.as_ref().ok_or(ArenaError::Unfinished {
            seed,
            actions: G::MAX_ACTIONS,
        })?;
        Ok(PlayedGame {
            scores: result.scores.as_slice().to_vec(),
            winners: result.winners.iter().map(|p| p.index()).collect(),
            actions: record.num_actions() as u32,
            record: serde_json::to_string(&record)
                .map_err(|e| ArenaError::Record(e.to_string()))?,
        })
    }
}

/// Every game the arena knows.
pub fn drivers() -> Vec<Box<dyn GameDriver>> {
    let mut v = crate::registry::azul::drivers();
    v.extend(crate::registry::qwirkle::drivers());
    v.push(Driver::<tessera_core::testgame::Nim>::boxed());
    v
}

/// The game named `name`.
pub fn driver(name: &str) -> Result<Box<dyn GameDriver>, ArenaError> {
    let all = drivers();
    let known = all.iter().map(|d| d.name()).collect::<Vec<_>>().join(", ");
    all.into_iter()
        .find(|d| d.name() == name)
        .ok_or(ArenaError::UnknownGame {
            name: name.to_string(),
            known,
        })
}
