//! Game records and the game loop that produces them.
//!
//! A record holds the initial state in the game's own notation, then every event in order:
//! each chance outcome (so another implementation can replay the game without our random
//! generator) and each action in notation. Replaying a record gives exactly the same final
//! state.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::clock::Clock;
use crate::game::{Game, Outcome, Turn};
use crate::player::PlayerId;
use crate::rng::{GameRng, derive_seed, seeded};

/// Version of the record layout, bumped on incompatible changes.
pub const RECORD_FORMAT: u32 = 1;

/// One step of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event<C> {
    /// A chance outcome (for example a round's factory deal).
    Chance {
        /// The outcome, in the game's JSON form.
        outcome: C,
    },
    /// A player's action.
    Action {
        /// The seat that acted.
        player: PlayerId,
        /// The action in the game's notation.
        action: String,
    },
}

/// What kind of help a human seat had.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AssistKind {
    /// The seat was shown a stronger player's move.
    Hint,
    /// The seat took its move back (and every move after it).
    Undo,
}

/// Help a human seat had during a game; a record with any is not a plain game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assist {
    /// The seat helped.
    pub seat: PlayerId,
    /// Hint or undo.
    pub kind: AssistKind,
    /// Actions played before the help (for an undo: after it, i.e. where the game resumed).
    pub ply: u32,
}

/// A complete game: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord<C> {
    /// The game's name (`azul`, `qwirkle`).
    pub game: String,
    /// Record layout version ([`RECORD_FORMAT`]).
    pub format: u32,
    /// The seed the game was played with, if it came from one.
    pub seed: Option<u64>,
    /// The seats' agent names, seat 0 first.
    pub seats: Vec<String>,
    /// The initial state in the game's state notation.
    pub initial: String,
    /// Every chance outcome and action, in order.
    pub events: Vec<Event<C>>,
    /// Scores just before each chance event and once at the end (for Azul: the scores
    /// after every round, starting with the zeros before the first deal).
    pub scores: Vec<Vec<i32>>,
    /// The result, if the game finished.
    pub result: Option<Outcome>,
    /// Hints and undos human seats had, in order (absent from the JSON of a game without).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assists: Vec<Assist>,
    /// The time control, for a game played under a clock (absent from the JSON of a game
    /// without).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// The seat whose time ran out (its flag fell): the game ended there, before its end by
    /// the rules, as a loss for that seat ([`flag_outcome`]). Absent from the JSON of a game
    /// that ended by the rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<PlayerId>,
    /// Under a clock, the time each seat used (its moves' measured thinking time summed),
    /// in milliseconds, seat 0 first: its time left is its base time plus its increments
    /// less this. Absent from the JSON of a game without a clock.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub time_used_ms: Vec<u64>,
}

/// The result of a game ended by seat `flagged`'s flag in `state`: the scores as they
/// stand; `flagged` loses, and the other seats with the best score among them win (at two
/// seats: the opponent).
pub fn flag_outcome<G: Game>(state: &G, flagged: PlayerId) -> Outcome {
    let scores = state.scores();
    let others = PlayerId::all(state.num_players()).filter(|&p| p != flagged);
    let best = others.clone().map(|p| scores[p]).max();
    let winners = others.filter(|&p| Some(scores[p]) == best).collect();
    Outcome { scores, winners }
}

/// Why a record does not replay.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// The record is for another game.
    #[error("record is for game '{found}', expected '{expected}'")]
    WrongGame {
        /// The game we replay.
        expected: &'static str,
        /// The game the record names.
        found: String,
    },
    /// The initial state does not parse.
    #[error("initial state: {0}")]
    Initial(String),
    /// An event does not fit the state it is applied to.
    #[error("event {index}: {detail}")]
    Event {
        /// Index of the event from 0.
        index: usize,
        /// What went wrong.
        detail: String,
    },
    /// The replayed result differs from the recorded one.
    #[error("replayed result {replayed:?} differs from recorded {recorded:?}")]
    ResultMismatch {
        /// What the record says.
        recorded: Option<Outcome>,
        /// What the replay gives.
        replayed: Option<Outcome>,
    },
}

impl<C> GameRecord<C> {
    /// Number of actions (not chance events) in the record.
    pub fn num_actions(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::Action { .. }))
            .count()
    }
}

