//! Azul in the arena: the table set-up and the registry, assembled from `random`, the
//! thesis' heuristic players (this file), the search players ([`super::azul_search`]) and
//! external engines ([`crate::ext`]).

use tessera_azul::AzulState;
use tessera_azul::players::{Diagonal, Greedy, Smart, Strategic};
use tessera_core::GameRng;

use super::{AgentEntry, ParamDoc, ParamKind, Registry, random_entry};
use crate::games::{ArenaGame, Driver, GameDriver};
use crate::spec::SpecError;

impl ArenaGame for AzulState {
    const MAX_ACTIONS: usize = 10_000;

    /// The starting player is drawn at random (the thesis: "the starting player ... randomly
    /// selected every single game").
    fn new_game(players: usize, rng: &mut GameRng) -> Self {
        AzulState::new_random(players, rng)
    }

    fn registry() -> Registry<Self> {
        registry()
    }
}

/// Every Azul player.
pub fn registry() -> Registry<AzulState> {
    let mut entries = vec![random_entry()];
    entries.extend(heuristic_entries());
    entries.extend(super::azul_search::entries());
    entries.extend(crate::ext::entries());
    Registry::new(entries)
}

const STRATEGIC_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "diagonal",
        kind: ParamKind::Flag,
        doc: "prefer the wall's diagonal in round 1 (alone: the diagonal-only variant)",
    },
    ParamDoc {
        name: "adjacent",
        kind: ParamKind::Flag,
        doc: "prefer tiles with two wall neighbours over one (alone: the two-adjacent-only variant)",
    },
    ParamDoc {
        name: "axis",
        kind: ParamKind::Value { default: "main" },
        doc: "which diagonal: main (row = column) or anti (row + column = 4)",
    },
];

/// The thesis' heuristic players.
fn heuristic_entries() -> Vec<AgentEntry<AzulState>> {
    vec![
        AgentEntry {
            name: "greedy",
            summary: "thesis 4.1: the most tiles that fit a pattern line, else the least overflow",
            params: &[ParamDoc {
                name: "least",
                kind: ParamKind::Value { default: "max" },
                doc: "start value of the pseudocode's `least`: max (overflow branch works) or 0 (it never fires)",
            }],
            build: |spec| match spec.value("least")? {
                None | Some("max") => Ok(Box::new(Greedy::new())),
                Some("0") => Ok(Box::new(Greedy::least_zero())),
                Some(other) => Err(SpecError::BadValue {
                    agent: spec.name.clone(),
                    key: "least".into(),
                    value: other.into(),
                    expected: "max or 0".into(),
                }),
            },
        },
        AgentEntry {
            name: "smart",
            summary: "thesis 4.2: the fullest pattern line, then a wall neighbour, then the most tiles",
            params: &[],
            build: |_| Ok(Box::new(Smart::new())),
        },
        AgentEntry {
            name: "strategic",
            summary: "thesis 4.3: smart plus the diagonal in round 1 and two wall neighbours (both unless one is named)",
            params: STRATEGIC_PARAMS,
            build: |spec| {
                let d = spec.flag("diagonal")?;
                let a = spec.flag("adjacent")?;
                let (diagonal, adjacent) = if d || a { (d, a) } else { (true, true) };
                let mut agent = Strategic::new(diagonal, adjacent);
                agent.axis = match spec.value("axis")? {
                    None | Some("main") => Diagonal::Main,
                    Some("anti") => Diagonal::Anti,
                    Some(other) => {
                        return Err(SpecError::BadValue {
                            agent: spec.name.clone(),
                            key: "axis".into(),
                            value: other.into(),
                            expected: "main or anti".into(),
                        });
                    }
                };
                Ok(Box::new(agent))
            },
        },
    ]
}

/// The Azul driver.
pub fn drivers() -> Vec<Box<dyn GameDriver>> {
    vec![Driver::<AzulState>::boxed()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_spells_the_thesis_players() {
        let r = registry();
        for (spec, name) in [
            ("greedy", "greedy"),
            ("smart", "smart"),
            ("strategic", "strategic"),
            ("strategic:diagonal", "strategic:diagonal"),
            ("strategic:adjacent", "strategic:adjacent"),
            ("strategic:diagonal:adjacent", "strategic"),
            ("strategic:axis=anti", "strategic:axis=anti"),
            ("random", "random"),
            ("greedy:least=0", "greedy:least=0"),
        ] {
            assert_eq!(r.build(spec).map(|a| a.name()).ok(), Some(name.to_string()));
        }
        assert!(r.build("strategic:axis=left").is_err());
        assert!(r.build("strategic:diagonal=1").is_err());
        assert!(r.build("smart:depth=2").is_err());
        let e = r
            .build("smrt")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("greedy, smart, strategic"), "{e}");
    }
}
