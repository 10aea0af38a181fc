//! Qwirkle in the arena (owned by the qwirkle room): the game's [`ArenaGame`] impl and its
//! bots `random`, `points`, `smarter` and `lookahead`.

use tessera_core::{Game, GameRng};
use tessera_qwirkle::Qwirkle;
use tessera_qwirkle::bots::{LookaheadBot, LookaheadConfig, PointsBot, SmarterBot};
use tessera_qwirkle::mc::{MonteCarloBot, MonteCarloConfig};

use super::{AgentEntry, ParamDoc, ParamKind, Registry, random_entry};
use crate::games::{ArenaGame, GameDriver};
use crate::spec::SpecError;

impl ArenaGame for Qwirkle {
    /// The rules decide who starts (the largest group after the deal), so the generator is
    /// not needed: the game begins with the deal, a chance event.
    fn new_game(players: usize, _rng: &mut GameRng) -> Self {
        Qwirkle::new(players.clamp(Qwirkle::INFO.min_players, Qwirkle::INFO.max_players))
            .unwrap_or_else(|_| unreachable_game())
    }

    fn registry() -> Registry<Self> {
        registry()
    }
}

fn unreachable_game() -> Qwirkle {
    // `players` is clamped to the game's seat range above, for which `Qwirkle::new` always succeeds.
    Qwirkle::new(2).unwrap_or_else(|e| panic!("Qwirkle::new(2) failed: {e}"))
}

const LOOKAHEAD_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "candidates",
        kind: ParamKind::Value { default: "6" },
        doc: "placements examined (the best by immediate points)",
    },
    ParamDoc {
        name: "samples",
        kind: ParamKind::Value { default: "6" },
        doc: "sampled hands of the next player per decision",
    },
    ParamDoc {
        name: "reply",
        kind: ParamKind::Value { default: "0.5" },
        doc: "weight of the next player's expected best reply",
    },
    ParamDoc {
        name: "leave",
        kind: ParamKind::Value { default: "0.3" },
        doc: "weight of the value of the tiles kept in hand",
    },
    ParamDoc {
        name: "next",
        kind: ParamKind::Value { default: "0.5" },
        doc: "weight of the bot's own best next placement after the greedy reply (0: skip)",
    },
];

const MONTECARLO_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "candidates",
        kind: ParamKind::Value { default: "10" },
        doc: "placements examined (the best by immediate points)",
    },
    ParamDoc {
        name: "plies",
        kind: ParamKind::Value { default: "4" },
        doc: "turns played out after each candidate (every player plays its highest-scoring placement)",
    },
    ParamDoc {
        name: "worlds",
        kind: ParamKind::Value { default: "32" },
        doc: "sampled worlds per move when neither time nor nodes is given",
    },
    ParamDoc {
        name: "time",
        kind: ParamKind::Value { default: "none" },
        doc: "time per move: worlds are added until it is spent",
    },
    ParamDoc {
        name: "nodes",
        kind: ParamKind::Value { default: "none" },
        doc: "exactly this many worlds per move (reproducible)",
    },
];

fn montecarlo(spec: &crate::spec::AgentSpec) -> Result<MonteCarloBot, SpecError> {
    let d = MonteCarloConfig::default();
    let positive = |key: &str, default: usize| -> Result<usize, SpecError> {
        let v = spec.u64(key, default as u64)?;
        if v == 0 || v > 10_000 {
            return Err(SpecError::BadValue {
                agent: spec.name.clone(),
                key: key.into(),
                value: v.to_string(),
                expected: "a whole number from 1 to 10000".into(),
            });
        }
        Ok(v as usize)
    };
    // `time` and `nodes` are the entry's budget parameters: the registry turns them into
    // the budget every `choose` receives (clamped by whoever seats the bot).
    let bot = MonteCarloBot::with_config(MonteCarloConfig {
        candidates: positive("candidates", d.candidates)?,
        plies: positive("plies", d.plies)?,
        worlds: positive("worlds", d.worlds)?,
    });
    Ok(bot)
}

/// The Qwirkle players.
pub fn registry() -> Registry<Qwirkle> {
    Registry::new(vec![
        random_entry(),
        AgentEntry {
            name: "points",
            summary: "the seed's points bot: the highest-scoring placement",
            params: &[],
            build: |_| Ok(Box::new(PointsBot::new())),
        },
        AgentEntry {
            name: "smarter",
            summary: "the seed's smarter bot: fewest Qwirkle chances, then points, then fewest killed lines",
            params: &[],
            build: |_| Ok(Box::new(SmarterBot::new())),
        },
        AgentEntry {
            name: "montecarlo",
            summary: "determinized Monte Carlo: each of the best placements played out 4 turns in sampled worlds, valued by the score margin",
            params: MONTECARLO_PARAMS,
            build: |spec| Ok(Box::new(montecarlo(spec)?)),
        },
        AgentEntry {
            name: "lookahead",
            summary: "points - 0.5 x next player's best reply + 0.5 x own best next placement (sampled hands) + 0.3 x leave",
            params: LOOKAHEAD_PARAMS,
            build: |spec| {
                let d = LookaheadConfig::default();
                let positive = |key: &str, v: u64| -> Result<usize, SpecError> {
                    if v == 0 {
                        return Err(SpecError::BadValue {
                            agent: spec.name.clone(),
                            key: key.to_string(),
                            value: "0".into(),
                            expected: "a whole number of at least 1".into(),
                        });
                    }
                    Ok(v as usize)
                };
                let config = LookaheadConfig {
                    candidates: positive(
                        "candidates",
                        spec.u64("candidates", d.candidates as u64)?,
                    )?,
                    samples: positive("samples", spec.u64("samples", d.samples as u64)?)?,
                    reply_weight: spec.f64("reply", d.reply_weight)?,
                    leave_weight: spec.f64("leave", d.leave_weight)?,
                    next_weight: spec.f64("next", d.next_weight)?,
                };
                Ok(Box::new(LookaheadBot::with_config(config)))
            },
        },
    ])
    .with_levels(super::levels::QWIRKLE)
}

/// The Qwirkle driver.
pub fn drivers() -> Vec<Box<dyn GameDriver>> {
    vec![crate::games::Driver::<Qwirkle>::boxed()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qwirkle_bots_build_and_bad_params_are_refused() {
        let r = registry();
        for name in [
            "random",
            "points",
            "smarter",
            "lookahead",
            "lookahead:samples=2",
        ] {
            assert!(r.build(name).is_ok(), "{name}");
        }
        assert!(r.build("lookahead:samples=0").is_err());
        assert!(r.build("lookahead:depth=3").is_err());
        assert!(r.build("pointz").is_err());
    }
}
