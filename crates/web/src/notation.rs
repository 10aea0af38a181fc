//! The generic web adapter: any registered game ([`ArenaGame`]) hosted from its protocol
//! notation alone, with no code of its own in this crate. A game without a browser view of
//! its own (the Nim test game, a game just added) is served as [`Notated<G>`]: its view is
//! the position text the engine protocol writes for the seat ([`tessera_house::EngineGame::position_text`])
//! with the game's view as JSON, its legal moves and the moves a browser posts are the
//! game's action notation, and its AI seats come from the game's registry (as a remote
//! client's specifications: nothing that names a file or a program).
//!
//! `Notated<G>` is `G` seen through a transparent wrapper: the same notation, JSON, records
//! and seeded play (every [`Game`] method is `G`'s), so a record made here replays as `G`'s
//! and the other way round.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tessera_core::{
    Agent, Budget, Game, GameInfo, GameRng, Outcome, PerPlayer, PlayerId, SearchInfo, Turn,
};
use tessera_house::ArenaGame;
use tessera_house::registry::{ParamKind, Trust};

use crate::answers;
use crate::game::{SetupError, WebGame, no_options};
use crate::session::{AgentFactory, AgentInfo, Kind, LevelInfo};

/// A registered game hosted from its notation (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Notated<G>(pub G);

impl<G: Game> fmt::Display for Notated<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl<G: Game> FromStr for Notated<G> {
    type Err = G::ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(Notated)
    }
}

impl<G: Game> Game for Notated<G> {
    type Action = G::Action;
    type Chance = G::Chance;
    type View = G::View;
    type ActionError = G::ActionError;
    type ChanceError = G::ChanceError;
    type ParseError = G::ParseError;
    type ActionParseError = G::ActionParseError;

    const INFO: GameInfo = G::INFO;

    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn turn(&self) -> Turn {
        self.0.turn()
    }
    fn legal_actions(&self, out: &mut Vec<Self::Action>) {
        self.0.legal_actions(out)
    }
    fn apply(&mut self, action: Self::Action) {
        self.0.apply(action)
    }
    fn try_apply(&mut self, action: Self::Action) -> Result<(), Self::ActionError> {
        self.0.try_apply(action)
    }
    fn sample_chance(&self, rng: &mut GameRng) -> Self::Chance {
        self.0.sample_chance(rng)
    }
    fn apply_chance(&mut self, outcome: &Self::Chance) -> Result<(), Self::ChanceError> {
        self.0.apply_chance(outcome)
    }
    fn scores(&self) -> PerPlayer<i32> {
        self.0.scores()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn view(&self, player: PlayerId) -> Self::View {
        self.0.view(player)
    }
    fn determinize(&self, observer: PlayerId, rng: &mut GameRng) -> Self {
        Notated(self.0.determinize(observer, rng))
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.0.check_invariants()
    }
    fn current_player(&self) -> Option<PlayerId> {
        self.0.current_player()
    }
    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }
}

/// A seat's view of a game without a web view of its own.
#[derive(Serialize)]
struct NotatedView<V: Serialize> {
    /// The position text of the seat's view (`null` for a spectator of a game with hidden
    /// information).
    state: Option<String>,
    /// The game's own view of that seat (`null` likewise).
    json: Option<V>,
}

/// An action as its protocol word and the game's own JSON form of it.
#[derive(Serialize)]
struct NotatedAction<'a, A: Serialize> {
    word: String,
    json: &'a A,
}

impl<G: ArenaGame> WebGame for Notated<G> {
    /// The registration's own set-up ([`ArenaGame::new_game`], as tournaments and the engine
    /// set a table up); the game takes no options here.
    fn setup(players: usize, options: &Value, rng: &mut GameRng) -> Result<Self, SetupError> {
        no_options::<G>(options)?;
        Ok(Notated(G::new_game(players, rng)))
    }

