//! The Tessera Engine Protocol's commands and replies as types (docs/protocol.md), shared
//! by the server (`tessera engine`) and the client ([`crate::ext`]): each side parses the
//! other's lines with `FromStr` and writes its own with `Display`, so the two cannot drift
//! apart.
//!
//! ```
//! use std::time::Duration;
//! use tessera_house::protocol::{Command, Reply};
//! use tessera_core::Budget;
//! let go = Command::Go(Budget { time: Some(Duration::from_millis(250)), depth: Some(3), ..Budget::default() });
//! assert_eq!(go.to_string(), "go movetime 250 depth 3");
//! assert_eq!("go movetime 250 depth 3".parse::<Command>().unwrap(), go);
//! assert_eq!("bestmove 3B2".parse::<Reply>().unwrap(), Reply::BestMove("3B2".into()));
//! // Under a game clock: every seat's time left and increment (UCI's names at two seats).
//! let go: Command = "go wtime 59000 btime 61000 winc 1000 binc 1000".parse().unwrap();
//! let Command::GoClock(_, clock) = &go else { panic!("a clock") };
//! assert_eq!(clock.time[1], Duration::from_secs(61));
//! assert_eq!("go time1 5000 time2 5000 time3 4000 inc1 100 inc2 100 inc3 100"
//!     .parse::<Command>().unwrap().to_string(),
//!     "go time1 5000 time2 5000 time3 4000 inc1 100 inc2 100 inc3 100");
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use tessera_core::{Budget, SearchInfo};
use thiserror::Error;

/// The commands, as the server lists them in errors.
pub const COMMANDS: &str = "tep, isready, setoption, newgame, position, go, legal, show, quit";

/// Why a line is not a command (or not a reply).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ProtocolError {
    /// A word that is no command.
    #[error("unknown command '{0}': expected one of {COMMANDS}")]
    UnknownCommand(String),
    /// A command written wrongly.
    #[error("expected '{0}'")]
    Usage(&'static str),
    /// `go` with a limit that needs a value.
    #[error("go: '{0}' needs a value")]
    MissingValue(String),
    /// `go` with a value that is not a number.
    #[error("go: '{key} {value}': expected a non-negative integer")]
    BadNumber {
        /// The limit.
        key: String,
        /// The value given.
        value: String,
    },
    /// `go` with a depth beyond `u32`.
    #[error("go: depth too large")]
    DepthTooLarge,
    /// `go` with an unknown limit.
    #[error(
        "go: unknown limit '{0}': expected movetime MS, depth N, nodes N, or a clock (wtime/btime/winc/binc MS at two seats, timeK/incK MS for seat K)"
    )]
    UnknownLimit(String),
    /// `go` with a clock that names some seats' times but not others'.
    #[error(
        "go: {0}; expected a time for every seat from 1 up (wtime MS btime MS, or time1 MS time2 MS ...), increments optional"
    )]
    BadClock(String),
    /// An empty line where a reply was expected.
    #[error("empty line")]
    Empty,
    /// A reply that is none of the protocol's.
    #[error("unknown reply '{0}'")]
    UnknownReply(String),
}

/// How a game starts from its beginning in `position start`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartPosition {
    /// Seats.
    pub players: usize,
    /// The first player, from 1 (`None`: seat 1).
    pub first: Option<usize>,
    /// Moves and chance outcomes in the game's notation (for Azul `deal:F1/F2/...`).
    pub moves: Vec<String>,
}

/// A position to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// `position state NOTATION`.
    State(String),
    /// `position start players N [first K] [moves M...]`.
    Start(StartPosition),
}

/// A line from the client to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `tep`: identify.
    Tep,
    /// `isready`.
    IsReady,
    /// `setoption name NAME value VALUE`.
    SetOption {
        /// The option.
        name: String,
        /// Its value.
        value: String,
    },
    /// `newgame`: forget the previous game.
    NewGame,
    /// `position ...`.
    Position(Position),
    /// `go [movetime MS] [depth N] [nodes N]`: search within the budget.
    Go(Budget),
    /// `go wtime MS btime MS [winc MS] [binc MS]` (two seats) or `go time1 MS ... [inc1 MS
    /// ...]` (any seats), with any limits of [`Command::Go`]: search under a game clock;
    /// the engine decides how much of its time to spend.
    GoClock(Budget, GoClock),
    /// `legal`: list the legal moves.
    Legal,
    /// `show` (or `d`): print the position.
    Show,
    /// `quit`.
    Quit,
}

