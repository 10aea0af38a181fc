//! The examples of docs/notation.md parse, round-trip and replay.

use tessera_azul::{AzulAction, AzulState};
use tessera_core::Game;
use tessera_core::record::{GameRecord, replay};

const DOC: &str = include_str!("../../../docs/notation.md");

/// The contents of the fenced blocks tagged `tag`.
fn blocks(tag: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in DOC.lines() {
        match &mut current {
            None if line.trim() == format!("```{tag}") => current = Some(String::new()),
            None => {}
            Some(text) if line.trim() == "```" => {
                out.push(std::mem::take(text));
                current = None;
            }
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    assert!(!out.is_empty(), "docs/notation.md has no {tag} block");
    out
}

#[test]
fn action_examples_parse_and_round_trip() {
    let mut n = 0;
    for block in blocks("azul-action") {
        for line in block.lines().filter(|l| !l.trim().is_empty()) {
            let a: AzulAction = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            let canonical = a.to_string();
            assert_eq!(canonical, line.replace(' ', "").to_uppercase());
            assert_eq!(canonical.parse::<AzulAction>().unwrap(), a);
            n += 1;
        }
    }
    assert!(n >= 4);
}

fn state_examples() -> Vec<AzulState> {
    blocks("azul-state")
        .iter()
        .flat_map(|b| b.lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let s: AzulState = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(s.to_string(), line, "the doc shows the canonical notation");
            s.check_invariants().unwrap();
            s
        })
        .collect()
}

#[test]
fn state_examples_parse_and_round_trip() {
    let states = state_examples();
    assert_eq!(states.len(), 4);
    assert!(states[3].is_terminal());
}

#[test]
fn json_state_example_is_the_third_state() {
    let states = state_examples();
    for block in blocks("azul-state-json") {
        let s: AzulState = serde_json::from_str(&block).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s, states[2]);
        let again: AzulState = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(again, s);
    }
}

#[test]
fn record_example_replays_to_the_final_example() {
    let states = state_examples();
    for block in blocks("azul-record") {
        let rec: GameRecord<<AzulState as Game>::Chance> =
            serde_json::from_str(&block).unwrap_or_else(|e| panic!("{e}"));
        let fin: AzulState = replay(&rec).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(fin, states[3]);
        assert_eq!(
            rec.scores.last().unwrap(),
            &fin.scores().as_slice().to_vec()
        );
    }
}
