//! Qwirkle in the arena (owned by the qwirkle room).
//!
//! To add Qwirkle: implement [`crate::ArenaGame`] for the Qwirkle state here (seats 2-4, a
//! set-up from the given generator, `registry()` returning `Registry::new("qwirkle",
//! entries)` with [`super::random_entry`] and the bots), and return
//! `vec![crate::games::Driver::<Qwirkle>::boxed()]` from [`drivers`]. Nothing else in the
//! arena needs to change: `tessera tournament qwirkle`, `tessera agents qwirkle`, the store
//! and the reports then work for it.

use crate::games::GameDriver;

/// The Qwirkle driver (none yet).
pub fn drivers() -> Vec<Box<dyn GameDriver>> {
    Vec::new()
}