/// Replays a record from its initial state and returns the final state. Checks every event
/// (actions must be legal, chance outcomes possible) and that the result matches.
pub fn replay<G: Game>(record: &GameRecord<G::Chance>) -> Result<G, ReplayError> {
    let states = replay_states::<G>(record)?;
    Ok(states
        .into_iter()
        .next_back()
        .expect("replay yields at least the initial state"))
}

/// Replays a record and returns every state along the way (the initial one first), for
/// stepping through a game.
pub fn replay_states<G: Game>(record: &GameRecord<G::Chance>) -> Result<Vec<G>, ReplayError> {
    if record.game != G::NAME {
        return Err(ReplayError::WrongGame {
            expected: G::NAME,
            found: record.game.clone(),
        });
    }
    let mut state: G = record
        .initial
        .parse()
        .map_err(|e: G::ParseError| ReplayError::Initial(e.to_string()))?;
    let mut states = vec![state.clone()];
    for (index, ev) in record.events.iter().enumerate() {
        let err = |detail: String| ReplayError::Event { index, detail };
        match ev {
            Event::Chance { outcome } => {
                if state.turn() != Turn::Chance {
                    return Err(err(format!("chance event but turn is {:?}", state.turn())));
                }
                state
                    .apply_chance(outcome)
                    .map_err(|e| err(e.to_string()))?;
            }
            Event::Action { player, action } => {
                if state.turn() != Turn::Player(*player) {
                    return Err(err(format!(
                        "action by {player} but turn is {:?}",
                        state.turn()
                    )));
                }
                let a: G::Action = action
                    .parse()
                    .map_err(|e: G::ActionParseError| err(e.to_string()))?;
                state.try_apply(a).map_err(|e| err(e.to_string()))?;
            }
        }
        states.push(state.clone());
    }
    let replayed = match record.flag {
        // A game ended by a flag stops with its flagged seat to move.
        Some(p) if state.turn() == Turn::Player(p) => Some(flag_outcome(&state, p)),
        Some(p) => {
            return Err(ReplayError::Event {
                index: record.events.len(),
                detail: format!(
                    "the record says seat {p}'s flag fell, but the turn is {:?}",
                    state.turn()
                ),
            });
        }
        None => state.outcome(),
    };
    if record.result.is_some() && replayed != record.result {
        return Err(ReplayError::ResultMismatch {
            recorded: record.result.clone(),
            replayed,
        });
    }
    Ok(states)
}

/// Seeds of the independent random streams of one game: chance events use one stream and
/// every seat its own, so a deal does not depend on which agents play it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameSeeds {
    /// The game's seed.
    pub seed: u64,
}

impl GameSeeds {
    /// The generator for chance events.
    pub fn chance_rng(&self) -> GameRng {
        seeded(derive_seed(self.seed, 0))
    }

    /// The generator for seat `p`'s agent.
    pub fn agent_rng(&self, p: PlayerId) -> GameRng {
        seeded(derive_seed(self.seed, 1 + p.0 as u64))
    }

    /// The generator used to set up the initial state (starting player, options).
    pub fn setup_rng(&self) -> GameRng {
        seeded(derive_seed(self.seed, 100))
    }
}

/// An agent broke the rules while playing.
#[derive(Debug, Error)]
#[error("seat {player} ({agent}) chose illegal action {action}: {detail}")]
pub struct IllegalMove {
    /// The seat that moved.
    pub player: PlayerId,
    /// The agent's name.
    pub agent: String,
    /// The action in notation.
    pub action: String,
    /// Why it is illegal.
    pub detail: String,
}

/// Something that watches a game being played (a terminal display, a progress counter).
pub trait Observer<G: Game> {
    /// Called after each event with the state after it.
    fn on_event(&mut self, _state: &G, _event: &Event<G::Chance>) {}
    /// Called before `player` is asked for an action in `state` (a terminal game shows the
    /// table here).
    fn before_action(&mut self, _state: &G, _player: PlayerId) {}
    /// Asked after each agent's choice, before it is applied: `true` stops the game there
    /// (the choice is not played) and [`crate::table::play_game`] returns the state and record so far,
    /// without a result. A terminal game stops this way when its human quits.
    fn stop(&mut self) -> bool {
        false
    }
}

impl<G: Game> Observer<G> for () {}