/// A game clock as `go` gives it: every seat's time left and increment, seat 1 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoClock {
    /// Time left per seat.
    pub time: Vec<Duration>,
    /// Increment per move, per seat (as many as `time`; 0 where none was given).
    pub inc: Vec<Duration>,
}

const SETOPTION_USAGE: &str = "setoption name NAME value VALUE";
const POSITION_USAGE: &str =
    "position state NOTATION' or 'position start players N [first K] [moves ...]";
const START_USAGE: &str = "position start players N [first K] [moves M...]";

fn parse_start(words: &[&str]) -> Result<StartPosition, ProtocolError> {
    let mut players = None;
    let mut first = None;
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "players" | "first" => {
                let v: usize = words
                    .get(i + 1)
                    .and_then(|v| v.parse().ok())
                    .ok_or(ProtocolError::Usage(START_USAGE))?;
                if words[i] == "players" {
                    players = Some(v);
                } else {
                    first = Some(v);
                }
                i += 2;
            }
            "moves" => break,
            _ => return Err(ProtocolError::Usage(START_USAGE)),
        }
    }
    Ok(StartPosition {
        players: players.ok_or(ProtocolError::Usage(START_USAGE))?,
        first,
        moves: words.iter().skip(i + 1).map(|s| s.to_string()).collect(),
    })
}

/// The seat (from 0) and kind (time: false, increment: true) a clock key names.
fn clock_key(key: &str) -> Option<(usize, bool)> {
    match key {
        "wtime" => Some((0, false)),
        "btime" => Some((1, false)),
        "winc" => Some((0, true)),
        "binc" => Some((1, true)),
        _ => {
            let (inc, n) = match key.strip_prefix("time") {
                Some(n) => (false, n),
                None => (true, key.strip_prefix("inc")?),
            };
            let seat: usize = n.parse().ok()?;
            (1..=tessera_core::MAX_PLAYERS)
                .contains(&seat)
                .then_some((seat - 1, inc))
        }
    }
}

