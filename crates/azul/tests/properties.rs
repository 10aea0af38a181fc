//! Property tests over thousands of seeded random games, records, golden values and parser
//! robustness.

use std::collections::HashMap;

use proptest::prelude::*;
use tessera_azul::{AzulAction, AzulState, StateParseError};
use tessera_core::conformance::parse_never_panics;
use tessera_core::record::replay;
use tessera_core::rng::{derive_seed, seeded};
use tessera_core::{Agent, Budget, Game, PlayerId, RandomAgent, Turn, play_game};

/// Plays one random game with the fast uniform move path, checking every step.
fn checked_game(players: usize, seed: u64, roundtrip_every: usize) -> AzulState {
    let mut rng = seeded(seed);
    let mut s = AzulState::new_random(players, &mut rng);
    let mut legal = Vec::new();
    let mut step = 0usize;
    loop {
        s.check_invariants()
            .unwrap_or_else(|e| panic!("seed {seed} step {step}: {e}\n{s}"));
        if step.is_multiple_of(roundtrip_every) {
            let text = s.to_string();
            let back: AzulState = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back, s, "notation round trip: {text}");
            let json = serde_json::to_string(&s).unwrap();
            let back: AzulState = serde_json::from_str(&json).unwrap();
            assert_eq!(back, s, "JSON round trip: {json}");
        }
        match s.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                let deal = s.sample_chance(&mut rng);
                s.apply_chance(&deal)
                    .unwrap_or_else(|e| panic!("seed {seed}: sampled deal refused: {e}"));
            }
            Turn::Player(_) => {
                s.legal_actions(&mut legal);
                assert_eq!(legal.len(), s.num_legal_actions());
                let a = s.random_action(&mut rng).expect("a legal action");
                assert!(legal.contains(&a), "seed {seed}: {a} not in the legal list");
                let mut checked = s.clone();
                checked.try_apply(a).expect("legal actions apply");
                s.apply(a);
                assert_eq!(checked, s);
            }
        }
        step += 1;
        assert!(step < 2000, "seed {seed}: the game does not end");
    }
    assert!(s.outcome().is_some());
    s
}

#[test]
fn thousands_of_random_games_keep_every_invariant() {
    let mut rounds = 0u64;
    for players in 2..=4 {
        for i in 0..1000u64 {
            let s = checked_game(players, derive_seed(players as u64, i), 41);
            rounds += s.round() as u64;
        }
    }
    // Random games last several rounds on average.
    assert!(rounds > 3000 * 4, "{rounds} rounds in 3000 games");
}

#[test]
fn records_replay_to_the_same_final_state() {
    for players in 2..=4 {
        for i in 0..100u64 {
            let seed = derive_seed(1000 + players as u64, i);
            let initial = AzulState::new_random(players, &mut seeded(seed));
            let mut agents: Vec<RandomAgent<AzulState>> =
                (0..players).map(|_| RandomAgent::new()).collect();
            let mut seats: Vec<&mut dyn Agent<AzulState>> = agents
                .iter_mut()
                .map(|a| a as &mut dyn Agent<AzulState>)
                .collect();
            let (fin, record) =
                play_game(initial, &mut seats, &Budget::default(), seed, None, &mut ())
                    .expect("random agents play legal moves");
            let json = serde_json::to_string(&record).unwrap();
            let back = serde_json::from_str(&json).unwrap();
            let replayed: AzulState = replay(&back).expect("the record replays");
            assert_eq!(replayed, fin);
            assert_eq!(
                record.scores.last().unwrap(),
                &fin.scores().as_slice().to_vec()
            );
            // One score line per round plus the final one.
            assert_eq!(record.scores.len(), fin.round() as usize + 1);
        }
    }
}

#[test]
fn golden_seeded_games() {
    // Fixed forever: the rules, the deal sampler and the fast random player together.
    let finals: Vec<(u32, Vec<i32>)> = (2..=4)
        .map(|p| {
            let s = checked_game(p, 20_261_121, 1);
            (s.round(), s.scores().as_slice().to_vec())
        })
        .collect();
    let golden: Vec<(u32, Vec<i32>)> =
        vec![(7, vec![3, 0]), (9, vec![2, 0, 0]), (7, vec![0, 0, 11, 0])];
    assert_eq!(finals, golden);
}

#[test]
fn random_action_is_uniform_over_the_legal_list() {
    let mut rng = seeded(5);
    let mut s = AzulState::new(2, PlayerId(0));
    let deal = s.sample_chance(&mut rng);
    s.apply_chance(&deal).unwrap();
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    let n = legal.len();
    assert!(n > 50, "{n} legal moves at the start of a round");
    let draws = 1000 * n;
    let mut counts: HashMap<AzulAction, usize> = HashMap::new();
    for _ in 0..draws {
        *counts
            .entry(s.random_action(&mut rng).unwrap())
            .or_default() += 1;
    }
    assert_eq!(counts.len(), n);
    for a in &legal {
        let c = counts[a];
        assert!(
            (850..=1150).contains(&c),
            "{a} drawn {c} times of 1000 expected"
        );
    }
}

