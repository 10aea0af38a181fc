//! External engines over the Tessera Engine Protocol (docs/protocol.md).
//!
//! `ext:PROGRAM` seats a program that speaks the protocol: it is started once per agent,
//! identified (`tep` / `tepok`, `isready` / `readyok`), and for every move receives
//! `position state NOTATION` and `go movetime MS`, and answers `bestmove ACTION`.
//!
//! Spelling (agent lists forbid spaces and commas):
//! - `ext:/path/to/engine`: the program, 100 ms per move (the search players' default);
//! - `ext:/path/to/tessera+engine+azul`: `+` separates the program's arguments;
//! - `ext:time=250ms:/path/to/engine`, `ext:depth=3:...`, `ext:nodes=N:...`: the limits sent
//!   with `go` (leading `KEY=VALUE:` parts, before the program).
//!
//! An engine that crashes, answers with an error, times out (the move time plus
//! [`GRACE`]) or names an illegal move forfeits nothing: the agent plays the first legal
//! move instead, counts a failure, prints a warning on stderr and restarts the engine for
//! the next move. The count is in [`ExtAgent::failures`].

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tessera_azul::{AzulAction, AzulState};
use tessera_core::{Agent, Budget, Game, GameRng, SearchInfo};

use crate::registry::{AgentEntry, ParamDoc, ParamKind};
use crate::spec::{SpecError, parse_duration};

/// Time allowed beyond the move time before an engine counts as hung.
pub const GRACE: Duration = Duration::from_secs(5);
/// Time allowed for the handshake and for searches limited by depth or nodes.
pub const HANDSHAKE: Duration = Duration::from_secs(20);
/// Move time when the specification gives no limit.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(100);

/// What to send with `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// `movetime MS`.
    pub time: Option<Duration>,
    /// `depth N`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
}

/// A parsed `ext:` specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Limits sent with every `go`.
    pub limits: GoLimits,
}

/// Why an external engine cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExtError {
    /// The specification is malformed.
    #[error("ext: {0}")]
    Spec(String),
    /// The program does not start.
    #[error("ext: cannot start '{program}': {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// The program does not speak the protocol.
    #[error("ext: '{program}' {detail}")]
    Protocol {
        /// The program.
        program: String,
        /// What went wrong.
        detail: String,
    },
}

impl std::str::FromStr for ExtSpec {
    type Err = ExtError;

