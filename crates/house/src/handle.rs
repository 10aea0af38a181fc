//! Any registered game and its agents behind object-safe handles, for front ends that pick a
//! game by name at run time (the Python package's `tessera.make(name)` and
//! `tessera.Agent(spec, game=name)`).
//!
//! A [`GameHandle`] is a [`Table`] whose seats are all people: moves come in as notation or
//! as an index into the legal list, the table applies them and resolves chance with the
//! game's seeded chance stream ([`GameSeeds::chance_rng`]), exactly as a tournament game of
//! the same seed would. An [`AgentHandle`] is a registry player with its seat's budget
//! ([`AgentPlan::budget`]) and its own generator; it is asked for a move the one way every
//! front end asks, through a table's [`Thinking`](tessera_core::table::Thinking).
//!
//! Both come from the game's registration ([`crate::games::GameDriver::handle`] and
//! [`crate::games::GameDriver::agent`]), so a game registered in [`crate::games::drivers`]
//! has them with no code of its own:
//!
//! ```
//! use tessera_house::games::driver;
//! let nim = driver("nim").unwrap();
//! let mut game = nim.handle(Some(2), 7).unwrap();
//! let mut agent = nim.agent("random", 1).unwrap();
//! while !game.is_over() {
//!     let m = agent.act(game.as_ref()).unwrap();
//!     game.play_text(&m).unwrap();
//! }
//! assert_eq!(game.winners().len(), 1);
//! ```

use std::any::Any;

use rand::Rng;
use tessera_core::record::GameSeeds;
use tessera_core::table::{Next, TableError};
use tessera_core::{
    Agent, Budget, GameInfo, GameRng, PlayerId, SearchInfo, Seat, SeatsError, Table, Turn,
};
use thiserror::Error;

use crate::game::ArenaGame;
use crate::registry::{AgentPlan, RegistryError};

/// Any error of a game's own (a parse or rules error), boxed.
type Source = Box<dyn std::error::Error + Send + Sync>;

/// The label of a handle's seats in its record.
const SEAT_LABEL: &str = "player";

