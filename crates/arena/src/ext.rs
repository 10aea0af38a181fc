//! External engines over the text protocol (owned by the search room).
//!
//! Add the `ext` entry (a [`crate::registry::ParamKind::Rest`] parameter receives the
//! program's command line unsplit) to [`entries`]; it is appended to the Azul registry.

use crate::registry::AgentEntry;

/// External-engine entries (none yet).
pub fn entries<G: tessera_core::Game>() -> Vec<AgentEntry<G>> {
    Vec::new()
}
