//! Azul in the arena: the table set-up and the registry, assembled from `random`, the
//! thesis' heuristic players (this file), the search players ([`super::azul_search`]) and
//! external engines ([`crate::ext`]).

use tessera_azul::players::{
    Diagonal, Greedy, GreedyReading, Lines, Scope, Smart, Space, Strategic,
};
use tessera_azul::{AzulState, Deal, Tiles};
use tessera_core::{GameRng, PlayerId};

use super::{AgentEntry, ParamDoc, ParamKind, Recipe, Registry, random_entry};
use crate::game::{ArenaGame, EngineGame};
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

/// Azul over the engine protocol: the state notation (nothing is hidden), actions such as
/// `3B2`, and a round's deal written `deal:F1/F2/...` (each factory a tile string such as
/// `BBYR`, `-` for an empty one).
impl EngineGame for AzulState {
    const ENGINE_PLAYER: &'static str = "strong";
    const CHANCE_NAME: &'static str = "a factory deal";
    const CHANCE_NEEDED: &'static str = "the round needs its deal first (deal:F1/F2/...)";

    fn start(players: usize, first: Option<PlayerId>) -> Option<Self> {
        Some(AzulState::new(players, first.unwrap_or(PlayerId(0))))
    }

    fn parse_chance(&self, word: &str) -> Option<Result<Deal, String>> {
        let spec = word.strip_prefix("deal:")?;
        let mut deal = Deal::default();
        for part in spec.split('/') {
            let t: Tiles = match part.parse() {
                Ok(t) => t,
                Err(e) => return Some(Err(format!("{e}"))),
            };
            if deal.factories.try_push(t).is_err() {
                return Some(Err("too many factories".into()));
            }
        }
        Some(Ok(deal))
    }
}

/// Every Azul player.
pub fn registry() -> Registry<AzulState> {
    let mut entries = vec![random_entry()];
    entries.extend(heuristic_entries());
    entries.extend(super::azul_search::entries());
    entries.extend(super::azul_augur::entries());
    entries.extend(crate::ext::entries::<AzulState>());
    Registry::new(entries).with_levels(super::levels::AZUL)
}

const GREEDY_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "least",
        kind: ParamKind::Value { default: "max" },
        doc: "start value of the pseudocode's `least`: max (overflow branch works) or 0 (it never fires)",
    },
    ParamDoc {
        name: "scope",
        kind: ParamKind::Value { default: "move" },
        doc: "how long `largest`, `least` and `bestMove` live: move, round or game (a stale move is replaced by the first legal one)",
    },
    ParamDoc {
        name: "space",
        kind: ParamKind::Value { default: "free" },
        doc: "`patternLine_space`: free (empty cells) or capacity (the line's length)",
    },
    ParamDoc {
        name: "keep",
        kind: ParamKind::Value { default: "all" },
        doc: "with scope=round|game: all three variables live that long, or only `largest` (the others fresh per move)",
    },
    ParamDoc {
        name: "fallback",
        kind: ParamKind::Value { default: "first" },
        doc: "the move played when the loop leaves none (or a stale one): first legal, or random legal",
    },
    ParamDoc {
        name: "lines",
        kind: ParamKind::Value { default: "legal" },
        doc: "lines the loop visits: legal, or all (a line that cannot take the colour sends the tiles to the floor)",
    },
];

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
            player_summary: "grabs the most tiles that fit a pattern line",
            params: GREEDY_PARAMS,
            plan: |spec, _| {
                let bad = |key: &str, value: &str, expected: &str| SpecError::BadValue {
                    agent: spec.name.clone(),
                    key: key.into(),
                    value: value.into(),
                    expected: expected.into(),
                };
                let least_zero = match spec.value("least")? {
                    None | Some("max") => false,
                    Some("0") => true,
                    Some(other) => return Err(bad("least", other, "max or 0")),
                };
                let scope = match spec.value("scope")? {
                    None | Some("move") => Scope::Move,
                    Some("round") => Scope::Round,
                    Some("game") => Scope::Game,
                    Some(other) => return Err(bad("scope", other, "move, round or game")),
                };
                let space = match spec.value("space")? {
                    None | Some("free") => Space::Free,
                    Some("capacity") => Space::Capacity,
                    Some(other) => return Err(bad("space", other, "free or capacity")),
                };
                let lines = match spec.value("lines")? {
                    None | Some("legal") => Lines::Legal,
                    Some("all") => Lines::All,
                    Some(other) => return Err(bad("lines", other, "legal or all")),
                };
                let keep_largest_only = match spec.value("keep")? {
                    None | Some("all") => false,
                    Some("largest") => true,
                    Some(other) => return Err(bad("keep", other, "all or largest")),
                };
                let random_fallback = match spec.value("fallback")? {
                    None | Some("first") => false,
                    Some("random") => true,
                    Some(other) => return Err(bad("fallback", other, "first or random")),
                };
                let reading = GreedyReading {
                    random_fallback,
                    least_zero,
                    scope,
                    space,
                    lines,
                    keep_largest_only,
                };
                Ok(Recipe::new(move || Box::new(Greedy::with_reading(reading))))
            },
        },
        AgentEntry {
            name: "smart",
            summary: "thesis 4.2: the fullest pattern line, then a wall neighbour, then the most tiles",
            player_summary: "fills its fullest line and builds next to its wall tiles",
            params: &[],
            plan: |_, _| Ok(Recipe::new(|| Box::new(Smart::new()))),
        },
        AgentEntry {
            name: "strategic",
            summary: "thesis 4.3: smart plus the diagonal in round 1 and two wall neighbours (both unless one is named)",
            player_summary: "fills lines exactly, builds next to its tiles and aims for the diagonal",
            params: STRATEGIC_PARAMS,
            plan: |spec, _| {
                let d = spec.flag("diagonal")?;
                let a = spec.flag("adjacent")?;
                let (diagonal, adjacent) = if d || a { (d, a) } else { (true, true) };
                let axis = match spec.value("axis")? {
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
                Ok(Recipe::new(move || {
                    let mut agent = Strategic::new(diagonal, adjacent);
                    agent.axis = axis;
                    Box::new(agent)
                }))
            },
        },
    ]
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
