//! The games `tessera serve` hosts and the agents it offers for each.

use std::sync::Arc;

use tessera_azul::AzulState;
use tessera_core::testgame::Nim;
use tessera_core::{Agent, RandomAgent};

use crate::session::{AgentFactory, AgentInfo, Kind};
use crate::{App, Config};

/// The agents of the Nim test game: only `random`.
pub fn nim_kind() -> Kind<Nim> {
    let factory: AgentFactory<Nim> = Arc::new(|spec: &str| match spec.trim() {
        "random" => Ok(Box::new(RandomAgent::<Nim>::new()) as Box<dyn Agent<Nim>>),
        other => Err(format!("unknown agent '{other}': expected random")),
    });
    Kind::new(
        factory,
        vec![AgentInfo {
            name: "random".into(),
            description: "picks uniformly among the legal moves".into(),
        }],
    )
}

/// Azul with its agents.
pub fn azul_kind() -> Kind<AzulState> {
    let factory: AgentFactory<AzulState> = Arc::new(|spec: &str| match spec.trim() {
        "random" => Ok(Box::new(RandomAgent::<AzulState>::new()) as Box<dyn Agent<AzulState>>),
        other => Err(format!("unknown agent '{other}': expected random")),
    });
    Kind::new(
        factory,
        vec![AgentInfo {
            name: "random".into(),
            description: "picks uniformly among the legal moves".into(),
        }],
    )
}

/// The server with every game of the toolkit.
pub fn standard_app(config: &Config) -> App {
    App::new(config)
        .with_game("azul", Box::new(azul_kind()))
        .with_game("nim", Box::new(nim_kind()))
}
