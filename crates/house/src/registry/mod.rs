//! The agent registry: every player of every game by name, with its parameters.
//!
//! A player is spelled as one string, `NAME` or `NAME:PARAM:PARAM...` (see
//! [`crate::spec`]), for example `greedy`, `strategic:diagonal`, `alphabeta:depth=3`.
//! Each game has its own [`Registry`], assembled from entry lists that live in separate
//! files so every room adds its own players without touching the others':
//!
//! | file | entries |
//! |---|---|
//! | `registry/azul.rs` | Azul: `random` and the thesis' heuristic players |
//! | `registry/azul_search.rs` | Azul: search players |
//! | `registry/azul_augur.rs` | Azul: `augur` (learned win-chance evaluator) |
//! | `registry/azul_endgame.rs` | Azul: the exact last-round solver `augur` and `oracle` can use (`endgame`) |
//! | `registry/qwirkle.rs` | Qwirkle: bots (and the game's [`crate::ArenaGame`] impl) |
//! | `registry/nim.rs` | the Nim test game |
//! | `ext.rs` | external engines over the text protocol |
//!
//! An entry is a name, a one-line summary (and a plainer one for players), its documented
//! parameters and a planner that checks a specification into a typed [`Recipe`] (every
//! parameter read and validated there, nothing built yet):
//!
//! ```
//! use tessera_house::registry::{AgentEntry, ParamDoc, Recipe, Registry};
//! use tessera_core::{RandomAgent, testgame::Nim};
//! let entries = vec![AgentEntry::<Nim> {
//!     name: "random",
//!     summary: "uniformly random legal moves",
//!     player_summary: "plays any legal move at random",
//!     params: &[],
//!     plan: |_spec, _trust| Ok(Recipe::new(|| Box::new(RandomAgent::new()))),
//! }];
//! let registry = Registry::new(entries);
//! assert!(registry.build("random").is_ok());
//! let err = registry.build("randon").err().unwrap();
//! assert!(err.to_string().contains("known agents: random"));
//! ```

use std::sync::Arc;

use tessera_core::{Agent, Blundering, Budget, Game};
use thiserror::Error;

use crate::spec::{AgentSpec, SpecError};

pub mod azul;
pub mod azul_augur;
pub mod azul_endgame;
pub mod azul_search;
pub mod levels;
pub mod nim;
pub mod qwirkle;

pub use levels::Level;

/// How a parameter is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A bare flag (`strategic:diagonal`).
    Flag,
    /// `KEY=VALUE`, with the default used when absent.
    Value {
        /// The default, as text (`"100ms"`, `"none"`).
        default: &'static str,
    },
    /// Everything after `NAME:`, unsplit (an external engine's command line).
    Rest,
}

/// One documented parameter of an agent.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParamDoc {
    /// The key or flag name (for [`ParamKind::Rest`], a placeholder such as `PROGRAM`).
    pub name: &'static str,
    /// How it is written.
    pub kind: ParamKind,
    /// What it does.
    pub doc: &'static str,
}

/// The parameters that set a seat's [`Budget`] rather than the agent: an entry that documents
/// them as [`ParamKind::Value`] parameters gets them parsed into its [`AgentPlan::budget`]
/// ([`Budget::DEFAULT`] when it documents `time` with a default and no limit is given).
pub const BUDGET_KEYS: [&str; 3] = ["time", "depth", "nodes"];

/// The `time=` parameter of an agent that thinks: its default is [`Budget::DEFAULT`]'s time
/// (a test checks the two agree).
pub const TIME_PARAM: ParamDoc = ParamDoc {
    name: "time",
    kind: ParamKind::Value { default: "100ms" },
    doc: "time per move (100ms unless a limit is given)",
};

/// Who a specification comes from, and so what it may name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Trust {
    /// The operator (command line, local Python, a tournament): parameters may name files
    /// and external programs.
    #[default]
    Local,
    /// A remote client (an HTTP request): parameters that name a file or a program are
    /// refused before anything is read or started.
    Remote,
}

/// Builds one agent from a checked recipe (only an external engine's start can fail).
pub type Factory<G> = Arc<dyn Fn() -> Result<Box<dyn Agent<G>>, SpecError> + Send + Sync>;

