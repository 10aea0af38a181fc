//! The server side of the Tessera Engine Protocol (TEP, docs/protocol.md) for every game the
//! arena knows: `tessera engine GAME` is an [`EngineServer`] of that game on stdin/stdout.
//!
//! A game speaks the protocol through [`EngineGame`], declared once next to its
//! [`ArenaGame`] impl: how a new game starts, how chance outcomes of `position start ...
//! moves` are written, and (only where its notation needs it) how a position is written as
//! one seat's view and how actions are written without spaces. Everything else (the
//! commands, options, searching with the registry's players) is generic here, and the
//! client side ([`crate::ext`]) uses the same trait.
//!
//! Hidden information: a client gives the engine the view of the seat to move
//! ([`EngineGame::position_text`]), never the full state. The engine reads it into a state
//! consistent with that view ([`EngineGame::parse_position`]) and its player sees only a
//! [`Game::determinize`]d copy of it (the table determinizes for the seat), so the hidden
//! parts it was filled with do not matter.
//!
//! ```
//! use tessera_house::engine::{EngineSession, EngineServer};
//! use tessera_core::testgame::Nim;
//! let mut s = EngineServer::<Nim>::new(Some("first"), 0).unwrap();
//! let mut out = Vec::new();
//! for line in ["tep", "position start players 2 moves deal:3,4 1:2", "go", "quit"] {
//!     s.handle(line, &mut out).unwrap();
//! }
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("id game nim\n") && text.ends_with("bestmove 1:1\n"), "{text}");
//! ```

use std::io::{BufRead, Write};

use rand::Rng;
use tessera_core::clock::{Decision, SeatTiming, TimeManager};
use tessera_core::table::TableError;
use tessera_core::{Budget, Clock, PlayerId, SeatsError, Turn};
use thiserror::Error;

use crate::game::ArenaGame;
pub use crate::game::{BoxError, EngineGame};
use crate::handle::{AgentHandle, HandleError, PlanAgent};
use crate::protocol::{Command, GoClock, Position, ProtocolError, Reply, StartPosition};
use crate::registry::RegistryError;