    /// `{"state": TEXT, "json": VIEW}`: the position text of the seat's view, as the engine
    /// protocol writes it. A spectator of a game with hidden information sees no position
    /// (the generic adapter cannot know which parts are public); of any other game, seat 1's
    /// text, which is the whole position.
    fn view_json(&self, seat: Option<PlayerId>) -> Value {
        let shown = match seat {
            Some(p) => Some(p),
            None if G::INFO.hidden_info => None,
            None => Some(PlayerId(0)),
        };
        answers::to_value(&NotatedView {
            state: shown.map(|p| self.0.position_text(p)),
            json: shown.map(|p| self.0.view(p)),
        })
    }

    /// The action as its protocol word and its JSON form.
    fn action_json(&self, action: &Self::Action) -> Value {
        answers::to_value(&NotatedAction {
            word: G::action_word(action),
            json: action,
        })
    }
}

/// A registry agent of `G` seated at a [`Notated<G>`] table: every call is `G`'s agent's.
struct NotatedAgent<G: Game>(Box<dyn Agent<G>>);

impl<G: Game> Agent<Notated<G>> for NotatedAgent<G> {
    fn name(&self) -> String {
        self.0.name()
    }
    fn choose(&mut self, state: &Notated<G>, budget: &Budget, rng: &mut GameRng) -> G::Action {
        self.0.choose(&state.0, budget, rng)
    }
    fn reset(&mut self) {
        self.0.reset()
    }
    fn last_info(&self) -> Option<SearchInfo> {
        self.0.last_info()
    }
    fn take_faults(&mut self) -> Vec<tessera_core::fault::Fault> {
        self.0.take_faults()
    }
}

/// The web's game kind of a registered game with no browser view of its own: its registry's
/// players (without those that start a program), levels and hints, as [`Notated<G>`].
pub fn notation_kind<G: ArenaGame>() -> Kind<Notated<G>> {
    kind_from_registry::<G, Notated<G>>(|a| Box::new(NotatedAgent(a)))
}

/// Seats a registry agent of `G` at a `W` table.
pub type WrapAgent<G, W> = fn(Box<dyn Agent<G>>) -> Box<dyn Agent<W>>;

/// A game's kind from its registry ([`crate::games::registry_kind`]) for a game hosted as `W` (the game itself, or the generic adapter's
/// wrapper): `wrap` seats the registry's agents of `G` at `W`'s table.
pub fn kind_from_registry<G: ArenaGame, W: WebGame>(wrap: WrapAgent<G, W>) -> Kind<W> {
    let registry = Arc::new(
        <G as ArenaGame>::registry()
            .retain(|e| !e.params.iter().any(|p| matches!(p.kind, ParamKind::Rest))),
    );
    let agents = registry
        .infos()
        .into_iter()
        .map(|i| AgentInfo {
            name: i.name.to_string(),
            // Players read what the player does, never its parameters or sources (those
            // are in `tessera agents` and docs/players.md).
            description: i.player_summary.to_string(),
            timed: i.params.iter().any(|p| p.syntax.starts_with("time=")),
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
            spec: l.spec.to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tessera_core::testgame::Nim;
    use tessera_house::EngineGame;

    #[test]
    fn a_notated_game_is_the_game_in_notation_json_and_views() {
        let nim: Nim = "2 1 ? 0,0".parse().unwrap_or_else(|_| Nim::new(2));
        let n = Notated(nim.clone());
        assert_eq!(n.to_string(), nim.to_string());
        assert_eq!(
            serde_json::to_value(&n).unwrap(),
            serde_json::to_value(&nim).unwrap()
        );
        let back: Notated<Nim> = nim.to_string().parse().unwrap();
        assert_eq!(back.0, nim);
        let v = n.view_json(Some(PlayerId(1)));
        assert_eq!(v["state"], json!(nim.position_text(PlayerId(1))));
        assert!(
            Notated::<Nim>::setup(2, &json!({"x": 1}), &mut tessera_core::rng::seeded(1)).is_err()
        );
    }
}
