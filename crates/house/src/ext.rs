//! External engines over the Tessera Engine Protocol (docs/protocol.md).
//!
//! `ext:PROGRAM` seats a program that speaks the protocol, for any game
//! ([`EngineGame`]): it is started once per agent, identified (`tep` / `tepok`, `isready` /
//! `readyok`), and for every move receives `position state NOTATION` (the position as the
//! seat to move sees it, [`EngineGame::position_text`]: hidden hands stay hidden) and
//! `go movetime MS`, and answers `bestmove ACTION`.
//!
//! Spelling (agent lists forbid spaces and commas):
//! - `ext:/path/to/engine`: the program, 100 ms per move (the search players' default);
//! - `ext:/path/to/tessera+engine+azul`: `+` separates the program's arguments;
//! - `ext:time=250ms:/path/to/engine`, `ext:depth=3:...`, `ext:nodes=N:...`: the limits sent
//!   with `go` (leading `KEY=VALUE:` parts, before the program).
//!
//! Under a game clock (`tessera tournament --clock 60s+1s`) the agent is told every seat's
//! time left ([`Agent::observe_clock`]) and sends `go wtime MS btime MS winc MS binc MS`
//! (`go time1 MS ... inc1 MS ...` at three or four seats) instead: the engine manages its
//! own time, and waits up to its time left plus [`GRACE`].
//!
//! The engine is started once per agent (a tournament builds its agents once per worker
//! thread), gets `newgame` between games, and is restarted only if it dies or hangs. Commands
//! and replies are the typed [`crate::protocol`] shared with the server.
//!
//! An engine that crashes, answers with an error, times out (the move time plus
//! [`GRACE`]) or names an illegal move forfeits nothing: the agent plays the first legal
//! move instead and reports a [`Fault`] (stored with the game and counted in the
//! tournament's report; also counted in [`ExtAgent::failures`]). A crashed or hung engine is
//! restarted for the next move; one that answered wrongly keeps running.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as ProcessCommand, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tessera_core::clock::ClockView;
use tessera_core::table::Fault;
use tessera_core::{Agent, Budget, GameRng, PlayerId, SearchInfo};

pub use crate::ext_error::{ExtError, Failure};
use crate::game::EngineGame;
use crate::protocol::{Command, GoClock, Position, Reply};
use crate::registry::{AgentEntry, ParamDoc, ParamKind, Recipe, Trust};
use crate::spec::{SpecError, parse_duration};

/// Time allowed beyond the move time before an engine counts as hung.
pub const GRACE: Duration = Duration::from_secs(5);
/// Time allowed for the handshake and for searches limited by depth or nodes.
pub const HANDSHAKE: Duration = Duration::from_secs(20);

/// A parsed `ext:` specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The budget the specification names (`time=`, `depth=`, `nodes=` before the program;
    /// [`Budget::DEFAULT`] when it names none): the seat's budget, which the registry's plan
    /// carries. The agent itself holds no limits.
    pub limits: Budget,
}

impl std::str::FromStr for ExtSpec {
    type Err = ExtError;

    /// Parses what follows `ext:`.
    fn from_str(rest: &str) -> Result<Self, ExtError> {
        let mut limits = Budget::default();
        let mut parts: Vec<&str> = rest.split(':').collect();
        // Leading KEY=VALUE parts are limits; the rest (which may contain ':') is the program.
        let mut k = 0;
        while k < parts.len() {
            let Some((key, val)) = parts[k].split_once('=') else {
                break;
            };
            let bad = |expected: &'static str| ExtError::BadLimit {
                key: key.to_string(),
                value: val.to_string(),
                expected,
            };
            match key {
                "time" => {
                    limits.time =
                        Some(parse_duration(val).ok_or_else(|| bad("a duration such as 100ms"))?)
                }
                "depth" => limits.depth = Some(val.parse().map_err(|_| bad("a depth 1-200"))?),
                "nodes" => limits.nodes = Some(val.parse().map_err(|_| bad("a node count"))?),
                _ => break,
            }
            k += 1;
        }
        parts.drain(..k);
        let program = parts.join(":");
        let command: Vec<String> = program
            .split('+')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if command.is_empty() {
            return Err(ExtError::NoProgram);
        }
        if limits.is_unlimited() {
            limits = Budget::DEFAULT;
        }
        Ok(ExtSpec { command, limits })
    }
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The `id name` the engine gave in its handshake.
    id_name: Option<String>,
}

