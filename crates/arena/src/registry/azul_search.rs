//! Azul search players (owned by the search room).
//!
//! Add one [`AgentEntry`] per player to the list below; `tessera agents azul`, tournaments
//! and `tessera play azul --seats` pick them up. Names and parameters are typed on the
//! command line as `NAME:KEY=VALUE:FLAG` (no commas), for example `alphabeta:depth=3` or
//! `minimax:time=100ms`. Declare each parameter in `params` (unknown ones are refused
//! before `build` is called) and read it in `build` with `spec.u64("depth", 3)?`,
//! `spec.duration("time")?` or `spec.flag("presort")?`. The arena passes
//! `Budget::default()` to `choose`, so agents take their limits from their parameters.

use tessera_azul::AzulState;

use super::AgentEntry;

/// The search players' entries.
pub fn entries() -> Vec<AgentEntry<AzulState>> {
    Vec::new()
}