#[test]
fn malformed_states_are_refused_with_the_field_named() {
    let good = "2 1 deal 1 1 -/-/-/-/- 1 20,20,20,20,20 0,0,0,0,0 \
        0:-,-,-,-,-:...../...../...../...../.....:- 0:-,-,-,-,-:...../...../...../...../.....:-";
    assert!(good.parse::<AzulState>().is_ok());
    let field = |text: &str| match text.parse::<AzulState>() {
        Err(StateParseError::Field { field, .. }) => field,
        other => panic!("{text}: expected a field error, got {other:?}"),
    };
    // Truncated.
    assert!(matches!(
        good[..40].parse::<AzulState>(),
        Err(StateParseError::FieldCount { .. })
    ));
    assert!(matches!(
        "".parse::<AzulState>(),
        Err(StateParseError::FieldCount { .. })
    ));
    assert_eq!(field(&good.replacen("2 1 deal", "5 1 deal", 1)), "players");
    assert_eq!(field(&good.replacen("deal", "draft", 1)), "phase");
    assert_eq!(
        field(&good.replacen("-/-/-/-/-", "-/-/-/-", 1)),
        "factories"
    );
    assert_eq!(
        field(&good.replacen("-/-/-/-/-", "-/-/Q/-/-", 1)),
        "factory 3"
    );
    assert_eq!(
        field(&good.replacen("20,20,20,20,20", "20,20,20,20", 1)),
        "bag"
    );
    assert_eq!(
        field(&good.replacen("0:-,-,-,-,-", "0:-,-,-,-,-,-", 1)),
        "P1 pattern lines"
    );
    assert_eq!(
        field(&good.replacen("0:-,-,-,-,-", "0:-,-,X3,-,-", 1)),
        "P1 pattern line 3"
    );
    assert_eq!(
        field(&good.replacen("0:-,-,-,-,-", "0:-,-,R4,-,-", 1)),
        "P1 pattern line 3"
    );
    assert_eq!(
        field(&good.replacen(":...../", ":Y..../", 1)),
        "P1 wall row 1"
    );
    assert_eq!(field(&good.replacen("0:-", "-3:-", 1)), "P1 score");
    assert_eq!(field(&good.replacen(" 1 20,", " 3 20,", 1)), "centre");
    // Every field reads, but the position is impossible.
    let imp = |text: &str| match text.parse::<AzulState>() {
        Err(StateParseError::Impossible(why)) => why,
        other => panic!("{text}: expected an impossible position, got {other:?}"),
    };
    // 21 blue tiles.
    assert!(imp(&good.replacen("0,0,0,0,0", "1,0,0,0,0", 1)).contains("21 blue"));
    assert!(imp(&good.replacen("20,20,20,20,20", "20,20,19,20,20", 1)).contains("19 red"));
    // No token anywhere.
    assert!(imp(&good.replacen(" 1 20,", " - 20,", 1)).contains("token"));
}

#[test]
fn malformed_actions_are_refused() {
    for bad in [
        "", "1B", "1B23", "0B1", "AB1", "1X1", "1B6", "1B0", "CB-", "??", "1 B",
    ] {
        assert!(bad.parse::<AzulAction>().is_err(), "{bad}");
    }
    let err = "1X1".parse::<AzulAction>().unwrap_err().to_string();
    assert!(err.contains("colour 'X'"), "{err}");
}

fn sample_notations() -> Vec<String> {
    let mut out = Vec::new();
    for p in 2..=4 {
        let mut rng = seeded(p as u64);
        let mut s = AzulState::new_random(p, &mut rng);
        while s.turn() != Turn::Terminal {
            out.push(s.to_string());
            match s.turn() {
                Turn::Chance => {
                    let d = s.sample_chance(&mut rng);
                    s.apply_chance(&d).unwrap();
                }
                _ => {
                    let a = s.random_action(&mut rng).unwrap();
                    s.apply(a);
                }
            }
        }
        out.push(s.to_string());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn action_parser_never_panics(text in "\\PC{0,6}") {
        parse_never_panics::<AzulAction>(&text).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn action_parser_on_near_moves(text in "[0-9cCfF ]?[BYRKWbyrkwXQ1]?[0-9fF]?[0-9]?") {
        parse_never_panics::<AzulAction>(&text).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn state_parser_never_panics(text in "\\PC{0,200}") {
        parse_never_panics::<AzulState>(&text).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn state_parser_on_mutated_positions(
        idx in 0usize..400,
        pos in 0usize..10_000,
        repl in "[0-9BYRKW.,:/ 1-]{0,3}",
    ) {
        let notations = sample_notations_cached();
        let text = &notations[idx % notations.len()];
        let cut = pos % (text.len() + 1);
        let end = (cut + 2).min(text.len());
        let mutated = format!("{}{}{}", &text[..cut], repl, &text[end..]);
        parse_never_panics::<AzulState>(&mutated).map_err(TestCaseError::fail)?;
        if let Ok(s) = mutated.parse::<AzulState>() {
            // Anything accepted is a valid position.
            prop_assert!(s.check_invariants().is_ok());
        }
    }
}

fn sample_notations_cached() -> &'static [String] {
    use std::sync::OnceLock;
    static CACHE: OnceLock<Vec<String>> = OnceLock::new();
    CACHE.get_or_init(sample_notations)
}
