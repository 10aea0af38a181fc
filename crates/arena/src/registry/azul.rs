//! Azul in the arena: the table set-up and the registry, assembled from `random`, the
//! thesis' heuristic players (this file), the search players ([`super::azul_search`]) and
//! external engines ([`crate::ext`]).

use tessera_azul::AzulState;
use tessera_core::GameRng;

use super::{AgentEntry, Registry, random_entry};
use crate::games::{ArenaGame, Driver, GameDriver};

impl ArenaGame for AzulState {
    const MIN_PLAYERS: usize = tessera_azul::state::MIN_PLAYERS;
    const MAX_PLAYERS: usize = tessera_azul::state::MAX_PLAYERS;
    const MAX_ACTIONS: usize = 10_000;

    /// The starting player is drawn at random (the thesis: "the starting player ... randomly
    /// selected every single game").
    fn new_game(players: usize, rng: &mut GameRng) -> Self {
        AzulState::new_random(players, rng)
    }

    fn registry() -> Registry<Self> {
        registry()
    }
}

/// Every Azul player.
pub fn registry() -> Registry<AzulState> {
    let mut entries = vec![random_entry()];
    entries.extend(heuristic_entries());
    entries.extend(super::azul_search::entries());
    entries.extend(crate::ext::entries());
    Registry::new("azul", entries)
}

/// The thesis' heuristic players.
fn heuristic_entries() -> Vec<AgentEntry<AzulState>> {
    Vec::new()
}

/// The Azul driver.
pub fn drivers() -> Vec<Box<dyn GameDriver>> {
    vec![Driver::<AzulState>::boxed()]
}
