//! Terminal play for any game the arena knows, from its [`EngineGame`] notation alone:
//! `tessera play nim --seats human,random`. Human seats see the position as the protocol
//! writes it for them ([`EngineGame::position_text`], so hidden parts stay hidden), type
//! moves in the game's notation and get errors that say what was expected. Games with their
//! own terminal front end (`tessera play azul`, `qwirkle`) keep it; this loop is what a new
//! game gets without any code in the command line.
//!
//! ```
//! use tessera_house::terminal::play;
//! use tessera_core::testgame::Nim;
//! let mut out = Vec::new();
//! let seats = ["first".to_string(), "first".to_string()];
//! play::<Nim>(&seats, 7, &mut "".as_bytes(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("game over"), "{text}");
//! ```

use std::io::{BufRead, Write};

use rand::Rng;
use tessera_core::record::{Event, GameSeeds, Observer};
use tessera_core::table::{Played, TableError};
use tessera_core::{Game, PlayerId, Seat, SeatsError, Table};
use thiserror::Error;

use crate::game::ArenaGame;
use crate::registry::RegistryError;

/// Why a terminal game cannot go on.
#[derive(Debug, Error)]
pub enum TerminalError {
    /// A seat that is neither `human` nor a player of the game.
    #[error("seat {seat} '{spec}' (expected human or a player from `tessera agents {game}`)")]
    Seat {
        /// From 1.
        seat: usize,
        /// As given.
        spec: String,
        /// The game.
        game: &'static str,
        /// Why the registry refused it.
        #[source]
        source: Box<RegistryError>,
    },
    /// A table of a size the game is not played at.
    #[error("--seats: {0}")]
    Seats(#[from] SeatsError),
    /// The table refused (a bug: moves are checked before they are played).
    #[error(transparent)]
    Table(#[from] TableError),
    /// No game of that name.
    #[error(transparent)]
    Arena(Box<crate::error::ArenaError>),
    /// Reading the moves or writing the board failed.
    #[error("terminal: {0}")]
    Io(#[from] std::io::Error),
}

impl From<crate::error::ArenaError> for TerminalError {
    fn from(e: crate::error::ArenaError) -> Self {
        TerminalError::Arena(Box::new(e))
    }
}

/// Tells the players what the agents did (chance outcomes are not shown: they may be
/// hidden draws).
struct Narrator<'w> {
    out: &'w mut dyn Write,
    labels: Vec<String>,
    failed: Option<std::io::Error>,
}

impl<G: Game> Observer<G> for Narrator<'_> {
    fn on_event(&mut self, _state: &G, event: &Event<G::Chance>) {
        let line = match event {
            Event::Action { player, action } => format!(
                "seat {} ({}) plays {action}",
                player.0 + 1,
                self.labels[player.index()]
            ),
            Event::Chance { .. } => "chance event".to_string(),
        };
        if let Err(e) = writeln!(self.out, "{line}") {
            self.failed.get_or_insert(e);
        }
    }
}

/// Plays one game of `G` in the terminal: `seats[i]` is `human` or a registry player of the
/// game; the table is set up from `seed` as the arena does. Returns when the game is over,
/// or a human types `quit` or the input ends.
pub fn play<G: ArenaGame>(
    seats: &[String],
    seed: u64,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), TerminalError> {
    G::INFO.check_seats(seats.len())?;
    let registry = G::registry();
    let mut table_seats = Vec::with_capacity(seats.len());
    for (i, spec) in seats.iter().enumerate() {
        let spec = spec.trim();
        table_seats.push(if spec == "human" {
            Seat::human("human")
        } else {
            let bad = |source| TerminalError::Seat {
                seat: i + 1,
                spec: spec.to_string(),
                game: G::INFO.name,
                source: Box::new(source),
            };
            let plan = registry.parse(spec).map_err(bad)?;
            Seat::agent(plan.build().map_err(bad)?, plan.budget())
        });
    }
    let mut setup = GameSeeds { seed }.setup_rng();
    let initial = G::new_game(seats.len(), &mut setup);
    let mut table = Table::new(initial, table_seats, seed)?;
    let labels: Vec<String> = seats.iter().map(|s| s.trim().to_string()).collect();
    writeln!(
        out,
        "{}, seed {seed}: {}",
        G::INFO.title,
        labels
            .iter()
            .enumerate()
            .map(|(i, l)| format!("seat {} {l}", i + 1))
            .collect::<Vec<_>>()
            .join(", ")
    )?;
    writeln!(
        out,
        "Type a move in the game's notation (docs/protocol.md), 'legal' for the legal moves, 'quit' to stop."
    )?;
    let mut legal = Vec::new();
    loop {
        let mut narrator = Narrator {
            out: &mut *out,
            labels: labels.clone(),
            failed: None,
        };
        let played = table.play_out(Some(G::MAX_ACTIONS), &mut narrator)?;
        if let Some(e) = narrator.failed {
            return Err(e.into());
        }
        let p = match played {
            Played::Human(p) => p,
            Played::Over | Played::Stopped => break,
        };
        writeln!(
            out,
            "\nseat {} to move: {}",
            p.0 + 1,
            table.state().position_text(p)
        )?;
        let Some(action) = ask(&mut table, p, &mut legal, input, out)? else {
            writeln!(out, "stopped")?;
            return Ok(());
        };
        table.play(p, action)?;
    }
    match table.state().outcome() {
        Some(o) => {
            let winners: Vec<String> = o.winners.iter().map(|w| (w.0 + 1).to_string()).collect();
            writeln!(
                out,
                "game over: scores {}; won by seat {}",
                o.scores
                    .as_slice()
                    .iter()
                    .map(i32::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                winners.join(" and ")
            )?;
        }
        None => writeln!(out, "stopped after {} actions", G::MAX_ACTIONS)?,
    }
    Ok(())
}

/// Reads a legal move for human seat `p`; `None` on `quit` or the end of the input.
fn ask<G: ArenaGame>(
    table: &mut Table<'_, G>,
    p: PlayerId,
    legal: &mut Vec<G::Action>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Option<G::Action>, TerminalError> {
    table.state().legal_actions(legal);
    let example = legal.first().map(G::action_word).unwrap_or_default();
    loop {
        write!(out, "seat {}> ", p.0 + 1)?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let text = line.trim();
        match text {
            "" => continue,
            "quit" => return Ok(None),
            "legal" => {
                let words: Vec<String> = legal.iter().map(G::action_word).collect();
                writeln!(out, "legal: {}", words.join(" "))?;
                continue;
            }
            _ => {}
        }
        let action = match G::parse_action(text) {
            Ok(a) => a,
            Err(e) => {
                writeln!(
                    out,
                    "'{text}' is not a move: {e}; expected a move such as {example}, 'legal' or 'quit'"
                )?;
                continue;
            }
        };
        let mut after = table.state().clone();
        match after.try_apply(action) {
            Ok(()) => return Ok(Some(action)),
            Err(e) => writeln!(
                out,
                "'{text}' cannot be played here: {e}; 'legal' lists the moves that can"
            )?,
        }
    }
}

/// A seed from the clock, for games started without `--seed`.
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    tessera_core::rng::seeded(nanos).random()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::testgame::Nim;

    fn run(seats: &[&str], seed: u64, input: &str) -> Result<String, TerminalError> {
        let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
        let mut out = Vec::new();
        play::<Nim>(&seats, seed, &mut input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_human_plays_nim_and_bad_moves_say_what_was_expected() {
        // Type moves until the game ends: 'legal' answers, then take the first legal move.
        let mut input = String::from("9:9\nlegal\n5:1\n");
        input.push_str(&"1:1\n2:1\n3:1\n".repeat(20));
        let out = run(&["human", "first"], 3, &input).unwrap();
        assert!(out.contains("seat 1 human, seat 2 first"), "{out}");
        assert!(
            out.contains("'9:9' is not a move: malformed move: pile counts from 1 and count is 1-3; expected a move such as "),
            "{out}"
        );
        assert!(out.contains("legal: 1:1"), "{out}");
        assert!(
            out.contains("'5:1' cannot be played here: illegal move 5:1"),
            "{out}"
        );
        assert!(out.contains("seat 2 (first) plays "), "{out}");
        assert!(out.contains("game over: scores "), "{out}");
    }

    #[test]
    fn quit_and_the_end_of_input_stop_and_bad_seats_are_named() {
        assert!(
            run(&["human", "random"], 1, "quit\n")
                .unwrap()
                .ends_with("stopped\n")
        );
        assert!(
            run(&["human", "random"], 1, "")
                .unwrap()
                .ends_with("stopped\n")
        );
        let e = run(&["human", "nobody"], 1, "").unwrap_err().to_string();
        assert!(e.starts_with("seat 2 'nobody'"), "{e}");
        let e = run(&["human"], 1, "").unwrap_err().to_string();
        assert!(e.contains("2 to 4 players, not 1"), "{e}");
    }
}
