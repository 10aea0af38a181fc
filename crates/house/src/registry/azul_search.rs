//! Azul search players (owned by the search room): the blog seed's three searches with its
//! value function, and `strong`, our stronger player.
//!
//! | name | search | evaluator |
//! |---|---|---|
//! | `minimax` | minimax, iterative deepening | the blog's projected score difference |
//! | `alphabeta` | alpha-beta, iterative deepening | the blog's |
//! | `presort` | alpha-beta with children sorted by the previous iteration | the blog's |
//! | `strong` | presort + Zobrist-keyed transposition table + partial last iteration | [`StrongEval`] |
//!
//! Limits: `time=100ms`, `depth=N` or `nodes=N` (several may be combined; the first reached
//! stops the search). They are the seat's budget ([`crate::registry::AgentPlan::budget`]),
//! [`tessera_core::Budget::DEFAULT`] (100 ms) when none is given; the agents hold none.
//! `multi=paranoid|maxn` picks the 3-4 player variant (default paranoid).

use tessera_azul::AzulState;
use tessera_azul::eval::{StrongEval, Weights, blog_values, state_key};
use tessera_core::PerPlayer;
use tessera_search::adversarial::{
    Algorithm, Evaluator, MultiMode, SearchAgent, SearchConfig, Value,
};

use super::{AgentEntry, ParamDoc, ParamKind, Recipe, TIME_PARAM};
use crate::spec::{AgentSpec, SpecError};

/// The blog's value function as a search evaluator: projected scores; the end of the round
/// is a leaf.
#[derive(Clone, Debug, Default)]
pub struct BlogEvaluator;

impl Evaluator<AzulState> for BlogEvaluator {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        blog_values(s)
    }
}

/// [`StrongEval`] as a search evaluator, with state keys for the transposition table.
#[derive(Clone, Debug, Default)]
pub struct StrongEvaluator(pub StrongEval);

impl Evaluator<AzulState> for StrongEvaluator {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        self.0.values(s)
    }

    fn key(&self, s: &AzulState) -> Option<u64> {
        Some(state_key(s))
    }
}

/// The limit parameters (`time`, `depth`, `nodes`) then `multi`; other search players take
/// the first three (`LIMIT_PARAMS[..3]`).
pub(super) const LIMIT_PARAMS: [ParamDoc; 4] = [
    ParamDoc {
        doc: "time per move (iterative deepening; the last completed depth's move); 100ms unless a limit is given",
        ..TIME_PARAM
    },
    ParamDoc {
        name: "depth",
        kind: ParamKind::Value { default: "none" },
        doc: "deepest iteration in plies",
    },
    ParamDoc {
        name: "nodes",
        kind: ParamKind::Value { default: "none" },
        doc: "node budget per move (reproducible)",
    },
    ParamDoc {
        name: "multi",
        kind: ParamKind::Value {
            default: "paranoid",
        },
        doc: "3-4 players: paranoid (opponents minimise my margin) or maxn",
    },
];

fn multi(spec: &AgentSpec) -> Result<MultiMode, SpecError> {
    match spec.value("multi")? {
        None | Some("paranoid") => Ok(MultiMode::Paranoid),
        Some("maxn") => Ok(MultiMode::MaxN),
        Some(v) => Err(SpecError::BadValue {
            agent: spec.name.clone(),
            key: "multi".into(),
            value: v.into(),
            expected: "paranoid or maxn".into(),
        }),
    }
}

fn blog_player(spec: &AgentSpec, alg: Algorithm) -> Result<Recipe<AzulState>, SpecError> {
    let mut config = SearchConfig::new(alg);
    config.multi = multi(spec)?;
    let name = spec.text.clone();
    Ok(Recipe::new(move || {
        Box::new(SearchAgent::new(
            name.clone(),
            BlogEvaluator,
            config.clone(),
        ))
    }))
}

/// The settings of the `strong` player.
pub fn strong_config() -> SearchConfig {
    let mut config = SearchConfig::new(Algorithm::Presort);
    config.tt_log2 = 20;
    config.use_partial = true;
    config
}

