//! The games `tessera serve` hosts and the agents it offers for each.

use std::sync::Arc;

use tessera_azul::AzulState;
use tessera_house::ArenaGame;
use tessera_house::registry::{ParamKind, Trust};

use tessera_qwirkle::Qwirkle;

use crate::game::WebGame;
use crate::notation::{Catalog, OwnView, WrapAgent};
use crate::session::{AgentFactory, AgentInfo, GameKind, Kind, LevelInfo};
use crate::{App, Config};

/// A game's agents from the arena's registry, without the entries that would start a
/// program (external engines): a browser must not be able to run commands on the server.
pub fn registry_kind<G: WebGame + ArenaGame>() -> Kind<G> {
    kind_from_registry::<G, G>(|a| a)
}

/// [`registry_kind`] for a game hosted as `W` (the game itself, or the generic adapter's
/// wrapper): `wrap` seats the registry's agents of `G` at `W`'s table.
pub(crate) fn kind_from_registry<G: ArenaGame, W: WebGame>(wrap: WrapAgent<G, W>) -> Kind<W> {
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
    let factory: AgentFactory<W> = Arc::new(move |spec: &str| {
        let plan = registry.parse_from(spec.trim(), Trust::Remote)?;
        Ok((wrap(plan.build()?), plan.budget()))
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

/// The games with a browser view of their own; every other registered game is hosted by the
/// generic adapter ([`crate::notation`]).
pub const VIEWS: &[OwnView] = &[
    ("azul", || Box::new(azul_kind())),
    ("qwirkle", || Box::new(registry_kind::<Qwirkle>())),
];

/// The web's kind of every registered game ([`tessera_house::visit_games`]), test games
/// listed only when `test_games`.
pub fn registered_kinds(test_games: bool) -> Vec<Box<dyn GameKind>> {
    let mut catalog = Catalog {
        views: VIEWS,
        test_games,
        kinds: Vec::new(),
    };
    tessera_house::visit_games(&mut catalog);
    catalog.kinds
}

/// The registered game `name`'s kind (listed even when it is a test game), for tests and
/// embedders that host one game.
pub fn registered_kind(name: &str) -> Option<Box<dyn GameKind>> {
    registered_kinds(true)
        .into_iter()
        .find(|k| k.name() == name)
}

/// The server with every registered game (test games listed only with
/// [`Config::test_games`]).
pub fn standard_app(config: &Config) -> App {
    registered_kinds(config.test_games)
        .into_iter()
        .fold(App::new(config), App::with)
}