/// What an entry's planner makes of a checked specification: the typed factory (its settings
/// captured, already validated) and, for entries that read their own limits (an external
/// engine's `time=`, a sampler's default sample count), the seat's budget.
pub struct Recipe<G: Game> {
    build: Factory<G>,
    budget: Option<Budget>,
}

impl<G: Game> Clone for Recipe<G> {
    fn clone(&self) -> Self {
        Recipe {
            build: Arc::clone(&self.build),
            budget: self.budget,
        }
    }
}

impl<G: Game> Recipe<G> {
    /// A recipe whose agent is always built.
    pub fn new(build: impl Fn() -> Box<dyn Agent<G>> + Send + Sync + 'static) -> Self {
        Recipe {
            build: Arc::new(move || Ok(build())),
            budget: None,
        }
    }

    /// A recipe whose build may fail (an external engine that does not start).
    pub fn fallible(
        build: impl Fn() -> Result<Box<dyn Agent<G>>, SpecError> + Send + Sync + 'static,
    ) -> Self {
        Recipe {
            build: Arc::new(build),
            budget: None,
        }
    }

    /// The seat's budget when no limit is given in `time=`, `depth=`, `nodes=` (or for
    /// entries that parse their limits themselves).
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = Some(budget);
        self
    }
}

/// The parameter every agent takes (except external engines): `blunder=P` plays a uniformly
/// random legal move with probability `P` ([`Blundering`]), to space difficulty levels.
pub const BLUNDER_KEY: &str = "blunder";

/// The budget a specification's `time=`, `depth=` and `nodes=` parameters give (no default:
/// an empty budget when none is given). `depth` must be 1-200; `nodes=0` means 1.
pub fn spec_budget(spec: &AgentSpec) -> Result<Budget, SpecError> {
    let depth = match spec.value("depth")? {
        None => None,
        Some(_) => {
            let d = spec.u64("depth", 0)?;
            if d == 0 || d > 200 {
                return Err(SpecError::DepthRange {
                    agent: spec.name.clone(),
                    depth: d,
                });
            }
            Some(d as u32)
        }
    };
    let nodes = match spec.value("nodes")? {
        None => None,
        Some(_) => Some(spec.u64("nodes", 0)?.max(1)),
    };
    Ok(Budget {
        depth,
        time: spec.duration("time")?,
        nodes,
        ..Budget::default()
    })
}

/// Checks a parsed specification into a [`Recipe`], reading and validating every parameter
/// (names and keys have already been checked against the entry's [`ParamDoc`]s, except for
/// [`ParamKind::Rest`] entries). Nothing is built: no engine started, no table allocated.
pub type PlanFn<G> = fn(&AgentSpec, Trust) -> Result<Recipe<G>, SpecError>;

/// One registered player.
pub struct AgentEntry<G: Game> {
    /// The name, as typed on the command line.
    pub name: &'static str,
    /// A one-line description (for `tessera agents` and the docs: it may name sources and
    /// techniques).
    pub summary: &'static str,
    /// One line for players: what it does at the table, in plain words, with no
    /// specification, parameter or source reference.
    pub player_summary: &'static str,
    /// Its parameters.
    pub params: &'static [ParamDoc],
    /// Its planner.
    pub plan: PlanFn<G>,
}

impl<G: Game> Clone for AgentEntry<G> {
    fn clone(&self) -> Self {
        AgentEntry {
            name: self.name,
            summary: self.summary,
            player_summary: self.player_summary,
            params: self.params,
            plan: self.plan,
        }
    }
}

/// A game-independent description of an entry, for listings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AgentInfo {
    /// The name.
    pub name: &'static str,
    /// A one-line description.
    pub summary: &'static str,
    /// One line for players (see [`AgentEntry::player_summary`]).
    pub player_summary: &'static str,
    /// Its parameters.
    pub params: Vec<ParamInfo>,
}

/// A parameter in a listing.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ParamInfo {
    /// How it is written (`depth=N`, `diagonal`, `PROGRAM`).
    pub syntax: String,
    /// The default, for `KEY=VALUE` parameters.
    pub default: Option<&'static str>,
    /// What it does.
    pub doc: &'static str,
}

