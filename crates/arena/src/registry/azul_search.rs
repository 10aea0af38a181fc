//! Azul search players (owned by the search room).
//!
//! Add one [`AgentEntry`] per player to the list below; the registry picks them up. Names
//! and parameters are typed on the command line as `NAME:KEY=VALUE:FLAG` (no commas), for
//! example `alphabeta:depth=3` or `minimax:time=100ms`. Agents receive
//! `Budget::default()` from the arena, so they take their limits from their parameters.
//! When the Azul engine lands, `G` below becomes the Azul state type.

use super::AgentEntry;

/// The search players' entries (none yet).
pub fn entries<G: tessera_core::Game>() -> Vec<AgentEntry<G>> {
    Vec::new()
}
