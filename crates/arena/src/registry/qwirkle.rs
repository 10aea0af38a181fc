//! Qwirkle in the arena (owned by the qwirkle room): the game's [`ArenaGame`] impl and its
//! bots `random`, `points`, `smarter` and `lookahead`.

use tessera_core::{Game, GameRng};
use tessera_qwirkle::Qwirkle;
use tessera_qwirkle::bots::{LookaheadBot, LookaheadConfig, PointsBot, SmarterBot};
use tessera_qwirkle::mc::{MonteCarloBot, MonteCarloConfig};

use tessera_core::Budget;

use super::{AgentEntry, ParamDoc, ParamKind, Recipe, Registry, random_entry};
use crate::games::{ArenaGame, GameDriver};
use crate::spec::{AgentSpec, SpecError};

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
    ParamDoc {
        name: "time",
        kind: ParamKind::Value { default: "none" },
        doc: "time per move: sampling stops when it is spent (after one sampled hand at least)",
    },
];

/// The most sampled worlds (or hands) a Qwirkle bot's parameter may ask for per move.
pub const MAX_SAMPLES: u64 = 10_000;

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
        doc: "sampled worlds per move when neither time nor nodes is given (at most 10000)",
    },
    ParamDoc {
        name: "time",
        kind: ParamKind::Value { default: "none" },
        doc: "time per move: worlds are added until it is spent",
    },
    ParamDoc {
        name: "nodes",
        kind: ParamKind::Value { default: "none" },
        doc: "exactly this many worlds per move (reproducible; a time limit, such as a server's cap, still stops it)",
    },
];

/// A whole-number parameter from 1 to `max`, or `default`.
fn count(spec: &AgentSpec, key: &str, default: usize, max: u64) -> Result<usize, SpecError> {
    let v = spec.u64(key, default as u64)?;
    if v == 0 || v > max {
        return Err(SpecError::BadValue {
            agent: spec.name.clone(),
            key: key.into(),
            value: v.to_string(),
            expected: format!("a whole number from 1 to {max}"),
        });
    }
    Ok(v as usize)
}

fn montecarlo(spec: &AgentSpec) -> Result<Recipe<Qwirkle>, SpecError> {
    let d = MonteCarloConfig::default();
    let config = MonteCarloConfig {
        candidates: count(spec, "candidates", d.candidates, MAX_SAMPLES)?,
        plies: count(spec, "plies", d.plies, MAX_SAMPLES)?,
        worlds: count(spec, "worlds", d.worlds, MAX_SAMPLES)?,
    };
    // `time` and `nodes` are the entry's budget parameters (the seat's budget, clamped by
    // whoever seats the bot); without either the seat plays `worlds` worlds a move.
    Ok(
        Recipe::new(move || Box::new(MonteCarloBot::with_config(config)))
            .with_budget(Budget::nodes(config.worlds as u64)),
    )
}

fn lookahead(spec: &AgentSpec) -> Result<Recipe<Qwirkle>, SpecError> {
    let d = LookaheadConfig::default();
    let config = LookaheadConfig {
        candidates: count(spec, "candidates", d.candidates, MAX_SAMPLES)?,
        samples: count(spec, "samples", d.samples, MAX_SAMPLES)?,
        reply_weight: spec.f64("reply", d.reply_weight)?,
        leave_weight: spec.f64("leave", d.leave_weight)?,
        next_weight: spec.f64("next", d.next_weight)?,
    };
    Ok(Recipe::new(move || {
        Box::new(LookaheadBot::with_config(config))
    }))
}

/// The Qwirkle players.
pub fn registry() -> Registry<Qwirkle> {
    Registry::new(vec![
        random_entry(),
        AgentEntry {
            name: "points",
            summary: "the seed's points bot: the highest-scoring placement",
            params: &[],
            plan: |_, _| Ok(Recipe::new(|| Box::new(PointsBot::new()))),
        },
        AgentEntry {
            name: "smarter",
            summary: "the seed's smarter bot: fewest Qwirkle chances, then points, then fewest killed lines",
            params: &[],
            plan: |_, _| Ok(Recipe::new(|| Box::new(SmarterBot::new()))),
        },
        AgentEntry {
            name: "montecarlo",
            summary: "determinized Monte Carlo: each of the best placements played out 4 turns in sampled worlds, valued by the score margin",
            params: MONTECARLO_PARAMS,
            plan: |spec, _| montecarlo(spec),
        },
        AgentEntry {
            name: "lookahead",
            summary: "points - 0.5 x next player's best reply + 0.5 x own best next placement (sampled hands) + 0.3 x leave",
            params: LOOKAHEAD_PARAMS,
            plan: |spec, _| lookahead(spec),
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
        for bad in [
            "lookahead:samples=200000",
            "lookahead:candidates=10001",
            "montecarlo:worlds=10001",
            "montecarlo:plies=0",
            "lookahead:time=soon",
        ] {
            let e = r.parse(bad).err().unwrap().to_string();
            assert!(e.contains("expected"), "{bad}: {e}");
        }
        // Seats' budgets: montecarlo's worlds, or its time/nodes; lookahead's time only.
        assert_eq!(r.parse("montecarlo").unwrap().budget(), Budget::nodes(32));
        assert_eq!(
            r.parse("montecarlo:worlds=8").unwrap().budget(),
            Budget::nodes(8)
        );
        assert_eq!(
            r.parse("montecarlo:nodes=16").unwrap().budget(),
            Budget::nodes(16)
        );
        assert!(r.parse("lookahead").unwrap().budget().is_unlimited());
        assert_eq!(
            r.parse("lookahead:time=20ms").unwrap().budget(),
            Budget::time(std::time::Duration::from_millis(20))
        );
        assert!(r.build("lookahead:depth=3").is_err());
        assert!(r.build("pointz").is_err());
    }
}
