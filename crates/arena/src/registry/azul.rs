//! Azul in the arena: the table set-up and the thesis' heuristic players. Search players
//! are registered in [`super::azul_search`], external engines in [`crate::ext`].

use crate::games::GameDriver;

/// The Azul driver (the rules engine is being written).
pub fn drivers() -> Vec<Box<dyn GameDriver>> {
    Vec::new()
}