/// Why a handle refuses a request. Nothing changed when one is returned.
#[derive(Debug, Error)]
pub enum HandleError {
    /// No registered game has this name.
    #[error("unknown game '{name}'; known games: {known}")]
    UnknownGame {
        /// The name given.
        name: String,
        /// The games that exist.
        known: String,
    },
    /// A table size the game is not played at.
    #[error(transparent)]
    Seats(#[from] SeatsError),
    /// A seat that is not at this table.
    #[error("seat {seat} does not exist: this game has seats 0 to {last}")]
    NoSuchSeat {
        /// The seat given (from 0).
        seat: usize,
        /// The last seat (from 0).
        last: usize,
    },
    /// The game is over: nothing can be played or chosen.
    #[error("the game is over: no move can be played")]
    GameOver,
    /// An index past the legal list.
    #[error("action id {id} is out of range: {legal} moves are legal now (ids 0 to {last})", last = legal.saturating_sub(1))]
    NoSuchAction {
        /// The id given.
        id: usize,
        /// How many moves are legal.
        legal: usize,
    },
    /// A move whose notation does not parse.
    #[error("move '{text}': {source}")]
    Notation {
        /// The text given.
        text: String,
        /// The game's parse error.
        #[source]
        source: Source,
    },
    /// A state whose notation does not parse.
    #[error("{game} state: {source}")]
    State {
        /// The game's name.
        game: &'static str,
        /// The game's parse error.
        #[source]
        source: Source,
    },
    /// The table refused (an illegal move, chance refused).
    #[error(transparent)]
    Table(#[from] TableError),
    /// An agent specification that does not name a player of this game.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// An agent asked about a handle of another game.
    #[error("agent '{spec}' plays {agent_game}, not {handle_game}")]
    WrongGame {
        /// The agent's specification.
        spec: String,
        /// The agent's game.
        agent_game: &'static str,
        /// The handle's game.
        handle_game: &'static str,
    },
    /// A snapshot that does not read back.
    #[error("not a snapshot of a {game} game: {why}")]
    Snapshot {
        /// The game expected.
        game: &'static str,
        /// What is wrong.
        why: String,
    },
}

/// A game being played, of any registered game, with moves in notation or as ids (an id is
/// the move's index in [`GameHandle::legal`], the game's own order of legal moves).
pub trait GameHandle: Send {
    /// The game's facts.
    fn info(&self) -> GameInfo;
    /// Seats at the table.
    fn players(&self) -> usize;
    /// The seed: chance is drawn from its chance stream.
    fn seed(&self) -> u64;
    /// The current state in the game's notation (the full state, hidden parts included).
    fn notation(&self) -> String;
    /// The seat to move (from 0), or `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// True once the game is over.
    fn is_over(&self) -> bool;
    /// The legal moves in notation, in the game's order: a move's id is its index here.
    fn legal(&self) -> Vec<String>;
    /// The notation of the move whose id is `id`.
    fn move_text(&self, id: usize) -> Result<String, HandleError>;
    /// The id of the move `text` (notation), if it is legal now.
    fn move_id(&self, text: &str) -> Result<usize, HandleError>;
    /// Plays the legal move with id `id` for the seat to move, then resolves chance.
    fn play_id(&mut self, id: usize) -> Result<(), HandleError>;
    /// Plays move `text` (notation) for the seat to move, then resolves chance.
    fn play_text(&mut self, text: &str) -> Result<(), HandleError>;
    /// Takes back the last move (and the chance after it, so that replaying it draws the
    /// same outcome).
    fn undo(&mut self) -> Result<(), HandleError>;
    /// The moves played so far, in notation.
    fn history(&self) -> Vec<String>;
    /// What seat `seat` may see ([`Game::view`]) as JSON.
    fn view_json(&self, seat: usize) -> Result<String, HandleError>;
    /// What seat `seat` may see in the engine protocol's position notation
    /// ([`crate::engine::EngineGame::position_text`]).
    fn view_text(&self, seat: usize) -> Result<String, HandleError>;
    /// Scores, seat 0 first.
    fn scores(&self) -> Vec<i32>;
    /// Winning seats once the game is over (several for a shared win).
    fn winners(&self) -> Vec<usize>;
    /// Each seat's share of the win once over (1 sole winner, 1/k shared by k, 0 a loss);
    /// zeros before.
    fn returns(&self) -> Vec<f64>;
    /// The game record so far as JSON ([`tessera_core::GameRecord`]).
    fn record_json(&self) -> String;
    /// The handle as text ([`restore`](crate::games::GameDriver::restore_handle) reads it
    /// back): the initial state, the seed and the moves, replayed on restoring, so the copy
    /// draws the same chance as the original from here on.
    fn snapshot(&self) -> String;
    /// An independent copy (same state, same future chance).
    fn clone_box(&self) -> Box<dyn GameHandle>;
    /// For agents of the same game: the typed handle.
    fn as_any(&self) -> &dyn Any;
    /// A copy of the current state (a `G`), for an agent to think on elsewhere
    /// ([`AgentHandle::act_on`]).
    fn state_any(&self) -> Box<dyn Any + Send>;
    /// The id of `action` (a `G::Action`, as [`AgentHandle::act_on`] returns it).
    fn action_id(&self, action: &dyn Any) -> Result<usize, HandleError>;
}

/// The [`GameHandle`] of a game `G`: a table of people.
pub struct TableHandle<G: ArenaGame> {
    table: Table<'static, G>,
    played: Vec<G::Action>,
}

fn seats<G: ArenaGame>(players: usize) -> Vec<Seat<'static, G>> {
    (0..players).map(|_| Seat::human(SEAT_LABEL)).collect()
}

impl<G: ArenaGame> TableHandle<G> {
    /// A new game of `players` seats (the game's fewest when `None`) from `seed`, set up as
    /// the arena sets up a tournament game of that seed.
    pub fn new(players: Option<usize>, seed: u64) -> Result<Self, HandleError> {
        let players = players.unwrap_or(G::INFO.min_players);
        G::INFO.check_seats(players)?;
        let initial = G::new_game(players, &mut GameSeeds { seed }.setup_rng());
        Self::start(initial, seed)
    }

    /// A game from `initial` (chance already resolved or not), chance from `seed`.
    pub fn start(initial: G, seed: u64) -> Result<Self, HandleError> {
        let players = initial.num_players();
        G::INFO.check_seats(players)?;
        let mut table = Table::new(initial, seats::<G>(players), seed)?;
        table.advance()?;
        Ok(TableHandle {
            table,
            played: Vec::new(),
        })
    }