fn parse_go(rest: &[&str]) -> Result<(Budget, Option<GoClock>), ProtocolError> {
    let mut budget = Budget::default();
    let mut times: Vec<Option<Duration>> = Vec::new();
    let mut incs: Vec<Option<Duration>> = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let val = rest
            .get(i + 1)
            .ok_or_else(|| ProtocolError::MissingValue(key.to_string()))?;
        let num: u64 = val.parse().map_err(|_| ProtocolError::BadNumber {
            key: key.to_string(),
            value: val.to_string(),
        })?;
        match key {
            "movetime" => budget.time = Some(Duration::from_millis(num)),
            "depth" => {
                budget.depth = Some(u32::try_from(num).map_err(|_| ProtocolError::DepthTooLarge)?)
            }
            "nodes" => budget.nodes = Some(num),
            other => {
                let (seat, inc) = clock_key(other)
                    .ok_or_else(|| ProtocolError::UnknownLimit(other.to_string()))?;
                let list = if inc { &mut incs } else { &mut times };
                if list.len() <= seat {
                    list.resize(seat + 1, None);
                }
                list[seat] = Some(Duration::from_millis(num));
            }
        }
        i += 2;
    }
    if times.is_empty() && incs.is_empty() {
        return Ok((budget, None));
    }
    let time = times
        .iter()
        .enumerate()
        .map(|(k, t)| {
            t.ok_or_else(|| ProtocolError::BadClock(format!("seat {}'s time is missing", k + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if time.len() < 2 {
        return Err(ProtocolError::BadClock(format!(
            "{} seat's time given",
            time.len()
        )));
    }
    if incs.len() > time.len() {
        return Err(ProtocolError::BadClock(format!(
            "an increment for seat {}, which has no time",
            incs.len()
        )));
    }
    let inc = (0..time.len())
        .map(|k| incs.get(k).copied().flatten().unwrap_or(Duration::ZERO))
        .collect();
    Ok((budget, Some(GoClock { time, inc })))
}

impl fmt::Display for GoClock {
    /// `wtime MS btime MS winc MS binc MS` at two seats, `time1 MS ... inc1 MS ...` at more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: &Duration| d.as_millis();
        if let ([w, b], [wi, bi]) = (self.time.as_slice(), self.inc.as_slice()) {
            return write!(
                f,
                "wtime {} btime {} winc {} binc {}",
                ms(w),
                ms(b),
                ms(wi),
                ms(bi)
            );
        }
        let mut sep = "";
        for (k, t) in self.time.iter().enumerate() {
            write!(f, "{sep}time{} {}", k + 1, ms(t))?;
            sep = " ";
        }
        for (k, t) in self.inc.iter().enumerate() {
            write!(f, " inc{} {}", k + 1, ms(t))?;
        }
        Ok(())
    }
}

impl FromStr for Command {
    type Err = ProtocolError;

    /// Parses one line (`Ok(None)`-like empty lines are the caller's to skip: an empty line
    /// is [`ProtocolError::Empty`]).
    fn from_str(line: &str) -> Result<Self, ProtocolError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            return Err(ProtocolError::Empty);
        };
        let rest = &words[1..];
        Ok(match cmd {
            "tep" => Command::Tep,
            "isready" => Command::IsReady,
            "newgame" => Command::NewGame,
            "legal" => Command::Legal,
            "show" | "d" => Command::Show,
            "quit" => Command::Quit,
            "go" => match parse_go(rest)? {
                (budget, None) => Command::Go(budget),
                (budget, Some(clock)) => Command::GoClock(budget, clock),
            },
            "setoption" => {
                if rest.first() != Some(&"name") {
                    return Err(ProtocolError::Usage(SETOPTION_USAGE));
                }
                let vpos = rest
                    .iter()
                    .position(|&w| w == "value")
                    .ok_or(ProtocolError::Usage(SETOPTION_USAGE))?;
                let name = rest[1..vpos].join(" ");
                let value = rest[vpos + 1..].join(" ");
                if name.is_empty() || value.is_empty() {
                    return Err(ProtocolError::Usage(SETOPTION_USAGE));
                }
                Command::SetOption { name, value }
            }
            "position" => match rest.first() {
                Some(&"state") => Command::Position(Position::State(rest[1..].join(" "))),
                Some(&"start") => Command::Position(Position::Start(parse_start(&rest[1..])?)),
                _ => return Err(ProtocolError::Usage(POSITION_USAGE)),
            },
            other => return Err(ProtocolError::UnknownCommand(other.to_string())),
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Tep => f.write_str("tep"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => write!(f, "setoption name {name} value {value}"),
            Command::NewGame => f.write_str("newgame"),
            Command::Position(Position::State(s)) => write!(f, "position state {s}"),
            Command::Position(Position::Start(s)) => {
                write!(f, "position start players {}", s.players)?;
                if let Some(k) = s.first {
                    write!(f, " first {k}")?;
                }
                if !s.moves.is_empty() {
                    write!(f, " moves {}", s.moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(b) | Command::GoClock(b, _) => {
                f.write_str("go")?;
                if let Command::GoClock(_, c) = self {
                    write!(f, " {c}")?;
                }
                if let Some(t) = b.time {
                    write!(f, " movetime {}", t.as_millis())?;
                }
                if let Some(d) = b.depth {
                    write!(f, " depth {d}")?;
                }
                if let Some(n) = b.nodes {
                    write!(f, " nodes {n}")?;
                }
                Ok(())
            }
            Command::Legal => f.write_str("legal"),
            Command::Show => f.write_str("show"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

/// A line from the engine to the client.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `id KEY VALUE` (`id name ...`, `id author ...`, `id game azul`).
    Id {
        /// `name`, `author` or `game`.
        key: String,
        /// The rest of the line.
        value: String,
    },
    /// `option ...`: an option the engine takes, described in free text.
    Option(String),
    /// `tepok`: the end of the identification.
    TepOk,
    /// `readyok`.
    ReadyOk,
    /// `info depth N nodes N leaves N time MS [value V]`.
    Info(SearchInfo),
    /// `bestmove ACTION`.
    BestMove(String),
    /// `legal A B ...`.
    Legal(Vec<String>),
    /// `state NOTATION`.
    State(String),
    /// `error MESSAGE`.
    Error(String),
}

impl FromStr for Reply {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<Self, ProtocolError> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        Ok(match word {
            "" => return Err(ProtocolError::Empty),
            "tepok" => Reply::TepOk,
            "readyok" => Reply::ReadyOk,
            "bestmove" => Reply::BestMove(rest.split_whitespace().next().unwrap_or("").into()),
            "legal" => Reply::Legal(rest.split_whitespace().map(str::to_string).collect()),
            "state" => Reply::State(rest.to_string()),
            "error" => Reply::Error(rest.to_string()),
            "option" => Reply::Option(rest.to_string()),
            "id" => {
                let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
                Reply::Id {
                    key: key.to_string(),
                    value: value.to_string(),
                }
            }
            "info" => {
                let mut info = SearchInfo::default();
                let w: Vec<&str> = rest.split_whitespace().collect();
                for kv in w.chunks(2) {
                    if let [k, v] = kv {
                        match *k {
                            "depth" => info.depth = v.parse().unwrap_or(0),
                            "nodes" => info.nodes = v.parse().unwrap_or(0),
                            "leaves" => info.leaves = v.parse().unwrap_or(0),
                            "time" => info.elapsed = Duration::from_millis(v.parse().unwrap_or(0)),
                            "value" => info.value = v.parse().ok(),
                            _ => {}
                        }
                    }
                }
                Reply::Info(info)
            }
            other => return Err(ProtocolError::UnknownReply(other.to_string())),
        })
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { key, value } => write!(f, "id {key} {value}"),
            Reply::Option(o) => write!(f, "option {o}"),
            Reply::TepOk => f.write_str("tepok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(i) => {
                write!(
                    f,
                    "info depth {} nodes {} leaves {} time {}",
                    i.depth,
                    i.nodes,
                    i.leaves,
                    i.elapsed.as_millis()
                )?;
                if let Some(v) = i.value {
                    write!(f, " value {v}")?;
                }
                Ok(())
            }
            Reply::BestMove(a) => write!(f, "bestmove {a}"),
            Reply::Legal(v) => {
                f.write_str("legal")?;
                for a in v {
                    write!(f, " {a}")?;
                }
                Ok(())
            }
            Reply::State(s) => write!(f, "state {s}"),
            // One line, whatever the message holds.
            Reply::Error(e) => write!(f, "error {}", e.replace('\n', " ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip() {
        for line in [
            "tep",
            "isready",
            "newgame",
            "legal",
            "show",
            "quit",
            "go",
            "go movetime 100",
            "go movetime 5 depth 3 nodes 1000",
            "setoption name Player value strong:nodes=5",
            "position state 2 1 play x",
            "position start players 3 first 2 moves deal:BBYR/KKWW 1B1",
            "position start players 2",
            "go wtime 59000 btime 61000 winc 1000 binc 1000",
            "go wtime 100 btime 200 winc 0 binc 0 depth 3",
            "go time1 1 time2 2 time3 3 time4 4 inc1 0 inc2 0 inc3 0 inc4 5",
        ] {
            let c: Command = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(c.to_string(), line);
        }
        assert_eq!("d".parse::<Command>().unwrap(), Command::Show);
        for bad in [
            "",
            "fly",
            "go depth",
            "go depth x",
            "go speed 3",
            "setoption",
            "setoption name value",
            "position",
            "position start first 2",
            "position start players x",
            "go wtime 100",
            "go time1 100 time3 100",
            "go wtime 100 btime 100 inc3 5",
            "go time5 100",
            "go wtime -1 btime 1",
        ] {
            assert!(bad.parse::<Command>().is_err(), "{bad}");
        }
        let Command::GoClock(b, c) = "go btime 2000 wtime 1000 binc 20".parse().unwrap() else {
            panic!("a clock")
        };
        assert_eq!(b, Budget::default());
        assert_eq!(
            c.time,
            vec![Duration::from_millis(1000), Duration::from_millis(2000)]
        );
        assert_eq!(c.inc, vec![Duration::ZERO, Duration::from_millis(20)]);
        let e = "go time1 100 time3 100"
            .parse::<Command>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("seat 2's time is missing"), "{e}");
    }

    #[test]
    fn replies_round_trip() {
        for line in [
            "tepok",
            "readyok",
            "bestmove 3B2",
            "legal 1B1 1B2",
            "state 2 1 play x",
            "error something is wrong",
            "id name Tessera Azul 0.1.0",
            "option name Seed type spin default 0",
            "info depth 3 nodes 120 leaves 80 time 12 value 4.5",
        ] {
            let r: Reply = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(r.to_string(), line);
        }
        let Reply::Info(i) = "info depth 3 nodes 120 leaves 80 time 12".parse().unwrap() else {
            panic!("an info line")
        };
        assert_eq!((i.depth, i.nodes, i.leaves), (3, 120, 80));
        assert_eq!(i.elapsed, Duration::from_millis(12));
        assert!("whatever".parse::<Reply>().is_err());
    }
}
