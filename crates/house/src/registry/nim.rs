//! Players of the Nim test game ([`tessera_core::testgame::Nim`]), used to test the arena
//! without a real game.

use std::time::Duration;

use rand::Rng;
use tessera_core::testgame::Nim;
use tessera_core::{Agent, Budget, Game, GameRng, PlayerId};

use super::{AgentEntry, ParamDoc, ParamKind, Recipe, Registry, random_entry};
use crate::game::{ArenaGame, EngineGame};

impl ArenaGame for Nim {
    const TEST_GAME: bool = true;

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

/// Nim over the engine protocol: its state notation (`2 1 3,4 0,0`), moves `PILE:COUNT`,
/// and the deal written `deal:P1,P2[,P3]` (2 or 3 piles of 1-5 stones).
impl EngineGame for Nim {
    const ENGINE_PLAYER: &'static str = "random";
    const CHANCE_NAME: &'static str = "the deal";
    const CHANCE_NEEDED: &'static str = "the game needs its deal first (deal:P1,P2[,P3])";

    fn start(players: usize, first: Option<PlayerId>) -> Option<Self> {
        let mover = first.map_or(1, |p| p.index() + 1);
        let taken = vec!["0"; players].join(",");
        format!("{players} {mover} ? {taken}").parse().ok()
    }

    fn parse_chance(&self, word: &str) -> Option<Result<Vec<u8>, String>> {
        let piles = word.strip_prefix("deal:")?;
        Some(
            piles
                .split(',')
                .map(|p| {
                    p.parse::<u8>().map_err(|_| {
                        format!("'{p}' is not a pile size; expected deal:P1,P2[,P3] with 1-5 stones each")
                    })
                })
                .collect(),
        )
    }
}

/// The Nim players: `random`, `first`, `sleepy` and external engines (`ext:`).
pub fn registry() -> Registry<Nim> {
    let mut entries = vec![
        random_entry(),
        AgentEntry {
            name: "first",
            summary: "always takes the first legal move (deterministic)",
            player_summary: "always takes the first legal move",
            params: &[],
            plan: |_, _| Ok(Recipe::new(|| Box::new(First(Vec::new())))),
        },
        AgentEntry {
            name: "sleepy",
            summary: "random, after sleeping a while on every move (for stop/resume tests)",
            player_summary: "plays at random, slowly",
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
    ];
    entries.extend(crate::ext::entries::<Nim>());
    Registry::new(entries)
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
    /// Sleeps its pause, or the seat's time limit when that is shorter (a server's cap
    /// binds it too).
    fn choose(&mut self, state: &Nim, b: &Budget, rng: &mut GameRng) -> <Nim as Game>::Action {
        std::thread::sleep(b.time.map_or(self.pause, |t| t.min(self.pause)));
        self.inner.choose(state, b, rng)
    }
}
