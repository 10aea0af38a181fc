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
//! | `registry/qwirkle.rs` | Qwirkle: bots (and the game's [`crate::ArenaGame`] impl) |
//! | `registry/nim.rs` | the Nim test game |
//! | `ext.rs` | external engines over the text protocol |
//!
//! An entry is a name, a one-line summary, its documented parameters and a constructor:
//!
//! ```
//! use tessera_arena::registry::{AgentEntry, ParamDoc, Registry};
//! use tessera_core::{RandomAgent, testgame::Nim};
//! let entries = vec![AgentEntry::<Nim> {
//!     name: "random",
//!     summary: "uniformly random legal moves",
//!     params: &[],
//!     build: |_spec| Ok(Box::new(RandomAgent::new())),
//! }];
//! let registry = Registry::new("nim", entries);
//! assert!(registry.build("random").is_ok());
//! let err = registry.build("randon").err().unwrap();
//! assert!(err.to_string().contains("known agents: random"));
//! ```

use tessera_core::{Agent, Game};
use thiserror::Error;

use crate::spec::{AgentSpec, SpecError};

pub mod azul;
pub mod azul_augur;
pub mod azul_search;
pub mod nim;
pub mod qwirkle;

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

/// Builds an agent from its parsed specification. Parameters have already been checked
/// against the entry's [`ParamDoc`]s (except for [`ParamKind::Rest`] entries).
pub type BuildFn<G> = fn(&AgentSpec) -> Result<Box<dyn Agent<G>>, SpecError>;

/// One registered player.
pub struct AgentEntry<G: Game> {
    /// The name, as typed on the command line.
    pub name: &'static str,
    /// A one-line description.
    pub summary: &'static str,
    /// Its parameters.
    pub params: &'static [ParamDoc],
    /// Its constructor.
    pub build: BuildFn<G>,
}

impl<G: Game> Clone for AgentEntry<G> {
    fn clone(&self) -> Self {
        AgentEntry {
            name: self.name,
            summary: self.summary,
            params: self.params,
            build: self.build,
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
#[derive(Debug, Error, Clone, PartialEq, Eq)]
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
    /// The specification or one of its parameters is wrong.
    #[error("{0} (see `tessera agents`)")]
    Spec(SpecError),
}

impl From<SpecError> for RegistryError {
    fn from(e: SpecError) -> Self {
        RegistryError::Spec(e)
    }
}

/// All players of one game.
pub struct Registry<G: Game> {
    game: &'static str,
    entries: Vec<AgentEntry<G>>,
}

impl<G: Game> Registry<G> {
    /// A registry of `entries` for `game`. Later entries with a name already taken are
    /// ignored (and caught by the registry tests).
    pub fn new(game: &'static str, entries: Vec<AgentEntry<G>>) -> Self {
        let mut kept: Vec<AgentEntry<G>> = Vec::with_capacity(entries.len());
        for e in entries {
            if !kept.iter().any(|k| k.name == e.name) {
                kept.push(e);
            }
        }
        Registry {
            game,
            entries: kept,
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
    /// building the agent.
    pub fn check(&self, text: &str) -> Result<(AgentSpec, &AgentEntry<G>), RegistryError> {
        let spec: AgentSpec = text.parse()?;
        let entry = self
            .get(&spec.name)
            .ok_or_else(|| RegistryError::UnknownAgent {
                game: self.game,
                name: spec.name.clone(),
                known: self
                    .entries
                    .iter()
                    .map(|e| e.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        let free_form = entry.params.iter().any(|p| p.kind == ParamKind::Rest);
        if !free_form {
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
        Ok((spec, entry))
    }

    /// Builds the agent `text` names.
    pub fn build(&self, text: &str) -> Result<Box<dyn Agent<G>>, RegistryError> {
        let (spec, entry) = self.check(text)?;
        Ok((entry.build)(&spec)?)
    }

    /// Descriptions of every entry, for listings.
    pub fn infos(&self) -> Vec<AgentInfo> {
        self.entries
            .iter()
            .map(|e| AgentInfo {
                name: e.name,
                summary: e.summary,
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

/// The `random` entry, shared by every game.
pub fn random_entry<G: Game>() -> AgentEntry<G> {
    AgentEntry {
        name: "random",
        summary: "picks uniformly among the legal moves (seeded per seat)",
        params: &[],
        build: |_| Ok(Box::new(tessera_core::RandomAgent::<G>::new())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::testgame::Nim;

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
    fn duplicate_names_keep_the_first() {
        let r = Registry::<Nim>::new("nim", vec![random_entry(), random_entry()]);
        assert_eq!(r.entries().len(), 1);
    }
}