/// Why an agent cannot be built.
#[derive(Debug, Error, Clone)]
pub enum RegistryError {
    /// No agent of that name for this game.
    #[error("unknown {game} agent '{name}'; known agents: {known} (see `tessera agents {game}`)")]
    UnknownAgent {
        /// The game.
        game: &'static str,
        /// The name given.
        name: String,
        /// The names that exist.
        known: String,
    },
    /// The specification or one of its parameters is wrong (`tessera agents` lists them).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// `level:X` names no level of this game.
    #[error("{game} has no level '{given}'; expected level:N or level:NAME with one of: {known}")]
    UnknownLevel {
        /// The game.
        game: &'static str,
        /// What followed `level:` (empty when nothing did).
        given: String,
        /// The levels that exist (`1 beginner, 2 novice, ...`).
        known: String,
    },
}

/// All players of one game.
pub struct Registry<G: Game> {
    game: &'static str,
    entries: Vec<AgentEntry<G>>,
    levels: &'static [Level],
}

impl<G: Game> Registry<G> {
    /// A registry of `entries` for the game `G` (named by its [`Game::INFO`]). Later entries
    /// with a name already taken are ignored (and caught by the registry tests).
    pub fn new(entries: Vec<AgentEntry<G>>) -> Self {
        let mut kept: Vec<AgentEntry<G>> = Vec::with_capacity(entries.len());
        for e in entries {
            if !kept.iter().any(|k| k.name == e.name) {
                kept.push(e);
            }
        }
        Registry {
            game: G::INFO.name,
            entries: kept,
            levels: &[],
        }
    }

    /// The same registry with difficulty levels: `level:N` / `level:NAME` then resolve to a
    /// level's specification. A level's specification must name an entry (not a level).
    pub fn with_levels(mut self, levels: &'static [Level]) -> Self {
        self.levels = levels;
        self
    }

    /// The registry with only the entries `keep` accepts (and the levels whose
    /// specification still resolves).
    pub fn retain(self, keep: impl Fn(&AgentEntry<G>) -> bool) -> Self {
        let entries = self.entries.into_iter().filter(|e| keep(e)).collect();
        let mut r = Registry::new(entries);
        r.levels = self.levels;
        if r.levels.iter().any(|l| r.check(l.spec).is_err()) {
            r.levels = &[];
        }
        r
    }