/// The `strong` player.
pub fn strong_player(name: &str, weights: Weights) -> SearchAgent<AzulState, StrongEvaluator> {
    SearchAgent::new(
        name,
        StrongEvaluator(StrongEval { weights }),
        strong_config(),
    )
}

/// The search players' entries.
pub fn entries() -> Vec<AgentEntry<AzulState>> {
    vec![
        AgentEntry {
            name: "minimax",
            summary: "the blog's minimax with iterative deepening on the projected score difference",
            player_summary: "looks several moves ahead, comparing the scores the round would end with",
            params: &LIMIT_PARAMS,
            plan: |spec, _| blog_player(spec, Algorithm::Minimax),
        },
        AgentEntry {
            name: "alphabeta",
            summary: "the blog's alpha-beta with iterative deepening on the projected score difference",
            player_summary: "looks several moves ahead (faster pruned search), comparing round-end scores",
            params: &LIMIT_PARAMS,
            plan: |spec, _| blog_player(spec, Algorithm::AlphaBeta),
        },
        AgentEntry {
            name: "presort",
            summary: "the blog's alpha-beta sorting moves by the previous iteration's values",
            player_summary: "looks ahead, trying the most promising moves first",
            params: &LIMIT_PARAMS,
            plan: |spec, _| blog_player(spec, Algorithm::Presort),
        },
        AgentEntry {
            name: "strong",
            summary: "presort + transposition table with an evaluator of bonuses, partial lines, adjacency and the token",
            player_summary: "looks ahead and values wall bonuses, partial lines and the first-player token",
            params: &LIMIT_PARAMS[..3],
            plan: |spec, _| {
                let name = spec.text.clone();
                Ok(Recipe::new(move || {
                    Box::new(strong_player(&name, Weights::default()))
                }))
            },
        },
    ]
}

#[cfg(test)]
mod tests {
    use tessera_core::{Budget, Game, PlayerId, rng::seeded};

    use super::*;
    use crate::registry::azul::registry;

    fn first_turn() -> AzulState {
        let mut s = AzulState::new(2, PlayerId(0));
        let d = s.sample_chance(&mut seeded(3));
        s.apply_chance(&d).unwrap();
        s
    }

    #[test]
    fn every_search_player_builds_and_plays_legally() {
        let reg = registry();
        let s = first_turn();
        for name in [
            "minimax:depth=1",
            "alphabeta:depth=3",
            "presort:time=20ms",
            "strong:nodes=5000",
            "presort:depth=2:multi=maxn",
        ] {
            let plan = reg.parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut a = plan.build().unwrap();
            assert_eq!(a.name(), name);
            let act = a.choose(&s, &plan.budget(), &mut seeded(1));
            s.check_action(act).unwrap();
            let info = a.last_info().unwrap();
            assert!(info.depth >= 1 && info.nodes > 0, "{name}: {info:?}");
        }
        let plan = reg.parse("alphabeta:depth=3").unwrap();
        let mut a = plan.build().unwrap();
        a.choose(&s, &plan.budget(), &mut seeded(1));
        assert_eq!(a.last_info().unwrap().depth, 3);
    }

    #[test]
    fn bad_parameters_are_refused() {
        let reg = registry();
        for bad in [
            "minimax:depth=0",
            "alphabeta:depth=x",
            "presort:time=soon",
            "presort:multi=everyone",
            "strong:multi=maxn",
            "minimax:width=3",
        ] {
            assert!(reg.build(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn without_limits_the_seat_gets_the_default_budget() {
        let reg = registry();
        for name in ["minimax", "alphabeta", "presort", "strong"] {
            assert_eq!(reg.parse(name).unwrap().budget(), Budget::DEFAULT, "{name}");
        }
        // The doc's default is the constant's.
        let time = Budget::DEFAULT.time.unwrap();
        assert_eq!(
            crate::spec::parse_duration(match TIME_PARAM.kind {
                ParamKind::Value { default } => default,
                _ => "",
            }),
            Some(time)
        );
        // An agent handed an empty budget thinks for the default time.
        let mut a = reg.build("alphabeta").unwrap();
        let s = first_turn();
        let t = std::time::Instant::now();
        a.choose(&s, &Default::default(), &mut seeded(1));
        assert!(t.elapsed() >= time);
    }
}
