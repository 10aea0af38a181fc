//! What the server needs from a game beyond [`tessera_core::Game`]: how to set one up from a
//! browser's request and how to show it, per seat, as JSON.

use serde_json::Value;
use tessera_core::{Game, GameRng, PlayerId};

/// Why a game cannot be set up from a request's options.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// The game takes no options but the request gives some.
    #[error("{0} takes no options")]
    NoOptions(&'static str),
}

/// Checks that a game without options got none (`null` or `{}`).
pub fn no_options<G: Game>(options: &Value) -> Result<(), SetupError> {
    if options.is_null() || options.as_object().is_some_and(|o| o.is_empty()) {
        Ok(())
    } else {
        Err(SetupError::NoOptions(G::INFO.title))
    }
}

/// A game the server can host.
///
/// The server only ever sends [`WebGame::view_json`] output to a browser: the view of a
/// human seat (what that player may see) or the spectator view (what everyone may see).
///
/// The game's name, title, seat range and whether it hides information are its
/// [`Game::INFO`](tessera_core::Game::INFO); the record of a game with hidden information,
/// which holds every draw, is only given out once the game is over.
pub trait WebGame: Game {
    /// The initial state for `players` seats. `options` is the `options` object of the
    /// request (game-specific, may be `null`); `rng` is the game's setup generator.
    fn setup(players: usize, options: &Value, rng: &mut GameRng) -> Result<Self, SetupError>;

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

    /// Why `action` is worth playing for seat `p`, from `self` (the state before it):
    /// `{"points": N, "why": "..."}`, or `null` when the game has nothing to say. Hints and
    /// the move log show it.
    fn explain(&self, p: PlayerId, action: &Self::Action) -> Value {
        let _ = (p, action);
        Value::Null
    }

    /// Whether the list of legal actions is sent to the seat to move (games whose moves
    /// are assembled in the browser and checked on submission may say no).
    fn send_legal_actions(&self) -> bool {
        true
    }
}
