//! External engines over the text protocol (owned by the search room).
//!
//! Add the `ext` entry to [`entries`]: give it one parameter of kind
//! [`crate::registry::ParamKind::Rest`], and `build` receives the program's command line
//! unsplit in `spec.rest` (`ext:/path/to/program`). The entries are appended to the Azul
//! registry.

use tessera_azul::AzulState;

use crate::registry::AgentEntry;

/// External-engine entries.
pub fn entries() -> Vec<AgentEntry<AzulState>> {
    Vec::new()
}
