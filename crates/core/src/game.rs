//! The game contract every Tessera game implements.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::player::{PerPlayer, PlayerId};
use crate::rng::GameRng;

/// Who acts next.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind", content = "player")]
pub enum Turn {
    /// A player chooses an action.
    Player(PlayerId),
    /// A random event happens next (a factory refill, a draw from the bag). The caller's
    /// generator picks the outcome with [`Game::sample_chance`] and applies it with
    /// [`Game::apply_chance`], so states stay deterministic and replayable.
    Chance,
    /// The game is over.
    Terminal,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Final scores, bonuses included.
    pub scores: PerPlayer<i32>,
    /// The winners after the game's tie-breaks: one seat for a clear win, several for a
    /// shared win.
    pub winners: Vec<PlayerId>,
}

impl Outcome {
    /// True if `p` won alone.
    pub fn is_sole_winner(&self, p: PlayerId) -> bool {
        self.winners.len() == 1 && self.winners[0] == p
    }

    /// True if `p` shares the win with someone else.
    pub fn is_shared_winner(&self, p: PlayerId) -> bool {
        self.winners.len() > 1 && self.winners.contains(&p)
    }

    /// Reward per player: 1 for a sole win, 1/k for a win shared by k, 0 otherwise.
    pub fn rewards(&self) -> PerPlayer<f64> {
        let share = 1.0 / self.winners.len().max(1) as f64;
        PerPlayer::from_fn(self.scores.len(), |p| {
            if self.winners.contains(&p) {
                share
            } else {
                0.0
            }
        })
    }
}

/// Facts about a game, declared once by the game's crate and read by every front end (the
/// arena, the web server, the command line, the engine protocol). OpenSpiel's `GameType` is
/// the model.
///
/// ```
/// use tessera_core::{Game, testgame::Nim};
/// assert_eq!(Nim::INFO.name, "nim");
/// assert!(Nim::INFO.seats_ok(3) && !Nim::INFO.seats_ok(5));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    /// The short name used on the command line, in records and URLs (`azul`, `qwirkle`).
    pub name: &'static str,
    /// The name shown to people (`Azul`).
    pub title: &'static str,
    /// The fewest seats at a table.
    pub min_players: usize,
    /// The most seats at a table.
    pub max_players: usize,
    /// True when the game has chance events ([`Turn::Chance`]).
    pub chance: bool,
    /// True when some information is private to a seat (hands, bag order): views differ
    /// from the state, agents see [`Game::determinize`]d states, and a full record (which
    /// holds every draw) is shown only after the game.
    pub hidden_info: bool,
}

/// A table of a size the game is not played at.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{title} is played by {min} to {max} players, not {given}")]
pub struct SeatsError {
    /// The game's title.
    pub title: &'static str,
    /// The fewest seats.
    pub min: usize,
    /// The most seats.
    pub max: usize,
    /// The number asked for.
    pub given: usize,
}

impl GameInfo {
    /// True if the game is played by `players` seats.
    pub const fn seats_ok(&self, players: usize) -> bool {
        self.min_players <= players && players <= self.max_players
    }

    /// Checks a number of seats, with an error naming the range.
    pub fn check_seats(&self, players: usize) -> Result<(), SeatsError> {
        if self.seats_ok(players) {
            Ok(())
        } else {
            Err(SeatsError {
                title: self.title,
                min: self.min_players,
                max: self.max_players,
                given: players,
            })
        }
    }
}