    /// The difficulty levels, weakest first (empty for games without levels).
    pub fn levels(&self) -> &'static [Level] {
        self.levels
    }

    /// The level front ends offer by default (the middle one), if the game has levels.
    pub fn default_level(&self) -> Option<&'static Level> {
        levels::default_level(self.levels)
    }

    /// The level `spec` selects, if it is `level:X` and the game has levels.
    fn level_of(&self, spec: &AgentSpec) -> Result<Option<&'static Level>, RegistryError> {
        if spec.name != levels::LEVEL_NAME || self.levels.is_empty() {
            return Ok(None);
        }
        let unknown = |given: &str| RegistryError::UnknownLevel {
            game: self.game,
            given: given.to_string(),
            known: levels::listing(self.levels),
        };
        match spec.params.as_slice() {
            [p] if p.value.is_none() => levels::find(self.levels, &p.key)
                .map(Some)
                .ok_or_else(|| unknown(&p.key)),
            _ => Err(unknown(spec.rest.as_deref().unwrap_or(""))),
        }
    }

    /// The game's name.
    pub fn game(&self) -> &'static str {
        self.game
    }

    /// The entries, in registration order.
    pub fn entries(&self) -> &[AgentEntry<G>] {
        &self.entries
    }

    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Option<&AgentEntry<G>> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Parses `text` and checks its name and parameters against the entry, without
    /// building the agent. `level:X` is checked as the level's specification.
    pub fn check(&self, text: &str) -> Result<(AgentSpec, &AgentEntry<G>), RegistryError> {
        self.check_with_blunder(text)
            .map(|(spec, entry, _)| (spec, entry))
    }

    /// [`Registry::check`], also returning the universal `blunder=P` parameter (taken out of
    /// the returned specification's parameters).
    fn check_with_blunder(
        &self,
        text: &str,
    ) -> Result<(AgentSpec, &AgentEntry<G>, Option<f64>), RegistryError> {
        let mut spec: AgentSpec = text.parse()?;
        if let Some(level) = self.level_of(&spec)? {
            spec = level.spec.parse()?;
        }
        let entry = self
            .get(&spec.name)
            .ok_or_else(|| RegistryError::UnknownAgent {
                game: self.game,
                name: spec.name.clone(),
                known: self
                    .entries
                    .iter()
                    .map(|e| e.name)
                    .chain(match self.levels.len() {
                        0 => None,
                        _ => Some("level:N"),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        let free_form = entry.params.iter().any(|p| p.kind == ParamKind::Rest);
        let mut blunder = None;
        if !free_form {
            if let Some(v) = spec.value(BLUNDER_KEY)? {
                match v.parse::<f64>() {
                    Ok(p) if (0.0..=1.0).contains(&p) => blunder = Some(p),
                    _ => {
                        return Err(SpecError::BadValue {
                            agent: spec.name.clone(),
                            key: BLUNDER_KEY.into(),
                            value: v.into(),
                            expected: "a probability from 0 to 1".into(),
                        }
                        .into());
                    }
                }
                spec.params.retain(|p| p.key != BLUNDER_KEY);
            }
            let known: Vec<&str> = entry.params.iter().map(|p| p.name).collect();
            spec.check_known(&known)?;
            for p in entry.params {
                match p.kind {
                    ParamKind::Flag => {
                        spec.flag(p.name)?;
                    }
                    ParamKind::Value { .. } => {
                        spec.value(p.name)?;
                    }
                    ParamKind::Rest => {}
                }
            }
        }
        Ok((spec, entry, blunder))
    }

    /// Parses `text` once into a plan: the checked specification, its typed recipe (every
    /// parameter validated) and the seat's budget. Nothing is built (no engine started, no
    /// table allocated); [`AgentPlan::build`] builds as many agents as the caller needs.
    pub fn parse(&self, text: &str) -> Result<AgentPlan<G>, RegistryError> {
        self.parse_from(text, Trust::Local)
    }

    /// [`Registry::parse`] for a specification from `trust`: a [`Trust::Remote`] one may not
    /// name a file or a program (refused before anything is read).
    pub fn parse_from(&self, text: &str, trust: Trust) -> Result<AgentPlan<G>, RegistryError> {
        let (spec, entry, blunder) = self.check_with_blunder(text)?;
        let recipe = (entry.plan)(&spec, trust)?;
        let takes_budget = |key: &str| {
            entry
                .params
                .iter()
                .any(|p| p.name == key && matches!(p.kind, ParamKind::Value { .. }))
        };
        let mut budget = Budget::default();
        if BUDGET_KEYS.iter().any(|k| takes_budget(k)) {
            budget = spec_budget(&spec)?;
        }
        if budget.is_unlimited() {
            let default_time = entry.params.iter().any(|p| {
                p.name == "time"
                    && matches!(p.kind, ParamKind::Value { default } if default != "none")
            });
            budget = match recipe.budget {
                Some(b) => b,
                None if default_time => Budget::DEFAULT,
                None => budget,
            };
        }
        Ok(AgentPlan {
            spec,
            recipe,
            budget,
            blunder,
        })
    }

    /// Builds the agent `text` names.
    pub fn build(&self, text: &str) -> Result<Box<dyn Agent<G>>, RegistryError> {
        self.parse(text)?.build()
    }

    /// Descriptions of every entry, for listings.
    pub fn infos(&self) -> Vec<AgentInfo> {
        self.entries
            .iter()
            .map(|e| AgentInfo {
                name: e.name,
                summary: e.summary,
                player_summary: e.player_summary,
                params: e
                    .params
                    .iter()
                    .map(|p| ParamInfo {
                        syntax: match p.kind {
                            ParamKind::Flag => p.name.to_string(),
                            ParamKind::Value { .. } => format!("{}=VALUE", p.name),
                            ParamKind::Rest => p.name.to_string(),
                        },
                        default: match p.kind {
                            ParamKind::Value { default } => Some(default),
                            _ => None,
                        },
                        doc: p.doc,
                    })
                    .collect(),
            })
            .collect()
    }
}

/// A parsed agent specification: what to build and with which budget. Cheap to clone and
/// `Send + Sync`, so one plan serves every worker of a tournament.
pub struct AgentPlan<G: Game> {
    spec: AgentSpec,
    recipe: Recipe<G>,
    budget: Budget,
    blunder: Option<f64>,
}

impl<G: Game> Clone for AgentPlan<G> {
    fn clone(&self) -> Self {
        AgentPlan {
            spec: self.spec.clone(),
            recipe: self.recipe.clone(),
            budget: self.budget,
            blunder: self.blunder,
        }
    }
}

impl<G: Game> std::fmt::Debug for AgentPlan<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentPlan")
            .field("spec", &self.spec.text)
            .field("budget", &self.budget)
            .finish()
    }
}

impl<G: Game> AgentPlan<G> {
    /// The specification as given.
    pub fn spec(&self) -> &AgentSpec {
        &self.spec
    }

    /// The budget per move the specification asks for (its `time=`, `depth=`, `nodes=`, or
    /// the entry's default, [`Budget::DEFAULT`] for searches): the seat's budget before the
    /// caller's policy [`Budget::clamp`]s it. Empty for agents that do not think.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Builds one agent.
    pub fn build(&self) -> Result<Box<dyn Agent<G>>, RegistryError> {
        let agent = (self.recipe.build)()?;
        Ok(match self.blunder {
            Some(p) if p > 0.0 => Box::new(Blundering::new(agent, p)),
            _ => agent,
        })
    }
}

/// The `random` entry, shared by every game.
pub fn random_entry<G: Game>() -> AgentEntry<G> {
    AgentEntry {
        name: "random",
        summary: "picks uniformly among the legal moves (seeded per seat)",
        player_summary: "plays any legal move at random",
        params: &[],
        plan: |_, _| {
            Ok(Recipe::new(|| {
                Box::new(tessera_core::RandomAgent::<G>::new())
            }))
        },
    }
}

/// Plays `spec` (its plan's budget binds both seats) against `opponent` from `start` and
/// `seed` through `registry`: the complete game's record (the games' registry tests replay
/// and compare these).
#[cfg(test)]
pub(crate) fn record_against<G: Game>(
    registry: &Registry<G>,
    spec: &str,
    opponent: &str,
    start: G,
    seed: u64,
) -> tessera_core::GameRecord<G::Chance> {
    let plan = registry
        .parse(spec)
        .unwrap_or_else(|e| panic!("{spec}: {e}"));
    let mut a = plan.build().unwrap_or_else(|e| panic!("{e}"));
    let mut b = registry
        .build(opponent)
        .unwrap_or_else(|e| panic!("{opponent}: {e}"));
    let (end, record) = tessera_core::play_game(
        start,
        &mut [a.as_mut(), b.as_mut()],
        &plan.budget(),
        seed,
        None,
        &mut (),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(end.is_terminal(), "{spec}");
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::testgame::Nim;

    /// Words a player must never read: sources, specification syntax, parameters.
    fn internal_words(text: &str) -> Vec<&'static str> {
        let lower = text.to_lowercase();
        let mut bad: Vec<&'static str> = [
            "thesis",
            "seed",
            "blog",
            "augur",
            "nodes",
            "=",
            "§",
            "(parameters",
        ]
        .into_iter()
        .filter(|w| lower.contains(w))
        .collect();
        // A colon glued to the next word is specification syntax (`points:blunder`).
        if lower
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b':' && !w[1].is_ascii_whitespace())
        {
            bad.push("a:b");
        }
        bad
    }

    #[test]
    fn player_summaries_and_levels_speak_plainly() {
        let mut infos = azul::registry().infos();
        infos.extend(qwirkle::registry().infos());
        let levels = azul::registry()
            .levels()
            .iter()
            .chain(qwirkle::registry().levels())
            .map(|l| (l.name, l.summary))
            .collect::<Vec<_>>();
        assert!(infos.len() > 10 && levels.len() > 10);
        for i in &infos {
            assert!(
                !i.player_summary.is_empty(),
                "{} has no player summary",
                i.name
            );
            let bad = internal_words(i.player_summary);
            assert!(
                bad.is_empty(),
                "{}: '{}' shows {bad:?}",
                i.name,
                i.player_summary
            );
        }
        for (name, summary) in levels {
            let bad = internal_words(summary);
            assert!(bad.is_empty(), "level {name}: '{summary}' shows {bad:?}");
        }
        // The check can fail: the listing's own summaries name their sources.
        let greedy = azul::registry()
            .infos()
            .into_iter()
            .find(|i| i.name == "greedy");
        assert_eq!(internal_words(greedy.map_or("", |i| i.summary)), ["thesis"]);
        assert_eq!(internal_words("level 3 (points:blunder=0.5)"), ["=", "a:b"]);
    }

    #[test]
    fn unknown_names_and_params_list_what_exists() {
        let r = nim::registry();
        let e = r.build("minimax").err().unwrap();
        assert!(matches!(e, RegistryError::UnknownAgent { .. }));
        assert!(e.to_string().contains("random"), "{e}");
        let e = r.build("random:depth=3").err().unwrap();
        assert!(e.to_string().contains("no parameter 'depth'"), "{e}");
        let e = r.build("sleepy:ms=soon").err().unwrap();
        assert!(e.to_string().contains("non-negative integer"), "{e}");
        assert!(r.build("sleepy:ms=1").is_ok());
    }

    #[test]
    fn plans_carry_the_budget_of_the_specification() {
        use std::time::Duration;
        let r = crate::registry::azul::registry();
        let p = r.parse("presort:time=100000s").unwrap();
        assert_eq!(p.budget().time, Some(Duration::from_secs(100_000)));
        let p = r.parse("presort").unwrap();
        assert_eq!(p.budget(), Budget::time(Duration::from_millis(100)));
        let p = r.parse("alphabeta:depth=3:nodes=0").unwrap();
        assert_eq!((p.budget().depth, p.budget().nodes), (Some(3), Some(1)));
        assert_eq!(p.budget().time, None);
        assert!(r.parse("greedy").unwrap().budget().is_unlimited());
        assert!(r.parse("presort:depth=0").is_err());
        // Every parameter is checked when the name is parsed, with the entry's own message,
        // not later when an agent is built.
        for (bad, expected) in [
            ("presort:multi=everyone", "paranoid or maxn"),
            ("augur:extend=two", "non-negative integer"),
            ("augur:extend=65", "0-64"),
            ("augur:weights=v11", "one of v1"),
            ("greedy:scope=forever", "move, round or game"),
            ("strategic:axis=left", "main or anti"),
        ] {
            let e = r.parse(bad).err().unwrap();
            assert!(matches!(e, RegistryError::Spec(_)), "{bad}: {e}");
            assert!(e.to_string().contains(expected), "{bad}: {e}");
        }
        // Parsing builds nothing: an external engine that does not exist parses.
        assert!(r.parse("ext:/nonexistent/engine").is_ok());
        assert!(r.parse("ext:/nonexistent/engine").unwrap().build().is_err());
    }

    #[test]
    fn levels_resolve_by_number_and_name() {
        use crate::registry::levels::{AZUL, QWIRKLE};
        let azul = crate::registry::azul::registry();
        let qwirkle = crate::registry::qwirkle::registry();
        fn ladder<G: Game>(r: &Registry<G>, levels: &[Level]) {
            assert_eq!(r.levels(), levels);
            assert!(levels.len() >= 5, "a ladder needs at least five rungs");
            assert_eq!(levels[0].spec, "random", "the ladder starts at random");
            for (i, l) in levels.iter().enumerate() {
                assert_eq!(
                    l.number as usize,
                    i + 1,
                    "levels are numbered 1..N in order"
                );
                let by_number = r.check(&format!("level:{}", l.number)).unwrap().0;
                assert_eq!(by_number.text, l.spec);
                let by_name = r.check(&format!("level:{}", l.name.to_ascii_uppercase()));
                assert_eq!(by_name.unwrap().0.text, l.spec);
            }
        }
        ladder(&azul, AZUL);
        ladder(&qwirkle, QWIRKLE);
        let plan = azul.parse("level:expert").unwrap();
        assert_eq!(plan.budget().nodes, Some(20_000));
        assert_eq!(azul.default_level().unwrap().number, 5);
        assert_eq!(qwirkle.default_level().unwrap().number, 3);
        // The top rung is oracle's tree search at a node budget (load-independent), placed by
        // the 2026-11-29 round robin in docs/players.md.
        let top = azul.parse("level:grandmaster").unwrap();
        assert_eq!(top.budget().nodes, Some(100_000));
        assert_eq!(
            azul.check("level:10").unwrap().0,
            azul.check("oracle:mcts:outcomes=8:weights=v10:nodes=100000")
                .unwrap()
                .0
        );
        let e = azul.check("level:11").err().unwrap();
        assert!(matches!(e, RegistryError::UnknownLevel { .. }));
        assert!(e.to_string().contains("1 beginner"), "{e}");
        for bad in ["level", "level:3:time=1s", "level:legend", "level:0"] {
            let e = azul.check(bad).err().unwrap().to_string();
            assert!(e.contains("expected level:N or level:NAME"), "{bad}: {e}");
        }
        // Nim has no levels: `level` is an unknown agent there.
        let e = nim::registry().check("level:1").err().unwrap();
        assert!(matches!(e, RegistryError::UnknownAgent { .. }));
        let e = azul.check("levle:1").err().unwrap().to_string();
        assert!(e.contains("level:N"), "{e}");
    }

    #[test]
    fn every_agent_can_blunder() {
        use tessera_core::rng::seeded;
        let r = crate::registry::azul::registry();
        let plan = r.parse("greedy:blunder=0.25").unwrap();
        assert!(plan.budget().is_unlimited());
        let agent = plan.build().unwrap();
        assert_eq!(agent.name(), "greedy:blunder=0.25");
        assert_eq!(
            r.parse("presort:nodes=50:blunder=0.5")
                .unwrap()
                .budget()
                .nodes,
            Some(50)
        );
        assert_eq!(
            r.parse("greedy:blunder=0").unwrap().build().unwrap().name(),
            "greedy"
        );
        for bad in [
            "greedy:blunder=2",
            "greedy:blunder=-0.1",
            "greedy:blunder=often",
        ] {
            let e = r.parse(bad).err().unwrap().to_string();
            assert!(e.contains("a probability from 0 to 1"), "{bad}: {e}");
        }
        let e = r.parse("greedy:blunder").err().unwrap().to_string();
        assert!(e.contains("blunder"), "{e}");
        // Blundering greedy plays legal moves, about half of them greedy's on a dealt board.
        use tessera_core::{Game, Turn};
        let mut state = tessera_azul::AzulState::new_random(2, &mut seeded(4));
        while state.turn() == Turn::Chance {
            let deal = state.sample_chance(&mut seeded(6));
            state.apply_chance(&deal).unwrap();
        }
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut plain = r.build("greedy").unwrap();
        let mut noisy = r.build("greedy:blunder=0.5").unwrap();
        let greedy_move = plain.choose(&state, &Budget::default(), &mut seeded(1));
        let same = (0..400)
            .filter(|&seed| {
                let m = noisy.choose(&state, &Budget::default(), &mut seeded(seed));
                assert!(legal.contains(&m));
                m == greedy_move
            })
            .count();
        // 200 coins keep greedy's move, and 1 in legal.len() of the other 200 hit it too.
        assert!(
            (160..=280).contains(&same),
            "{same} of 400 were greedy's move"
        );
    }

    #[test]
    fn retain_keeps_levels_that_still_resolve() {
        let all = crate::registry::azul::registry();
        let no_ext = all.retain(|e| e.name != "ext");
        assert_eq!(no_ext.levels().len(), crate::registry::levels::AZUL.len());
        let no_augur = crate::registry::azul::registry().retain(|e| e.name != "augur");
        assert!(
            no_augur.levels().is_empty(),
            "a level naming a removed player is dropped"
        );
    }

    #[test]
    fn duplicate_names_keep_the_first() {
        let r = Registry::<Nim>::new(vec![random_entry(), random_entry()]);
        assert_eq!(r.entries().len(), 1);
    }
}
