//! What a game implements to join the house, below every file that uses it: [`ArenaGame`]
//! (a table for N seats, its players) and its supertrait [`EngineGame`] (its engine-protocol
//! notation). The drivers ([`crate::games`]), the engine server ([`crate::engine`]), external
//! engines ([`crate::ext`]), terminal play ([`crate::terminal`]) and each game's registry
//! file build on these two traits.

use tessera_core::{Game, GameRng, PlayerId};

use crate::registry::Registry;

/// Any error, boxed (a game's own typed error behind the protocol's generic one).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What a game declares once to speak the engine protocol (server and `ext:` client).
/// Every [`ArenaGame`] is one (a supertrait), so every game the arena knows has an engine.
///
/// The defaults use the game's own notation: `Display`/`FromStr` of the state for
/// `position state`, of the action for moves. A game overrides [`position_text`] and
/// [`parse_position`] when it hides information (a seat's view instead of the state), and
/// [`action_word`] when its action notation has spaces (protocol words have none).
///
/// [`position_text`]: EngineGame::position_text
/// [`parse_position`]: EngineGame::parse_position
/// [`action_word`]: EngineGame::action_word
pub trait EngineGame: Game {
    /// The registry name of the player that answers `go` unless `setoption name Player`
    /// or `--player` names another.
    const ENGINE_PLAYER: &'static str;
    /// What a position waiting for chance waits for, in an error (`a factory deal`).
    const CHANCE_NAME: &'static str;
    /// The error for a move of `position start` given where chance is due, naming the
    /// notation expected (`the round needs its deal first (deal:F1/F2/...)`).
    const CHANCE_NEEDED: &'static str;

    /// A new game for `position start players N [first K]`: `first` is the starting seat
    /// when the client names one. `None` if the game cannot start that way (its rules choose
    /// the first player); `players` is already checked against the game's range.
    fn start(players: usize, first: Option<PlayerId>) -> Option<Self>;

    /// Reads one word of `position start ... moves` that is a chance outcome (Azul's
    /// `deal:BBYR/...`): `None` if the word is not written as one (it is then read as an
    /// action), `Some(Err(why))` if it is but does not parse here.
    fn parse_chance(&self, word: &str) -> Option<Result<Self::Chance, String>>;

    /// The position as `seat` may see it, in the notation `position state` reads. The
    /// default is the state's notation, right for games without hidden information; a game
    /// with hidden information must write only what `seat`'s [`Game::view`] holds.
    fn position_text(&self, seat: PlayerId) -> String {
        let _ = seat;
        self.to_string()
    }

    /// Reads `position state NOTATION`: the state, and the seat whose view the text was
    /// (`None` for a full state). From a view, the hidden parts are filled in any way
    /// consistent with it: the engine's player only sees determinized copies.
    fn parse_position(text: &str) -> Result<(Self, Option<PlayerId>), BoxError> {
        Ok((text.parse().map_err(|e| Box::new(e) as BoxError)?, None))
    }

    /// An action as one protocol word (`bestmove`, `legal`, `position start ... moves`).
    fn action_word(action: &Self::Action) -> String {
        action.to_string()
    }

    /// Reads an action written by [`EngineGame::action_word`] (or in the game's notation).
    fn parse_action(word: &str) -> Result<Self::Action, Self::ActionParseError> {
        word.parse()
    }
}

/// A game the arena can play. Its facts (name, seat range) are the game's own
/// [`Game::INFO`](tessera_core::Game::INFO).
pub trait ArenaGame: EngineGame {
    /// A guard against agents that never finish: a game longer than this many actions is
    /// an error.
    const MAX_ACTIONS: usize = 100_000;

    /// True for a game that exists to test generic code (Nim): every front end hosts it, but
    /// players are not offered it unless the operator asks (`tessera serve --test-games`;
    /// `tessera.games()` flags it).
    const TEST_GAME: bool = false;

    /// A new game for `players` seats (checked to be in range), set up with `rng` (for
    /// example the random starting player).
    fn new_game(players: usize, rng: &mut GameRng) -> Self;

    /// The game's players.
    fn registry() -> Registry<Self>;
}
