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
use std::time::Duration;

use anyhow::Result;
use rand::Rng;
use tessera_azul::{AzulAction, AzulState, Deal, Tiles};
use tessera_core::{Agent, Budget, Game, GameRng, PlayerId, Turn, rng::seeded};

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The player answering `go` (a registry name, see `tessera agents azul`). Give it without
    /// a time or depth parameter so that the limits of `go` apply.
    #[arg(long, default_value = DEFAULT_PLAYER)]
    pub player: String,
    /// Seed of the player's random generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// The player used when none is set.
pub const DEFAULT_PLAYER: &str = "strong";

/// Builds a player from its registry name.
pub type Builder = Box<dyn Fn(&str) -> Result<Box<dyn Agent<AzulState>>, String>>;

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let mut session =
        Session::new(Box::new(build_agent), &args.player, args.seed).map_err(anyhow::Error::msg)?;
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
pub fn build_agent(spec: &str) -> Result<Box<dyn Agent<AzulState>>, String> {
    tessera_arena::registry::azul::registry()
        .build(spec)
        .map_err(|e| e.to_string())
}

/// One engine session: the current position, the player and its settings.
pub struct Session {
    build: Builder,
    player: String,
    agent: Box<dyn Agent<AzulState>>,
    seed: u64,
    rng: GameRng,
    state: Option<AzulState>,
}

const COMMANDS: &str = "tep, isready, setoption, newgame, position, go, legal, show, quit";

impl Session {
    /// A session whose player is `player`.
    pub fn new(build: Builder, player: &str, seed: u64) -> Result<Self, String> {
        let agent = build(player)?;
        Ok(Session {
            build,
            player: player.to_string(),
            agent,
            seed,
            rng: seeded(seed),
            state: None,
        })
    }

    /// Handles one line; returns false after `quit`. Errors are only I/O errors: protocol
    /// errors become `error ...` lines.
    pub fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            return Ok(true);
        };
        let rest = &words[1..];
        let reply = match cmd {
            "tep" => Ok(self.identify()),
            "isready" => Ok(vec!["readyok".to_string()]),
            "setoption" => self.set_option(rest).map(|()| Vec::new()),
            "newgame" => {
                self.agent.reset();
                self.rng = seeded(self.seed);
                self.state = None;
                Ok(Vec::new())
            }
            "position" => self.position(rest).map(|()| Vec::new()),
            "go" => self.go(rest),
            "legal" => self.with_state(|s| {
                let mut v = Vec::new();
                s.legal_actions(&mut v);
                let list: Vec<String> = v.iter().map(|a| a.to_string()).collect();
                vec![format!("legal {}", list.join(" ")).trim_end().to_string()]
            }),
            "show" | "d" => self.with_state(|s| vec![format!("state {s}")]),
            "quit" => return Ok(false),
            other => Err(format!(
                "unknown command '{other}': expected one of {COMMANDS}"
            )),
        };
        match reply {
            Ok(lines) => {
                for l in lines {
                    writeln!(out, "{l}")?;
                }
            }
            Err(e) => writeln!(out, "error {}", e.replace('\n', " "))?,
        }
        Ok(true)
    }

    fn identify(&self) -> Vec<String> {
        vec![
            format!("id name Tessera Azul {}", env!("CARGO_PKG_VERSION")),
            "id author the Tessera developers".to_string(),
            "id game azul".to_string(),
            format!("option name Player type string default {DEFAULT_PLAYER}"),
            "option name Seed type spin default 0 min 0 max 18446744073709551615".to_string(),
            "tepok".to_string(),
        ]
    }

    fn with_state(&self, f: impl FnOnce(&AzulState) -> Vec<String>) -> Result<Vec<String>, String> {
        match &self.state {
            Some(s) => Ok(f(s)),
            None => {
                Err("no position: send 'position state ...' or 'position start ...' first".into())
            }
        }
    }

    fn set_option(&mut self, rest: &[&str]) -> Result<(), String> {
        let usage = "expected 'setoption name NAME value VALUE'";
        if rest.first() != Some(&"name") {
            return Err(usage.into());
        }
        let vpos = rest
            .iter()
            .position(|&w| w == "value")
            .ok_or_else(|| usage.to_string())?;
        let name = rest[1..vpos].join(" ");
        let value = rest[vpos + 1..].join(" ");
        if name.is_empty() || value.is_empty() {
            return Err(usage.into());
        }
        match name.to_ascii_lowercase().as_str() {
            "player" => {
                self.agent = (self.build)(&value)?;
                self.player = value;
                Ok(())
            }
            "seed" => {
                self.seed = value
                    .parse()
                    .map_err(|_| format!("Seed '{value}': expected a non-negative integer"))?;
                self.rng = seeded(self.seed);
                Ok(())
            }
            _ => Err(format!("unknown option '{name}': options are Player, Seed")),
        }
    }

    fn position(&mut self, rest: &[&str]) -> Result<(), String> {
        match rest.first() {
            Some(&"state") => {
                let text = rest[1..].join(" ");
                let s: AzulState = text
                    .parse()
                    .map_err(|e| format!("position state: {e}"))?;
                self.state = Some(s);
                Ok(())
            }
            Some(&"start") => {
                self.state = Some(parse_start(&rest[1..])?);
                Ok(())
            }
            _ => Err("expected 'position state NOTATION' or 'position start players N [first K] [moves ...]'".into()),
        }
    }

    fn go(&mut self, rest: &[&str]) -> Result<Vec<String>, String> {
        let state = self
            .state
            .clone()
            .ok_or("no position: send 'position state ...' or 'position start ...' first")?;
        match state.turn() {
            Turn::Player(_) => {}
            Turn::Chance => {
                return Err("the position waits for a factory deal, not for a player".into());
            }
            Turn::Terminal => return Err("the game is over".into()),
        }
        let mut budget = Budget::default();
        let mut i = 0;
        while i < rest.len() {
            let key = rest[i];
            let val = rest
                .get(i + 1)
                .ok_or_else(|| format!("go: '{key}' needs a value"))?;
            let num: u64 = val
                .parse()
                .map_err(|_| format!("go: '{key} {val}': expected a non-negative integer"))?;
            match key {
                "movetime" => budget.time = Some(Duration::from_millis(num)),
                "depth" => {
                    budget.depth = Some(u32::try_from(num).map_err(|_| "go: depth too large")?)
                }
                "nodes" => budget.nodes = Some(num),
                other => {
                    return Err(format!(
                        "go: unknown limit '{other}': expected movetime MS, depth N or nodes N"
                    ));
                }
            }
            i += 2;
        }
        let mut rng = seeded(self.rng.random::<u64>());
        let action = self.agent.choose(&state, &budget, &mut rng);
        let mut lines = Vec::new();
        if let Some(info) = self.agent.last_info() {
            let mut l = format!(
                "info depth {} nodes {} leaves {} time {}",
                info.depth,
                info.nodes,
                info.leaves,
                info.elapsed.as_millis()
            );
            if let Some(v) = info.value {
                l.push_str(&format!(" value {v}"));
            }
            lines.push(l);
        }
        lines.push(format!("bestmove {action}"));
        Ok(lines)
    }
}