impl Engine {
    fn start(command: &[String]) -> Result<Engine, ExtError> {
        let mut child = ProcessCommand::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ExtError::Spawn {
                program: command[0].clone(),
                source,
            })?;
        let err = |failure: Failure| ExtError::Protocol {
            program: command[0].clone(),
            failure,
        };
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(err(Failure::NoPipes));
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Engine {
            child,
            stdin,
            lines: rx,
            id_name: None,
        };
        p.send(&Command::Tep).map_err(err)?;
        let replies = p.wait_for("tepok", HANDSHAKE).map_err(err)?;
        p.id_name = replies.into_iter().find_map(|r| match r {
            Reply::Id { key, value } if key == "name" && !value.trim().is_empty() => {
                Some(value.trim().to_string())
            }
            _ => None,
        });
        p.send(&Command::IsReady).map_err(err)?;
        p.wait_for("readyok", HANDSHAKE).map_err(err)?;
        Ok(p)
    }

    fn send(&mut self, c: &Command) -> Result<(), Failure> {
        writeln!(self.stdin, "{c}")
            .and_then(|()| self.stdin.flush())
            .map_err(Failure::Closed)
    }

    /// Reads replies until one starts with `word`; returns the replies read (that one
    /// last). Lines that are no reply of the protocol are skipped.
    fn wait_for(&mut self, word: &'static str, timeout: Duration) -> Result<Vec<Reply>, Failure> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let first = line.split_whitespace().next().unwrap_or("");
                    let Ok(reply) = line.parse::<Reply>() else {
                        continue;
                    };
                    if let Reply::Error(e) = reply {
                        return Err(Failure::ErrorLine(e));
                    }
                    seen.push(reply);
                    if first == word {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::Timeout { word, timeout });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Exited(word)),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send(&Command::Quit);
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(200) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An [`Agent`] that asks an external program over the protocol.
pub struct ExtAgent {
    name: String,
    spec: ExtSpec,
    process: Option<Engine>,
    failures: u32,
    starts: u32,
    faults: Vec<Fault>,
    last: Option<SearchInfo>,
    /// The clocks of the coming decision, if the game has one.
    clock: Option<ClockView>,
}

impl ExtAgent {
    /// Starts the engine and checks the handshake.
    pub fn start(name: impl Into<String>, spec: ExtSpec) -> Result<Self, ExtError> {
        let process = Engine::start(&spec.command)?;
        Ok(ExtAgent {
            name: name.into(),
            spec,
            process: Some(process),
            failures: 0,
            starts: 1,
            faults: Vec::new(),
            last: None,
            clock: None,
        })
    }

    /// Moves the engine failed to give (a legal fallback was played instead).
    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// Times the program was started (1 unless it died or hung and was restarted).
    pub fn starts(&self) -> u32 {
        self.starts
    }

    fn ask<G: EngineGame>(&mut self, state: &G, budget: &Budget) -> Result<G::Action, Failure> {
        if self.process.is_none() {
            match Engine::start(&self.spec.command) {
                Ok(p) => {
                    self.starts += 1;
                    self.process = Some(p);
                }
                Err(ExtError::Protocol { failure, .. }) => return Err(failure),
                Err(e) => return Err(Failure::Exited(leak_kind(&e))),
            }
        }
        let Some(p) = self.process.as_mut() else {
            return Err(Failure::Exited("a restart"));
        };
        // The seat's budget decides (the plan's: the specification's limits), or under a
        // game clock the engine itself, told every seat's time.
        let limits = budget.or_default();
        let clock = self.clock.take();
        let timeout = match (&clock, limits.time) {
            (Some(c), _) => c.left.get(c.seat.index()).copied().unwrap_or_default() + GRACE,
            (None, Some(t)) if limits.depth.is_none() && limits.nodes.is_none() => t + GRACE,
            _ => HANDSHAKE + GRACE,
        };
        let started = Instant::now();
        // Only what the seat to move may see.
        let seat = state.current_player().unwrap_or(PlayerId(0));
        p.send(&Command::Position(Position::State(
            state.position_text(seat),
        )))?;
        p.send(&match clock {
            Some(c) => Command::GoClock(
                Budget::default(),
                GoClock {
                    inc: vec![c.increment; c.left.len()],
                    time: c.left,
                },
            ),
            None => Command::Go(limits),
        })?;
        let replies = p.wait_for("bestmove", timeout)?;
        let mut info = SearchInfo {
            elapsed: started.elapsed(),
            ..SearchInfo::default()
        };
        let mut best = None;
        for r in replies {
            match r {
                Reply::Info(i) => {
                    info = SearchInfo {
                        elapsed: info.elapsed,
                        ..i
                    }
                }
                Reply::BestMove(m) => best = Some(m),
                _ => {}
            }
        }
        self.last = Some(info);
        let text = best
            .filter(|t| !t.is_empty())
            .ok_or(Failure::EmptyBestMove)?;
        let action = G::parse_action(&text).map_err(|e| Failure::BadMove {
            text: text.clone(),
            detail: format!("{e}"),
        })?;
        state
            .clone()
            .try_apply(action)
            .map_err(|e| Failure::Illegal {
                text: text.clone(),
                detail: e.to_string(),
            })?;
        Ok(action)
    }
}