    /// A game from a state in notation, chance from `seed`.
    pub fn from_notation(text: &str, seed: u64) -> Result<Self, HandleError> {
        let initial: G = text.parse().map_err(|e| HandleError::State {
            game: G::INFO.name,
            source: Box::new(e),
        })?;
        Self::start(initial, seed)
    }

    /// Reads [`GameHandle::snapshot`]'s text back.
    pub fn restore(text: &str) -> Result<Self, HandleError> {
        let bad = |why: String| HandleError::Snapshot {
            game: G::INFO.name,
            why,
        };
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let field = |name: &str| {
            v.get(name)
                .and_then(|x| x.as_str())
                .ok_or_else(|| bad(format!("no text field '{name}'")))
        };
        let game = field("game")?;
        if game != G::INFO.name {
            return Err(bad(format!("it is a snapshot of a {game} game")));
        }
        let seed: u64 = field("seed")?
            .parse()
            .map_err(|e| bad(format!("seed: {e}")))?;
        let mut h = Self::from_notation(field("initial")?, seed)?;
        let moves = v
            .get("moves")
            .and_then(|m| m.as_array())
            .ok_or_else(|| bad("no list 'moves'".into()))?;
        for m in moves {
            let text = m
                .as_str()
                .ok_or_else(|| bad(format!("move {m}: expected text")))?;
            h.play_text(text)?;
        }
        Ok(h)
    }

    /// The table.
    pub fn table(&self) -> &Table<'static, G> {
        &self.table
    }

    /// The current state.
    pub fn state(&self) -> &G {
        self.table.state()
    }

    fn legal_actions(&self) -> Vec<G::Action> {
        let mut v = Vec::new();
        self.state().legal_actions(&mut v);
        v
    }

    fn check_seat(&self, seat: usize) -> Result<PlayerId, HandleError> {
        let n = self.players();
        if seat < n {
            Ok(PlayerId(seat as u8))
        } else {
            Err(HandleError::NoSuchSeat { seat, last: n - 1 })
        }
    }

    fn parse(&self, text: &str) -> Result<G::Action, HandleError> {
        G::parse_action(text.trim()).map_err(|e| HandleError::Notation {
            text: text.to_string(),
            source: Box::new(e),
        })
    }

    /// Plays `action` for the seat to move, then resolves chance.
    pub fn play(&mut self, action: G::Action) -> Result<(), HandleError> {
        let Turn::Player(p) = self.state().turn() else {
            return Err(HandleError::GameOver);
        };
        self.table.play(p, action)?;
        self.played.push(action);
        if let Err(e) = self.table.advance() {
            // The game refused its own chance outcome (a bug): keep the handle as it was.
            self.table.undo().ok();
            self.played.pop();
            return Err(e.into());
        }
        Ok(())
    }
}

impl<G: ArenaGame> GameHandle for TableHandle<G> {
    fn info(&self) -> GameInfo {
        G::INFO
    }

    fn players(&self) -> usize {
        self.state().num_players()
    }

    fn seed(&self) -> u64 {
        self.table.seed()
    }

    fn notation(&self) -> String {
        self.state().to_string()
    }

    fn to_move(&self) -> Option<usize> {
        self.state().current_player().map(|p| p.index())
    }

    fn is_over(&self) -> bool {
        self.state().is_terminal()
    }

    fn legal(&self) -> Vec<String> {
        self.legal_actions().iter().map(|a| a.to_string()).collect()
    }

    fn move_text(&self, id: usize) -> Result<String, HandleError> {
        let legal = self.legal_actions();
        legal
            .get(id)
            .map(|a| a.to_string())
            .ok_or(HandleError::NoSuchAction {
                id,
                legal: legal.len(),
            })
    }

    fn move_id(&self, text: &str) -> Result<usize, HandleError> {
        let a = self.parse(text)?;
        if self.is_over() {
            return Err(HandleError::GameOver);
        }
        match self.legal_actions().iter().position(|&b| b == a) {
            Some(i) => Ok(i),
            None => {
                // The rules' own reason.
                let mut s = self.state().clone();
                match s.try_apply(a) {
                    Err(e) => Err(HandleError::Table(TableError::Illegal {
                        action: a.to_string(),
                        source: Box::new(e),
                    })),
                    Ok(()) => Err(HandleError::NoSuchAction {
                        id: usize::MAX,
                        legal: 0,
                    }),
                }
            }
        }
    }

