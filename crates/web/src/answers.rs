//! The shapes of the JSON answers of the game endpoints, as Rust types: a snapshot of a game
//! for one seat, its steps, seats and clock, the lobby and list entries, a move check.
//!
//! The answers are turned into `serde_json::Value` where they leave a game
//! ([`crate::session::DynSession`] hands out `Value`s), whose objects keep their keys in
//! sorted order: the bytes on the wire are those of the `json!` objects these types replaced.
//! `Value` stays only where the content is the game's own (a view, an action's structured
//! form, a step's report, an explanation: [`crate::game::WebGame`]) or a record passed
//! through.

use serde::Serialize;
use serde_json::Value;
use tessera_core::record::Assist;
use tessera_core::{Budget, Outcome, Turn};

/// Who the game waits for (`null` at the end, during a deal and after a failure).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Waiting {
    /// A person's move.
    Human,
    /// An AI seat's move.
    Ai,
}

/// A seat as a snapshot shows it.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SeatView<'a> {
    /// A person's seat.
    Human {
        /// The name on the board.
        name: &'a str,
        /// Nobody has taken it yet.
        free: bool,
    },
    /// An AI seat.
    Ai {
        /// The name on the board.
        name: &'a str,
        /// The agent's specification.
        agent: &'a str,
        /// Its budget per move.
        budget: &'a Budget,
    },
}

/// The game clock in a snapshot.
#[derive(Debug, Serialize)]
pub struct ClockView {
    /// The control as written (`60s+1s`).
    pub control: String,
    /// Each seat's starting time.
    pub base_ms: u64,
    /// Time added after each move.
    pub increment_ms: u64,
    /// Each seat's time left.
    pub left_ms: Vec<u64>,
    /// The seat whose clock runs.
    pub running: Option<u8>,
    /// The seat whose flag fell.
    pub flag: Option<u8>,
}

/// A legal action for the seat to move: its notation and the game's structured form.
#[derive(Debug, Serialize)]
pub struct LegalAction {
    /// The notation.
    pub action: String,
    /// The game's structured form of it.
    pub json: Value,
}

/// Whether a step was a player's action or a chance event.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StepKind {
    /// A player's action.
    Action,
    /// A chance event (a deal, a draw).
    Chance,
}

/// One step of a game as a seat may see it.
#[derive(Debug, Serialize)]
pub struct StepView {
    /// Its index in the game.
    pub index: usize,
    /// Action or chance.
    #[serde(rename = "type")]
    pub kind: StepKind,
    /// Who acted (`null` for chance).
    pub player: Option<u8>,
    /// The action as this seat may read it (`null` for chance).
    pub action: Option<String>,
    /// The game's structured form of the action.
    pub action_json: Value,
    /// How long the player thought.
    pub think_ms: Option<u64>,
    /// The game's report of what happened beyond the new state.
    pub report: Value,
    /// Why the action was worth playing (the game's explanation), for its own seat.
    pub explain: Value,
    /// The scores after the step.
    pub scores: Vec<i32>,
    /// The state after the step as this seat may see it.
    pub view: Value,
}

/// A game as one seat (or a spectator) may see it: `GET /api/games/{id}` and the answer of
/// every move and undo.
#[derive(Debug, Serialize)]
pub struct Snapshot<'a> {
    /// The game's id.
    pub id: &'a str,
    /// The game's registered name.
    pub game: &'static str,
    /// Its title.
    pub title: &'static str,
    /// Bumped by every change.
    pub revision: u64,
    /// playing, finished or failed.
    pub status: &'static str,
    /// Why the game stopped, if it failed.
    pub failure: Option<&'a str>,
    /// The game's seed.
    pub seed: u64,
    /// The seats.
    pub seats: Vec<SeatView<'a>>,
    /// The seat asked for (`null`: a spectator).
    pub seat: Option<u8>,
    /// Whose turn.
    pub turn: Turn,
    /// The seat to move.
    pub to_move: Option<u8>,
    /// Whether the game waits for a person or an AI.
    pub waiting_for: Option<Waiting>,
    /// The scores.
    pub scores: Vec<i32>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
    /// The state as this seat may see it (the game's own view).
    pub view: Value,
    /// The legal actions, for the seat to move.
    pub legal: Vec<LegalAction>,
    /// How many steps the game has.
    pub step_count: usize,
    /// The steps from `since` on.
    pub steps: Vec<StepView>,
    /// Whether this request may take a move back.
    pub can_undo: bool,
    /// The seats whose tokens the request holds.
    pub my_seats: Vec<u8>,
    /// Whether this seat may ask for a hint now.
    pub can_hint: bool,
    /// The hints given so far.
    pub assists: &'a [Assist],
    /// Whether the record may be downloaded.
    pub record_available: bool,
    /// The clock, if the game has one.
    pub clock: Option<ClockView>,
}

/// `POST /api/games/{id}/check`: whether a move is legal, without playing it.
#[derive(Debug, Serialize)]
pub struct MoveCheck {
    /// Whether the move is legal.
    pub legal: bool,
    /// Why not.
    pub reason: Option<String>,
    /// For a legal move: the game's explanation (absent for an illegal one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<Value>,
}

/// A seat in the lobby.
#[derive(Debug, Serialize)]
pub struct LobbySeat<'a> {
    /// The name on the board.
    pub name: &'a str,
    /// human or ai.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Nobody has taken it yet.
    pub free: bool,
}

