//! The core conformance kit on Qwirkle for 2, 3 and 4 players.

use tessera_core::conformance::{Config, check};
use tessera_qwirkle::Qwirkle;

#[test]
fn conformance_2_3_4_players() {
    let cfg = Config {
        games: 4,
        roundtrip_every: 3,
        ..Config::quick()
    };
    let report = check(
        |players, _rng| Qwirkle::new(players).expect("2-4 players"),
        &cfg,
    )
    .unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(report.games, 12);
    assert!(report.actions > 12 * 20, "{report:?}");
    assert!(report.illegal_refused > 0, "{report:?}");
}