/// `players N [first K] [moves M...]`: a new game, then moves; a move is an action (`3B2`)
/// or a deal `deal:F1/F2/...` (each factory a tile string such as `BBYR`, `-` when empty).
fn parse_start(words: &[&str]) -> Result<AzulState, String> {
    let usage = "expected 'position start players N [first K] [moves M...]'";
    let mut players = None;
    let mut first = 1usize;
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "players" | "first" => {
                let v: usize = words
                    .get(i + 1)
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| format!("'{}' needs a number; {usage}", words[i]))?;
                if words[i] == "players" {
                    players = Some(v);
                } else {
                    first = v;
                }
                i += 2;
            }
            "moves" => break,
            other => return Err(format!("unexpected '{other}'; {usage}")),
        }
    }
    let players = players.ok_or_else(|| usage.to_string())?;
    if !(2..=4).contains(&players) {
        return Err(format!("players {players}: Azul seats 2-4 players"));
    }
    if first == 0 || first > players {
        return Err(format!("first {first}: expected a seat 1-{players}"));
    }
    let mut s = AzulState::new(players, PlayerId(first as u8 - 1));
    for (k, m) in words.iter().skip(i + 1).enumerate() {
        if let Some(spec) = m.strip_prefix("deal:") {
            let mut deal = Deal::default();
            for part in spec.split('/') {
                let t: Tiles = part
                    .parse()
                    .map_err(|e| format!("move {} '{m}': {e}", k + 1))?;
                deal.factories
                    .try_push(t)
                    .map_err(|_| format!("move {} '{m}': too many factories", k + 1))?;
            }
            s.apply_chance(&deal)
                .map_err(|e| format!("move {} '{m}': {e}", k + 1))?;
        } else {
            if s.turn() == Turn::Chance {
                return Err(format!(
                    "move {} '{m}': the round needs its deal first (deal:F1/F2/...)",
                    k + 1
                ));
            }
            let a: AzulAction = m
                .parse()
                .map_err(|e| format!("move {} '{m}': {e}", k + 1))?;
            s.try_apply(a)
                .map_err(|e| format!("move {} '{m}': {e}", k + 1))?;
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
                Err(format!("unknown agent '{name}'"))
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