/// The `id name` an external engine gives in its handshake, for an `ext:...` agent
/// specification (started, asked and stopped again); `None` for other agents, or an engine
/// that gives no name or does not start.
pub fn identify(spec: &str) -> Option<String> {
    let rest = spec.strip_prefix("ext:")?;
    let ext: ExtSpec = rest.parse().ok()?;
    Engine::start(&ext.command).ok()?.id_name.clone()
}

/// The wording of a start failure other than a protocol failure.
fn leak_kind(e: &ExtError) -> &'static str {
    match e {
        ExtError::Spawn { .. } => "a restart (the program no longer starts)",
        _ => "a restart",
    }
}

impl<G: EngineGame> Agent<G> for ExtAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G, budget: &Budget, _rng: &mut GameRng) -> G::Action {
        match self.ask(state, budget) {
            Ok(a) => a,
            Err(e) => {
                self.failures += 1;
                eprintln!("warning: {}: {e}; playing the first legal move", self.name);
                self.faults.push(Fault {
                    kind: e.kind(),
                    detail: e.to_string(),
                });
                if e.fatal() {
                    // Dead or hung: restart the engine for the next move.
                    self.process = None;
                }
                let mut v = Vec::new();
                state.legal_actions(&mut v);
                v[0]
            }
        }
    }

    fn reset(&mut self) {
        if let Some(p) = &mut self.process
            && p.send(&Command::NewGame).is_err()
        {
            self.process = None;
        }
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last.clone()
    }

    fn take_faults(&mut self) -> Vec<Fault> {
        std::mem::take(&mut self.faults)
    }

    /// An engine manages its own time: it is sent the clocks with `go`.
    fn observe_clock(&mut self, clock: &ClockView) -> bool {
        self.clock = Some(clock.clone());
        true
    }
}

const EXT_PARAMS: [ParamDoc; 1] = [ParamDoc {
    name: "[time=MS:|depth=N:|nodes=N:]PROGRAM[+ARG...]",
    kind: ParamKind::Rest,
    doc: "an engine speaking docs/protocol.md; `+` separates its arguments; 100ms per move unless a limit is given",
}];

/// External-engine entries, for any game that speaks the protocol.
pub fn entries<G: EngineGame>() -> Vec<AgentEntry<G>> {
    vec![AgentEntry {
        name: "ext",
        summary: "an external program over the Tessera engine protocol (docs/protocol.md)",
        player_summary: "a program running on the server",
        params: &EXT_PARAMS,
        plan: |spec, trust| {
            let engine = |source: ExtError| SpecError::Engine(std::sync::Arc::new(source));
            if trust == Trust::Remote {
                return Err(SpecError::Refused {
                    agent: spec.name.clone(),
                    key: "PROGRAM".into(),
                    expected: "one of the server's own players".into(),
                });
            }
            let rest = spec
                .rest
                .as_deref()
                .ok_or_else(|| engine(ExtError::NoProgram))?;
            let ext: ExtSpec = rest.parse().map_err(engine)?;
            let name = spec.text.clone();
            let budget = ext.limits;
            Ok(Recipe::fallible(move || {
                let agent = ExtAgent::start(name.clone(), ext.clone()).map_err(engine)?;
                Ok(Box::new(agent) as Box<dyn Agent<G>>)
            })
            .with_budget(budget))
        },
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let s: ExtSpec = "/bin/engine".parse().unwrap();
        assert_eq!(s.command, vec!["/bin/engine"]);
        assert_eq!(s.limits, Budget::DEFAULT);
        let s: ExtSpec = "time=250ms:/usr/bin/tessera+engine+azul".parse().unwrap();
        assert_eq!(s.command, vec!["/usr/bin/tessera", "engine", "azul"]);
        assert_eq!(s.limits.time, Some(Duration::from_millis(250)));
        let s: ExtSpec = "depth=3:C:/engines/x.exe".parse().unwrap();
        assert_eq!(s.command, vec!["C:/engines/x.exe"]);
        assert_eq!(s.limits.depth, Some(3));
        assert_eq!(s.limits.time, None);
        assert!("".parse::<ExtSpec>().is_err());
        assert!("time=soon:/bin/x".parse::<ExtSpec>().is_err());
    }

    #[test]
    fn missing_programs_are_clear_errors() {
        let s: ExtSpec = "/nonexistent/engine-xyz".parse().unwrap();
        let e = ExtAgent::start("ext", s).err().unwrap();
        assert!(e.to_string().contains("cannot start"), "{e}");
        // A program that does not speak the protocol.
        let s: ExtSpec = "true".parse().unwrap();
        let e = ExtAgent::start("ext", s).err().unwrap().to_string();
        // Depending on timing the program has exited before or after our handshake line was
        // written: either way the error must name the failed handshake or the closed pipe.
        assert!(e.contains("tepok") || e.contains("closed its input"), "{e}");
    }
}