    fn play_id(&mut self, id: usize) -> Result<(), HandleError> {
        if self.is_over() {
            return Err(HandleError::GameOver);
        }
        let legal = self.legal_actions();
        let a = *legal.get(id).ok_or(HandleError::NoSuchAction {
            id,
            legal: legal.len(),
        })?;
        self.play(a)
    }

    fn play_text(&mut self, text: &str) -> Result<(), HandleError> {
        let a = self.parse(text)?;
        self.play(a)
    }

    fn undo(&mut self) -> Result<(), HandleError> {
        self.table.undo()?;
        self.played.pop();
        Ok(())
    }

    fn history(&self) -> Vec<String> {
        self.played.iter().map(|a| a.to_string()).collect()
    }

    fn view_json(&self, seat: usize) -> Result<String, HandleError> {
        let p = self.check_seat(seat)?;
        serde_json::to_string(&self.state().view(p)).map_err(|e| HandleError::Snapshot {
            game: G::INFO.name,
            why: e.to_string(),
        })
    }

    fn view_text(&self, seat: usize) -> Result<String, HandleError> {
        let p = self.check_seat(seat)?;
        Ok(self.state().position_text(p))
    }

    fn scores(&self) -> Vec<i32> {
        self.state().scores().as_slice().to_vec()
    }

    fn winners(&self) -> Vec<usize> {
        self.state()
            .outcome()
            .map(|o| o.winners.iter().map(|p| p.index()).collect())
            .unwrap_or_default()
    }

    fn returns(&self) -> Vec<f64> {
        match self.state().outcome() {
            Some(o) => o.rewards().as_slice().to_vec(),
            None => vec![0.0; self.players()],
        }
    }

    fn record_json(&self) -> String {
        serde_json::to_string(&self.table.record()).unwrap_or_else(|e| format!("\"{e}\""))
    }

    fn snapshot(&self) -> String {
        serde_json::json!({
            "game": G::INFO.name,
            "initial": self.table.initial().to_string(),
            "seed": self.seed().to_string(),
            "moves": self.history(),
        })
        .to_string()
    }

    fn clone_box(&self) -> Box<dyn GameHandle> {
        // A table is not Clone (it holds seats); the same moves from the same start and
        // seed give the same table, chance stream included.
        let mut copy = match Self::start(self.table.initial().clone(), self.seed()) {
            Ok(c) => c,
            Err(_) => unreachable_copy(),
        };
        for &a in &self.played {
            if copy.play(a).is_err() {
                unreachable_copy();
            }
        }
        Box::new(copy)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn state_any(&self) -> Box<dyn Any + Send> {
        Box::new(self.state().clone())
    }

    fn action_id(&self, action: &dyn Any) -> Result<usize, HandleError> {
        let a = action
            .downcast_ref::<G::Action>()
            .ok_or_else(|| HandleError::WrongGame {
                spec: "an agent".into(),
                agent_game: "another game",
                handle_game: G::INFO.name,
            })?;
        let legal = self.legal_actions();
        legal
            .iter()
            .position(|b| b == a)
            .ok_or(HandleError::NoSuchAction {
                id: usize::MAX,
                legal: legal.len(),
            })
    }
}

/// A handle's own moves replayed from its own start cannot fail.
#[cold]
fn unreachable_copy() -> ! {
    panic!("a handle's moves replayed from its start were refused: the game is not deterministic")
}

/// One of a game's registered players, with its seat's budget and its own generator.
pub trait AgentHandle: Send {
    /// The game it plays.
    fn game(&self) -> &'static str;
    /// Its specification, as given.
    fn spec(&self) -> &str;
    /// Its budget per move (the specification's, or the registry's default).
    fn budget(&self) -> Budget;
    /// The move it picks (in notation) for the seat to move in `game`.
    fn act(&mut self, game: &dyn GameHandle) -> Result<String, HandleError>;
    /// The move it picks for the seat to move in `state` (a `&G` of its game), as a boxed
    /// `G::Action`: for front ends with typed states of their own.
    fn act_on(&mut self, state: &dyn Any) -> Result<Box<dyn Any + Send>, HandleError>;
    /// What it reported of its last choice (searching agents do).
    fn last_info(&self) -> Option<SearchInfo>;
    /// Its generator (each move draws a table seed from it).
    fn rng(&self) -> &GameRng;
    /// Replaces its generator (restoring a saved agent).
    fn set_rng(&mut self, rng: GameRng);
}

/// The [`AgentHandle`] of a plan of game `G`.
pub struct PlanAgent<G: ArenaGame> {
    spec: String,
    plan: AgentPlan<G>,
    /// `None` only while it sits at a table.
    agent: Option<Box<dyn Agent<G>>>,
    rng: GameRng,
}

impl<G: ArenaGame> PlanAgent<G> {
    /// Agent `spec` of `G`'s registry; its own choices come from `seed`.
    pub fn new(spec: &str, seed: u64) -> Result<Self, RegistryError> {
        let plan = G::registry().parse(spec)?;
        let agent = plan.build()?;
        Ok(PlanAgent {
            spec: spec.to_string(),
            plan,
            agent: Some(agent),
            rng: tessera_core::rng::seeded(seed),
        })
    }