/// A game's rules: states, actions, chance and scoring.
///
/// The implementing type is the full game state. It is cheap to clone, has a text notation
/// (`Display` + `FromStr`, enough to resume a game) and a serde JSON form.
///
/// Contract (checked by [`crate::conformance`]):
/// - [`Game::legal_actions`] fills a caller-owned buffer; it is non-empty exactly when
///   [`Game::turn`] is [`Turn::Player`].
/// - [`Game::apply`] on a legal action never fails; [`Game::try_apply`] returns a typed error
///   for an illegal one and leaves the state unchanged.
/// - Chance outcomes come from the caller's generator; applying the same outcomes and actions
///   to the same state always gives the same state.
pub trait Game:
    Clone
    + Send
    + Sync
    + Debug
    + PartialEq
    + Display
    + FromStr<Err = Self::ParseError>
    + Serialize
    + DeserializeOwned
    + 'static
{
    /// A small `Copy` action with its own notation.
    type Action: Copy
        + Eq
        + Hash
        + Debug
        + Display
        + FromStr<Err = Self::ActionParseError>
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;
    /// The outcome of one chance event (for Azul a round's factory deal, for Qwirkle the
    /// tiles drawn). Stored in game records so a game replays without our generator.
    type Chance: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// What one player may see of the state (hidden hands and bag order removed).
    type View: Clone + Debug + PartialEq + Serialize + Send + Sync + 'static;
    /// Why an action is illegal here.
    type ActionError: std::error::Error + Send + Sync + 'static;
    /// Why a chance outcome is impossible here.
    type ChanceError: std::error::Error + Send + Sync + 'static;
    /// Why a state's text is malformed.
    type ParseError: std::error::Error + Send + Sync + 'static;
    /// Why an action's text is malformed.
    type ActionParseError: std::error::Error + Send + Sync + 'static;

    /// The game's facts: name, title, seat range, chance, hidden information.
    const INFO: GameInfo;

    /// The game's short name, as used on the command line (`azul`, `qwirkle`): always
    /// `INFO.name` (do not override).
    const NAME: &'static str = Self::INFO.name;

    /// Number of players at the table.
    fn num_players(&self) -> usize;

    /// Who acts next.
    fn turn(&self) -> Turn;

    /// Clears `out` and writes every legal action of the player to move into it.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Applies a legal action. Illegal actions are a programming error (checked in debug
    /// builds); user input goes through [`Game::try_apply`].
    fn apply(&mut self, action: Self::Action);

    /// Applies an action after checking it; on error the state is unchanged.
    fn try_apply(&mut self, action: Self::Action) -> Result<(), Self::ActionError>;

    /// Draws a chance outcome with the caller's generator. Only meaningful when
    /// [`Game::turn`] is [`Turn::Chance`].
    fn sample_chance(&self, rng: &mut GameRng) -> Self::Chance;

    /// Applies a chance outcome (sampled, or read from a record) after checking it is
    /// possible; on error the state is unchanged.
    fn apply_chance(&mut self, outcome: &Self::Chance) -> Result<(), Self::ChanceError>;

    /// Current scores (visible to everyone).
    fn scores(&self) -> PerPlayer<i32>;

    /// The result, once [`Game::turn`] is [`Turn::Terminal`].
    fn outcome(&self) -> Option<Outcome>;

    /// What `player` may see.
    fn view(&self, player: PlayerId) -> Self::View;

    /// A full state consistent with what `observer` sees: hidden information (other hands,
    /// bag order) is resampled with `rng`. Agents of imperfect-information games get such a
    /// state, so they cannot cheat. The default (perfect information) is a clone.
    fn determinize(&self, observer: PlayerId, rng: &mut GameRng) -> Self {
        let _ = (observer, rng);
        self.clone()
    }

    /// Checks internal invariants (for example conservation of tiles); used by the
    /// conformance kit after every step. Returns a description of the first violation.
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }

    /// An estimate of the decisions the player to move still has in this game, this one
    /// included, for a time manager sharing a clock over them ([`crate::clock`]). `None`
    /// (the default): the time manager assumes a horizon of its own.
    fn decisions_left(&self) -> Option<u32> {
        None
    }

    /// The player to move, if any.
    fn current_player(&self) -> Option<PlayerId> {
        match self.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }

    /// True once the game is over.
    fn is_terminal(&self) -> bool {
        self.turn() == Turn::Terminal
    }
}
