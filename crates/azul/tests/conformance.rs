//! The core conformance kit on Azul for 2, 3 and 4 players.

use tessera_azul::AzulState;
use tessera_core::conformance::{Config, check};

#[test]
fn azul_passes_the_conformance_kit() {
    let report = check(AzulState::new_random, &Config::thorough(20)).expect("Azul conforms");
    assert_eq!(report.games, 60);
    assert!(report.actions > 60 * 40, "games are real games");
    assert!(report.chance_events >= 60 * 4);
    assert!(report.illegal_refused > 0);
}
