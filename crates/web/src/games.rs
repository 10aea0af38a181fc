//! The games `tessera serve` hosts and the agents it offers for each.

use tessera_azul::AzulState;
use tessera_house::{ArenaGame, GameVisitor};

use tessera_qwirkle::Qwirkle;

use crate::game::WebGame;
use crate::notation::{kind_from_registry, notation_kind};
use crate::session::{GameKind, Kind};
use crate::{App, Config};

/// A game's agents from the arena's registry, without the entries that would start a
/// program (external engines): a browser must not be able to run commands on the server.
pub fn registry_kind<G: WebGame + ArenaGame>() -> Kind<G> {
    kind_from_registry::<G, G>(|a| a)
}

/// Azul with every registry player.
pub fn azul_kind() -> Kind<AzulState> {
    registry_kind::<AzulState>()
}

/// A game's own browser view: its name and the function that makes its kind.
pub type OwnView = (&'static str, fn() -> Box<dyn GameKind>);

/// Builds the web's kinds of the registered games ([`tessera_house::visit_games`]): a game
/// named in `views` gets its own browser view, every other one the generic adapter; a test
/// game ([`ArenaGame::TEST_GAME`]) is hosted but listed only when `test_games`.
pub struct Catalog<'a> {
    /// Games with a browser view of their own: name and the function that makes its kind.
    pub views: &'a [OwnView],
    /// List the test games.
    pub test_games: bool,
    /// The kinds made, in registration order.
    pub kinds: Vec<Box<dyn GameKind>>,
}

impl GameVisitor for Catalog<'_> {
    fn visit<G: ArenaGame>(&mut self) {
        let own = self.views.iter().find(|(name, _)| *name == G::INFO.name);
        let kind: Box<dyn GameKind> = match own {
            Some((_, make)) => make(),
            None => Box::new(notation_kind::<G>().listed(!G::TEST_GAME || self.test_games)),
        };
        self.kinds.push(kind);
    }
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
