//! `tessera engine azul`: the Tessera Engine Protocol (TEP) on stdin/stdout, a line protocol
//! in the spirit of chess's UCI. The full description is in docs/protocol.md.
//!
//! Commands (one per line; replies end with a line the client can wait for):
//! - `tep` -> `id name ...`, `id author ...`, `id game azul`, `option ...` lines, `tepok`
//! - `isready` -> `readyok`
//! - `setoption name NAME value VALUE` (options `Player`, `Seed`) -> nothing, or `error ...`
//! - `newgame` -> nothing (the player forgets the previous game)
//! - `position state NOTATION` | `position start players N [first K] [moves M...]`
//! - `go [movetime MS] [depth N] [nodes N]` -> `info ...` then `bestmove ACTION`
//! - `legal` -> `legal A B ...`; `show` -> `state NOTATION`; `quit`
//!
//! Every malformed or impossible command gets one `error MESSAGE` line; the engine never
//! stops on bad input.

use std::io::{BufRead, Write};

use anyhow::Result;
use rand::Rng;
use tessera_arena::protocol::{Command, Position, ProtocolError, Reply, StartPosition};
use tessera_arena::registry::RegistryError;
use tessera_azul::{AzulAction, AzulState, Deal, Tiles};
use tessera_core::table::{Next, TableError};
use tessera_core::{
    Agent, Budget, Game, GameRng, PlayerId, Seat, SeatsError, Table, Turn, rng::seeded,
};
use thiserror::Error;

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The player answering `go` (a registry name, see `tessera agents azul`). The limits of
    /// `go` decide its budget; its own limits apply to a `go` without any.
    #[arg(long, default_value = DEFAULT_PLAYER)]
    pub player: String,
    /// Seed of the player's random generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// The player used when none is set.
pub const DEFAULT_PLAYER: &str = "strong";

/// Builds a player from its registry name.
pub type Builder = Box<dyn Fn(&str) -> Result<Box<dyn Agent<AzulState>>, RegistryError>>;

/// Why a command cannot be carried out (answered with one `error` line).
#[derive(Debug, Error)]
pub enum EngineError {
    /// The line is not a command.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// `go`, `legal` or `show` before `position`.
    #[error("no position: send 'position state ...' or 'position start ...' first")]
    NoPosition,
    /// `go` while a deal is due.
    #[error("the position waits for a factory deal, not for a player")]
    WaitingForDeal,
    /// `go` after the end.
    #[error("the game is over")]
    GameOver,
    /// `position state` with bad notation.
    #[error("position state: {0}")]
    State(#[source] <AzulState as std::str::FromStr>::Err),
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
    /// An option that does not exist.
    #[error("unknown option '{0}': options are Player, Seed")]
    UnknownOption(String),
    /// The table refused (a bug: the position was checked).
    #[error(transparent)]
    Table(#[from] TableError),
}

/// Why a move of `position start` does not fit.
#[derive(Debug, Error)]
pub enum MoveProblem {
    /// A deal's factory does not parse, or there are too many.
    #[error("{0}")]
    Deal(String),
    /// A deal the position cannot take.
    #[error(transparent)]
    DealRefused(<AzulState as Game>::ChanceError),
    /// An action before the round's deal.
    #[error("the round needs its deal first (deal:F1/F2/...)")]
    NeedsDeal,
    /// An action that does not parse.
    #[error(transparent)]
    Notation(<AzulState as Game>::ActionParseError),
    /// An action the rules forbid.
    #[error(transparent)]
    Illegal(<AzulState as Game>::ActionError),
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let mut session = Session::new(Box::new(build_agent), &args.player, args.seed)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if !session.handle(&line, &mut out)? {
            break;
        }
        out.flush()?;
    }
    Ok(())
}

/// Builds an Azul player from the registry.
pub fn build_agent(spec: &str) -> Result<Box<dyn Agent<AzulState>>, RegistryError> {
    tessera_arena::registry::azul::registry().build(spec)
}

/// One engine session: the current position, the player and its settings.
pub struct Session {
    build: Builder,
    player: String,
    /// `None` only while it sits at the table of a `go`.
    agent: Option<Box<dyn Agent<AzulState>>>,
    seed: u64,
    rng: GameRng,
    state: Option<AzulState>,
}

impl Session {
    /// A session whose player is `player`.
    pub fn new(build: Builder, player: &str, seed: u64) -> Result<Self, RegistryError> {
        let agent = build(player)?;
        Ok(Session {
            build,
            player: player.to_string(),
            agent: Some(agent),
            seed,
            rng: seeded(seed),
            state: None,
        })
    }

