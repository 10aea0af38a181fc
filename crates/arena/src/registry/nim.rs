//! Players of the Nim test game ([`tessera_core::testgame::Nim`]), used to test the arena
//! without a real game.

use std::time::Duration;

use rand::Rng;
use tessera_core::testgame::Nim;
use tessera_core::{Agent, Budget, Game, GameRng};

use super::{AgentEntry, ParamDoc, ParamKind, Recipe, Registry, random_entry};
use crate::games::ArenaGame;

impl ArenaGame for Nim {
    fn new_game(players: usize, rng: &mut GameRng) -> Self {
        // The starting seat is random, as in the real games.
        let mover = rng.random_range(1..=players);
        let taken = vec!["0"; players].join(",");
        format!("{players} {mover} ? {taken}")
            .parse()
            .unwrap_or_else(|_| Nim::new(players))
    }

    fn registry() -> Registry<Self> {
        registry()
    }
}

/// The Nim players: `random`, `first` and `sleepy`.
pub fn registry() -> Registry<Nim> {
    Registry::new(vec![
        random_entry(),
        AgentEntry {
            name: "first",
            summary: "always takes the first legal move (deterministic)",
            params: &[],
            plan: |_, _| Ok(Recipe::new(|| Box::new(First(Vec::new())))),
        },
        AgentEntry {
            name: "sleepy",
            summary: "random, after sleeping a while on every move (for stop/resume tests)",
            params: &[ParamDoc {
                name: "ms",
                kind: ParamKind::Value { default: "1" },
                doc: "milliseconds to sleep per move",
            }],
            plan: |spec, _| {
                let pause = Duration::from_millis(spec.u64("ms", 1)?);
                Ok(Recipe::new(move || {
                    Box::new(Sleepy {
                        pause,
                        inner: tessera_core::RandomAgent::new(),
                    })
                }))
            },
        },
    ])
}

struct First(Vec<<Nim as Game>::Action>);

impl Agent<Nim> for First {
    fn name(&self) -> String {
        "first".into()
    }
    fn choose(&mut self, state: &Nim, _: &Budget, _: &mut GameRng) -> <Nim as Game>::Action {
        state.legal_actions(&mut self.0);
        self.0[0]
    }
}

struct Sleepy {
    pause: Duration,
    inner: tessera_core::RandomAgent<Nim>,
}

impl Agent<Nim> for Sleepy {
    fn name(&self) -> String {
        format!("sleepy:ms={}", self.pause.as_millis())
    }
    fn choose(&mut self, state: &Nim, b: &Budget, rng: &mut GameRng) -> <Nim as Game>::Action {
        std::thread::sleep(self.pause);
        self.inner.choose(state, b, rng)
    }
}