    /// The action the agent picks for the seat to move in `state` within its plan's budget
    /// ([`PlanAgent::choose_within`]).
    pub fn choose(&mut self, state: &G) -> Result<G::Action, HandleError> {
        self.choose_within(state, self.plan.budget())
    }

    /// The one way the house asks an agent for a move outside a game it plays in full (the
    /// engine's `go`, Python's `Agent.act`, the web's and terminal's agents): it sits at a
    /// table of this position within `budget`, the other seats people, the table seeded
    /// from the agent's own generator (one draw per move); the table hands out its
    /// [`Thinking`](tessera_core::table::Thinking) (the state determinized for its seat)
    /// and plays the action it hands back (so an illegal choice is refused there).
    pub fn choose_within(&mut self, state: &G, budget: Budget) -> Result<G::Action, HandleError> {
        let Turn::Player(me) = state.turn() else {
            return Err(match state.turn() {
                Turn::Chance => HandleError::Table(TableError::ChanceNext),
                _ => HandleError::GameOver,
            });
        };
        let mut agent = match self.agent.take() {
            Some(a) => Some(a),
            None => Some(self.plan.build()?),
        };
        let seats = PlayerId::all(state.num_players())
            .map(|p| match if p == me { agent.take() } else { None } {
                Some(a) => Seat::agent(a, budget),
                None => Seat::human("opponent"),
            })
            .collect();
        let mut table = Table::resume(state.clone(), seats, self.rng.random::<u64>())?;
        let chosen = (|| {
            if table.advance()? != Next::Agent(me) {
                return Err(HandleError::Table(TableError::AgentAway(me)));
            }
            let done = table.think()?.run();
            let action = done.action();
            table.hand_back(done)?;
            Ok(action)
        })();
        self.agent = table.into_agents().into_iter().nth(me.index()).flatten();
        chosen
    }

    /// Its plan (the parsed specification).
    pub fn plan(&self) -> &AgentPlan<G> {
        &self.plan
    }

    /// Starts a new game: the agent forgets what it learnt of the last one
    /// ([`Agent::reset`]); its generator goes on.
    pub fn reset(&mut self) {
        if let Some(a) = self.agent.as_mut() {
            a.reset();
        }
    }
}

impl<G: ArenaGame> AgentHandle for PlanAgent<G> {
    fn game(&self) -> &'static str {
        G::INFO.name
    }

    fn spec(&self) -> &str {
        &self.spec
    }

    fn budget(&self) -> Budget {
        self.plan.budget()
    }

    fn act(&mut self, game: &dyn GameHandle) -> Result<String, HandleError> {
        let handle = game
            .as_any()
            .downcast_ref::<TableHandle<G>>()
            .ok_or_else(|| HandleError::WrongGame {
                spec: self.spec.clone(),
                agent_game: G::INFO.name,
                handle_game: game.info().name,
            })?;
        let state = handle.state().clone();
        self.choose(&state).map(|a| a.to_string())
    }

    fn act_on(&mut self, state: &dyn Any) -> Result<Box<dyn Any + Send>, HandleError> {
        let state = state
            .downcast_ref::<G>()
            .ok_or_else(|| HandleError::WrongGame {
                spec: self.spec.clone(),
                agent_game: G::INFO.name,
                handle_game: "another game",
            })?;
        self.choose(state)
            .map(|a| Box::new(a) as Box<dyn Any + Send>)
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.agent.as_ref().and_then(|a| a.last_info())
    }

    fn rng(&self) -> &GameRng {
        &self.rng
    }