    /// Handles one line; returns false after `quit`. Errors are only I/O errors: protocol
    /// errors become `error ...` lines.
    pub fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<bool> {
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

    fn command(&mut self, c: Command) -> Result<Vec<Reply>, EngineError> {
        match c {
            Command::Tep => Ok(self.identify()),
            Command::IsReady => Ok(vec![Reply::ReadyOk]),
            Command::SetOption { name, value } => self.set_option(&name, value).map(|()| vec![]),
            Command::NewGame => {
                if let Some(a) = self.agent.as_mut() {
                    a.reset();
                }
                self.rng = seeded(self.seed);
                self.state = None;
                Ok(Vec::new())
            }
            Command::Position(Position::State(text)) => {
                self.state = Some(text.parse().map_err(EngineError::State)?);
                Ok(Vec::new())
            }
            Command::Position(Position::Start(start)) => {
                self.state = Some(start_position(&start)?);
                Ok(Vec::new())
            }
            Command::Go(budget) => self.go(budget),
            Command::Legal => {
                let s = self.state.as_ref().ok_or(EngineError::NoPosition)?;
                let mut v = Vec::new();
                s.legal_actions(&mut v);
                Ok(vec![Reply::Legal(
                    v.iter().map(|a| a.to_string()).collect(),
                )])
            }
            Command::Show => {
                let s = self.state.as_ref().ok_or(EngineError::NoPosition)?;
                Ok(vec![Reply::State(s.to_string())])
            }
            Command::Quit => Ok(Vec::new()),
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
                format!("Tessera Azul {}", env!("CARGO_PKG_VERSION")),
            ),
            id("author", "the Tessera developers".into()),
            id("game", AzulState::INFO.name.into()),
            Reply::Option(format!("name Player type string default {DEFAULT_PLAYER}")),
            Reply::Option("name Seed type spin default 0 min 0 max 18446744073709551615".into()),
            Reply::TepOk,
        ]
    }

    fn set_option(&mut self, name: &str, value: String) -> Result<(), EngineError> {
        match name.to_ascii_lowercase().as_str() {
            "player" => {
                self.agent = Some((self.build)(&value)?);
                self.player = value;
                Ok(())
            }
            "seed" => {
                self.seed = value.parse().map_err(|_| EngineError::Seed(value))?;
                self.rng = seeded(self.seed);
                Ok(())
            }
            _ => Err(EngineError::UnknownOption(name.to_string())),
        }
    }