    /// Parses what follows `ext:`.
    fn from_str(rest: &str) -> Result<Self, ExtError> {
        let mut limits = GoLimits::default();
        let mut parts: Vec<&str> = rest.split(':').collect();
        // Leading KEY=VALUE parts are limits; the rest (which may contain ':') is the program.
        let mut k = 0;
        while k < parts.len() {
            let Some((key, val)) = parts[k].split_once('=') else {
                break;
            };
            let bad = |exp: &str| ExtError::Spec(format!("'{key}={val}': expected {exp}"));
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
            return Err(ExtError::Spec(
                "expected ext:[time=MS:]PROGRAM[+ARG...], e.g. ext:/usr/local/bin/my-engine".into(),
            ));
        }
        if limits == GoLimits::default() {
            limits.time = Some(DEFAULT_MOVETIME);
        }
        Ok(ExtSpec { command, limits })
    }
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn start(command: &[String]) -> Result<Process, ExtError> {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ExtError::Spawn {
                program: command[0].clone(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(ExtError::Protocol {
                program: command[0].clone(),
                detail: "has no standard input or output".into(),
            });
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
        let mut p = Process {
            child,
            stdin,
            lines: rx,
        };
        let err = |detail: String| ExtError::Protocol {
            program: command[0].clone(),
            detail,
        };
        p.send("tep")
            .map_err(|e| err(format!("closed its input: {e}")))?;
        p.wait_for("tepok", HANDSHAKE).map_err(err)?;
        p.send("isready")
            .map_err(|e| err(format!("closed its input: {e}")))?;
        p.wait_for("readyok", HANDSHAKE).map_err(err)?;
        Ok(p)
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// Reads lines until one starts with `word`; returns the lines read (that one last).
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let first = line.split_whitespace().next().unwrap_or("");
                    if first == word {
                        seen.push(line);
                        return Ok(seen);
                    }
                    if first == "error" {
                        return Err(format!("answered '{line}'"));
                    }
                    seen.push(line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("did not answer '{word}' within {timeout:?}"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("exited before answering '{word}'"));
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("quit");
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
    process: Option<Process>,
    failures: u32,
    last: Option<SearchInfo>,
}

impl ExtAgent {
    /// Starts the engine and checks the handshake.
    pub fn start(name: impl Into<String>, spec: ExtSpec) -> Result<Self, ExtError> {
        let process = Process::start(&spec.command)?;
        Ok(ExtAgent {
            name: name.into(),
            spec,
            process: Some(process),
            failures: 0,
            last: None,
        })
    }

    /// Moves the engine failed to give (a legal fallback was played instead).
    pub fn failures(&self) -> u32 {
        self.failures
    }

    fn ask(&mut self, state: &AzulState, budget: &Budget) -> Result<AzulAction, String> {
        if self.process.is_none() {
            self.process = Some(Process::start(&self.spec.command).map_err(|e| e.to_string())?);
        }
        let p = self.process.as_mut().ok_or("no engine")?;
        let mut limits = self.spec.limits.clone();
        if limits == GoLimits::default() {
            limits.time = budget.time;
            limits.depth = budget.depth;
            limits.nodes = budget.nodes;
        }
        let mut go = String::from("go");
        if let Some(t) = limits.time {
            go.push_str(&format!(" movetime {}", t.as_millis()));
        }
        if let Some(d) = limits.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = limits.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        let timeout = match limits.time {
            Some(t) if limits.depth.is_none() && limits.nodes.is_none() => t + GRACE,
            _ => HANDSHAKE + GRACE,
        };
        let started = Instant::now();
        p.send(&format!("position state {state}"))
            .and_then(|()| p.send(&go))
            .map_err(|e| format!("engine input closed: {e}"))?;
        let lines = p.wait_for("bestmove", timeout)?;
        let mut info = SearchInfo {
            elapsed: started.elapsed(),
            ..SearchInfo::default()
        };
        for l in &lines {
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.first() == Some(&"info") {
                for kv in w[1..].chunks(2) {
                    if let [k, v] = kv {
                        match *k {
                            "depth" => info.depth = v.parse().unwrap_or(0),
                            "nodes" => info.nodes = v.parse().unwrap_or(0),
                            "leaves" => info.leaves = v.parse().unwrap_or(0),
                            "value" => info.value = v.parse().ok(),
                            _ => {}
                        }
                    }
                }
            }
        }
        self.last = Some(info);
        let last = lines.last().map(String::as_str).unwrap_or("");
        let text = last.split_whitespace().nth(1).ok_or("empty bestmove")?;
        let action: AzulAction = text
            .parse()
            .map_err(|e| format!("bestmove '{text}': {e}"))?;
        state
            .check_action(action)
            .map_err(|e| format!("illegal bestmove '{text}': {e}"))?;
        Ok(action)
    }
}

impl Agent<AzulState> for ExtAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &AzulState, budget: &Budget, _rng: &mut GameRng) -> AzulAction {
        match self.ask(state, budget) {
            Ok(a) => a,
            Err(e) => {
                self.failures += 1;
                eprintln!("warning: {}: {e}; playing the first legal move", self.name);
                // Restart the engine for the next move.
                self.process = None;
                let mut v = Vec::new();
                state.legal_actions(&mut v);
                v[0]
            }
        }
    }

    fn reset(&mut self) {
        if let Some(p) = &mut self.process
            && p.send("newgame").is_err()
        {
            self.process = None;
        }
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last.clone()
    }
}

const EXT_PARAMS: [ParamDoc; 1] = [ParamDoc {
    name: "[time=MS:|depth=N:|nodes=N:]PROGRAM[+ARG...]",
    kind: ParamKind::Rest,
    doc: "an engine speaking docs/protocol.md; `+` separates its arguments; 100ms per move unless a limit is given",
}];

/// External-engine entries.
pub fn entries() -> Vec<AgentEntry<AzulState>> {
    vec![AgentEntry {
        name: "ext",
        summary: "an external program over the Tessera engine protocol (docs/protocol.md)",
        params: &EXT_PARAMS,
        build: |spec| {
            let invalid = |detail: String| SpecError::Invalid {
                agent: spec.name.clone(),
                detail,
            };
            let rest = spec
                .rest
                .as_deref()
                .ok_or_else(|| invalid("expected ext:PROGRAM".into()))?;
            let ext: ExtSpec = rest.parse().map_err(|e: ExtError| invalid(e.to_string()))?;
            let agent =
                ExtAgent::start(spec.text.clone(), ext).map_err(|e| invalid(e.to_string()))?;
            Ok(Box::new(agent))
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
        assert_eq!(s.limits.time, Some(DEFAULT_MOVETIME));
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