/// Why a command cannot be carried out (answered with one `error` line).
#[derive(Debug, Error)]
pub enum EngineError {
    /// The line is not a command.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// `go`, `legal` or `show` before `position`.
    #[error("no position: send 'position state ...' or 'position start ...' first")]
    NoPosition,
    /// `go` while chance is due.
    #[error("the position waits for {0}, not for a player")]
    WaitingForChance(&'static str),
    /// `go` after the end.
    #[error("the game is over")]
    GameOver,
    /// `go` or `legal` for a seat other than the one whose view the position is.
    #[error(
        "the position is seat {view}'s view and seat {mover} is to move: its hidden parts are unknown here"
    )]
    NotTheViewer {
        /// The seat whose view was given, from 1.
        view: usize,
        /// The seat to move, from 1.
        mover: usize,
    },
    /// `position state` with bad notation.
    #[error("position state: {0}")]
    State(#[source] BoxError),
    /// `position start players N` out of range.
    #[error("players {players}: {source}")]
    Seats {
        /// The number given.
        players: usize,
        /// The game's range.
        source: SeatsError,
    },
    /// `first K` out of range.
    #[error("first {first}: expected a seat 1-{players}")]
    First {
        /// The seat given.
        first: usize,
        /// Seats at the table.
        players: usize,
    },
    /// `first K` for a game whose rules choose the first player.
    #[error("first {first}: in {title} the rules choose who starts; leave 'first' out")]
    FirstFixed {
        /// The seat given.
        first: usize,
        /// The game's title.
        title: &'static str,
    },
    /// A move of `position start ... moves` that does not fit.
    #[error("move {index} '{text}': {reason}")]
    Move {
        /// From 1.
        index: usize,
        /// The move as given.
        text: String,
        /// Why.
        reason: MoveProblem,
    },
    /// `setoption name Player` with a bad agent.
    #[error(transparent)]
    Player(#[from] RegistryError),
    /// `setoption name Seed` with a bad value.
    #[error("Seed '{0}': expected a non-negative integer")]
    Seed(String),
    /// A clock that has no time for the seat to move.
    #[error("go: the clock gives {given} seats' times but seat {seat} is to move")]
    ClockSeats {
        /// Seats whose time was given.
        given: usize,
        /// The seat to move, from 1.
        seat: usize,
    },
    /// An option that does not exist.
    #[error("unknown option '{0}': options are Player, Seed")]
    UnknownOption(String),
    /// The table refused (a bug: the position was checked).
    #[error(transparent)]
    Table(#[from] TableError),
    /// The player could not be asked (a bug: the position and the player were checked).
    #[error(transparent)]
    Agent(Box<HandleError>),
}

/// Why a move of `position start` does not fit.
#[derive(Debug, Error)]
pub enum MoveProblem {
    /// A chance outcome that does not parse.
    #[error("{0}")]
    Chance(String),
    /// A chance outcome the position cannot take.
    #[error(transparent)]
    ChanceRefused(BoxError),
    /// An action where chance is due.
    #[error("{0}")]
    NeedsChance(&'static str),
    /// An action that does not parse.
    #[error(transparent)]
    Notation(BoxError),
    /// An action the rules forbid.
    #[error(transparent)]
    Illegal(BoxError),
}

/// A session of any game behind one object-safe interface (see
/// [`crate::GameDriver::engine`]).
pub trait EngineSession {
    /// Handles one line; returns false after `quit`. Errors are only I/O errors: protocol
    /// errors become `error ...` lines.
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<bool>;
}

/// Serves `session` from `input` to `out` until `quit` or the end of the input.
pub fn serve(
    session: &mut dyn EngineSession,
    input: impl BufRead,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for line in input.lines() {
        if !session.handle(&line?, out)? {
            break;
        }
        out.flush()?;
    }
    Ok(())
}

/// One engine session: the current position, the player and its settings.
pub struct EngineServer<G: ArenaGame> {
    /// The player, asked for each `go`'s move the one way the house asks
    /// ([`PlanAgent::choose_within`]); its generator seeds each move's table.
    player: PlanAgent<G>,
    seed: u64,
    state: Option<G>,
    /// The seat whose view `state` was read from (`None`: a full state).
    observer: Option<PlayerId>,
    /// What the time manager knows of this game's decisions under a clock (`newgame`
    /// forgets it).
    timing: SeatTiming,
}

impl<G: ArenaGame> EngineServer<G> {
    /// A session whose player is `player` (a registry name; `None`: the game's
    /// [`EngineGame::ENGINE_PLAYER`]).
    pub fn new(player: Option<&str>, seed: u64) -> Result<Self, RegistryError> {
        Ok(EngineServer {
            player: PlanAgent::new(player.unwrap_or(G::ENGINE_PLAYER), seed)?,
            seed,
            state: None,
            observer: None,
            timing: SeatTiming::default(),
        })
    }

    /// The current position, if any.
    pub fn state(&self) -> Option<&G> {
        self.state.as_ref()
    }

    fn command(&mut self, c: Command) -> Result<Vec<Reply>, EngineError> {
        match c {
            Command::Tep => Ok(self.identify()),
            Command::IsReady => Ok(vec![Reply::ReadyOk]),
            Command::SetOption { name, value } => self.set_option(&name, value).map(|()| vec![]),
            Command::NewGame => {
                self.player.reset();
                self.player.set_rng(tessera_core::rng::seeded(self.seed));
                self.state = None;
                self.observer = None;
                self.timing = SeatTiming::default();
                Ok(Vec::new())
            }
            Command::Position(Position::State(text)) => {
                let (state, observer) = G::parse_position(&text).map_err(EngineError::State)?;
                self.state = Some(state);
                self.observer = observer;
                Ok(Vec::new())
            }
            Command::Position(Position::Start(start)) => {
                self.state = Some(start_position::<G>(&start)?);
                self.observer = None;
                Ok(Vec::new())
            }
            Command::Go(budget) => self.go(budget, None),
            Command::GoClock(budget, clock) => self.go(budget, Some(clock)),
            Command::Legal => {
                let s = self.state.as_ref().ok_or(EngineError::NoPosition)?;
                if let Some(mover) = s.current_player() {
                    self.check_viewer(mover)?;
                }
                let mut v = Vec::new();
                s.legal_actions(&mut v);
                Ok(vec![Reply::Legal(v.iter().map(G::action_word).collect())])
            }
            Command::Show => {
                let s = self.state.as_ref().ok_or(EngineError::NoPosition)?;
                Ok(vec![Reply::State(match self.observer {
                    Some(seat) => s.position_text(seat),
                    None => s.to_string(),
                })])
            }
            Command::Quit => Ok(Vec::new()),
        }
    }

    /// Only the seat whose view the position is may be searched for.
    fn check_viewer(&self, mover: PlayerId) -> Result<(), EngineError> {
        match self.observer {
            Some(view) if view != mover => Err(EngineError::NotTheViewer {
                view: view.index() + 1,
                mover: mover.index() + 1,
            }),
            _ => Ok(()),
        }
    }

    fn identify(&self) -> Vec<Reply> {
        let id = |key: &str, value: String| Reply::Id {
            key: key.into(),
            value,
        };
        vec![
            id(
                "name",
                format!("Tessera {} {}", G::INFO.title, env!("CARGO_PKG_VERSION")),
            ),
            id("author", "the Tessera developers".into()),
            id("game", G::INFO.name.into()),
            Reply::Option(format!(
                "name Player type string default {}",
                G::ENGINE_PLAYER
            )),
            Reply::Option("name Seed type spin default 0 min 0 max 18446744073709551615".into()),
            Reply::TepOk,
        ]
    }

    fn set_option(&mut self, name: &str, value: String) -> Result<(), EngineError> {
        match name.to_ascii_lowercase().as_str() {
            "player" => {
                // The new player draws on from the session's generator.
                let mut player = PlanAgent::new(&value, self.seed)?;
                player.set_rng(self.player.rng().clone());
                self.player = player;
                Ok(())
            }
            "seed" => {
                self.seed = value.parse().map_err(|_| EngineError::Seed(value))?;
                self.player.set_rng(tessera_core::rng::seeded(self.seed));
                Ok(())
            }
            _ => Err(EngineError::UnknownOption(name.to_string())),
        }
    }

    /// Seats the player at a table resumed from the position (the other seats are people
    /// the engine does not play) and lets it think within the `go` budget. The table gives
    /// it the state determinized for its seat when the game hides information.
    ///
    /// Under a clock (`go wtime ... btime ...`), the time manager of [`tessera_core::clock`]
    /// gives the budget from the mover's time left and increment (a `movetime` given too
    /// caps it); a forced move is answered at once.
    fn go(&mut self, budget: Budget, clock: Option<GoClock>) -> Result<Vec<Reply>, EngineError> {
        let state = self.state.clone().ok_or(EngineError::NoPosition)?;
        let me = match state.turn() {
            Turn::Player(p) => p,
            Turn::Chance => return Err(EngineError::WaitingForChance(G::CHANCE_NAME)),
            Turn::Terminal => return Err(EngineError::GameOver),
        };
        self.check_viewer(me)?;
        let mut budget = budget;
        let mut given = None;
        let mut legal = Vec::new();
        if let Some(clock) = &clock {
            let (Some(&left), Some(&increment)) =
                (clock.time.get(me.index()), clock.inc.get(me.index()))
            else {
                return Err(EngineError::ClockSeats {
                    given: clock.time.len(),
                    seat: me.index() + 1,
                });
            };
            state.legal_actions(&mut legal);
            if let [only] = legal.as_slice() {
                self.timing.record_forced();
                return Ok(vec![Reply::BestMove(G::action_word(only))]);
            }
            let decision = Decision {
                legal: legal.len(),
                decisions_left: state.decisions_left(),
            };
            let managed = TimeManager::default().budget(
                &Clock {
                    base: left,
                    increment,
                },
                left,
                &self.timing,
                &decision,
            );
            budget.time = Some(budget.time.map_or(managed, |t| t.min(managed)));
            budget.from_clock = true;
            given = budget.time;
        }
        // `go`'s limits decide; a `go` without any gets the player's own specification's
        // budget (`--player strong:depth=3`).
        let budget = budget.or(self.player.budget());
        let started = std::time::Instant::now();
        let action = self
            .player
            .choose_within(&state, budget)
            .map_err(|e| match e {
                HandleError::Table(e) => EngineError::Table(e),
                HandleError::Registry(e) => EngineError::Player(e),
                HandleError::GameOver => EngineError::GameOver,
                e => EngineError::Agent(Box::new(e)),
            })?;
        if let Some(given) = given {
            self.timing.record_overshoot(given, started.elapsed());
        }
        let mut lines = Vec::new();
        let info = self.player.last_info();
        if clock.is_some() {
            self.timing
                .record(legal.len(), info.as_ref().and_then(|i| i.value));
        }
        if let Some(info) = info {
            lines.push(Reply::Info(info));
        }
        lines.push(Reply::BestMove(G::action_word(&action)));
        Ok(lines)
    }
}

impl<G: ArenaGame> EngineSession for EngineServer<G> {
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<bool> {
        if line.trim().is_empty() {
            return Ok(true);
        }
        let reply = match line.parse::<Command>() {
            Ok(Command::Quit) => return Ok(false),
            Ok(c) => self.command(c),
            Err(e) => Err(e.into()),
        };
        match reply {
            Ok(lines) => {
                for l in lines {
                    writeln!(out, "{l}")?;
                }
            }
            Err(e) => writeln!(out, "{}", Reply::Error(e.to_string()))?,
        }
        Ok(true)
    }
}

/// `players N [first K] [moves M...]`: a new game, then moves; a move is an action or a
/// chance outcome in the game's notation ([`EngineGame::parse_chance`]).
pub fn start_position<G: EngineGame>(start: &StartPosition) -> Result<G, EngineError> {
    let players = start.players;
    G::INFO
        .check_seats(players)
        .map_err(|source| EngineError::Seats { players, source })?;
    if let Some(first) = start.first
        && (first == 0 || first > players)
    {
        return Err(EngineError::First { first, players });
    }
    let first = start.first.map(|k| PlayerId(k as u8 - 1));
    let mut s = G::start(players, first).ok_or(EngineError::FirstFixed {
        first: start.first.unwrap_or(1),
        title: G::INFO.title,
    })?;
    for (k, m) in start.moves.iter().enumerate() {
        let bad = |reason: MoveProblem| EngineError::Move {
            index: k + 1,
            text: m.clone(),
            reason,
        };
        if let Some(outcome) = s.parse_chance(m) {
            let outcome = outcome.map_err(|e| bad(MoveProblem::Chance(e)))?;
            s.apply_chance(&outcome)
                .map_err(|e| bad(MoveProblem::ChanceRefused(Box::new(e))))?;
        } else {
            if s.turn() == Turn::Chance {
                return Err(bad(MoveProblem::NeedsChance(G::CHANCE_NEEDED)));
            }
            let a = G::parse_action(m).map_err(|e| bad(MoveProblem::Notation(Box::new(e))))?;
            s.try_apply(a)
                .map_err(|e| bad(MoveProblem::Illegal(Box::new(e))))?;
        }
    }
    Ok(s)
}

/// Checks a game's protocol notation on random playouts from `G::new_game` (a test helper,
/// like [`tessera_core::conformance`]): every legal action's word has no whitespace and reads
/// back as the same action; every position reads back from the text of the seat to move,
/// gives that seat the same legal moves, and two states that differ only in what the seat
/// cannot see give it the same text. Returns the first violation.
pub fn check_notation<G: ArenaGame>(players: usize, games: u64) -> Result<(), String> {
    use tessera_core::rng::seeded;
    for seed in 0..games {
        let mut rng = seeded(seed);
        let mut s = G::new_game(players, &mut rng);
        let mut actions = Vec::new();
        for _ in 0..G::MAX_ACTIONS {
            match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let c = s.sample_chance(&mut rng);
                    s.apply_chance(&c).map_err(|e| format!("chance: {e}"))?;
                }
                Turn::Player(p) => {
                    s.legal_actions(&mut actions);
                    for a in &actions {
                        let w = G::action_word(a);
                        if w.is_empty() || w.contains(char::is_whitespace) {
                            return Err(format!("action {a:?} is written '{w}'"));
                        }
                        let back = G::parse_action(&w).map_err(|e| format!("'{w}': {e}"))?;
                        if back != *a {
                            return Err(format!("'{w}' reads back as {back:?}, not {a:?}"));
                        }
                    }
                    let text = s.position_text(p);
                    let (read, observer) =
                        G::parse_position(&text).map_err(|e| format!("'{text}': {e}"))?;
                    if G::INFO.hidden_info && observer != Some(p) {
                        return Err(format!("'{text}' is not read as seat {}'s view", p.0 + 1));
                    }
                    if read.position_text(p) != text {
                        return Err(format!("'{text}' is written back differently"));
                    }
                    let mut again = Vec::new();
                    read.legal_actions(&mut again);
                    if again != actions {
                        return Err(format!("'{text}' gives other legal moves"));
                    }
                    let other = s.determinize(p, &mut rng);
                    if other.position_text(p) != text {
                        return Err(format!(
                            "the text of seat {} shows what it cannot see: '{text}' vs '{}'",
                            p.0 + 1,
                            other.position_text(p)
                        ));
                    }
                    let a = actions[rng.random_range(0..actions.len())];
                    s.apply(a);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_azul::AzulState;
    use tessera_core::Game;
    use tessera_core::testgame::Nim;
    use tessera_qwirkle::Qwirkle;

    fn session<G: ArenaGame>() -> EngineServer<G> {
        EngineServer::new(Some("random"), 1).unwrap()
    }

    fn talk(s: &mut dyn EngineSession, input: &str) -> String {
        let mut out = Vec::new();
        for line in input.lines() {
            s.handle(line, &mut out).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn handshake_and_search() {
        let mut s = session::<AzulState>();
        let out = talk(&mut s, "tep\nisready\n");
        assert!(
            out.contains("id game azul") && out.ends_with("tepok\nreadyok\n"),
            "{out}"
        );
        let out = talk(
            &mut s,
            "position start players 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB 1B1\nlegal\ngo movetime 10\n",
        );
        assert!(out.starts_with("legal "), "{out}");
        let best = out.lines().last().unwrap();
        let action = best.strip_prefix("bestmove ").expect(best);
        let mut state = s.state.clone().unwrap();
        state.try_apply(action.parse().unwrap()).unwrap();
    }

    #[test]
    fn go_asks_the_player_as_plan_agent_does() {
        // The engine's `go` is PlanAgent::choose_within: the same seed gives the same moves
        // (one table seed drawn per move from the player's generator), and `newgame`
        // restarts that generator.
        let start = "position start players 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB";
        let mut s = EngineServer::<AzulState>::new(Some("random"), 7).unwrap();
        let out = talk(
            &mut s,
            &format!(
                "{start}
go
go
go
newgame
{start}
go
"
            ),
        );
        let engine: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("bestmove "))
            .collect();
        let state = s.state.clone().unwrap();
        let mut agent = PlanAgent::<AzulState>::new("random", 7).unwrap();
        let direct: Vec<String> = (0..3)
            .map(|_| AzulState::action_word(&agent.choose(&state).unwrap()))
            .collect();
        assert_eq!(engine[..3], direct[..], "{out}");
        assert_eq!(engine[3], direct[0], "newgame reseeds: {out}");
        // Random picks differ from move to move, so the comparison can fail.
        assert!(direct.iter().any(|m| *m != direct[0]), "{direct:?}");
    }

    #[test]
    fn the_identification_names_each_game() {
        for (mut s, name, player) in [
            (
                Box::new(session::<AzulState>()) as Box<dyn EngineSession>,
                "azul",
                "strong",
            ),
            (Box::new(session::<Qwirkle>()), "qwirkle", "montecarlo"),
            (Box::new(session::<Nim>()), "nim", "random"),
        ] {
            let out = talk(s.as_mut(), "tep");
            assert!(out.contains(&format!("id game {name}\n")), "{out}");
            assert!(
                out.contains(&format!(
                    "option name Player type string default {player}\n"
                )),
                "{out}"
            );
        }
    }

    #[test]
    fn go_under_a_clock_spends_a_share_of_it() {
        let mut s = EngineServer::<AzulState>::new(Some("strong"), 1).unwrap();
        let out = talk(
            &mut s,
            "position start players 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB\ngo wtime 3000 btime 100 winc 0 binc 0",
        );
        let time: u64 = out
            .split_whitespace()
            .skip_while(|w| *w != "time")
            .nth(1)
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("an info line with a time: {out}"));
        // 3 s less the safety margin over a horizon of 30 decisions: about 95 ms.
        assert!((60..=130).contains(&time), "{out}");
        assert!(
            out.lines().last().unwrap().starts_with("bestmove "),
            "{out}"
        );
        // A forced move is answered at once, without a search.
        let mut s = EngineServer::<Nim>::new(Some("random"), 1).unwrap();
        let out = talk(
            &mut s,
            "position start players 2 moves deal:1,1 1:1\ngo wtime 10 btime 10",
        );
        assert_eq!(out, "bestmove 2:1\n");
        // The clock must give the mover's time.
        let out = talk(
            &mut s,
            "position start players 3 first 3 moves deal:3,4\ngo wtime 100 btime 100",
        );
        assert_eq!(
            out,
            "error go: the clock gives 2 seats' times but seat 3 is to move\n"
        );
    }

    #[test]
    fn bad_commands_get_error_lines() {
        let mut s = session::<AzulState>();
        for bad in [
            "go",
            "fly away",
            "position",
            "position state nonsense",
            "position start players 7",
            "position start players 2 first 3",
            "position start players 2 moves 1B1",
            "position start players 2 moves deal:QQQQ",
            "position start players 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB 9Z9",
            "setoption name Player value nobody",
            "setoption name Colour value red",
            "setoption name Seed value -3",
            "setoption",
            "legal",
        ] {
            let out = talk(&mut s, bad);
            assert!(out.starts_with("error "), "{bad}: {out}");
            assert_eq!(out.lines().count(), 1, "{bad}: {out}");
        }
        let out = talk(&mut s, "position start players 2\ngo movetime 5\n");
        assert_eq!(
            out,
            "error the position waits for a factory deal, not for a player\n"
        );
        let out = talk(&mut s, "position start players 2 moves 1B1");
        assert_eq!(
            out,
            "error move 1 '1B1': the round needs its deal first (deal:F1/F2/...)\n"
        );
        let out = talk(
            &mut s,
            "position start players 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB\ngo depth x\n",
        );
        assert!(out.starts_with("error "), "{out}");
        // Still alive.
        assert_eq!(talk(&mut s, "isready"), "readyok\n");
        let mut out = Vec::new();
        assert!(!s.handle("quit", &mut out).unwrap());
    }

    #[test]
    fn state_notation_round_trips_through_show() {
        let mut s = session::<AzulState>();
        talk(
            &mut s,
            "position start players 3 first 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB/YYYY/KKKK",
        );
        let shown = talk(&mut s, "show");
        let text = shown.trim().strip_prefix("state ").unwrap().to_string();
        let mut t = session::<AzulState>();
        assert_eq!(talk(&mut t, &format!("position state {text}")), "");
        assert_eq!(t.state, s.state);
    }

    #[test]
    fn nim_starts_plays_and_refuses() {
        let mut s = session::<Nim>();
        assert_eq!(
            talk(
                &mut s,
                "position start players 3 first 2 moves deal:3,4 2:3\nshow"
            ),
            "state 3 3 3,1 0,3,0\n"
        );
        assert_eq!(talk(&mut s, "legal"), "legal 1:1 1:2 1:3 2:1\n");
        assert_eq!(
            talk(&mut s, "position state 2 2 0,1 3,3\ngo"),
            "bestmove 2:1\n"
        );
        for (bad, says) in [
            (
                "position start players 2 moves 1:1",
                "needs its deal first (deal:",
            ),
            ("position start players 2 moves deal:3,x", "deal:3,x"),
            ("position start players 2 moves deal:9", "impossible deal"),
            (
                "position start players 2 moves deal:3,4 3:1",
                "illegal move 3:1",
            ),
            (
                "position start players 2 moves deal:3,4 1-1",
                "expected PILE:COUNT",
            ),
            ("position state 2 1 ?", "expected PLAYERS MOVER PILES TAKEN"),
        ] {
            let out = talk(&mut s, bad);
            assert!(
                out.starts_with("error ") && out.contains(says),
                "{bad}: {out}"
            );
        }
        let out = talk(&mut s, "position start players 2\ngo");
        assert_eq!(
            out,
            "error the position waits for the deal, not for a player\n"
        );
    }

    #[test]
    fn every_game_writes_and_reads_its_positions_and_moves() {
        check_notation::<AzulState>(2, 2).unwrap();
        check_notation::<AzulState>(4, 1).unwrap();
        check_notation::<Nim>(3, 5).unwrap();
        check_notation::<Qwirkle>(2, 2).unwrap();
        check_notation::<Qwirkle>(4, 1).unwrap();
    }
}
