//! The games `tessera serve` hosts and the agents it offers for each.

use std::sync::Arc;

use tessera_arena::ArenaGame;
use tessera_arena::registry::{ParamKind, RegistryError, Trust};
use tessera_azul::AzulState;
use tessera_core::testgame::Nim;
use tessera_core::{Agent, Budget, Game, RandomAgent};
use tessera_qwirkle::Qwirkle;

use crate::game::WebGame;
use crate::session::{AgentFactory, AgentInfo, Kind, LevelInfo};
use crate::{App, Config};

/// The agents of the Nim test game: only `random`.
pub fn nim_kind() -> Kind<Nim> {
    let factory: AgentFactory<Nim> = Arc::new(|spec: &str| match spec.trim() {
        "random" => Ok((
            Box::new(RandomAgent::<Nim>::new()) as Box<dyn Agent<Nim>>,
            Budget::default(),
        )),
        other => Err(RegistryError::UnknownAgent {
            game: Nim::INFO.name,
            name: other.to_string(),
            known: "random".into(),
        }),
    });
    Kind::new(
        factory,
        vec![AgentInfo {
            name: "random".into(),
            description: "picks uniformly among the legal moves".into(),
            timed: false,
        }],
    )
}

/// A game's agents from the arena's registry, without the entries that would start a
/// program (external engines): a browser must not be able to run commands on the server.
pub fn registry_kind<G: WebGame + ArenaGame>() -> Kind<G> {
    let registry = Arc::new(
        <G as ArenaGame>::registry()
            .retain(|e| !e.params.iter().any(|p| matches!(p.kind, ParamKind::Rest))),
    );
    let agents = registry
        .infos()
        .into_iter()
        .map(|i| {
            let params: Vec<String> = i.params.iter().map(|p| p.syntax.clone()).collect();
            AgentInfo {
                name: i.name.to_string(),
                description: if params.is_empty() {
                    i.summary.to_string()
                } else {
                    format!("{} (parameters: {})", i.summary, params.join(", "))
                },
                timed: i.params.iter().any(|p| p.syntax.starts_with("time=")),
            }
        })
        .collect();
    let levels: Vec<LevelInfo> = registry
        .levels()
        .iter()
        .map(|l| LevelInfo {
            number: l.number,
            name: l.name.to_string(),
            summary: l.summary.to_string(),
            agent: format!("level:{}", l.number),
        })
        .collect();
    let default_level = registry.default_level().map(|l| l.number);
    // Hints come from the strongest level.
    let hint = registry
        .levels()
        .last()
        .map(|l| format!("level:{}", l.number));
    // The specification is parsed once into its factory and budget, as a remote client's
    // (no parameter may name a file or a program); the session clamps the budget to the
    // server's cap.
    let factory: AgentFactory<G> = Arc::new(move |spec: &str| {
        let plan = registry.parse_from(spec.trim(), Trust::Remote)?;
        Ok((plan.build()?, plan.budget()))
    });
    let kind = Kind::new(factory, agents).with_levels(levels, default_level);
    match hint {
        Some(spec) => kind.with_hints(spec),
        None => kind,
    }
}

/// Azul with every registry player.
pub fn azul_kind() -> Kind<AzulState> {
    registry_kind::<AzulState>()
}

/// The server with every game of the toolkit.
pub fn standard_app(config: &Config) -> App {
    App::new(config)
        .with(Box::new(azul_kind()))
        .with(Box::new(registry_kind::<Qwirkle>()))
        .with(Box::new(nim_kind()))
}
