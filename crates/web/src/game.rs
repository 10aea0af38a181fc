//! What the server needs from a game beyond [`tessera_core::Game`]: how to set one up from a
//! browser's request and how to show it, per seat, as JSON.

use serde_json::Value;
use tessera_core::{Game, GameRng, PlayerId};

/// A game the server can host.
///
/// The server only ever sends [`WebGame::view_json`] output to a browser: the view of a
/// human seat (what that player may see) or the spectator view (what everyone may see).
pub trait WebGame: Game {
    /// The name shown to people ("Azul").
    const TITLE: &'static str;
    /// The fewest seats.
    const MIN_PLAYERS: usize;
    /// The most seats.
    const MAX_PLAYERS: usize;
    /// True when some information is private to a seat (hands, bag order). The game record
    /// of such a game, which holds every draw, is then only given out once the game is over.
    const HIDDEN_INFO: bool;

    /// The initial state for `players` seats. `options` is the `options` object of the
    /// request (game-specific, may be `null`); `rng` is the game's setup generator.
    fn setup(players: usize, options: &Value, rng: &mut GameRng) -> Result<Self, String>;

    /// The state as `seat` may see it (`None`: a spectator, who sees only public
    /// information).
    fn view_json(&self, seat: Option<PlayerId>) -> Value;

    /// An action as structured JSON, for the browser to draw and highlight it.
    fn action_json(&self, action: &Self::Action) -> Value {
        serde_json::to_value(action).unwrap_or(Value::Null)
    }

    /// The action as others may read it in the list of steps (a Qwirkle trade hides which
    /// tiles went back). The default is the notation.
    fn public_action(&self, action: &Self::Action) -> String {
        action.to_string()
    }

    /// What happened as `action` was played from `self`, beyond the new state (for Azul the
    /// wall tiling and scoring that ends a round); `null` when there is nothing to add.
    fn step_report(&self, action: &Self::Action) -> Value {
        let _ = action;
        Value::Null
    }

    /// Whether the list of legal actions is sent to the seat to move (games whose moves
    /// are assembled in the browser and checked on submission may say no).
    fn send_legal_actions(&self) -> bool {
        true
    }
}

impl WebGame for tessera_core::testgame::Nim {
    const TITLE: &'static str = "Nim (test game)";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 4;
    const HIDDEN_INFO: bool = false;

    fn setup(players: usize, _options: &Value, _rng: &mut GameRng) -> Result<Self, String> {
        Ok(tessera_core::testgame::Nim::new(players))
    }

    fn view_json(&self, seat: Option<PlayerId>) -> Value {
        let v = self.view(seat.unwrap_or(PlayerId(0)));
        serde_json::json!({ "state": v.to_string(), "json": v })
    }
}
