//! The games `tessera serve` hosts and the agents it offers for each.

use std::sync::Arc;

use tessera_arena::ArenaGame;
use tessera_arena::registry::{ParamKind, Trust};
use tessera_azul::AzulState;
use tessera_core::testgame::Nim;

use tessera_qwirkle::Qwirkle;

use crate::game::WebGame;
use crate::session::{AgentFactory, AgentInfo, Kind, LevelInfo};
use crate::{App, Config};

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

/// The Nim test game with its registry players, hosted (its records replay) but listed in
/// the catalog only when `listed`.
pub fn nim_kind(listed: bool) -> Kind<Nim> {
    registry_kind::<Nim>().listed(listed)
}

/// The server with every game of the toolkit (the test game listed only with
/// [`Config::test_games`]).
pub fn standard_app(config: &Config) -> App {
    App::new(config)
        .with(Box::new(azul_kind()))
        .with(Box::new(registry_kind::<Qwirkle>()))
        .with(Box::new(nim_kind(config.test_games)))
}
