//! Seeded games of the searching bots, pinned to the records they produced before the
//! play-outs' move choice was made faster (2026-11-26): the faster policy must choose
//! exactly the moves the old one chose, so these games must not change.
//!
//! Each case plays one complete game at a small node budget and compares its final scores,
//! its number of events and a 64-bit FNV-1a digest of the record's events (JSON). The
//! values were printed by the code before the change (run with `--nocapture` to see them).

use tessera_core::{Agent, Budget, play_game};
use tessera_qwirkle::Qwirkle;
use tessera_qwirkle::bots::PointsBot;
use tessera_qwirkle::mc::MonteCarloBot;
use tessera_qwirkle::sage::{SageBot, SageConfig};
use tessera_qwirkle::seer::SeerBot;

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Plays `first` against points bots at `players` seats from `seed`; returns the final
/// scores, the number of events and the digest of the events.
fn play(first: &mut dyn Agent<Qwirkle>, players: usize, nodes: u64, seed: u64) -> Digest {
    let mut others: Vec<PointsBot> = (1..players).map(|_| PointsBot::new()).collect();
    let mut seats: Vec<&mut dyn Agent<Qwirkle>> = vec![first];
    for o in &mut others {
        seats.push(o);
    }
    let (end, record) = play_game(
        Qwirkle::new(players).unwrap_or_else(|e| panic!("{e}")),
        &mut seats,
        &Budget::nodes(nodes),
        seed,
        None,
        &mut (),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(tessera_core::Game::is_terminal(&end));
    let json = serde_json::to_string(&record.events).unwrap_or_else(|e| panic!("{e}"));
    let scores = record
        .result
        .map(|r| r.scores.as_slice().to_vec())
        .unwrap_or_default();
    (scores, record.events.len(), fnv1a(json.as_bytes()))
}

/// A game's final scores, number of events and digest of the events.
type Digest = (Vec<i32>, usize, u64);
/// The same, pinned.
type Pinned<'a> = (&'a [i32], usize, u64);

/// Prints every case first (the values to pin), then compares them.
fn check(cases: &[(String, Digest, Pinned)]) {
    for (name, got, _) in cases {
        println!("{name}: ({:?}, {}, {:#x})", got.0, got.1, got.2);
    }
    for (name, got, want) in cases {
        assert_eq!(
            (got.0.as_slice(), got.1, got.2),
            *want,
            "{name}: the game differs from the one recorded before the change"
        );
    }
}

#[test]
fn seeded_seer_games_are_unchanged() {
    let cases: Vec<_> = [
        (1u64, (&[193, 206][..], 105, 0xa432_35b0_3e46_0b25u64)),
        (2, (&[181, 176][..], 91, 0x5587_40ea_57e9_759a)),
        (10, (&[215, 200][..], 92, 0x6c08_1926_0ea5_418b)),
    ]
    .into_iter()
    .map(|(seed, want)| {
        let got = play(&mut SeerBot::new(), 2, 4, seed);
        (format!("seer seed {seed}"), got, want)
    })
    .collect();
    check(&cases);
}

/// Plays `sage` with `config` against points bots for every (seats, seed) case at 3 worlds
/// a move and compares each game with its pinned digest.
fn check_sage(label: &str, config: SageConfig, cases: &[(usize, u64, Pinned)]) {
    let cases: Vec<_> = cases
        .iter()
        .map(|&(players, seed, want)| {
            let got = play(&mut SageBot::with_config(config), players, 3, seed);
            (format!("{label} {players} seats seed {seed}"), got, want)
        })
        .collect();
    check(&cases);
}

/// The exact endgame of the default before 2026-11-28: every reply of the other player up
/// to the width, three turns, 64 nodes a world.
#[test]
fn seeded_sage_games_are_unchanged() {
    let before = SageConfig {
        depth: 3,
        replies: 8,
        endnodes: 64,
        ..SageConfig::default()
    };
    check_sage(
        "sage",
        before,
        &[
            (2, 3, (&[184, 173], 95, 0x688a_fcbf_cad4_581c)),
            (2, 4, (&[196, 199], 96, 0x2702_1ee7_ffa1_8a5c)),
            (2, 8, (&[220, 199], 100, 0xff97_9985_46d0_344c)),
            (3, 5, (&[155, 134, 124], 91, 0xc89a_cbd1_bb1b_328d)),
            (4, 6, (&[110, 102, 94, 126], 88, 0xb6aa_ccc0_ccba_1947)),
        ],
    );
}

/// The default since 2026-11-28 (the other player's highest-scoring reply in the exact
/// endgame, six turns, 1024 nodes a world), pinned when it became the default. At three
/// and four seats there is no exact endgame, so those games are the ones above.
#[test]
fn seeded_games_of_sage_s_default_are_unchanged() {
    check_sage(
        "sage's default",
        SageConfig::default(),
        &[
            // Seed 3's endgame chose the same moves under both models: the game above.
            (2, 3, (&[184, 173], 95, 0x688a_fcbf_cad4_581c)),
            (2, 4, (&[199, 203], 98, 0xd264_a6fb_8ccd_f9e0)),
            (2, 8, (&[220, 198], 100, 0x97db_6476_d2c4_ca7c)),
            (3, 5, (&[155, 134, 124], 91, 0xc89a_cbd1_bb1b_328d)),
            (4, 6, (&[110, 102, 94, 126], 88, 0xb6aa_ccc0_ccba_1947)),
        ],
    );
}

#[test]
fn seeded_montecarlo_games_are_unchanged() {
    let got = play(&mut MonteCarloBot::new(), 2, 4, 7);
    check(&[(
        "montecarlo seed 7".into(),
        got,
        (&[200, 223], 92, 0xe8b6_0f1e_010d_7a01),
    )]);
}