    fn set_rng(&mut self, rng: GameRng) {
        self.rng = rng;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{driver, drivers};
    use tessera_azul::AzulState;

    #[test]
    fn every_registered_game_plays_to_the_end_through_its_handle() {
        for d in drivers() {
            let (lo, hi) = d.players();
            for players in lo..=hi {
                let mut g = d.handle(Some(players), 3).expect("a new game");
                let mut a = d.agent("random", 5).expect("every game has random");
                let mut n = 0;
                while !g.is_over() {
                    let m = a.act(g.as_ref()).expect("a move");
                    let id = g.move_id(&m).expect("the agent's move is legal");
                    assert_eq!(g.move_text(id).expect("in range"), m);
                    g.play_id(id).expect("legal");
                    n += 1;
                    assert!(n < 10_000, "{} does not end", d.name());
                }
                assert!(!g.winners().is_empty(), "{}", d.name());
                assert!(matches!(g.play_id(0), Err(HandleError::GameOver)));
            }
        }
    }

    #[test]
    fn a_handle_deals_as_the_tournament_does_and_restores_with_the_same_future() {
        let d = driver("azul").expect("azul");
        let mut g = d.handle(Some(3), 11).expect("3 players");
        let initial = AzulState::new_game(3, &mut GameSeeds { seed: 11 }.setup_rng());
        assert_eq!(
            g.as_any()
                .downcast_ref::<TableHandle<AzulState>>()
                .expect("typed")
                .table()
                .initial(),
            &initial
        );
        // Into round 2, so that chance has been drawn since the start.
        while g.history().len() < 25 {
            let id = (g.history().len() * 31) % g.legal().len();
            g.play_id(id).expect("legal");
        }
        let back = d.restore_handle(&g.snapshot()).expect("restores");
        let mut copy = g.clone_box();
        assert_eq!(back.notation(), g.notation());
        let mut back = back;
        while !g.is_over() {
            // Any spread of choices (always the same index may never finish a row).
            let id = (g.history().len() * 31) % g.legal().len();
            g.play_id(id).expect("legal");
            back.play_id(id).expect("legal in the restored one");
            copy.play_id(id).expect("legal in the copy");
            assert_eq!(g.notation(), back.notation());
            assert_eq!(g.notation(), copy.notation());
        }
        assert!(d.restore_handle("{}").is_err());
        let nim = driver("nim").expect("nim").handle(None, 1).expect("nim");
        let err = d.restore_handle(&nim.snapshot()).err().expect("not azul");
        assert!(err.to_string().contains("snapshot of a nim game"), "{err}");
    }

    #[test]
    fn bad_requests_are_refused_with_reasons_and_change_nothing() {
        let d = driver("nim").expect("nim");
        assert!(matches!(d.handle(Some(9), 0), Err(HandleError::Seats(_))));
        let mut g = d.handle(None, 0).expect("nim");
        let before = g.notation();
        let n = g.legal().len();
        let e = g.play_id(n).expect_err("past the list");
        assert!(e.to_string().contains("out of range"), "{e}");
        assert!(matches!(
            g.play_text("x:y"),
            Err(HandleError::Notation { .. })
        ));
        assert!(matches!(
            g.view_json(2),
            Err(HandleError::NoSuchSeat { .. })
        ));
        assert_eq!(g.notation(), before);
        let mut azul_agent = driver("azul")
            .expect("azul")
            .agent("random", 0)
            .expect("random");
        assert!(matches!(
            azul_agent.act(g.as_ref()),
            Err(HandleError::WrongGame { .. })
        ));
        assert!(d.agent("nosuch", 0).is_err());
        // Undo takes back the move and the chance after it.
        g.play_id(0).expect("legal");
        g.undo().expect("undo");
        assert_eq!(g.notation(), before);
        assert!(g.history().is_empty());
    }

    #[test]
    fn the_agent_thinks_within_its_specifications_budget_and_is_seeded() {
        let d = driver("azul").expect("azul");
        let a = d.agent("alphabeta:depth=1", 0).expect("agent");
        assert_eq!(a.budget().depth, Some(1));
        let g = d.handle(Some(2), 4).expect("game");
        let moves = |seed| {
            let mut a = d.agent("random", seed).expect("random");
            (0..5)
                .map(|_| a.act(g.as_ref()).expect("a move"))
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(1), moves(1));
        assert_ne!(moves(1), moves(2));
    }
}