    /// Seats the player at a table resumed from the position (the other seats are people
    /// the engine does not play) and lets it think within the `go` budget.
    fn go(&mut self, budget: Budget) -> Result<Vec<Reply>, EngineError> {
        let state = self.state.clone().ok_or(EngineError::NoPosition)?;
        let me = match state.turn() {
            Turn::Player(p) => p,
            Turn::Chance => return Err(EngineError::WaitingForDeal),
            Turn::Terminal => return Err(EngineError::GameOver),
        };
        let agent = self
            .agent
            .take()
            .ok_or(EngineError::Table(TableError::AgentAway(me)))?;
        let mut agent = Some(agent);
        let seats = PlayerId::all(state.num_players())
            .map(|p| match if p == me { agent.take() } else { None } {
                Some(a) => Seat::agent(a, budget),
                None => Seat::human("opponent"),
            })
            .collect();
        let mut table = Table::resume(state, seats, self.rng.random::<u64>())?;
        let outcome = (|| {
            let next = table.advance()?;
            if next != Next::Agent(me) {
                return Err(EngineError::Table(TableError::AgentAway(me)));
            }
            let done = table.think()?.run();
            let action = done.action();
            table.hand_back(done)?;
            Ok(action)
        })();
        self.agent = table.into_agents().into_iter().nth(me.index()).flatten();
        if self.agent.is_none() {
            // Cannot happen (the job came back); rebuild rather than lose the player.
            self.agent = Some((self.build)(&self.player)?);
        }
        let action: AzulAction = outcome?;
        let mut lines = Vec::new();
        if let Some(info) = self.agent.as_ref().and_then(|a| a.last_info()) {
            lines.push(Reply::Info(info));
        }
        lines.push(Reply::BestMove(action.to_string()));
        Ok(lines)
    }
}

/// `players N [first K] [moves M...]`: a new game, then moves; a move is an action (`3B2`)
/// or a deal `deal:F1/F2/...` (each factory a tile string such as `BBYR`, `-` when empty).
fn start_position(start: &StartPosition) -> Result<AzulState, EngineError> {
    let players = start.players;
    AzulState::INFO
        .check_seats(players)
        .map_err(|source| EngineError::Seats { players, source })?;
    let first = start.first.unwrap_or(1);
    if first == 0 || first > players {
        return Err(EngineError::First { first, players });
    }
    let mut s = AzulState::new(players, PlayerId(first as u8 - 1));
    for (k, m) in start.moves.iter().enumerate() {
        let bad = |reason: MoveProblem| EngineError::Move {
            index: k + 1,
            text: m.clone(),
            reason,
        };
        if let Some(spec) = m.strip_prefix("deal:") {
            let mut deal = Deal::default();
            for part in spec.split('/') {
                let t: Tiles = part
                    .parse()
                    .map_err(|e| bad(MoveProblem::Deal(format!("{e}"))))?;
                deal.factories
                    .try_push(t)
                    .map_err(|_| bad(MoveProblem::Deal("too many factories".into())))?;
            }
            s.apply_chance(&deal)
                .map_err(|e| bad(MoveProblem::DealRefused(e)))?;
        } else {
            if s.turn() == Turn::Chance {
                return Err(bad(MoveProblem::NeedsDeal));
            }
            let a: AzulAction = m.parse().map_err(|e| bad(MoveProblem::Notation(e)))?;
            s.try_apply(a).map_err(|e| bad(MoveProblem::Illegal(e)))?;
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::RandomAgent;

    fn session() -> Session {
        let build: Builder = Box::new(|name: &str| {
            if name == "random" {
                Ok(Box::new(RandomAgent::<AzulState>::new()) as Box<dyn Agent<AzulState>>)
            } else {
                Err(RegistryError::UnknownAgent {
                    game: "azul",
                    name: name.to_string(),
                    known: "random".into(),
                })
            }
        });
        Session::new(build, "random", 1).unwrap()
    }

    fn talk(s: &mut Session, input: &str) -> String {
        let mut out = Vec::new();
        for line in input.lines() {
            s.handle(line, &mut out).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn handshake_and_search() {
        let mut s = session();
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
    fn bad_commands_get_error_lines() {
        let mut s = session();
        for bad in [
            "go",
            "fly away",
            "position",
            "position state nonsense",
            "position start players 7",
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
        assert!(out.starts_with("error ") && out.contains("deal"), "{out}");
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
        let mut s = session();
        talk(
            &mut s,
            "position start players 3 first 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB/YYYY/KKKK",
        );
        let shown = talk(&mut s, "show");
        let text = shown.trim().strip_prefix("state ").unwrap().to_string();
        let mut t = session();
        assert_eq!(talk(&mut t, &format!("position state {text}")), "");
        assert_eq!(t.state, s.state);
    }
}