/// A game with a free seat, in `GET /api/lobby`.
#[derive(Debug, Serialize)]
pub struct LobbyEntry<'a> {
    /// The game's id.
    pub id: &'a str,
    /// The game's registered name.
    pub game: &'static str,
    /// Its title.
    pub title: &'static str,
    /// The seats.
    pub seats: Vec<LobbySeat<'a>>,
    /// The free seats.
    pub free_seats: Vec<u8>,
    /// How many steps the game has.
    pub step_count: usize,
}

/// A game in `GET /api/games`.
#[derive(Debug, Serialize)]
pub struct GameSummary<'a> {
    /// The game's id.
    pub id: &'a str,
    /// The game's registered name.
    pub game: &'static str,
    /// playing, finished or failed.
    pub status: &'static str,
    /// The seats' names.
    pub seats: Vec<&'a str>,
    /// The scores.
    pub scores: Vec<i32>,
    /// How many steps the game has.
    pub step_count: usize,
}

/// A list answer: `{"games": [...]}`.
#[derive(Debug, Serialize)]
pub struct Games<T> {
    /// The entries.
    pub games: Vec<T>,
}

/// The answer's `Value` (the shapes above hold nothing serde can refuse: string keys only).
pub fn to_value(answer: &impl Serialize) -> Value {
    serde_json::to_value(answer).unwrap_or(Value::Null)
}

/// `POST /api/games/{id}/hint`: the move a strong player would make for the seat.
#[derive(Debug, Serialize)]
pub struct HintAnswer {
    /// The seat the hint is for.
    pub seat: u8,
    /// The player that found it (a registry specification).
    pub player: String,
    /// The move's notation.
    pub action: String,
    /// The game's structured form of it.
    pub action_json: Value,
    /// The game's explanation of it.
    pub explain: Value,
    /// How long the player thought.
    pub think_ms: u64,
    /// The game's revision the hint is for.
    pub revision: u64,
}

/// A game in the catalog, `GET /api/catalog`.
#[derive(Debug, Serialize)]
pub struct CatalogEntry<'a, A: Serialize, L: Serialize> {
    /// The registered name.
    pub name: &'static str,
    /// The title.
    pub title: &'static str,
    /// Fewest seats.
    pub min_players: usize,
    /// Most seats.
    pub max_players: usize,
    /// Whether players hold hidden information.
    pub hidden_info: bool,
    /// The agents a seat may name.
    pub agents: &'a [A],
    /// The levels.
    pub levels: &'a [L],
    /// The level offered first.
    pub default_level: Option<u8>,
    /// The hint's player, if the game offers hints.
    pub hints: Option<&'a str>,
}

/// The step that opens a replay (the start position).
#[derive(Debug, Serialize)]
pub struct ReplayStep {
    /// Its index (0 for the start).
    pub index: usize,
    /// start, action or chance.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Who acted.
    pub player: Option<u8>,
    /// The action's notation.
    pub action: Option<String>,
    /// The game's structured form of the action.
    pub action_json: Value,
    /// The game's report (absent for the start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<Value>,
    /// The scores after the step.
    pub scores: Vec<i32>,
    /// The state after the step, as a spectator sees it.
    pub view: Value,
    /// The game's explanation (absent for the start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<Value>,
}

/// `POST /api/replay`: a record replayed step by step.
#[derive(Debug, Serialize)]
pub struct Replay<'a> {
    /// The registered name.
    pub game: &'static str,
    /// The title.
    pub title: &'static str,
    /// The record's seed.
    pub seed: Option<u64>,
    /// The seats' names.
    pub seats: &'a [String],
    /// The result.
    pub result: Option<&'a Outcome>,
    /// The hints given.
    pub assists: &'a [Assist],
    /// The steps.
    pub steps: Vec<ReplayStep>,
}

// The answers below are serialized directly (not through `Value`): their fields are declared
// in sorted order, the order the `json!` objects they replaced had on the wire.

/// A human seat's token in the answer to `POST /api/games`.
#[derive(Debug, Serialize)]
pub struct SeatToken<'a> {
    /// The invite link (the token in the fragment).
    pub invite: String,
    /// The seat.
    pub seat: u8,
    /// The seat's token.
    pub token: &'a str,
}

/// `POST /api/games/{id}/join`: the seat taken, its token and the game as that seat sees it.
#[derive(Debug, Serialize)]
pub struct Joined {
    /// The game's snapshot for the seat.
    pub game: Value,
    /// The invite link (the token in the fragment).
    pub invite: String,
    /// The seat taken.
    pub seat: u8,
    /// Its token.
    pub token: String,
    /// The game's page.
    pub url: String,
}

/// A stored web game in `GET /api/played`.
#[derive(Debug, Serialize)]
pub struct PlayedGame<'a> {
    /// When it was created.
    pub created: &'a str,
    /// The registered name.
    pub game: &'a str,
    /// The game's id.
    pub id: &'a str,
    /// Whether its record may be downloaded.
    pub record_available: bool,
    /// The record's result (`null` while unfinished).
    pub result: Option<&'a Value>,
    /// The record's seats (`null` while unfinished).
    pub seats: Option<&'a Value>,
    /// Its status.
    pub status: &'a str,
    /// When it last changed.
    pub updated: &'a str,
}
