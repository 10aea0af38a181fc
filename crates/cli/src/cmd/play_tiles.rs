//! `tessera play tiles`: play a Match the Tiles level in the terminal.
//!
//! Commands are read one line at a time, as in `tessera play azul` and `qwirkle`: a line of
//! move letters (`LUR`), or `undo`, `restart`, `hint`, `help`, `quit` (also `z`, `n`, `h`,
//! `q`). With `--keys` in a terminal, single keys act at once instead: arrow keys or L/R/U/D
//! move, Z (or Backspace) undoes, N restarts, H shows a hint (the first move of an optimal
//! solution), Q quits.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Result;
use tessera_tiles::{Dir, Level, State};

use super::solve_tiles::{limit_error, load_levels, pick_level};

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Level number (1-12 built in, or the n-th level of --file).
    #[arg(long, default_value_t = 1)]
    level: usize,
    /// A level file (the format of the shipped level file).
    #[arg(long)]
    file: Option<PathBuf>,
    /// In a terminal, act on single key presses (arrows, L R U D, Z, N, H, Q) instead of
    /// reading a line at a time.
    #[arg(long)]
    keys: bool,
    /// Most positions the solver keeps for the minimum and the hints (about 40 bytes each).
    #[arg(long, default_value_t = tessera_tiles::DEFAULT_STATE_LIMIT)]
    limit: usize,
}

/// A command of the player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Cmd {
    Move(Dir),
    Undo,
    Restart,
    Hint,
    Help,
    Quit,
}

const HELP: &str = "\
moves: L R U D (or left, right, up, down; several per line, e.g. LUR): every piece slides that way
undo (z)     take back the last move        restart (n)  back to the start
hint (h)     the first move of a shortest solution
help         this text                      quit (q)     stop";

/// The game being played: the level, the positions so far and the moves made.
struct TilesPlay {
    level: Level,
    history: Vec<State>,
    moves: Vec<Dir>,
    minimum: Option<usize>,
    /// Most positions the hint's search keeps.
    limit: usize,
}

impl TilesPlay {
    fn state(&self) -> State {
        self.history
            .last()
            .copied()
            .unwrap_or_else(|| self.level.start())
    }

    fn render(&self, out: &mut String) {
        let s = self.state();
        out.push_str(&format!("Level {}\n", self.level.name()));
        for row in self.level.render(&s).lines() {
            out.push_str("  ");
            out.push_str(row);
            out.push('\n');
        }
        let minimum = self
            .minimum
            .map_or("unsolvable".to_string(), |m| m.to_string());
        out.push_str(&format!(
            "moves {}  minimum {}\n",
            self.moves.len(),
            minimum
        ));
    }

    /// Applies a command; returns the message to show.
    fn apply(&mut self, cmd: Cmd) -> String {
        match cmd {
            Cmd::Move(d) => match self.level.apply(&self.state(), d) {
                Some(t) => {
                    self.history.push(t);
                    self.moves.push(d);
                    String::new()
                }
                None => format!("{d}: no piece can move that way"),
            },
            Cmd::Undo => {
                if self.moves.pop().is_some() {
                    self.history.pop();
                    "undone".into()
                } else {
                    "nothing to undo".into()
                }
            }
            Cmd::Restart => {
                self.history.truncate(1);
                self.moves.clear();
                "restarted".into()
            }
            Cmd::Hint => match self
                .level
                .optimal_solution_within(&self.state(), self.limit)
            {
                Ok(Some(sol)) if sol.is_empty() => "already solved".into(),
                Ok(Some(sol)) => format!("hint: {} ({} moves to go)", dir_name(sol[0]), sol.len()),
                Ok(None) => "no solution from here: undo or restart".into(),
                Err(e) => format!("no hint: {e} (start again with a larger --limit)"),
            },
            Cmd::Help => HELP.into(),
            Cmd::Quit => String::new(),
        }
    }

    fn solved(&self) -> bool {
        self.level.is_solved(&self.state())
    }
}

fn dir_name(d: Dir) -> &'static str {
    match d {
        Dir::Left => "left",
        Dir::Right => "right",
        Dir::Up => "up",
        Dir::Down => "down",
    }
}

/// Reads one input line into commands.
fn parse_line(line: &str) -> Result<Vec<Cmd>, String> {
    let t = line.trim().to_ascii_lowercase();
    let word = match t.as_str() {
        "" => return Ok(Vec::new()),
        "undo" | "z" | "back" => Some(Cmd::Undo),
        "restart" | "n" | "reset" => Some(Cmd::Restart),
        "hint" | "h" => Some(Cmd::Hint),
        "help" | "?" => Some(Cmd::Help),
        "quit" | "q" | "exit" => Some(Cmd::Quit),
        "left" => Some(Cmd::Move(Dir::Left)),
        "right" => Some(Cmd::Move(Dir::Right)),
        "up" => Some(Cmd::Move(Dir::Up)),
        "down" => Some(Cmd::Move(Dir::Down)),
        _ => None,
    };
    if let Some(c) = word {
        return Ok(vec![c]);
    }
    t.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| {
            Dir::from_letter(c).map(Cmd::Move).ok_or_else(|| {
                format!("unknown command {line:?}: type moves (L R U D, e.g. LUR), undo, restart, hint, help or quit")
            })
        })
        .collect()
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let source = args
        .file
        .as_ref()
        .map_or("the built-in levels".to_string(), |p| {
            p.display().to_string()
        });
    let level = pick_level(load_levels(args.file.as_deref())?, args.level, &source)?;
    let minimum = level
        .optimal_length_within(args.limit)
        .map_err(|e| limit_error(e, args.limit))?;
    let start = level.start();
    let mut session = TilesPlay {
        level,
        history: vec![start],
        moves: Vec::new(),
        minimum,
        limit: args.limit,
    };
    if args.keys && std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        play_keys(&mut session)
    } else {
        play_lines(
            &mut session,
            std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
        )
    }
}

fn finish_text(s: &TilesPlay) -> String {
    let min = s.minimum.unwrap_or(0);
    let verdict = if s.moves.len() == min {
        "optimal!"
    } else {
        "the minimum is fewer"
    };
    format!(
        "Solved in {} moves ({}; minimum {}): {}\n",
        s.moves.len(),
        verdict,
        min,
        tessera_tiles::format_moves(&s.moves)
    )
}

fn play_lines(s: &mut TilesPlay, input: impl BufRead, out: &mut impl Write) -> Result<()> {
    let mut text = String::new();
    s.render(&mut text);
    text.push_str(
        "moves: L R U D (or left/right/up/down, several per line), undo, restart, hint, help, quit\n",
    );
    write!(out, "{text}")?;
    for line in input.lines() {
        let line = line.map_err(|e| stdin_error(&e))?;
        let cmds = match parse_line(&line) {
            Ok(c) => c,
            Err(e) => {
                writeln!(out, "{e}")?;
                continue;
            }
        };
        for cmd in cmds {
            if cmd == Cmd::Quit {
                writeln!(out, "bye")?;
                return Ok(());
            }
            let msg = s.apply(cmd);
            if !msg.is_empty() {
                writeln!(out, "{msg}")?;
            }
            if matches!(cmd, Cmd::Move(_) | Cmd::Undo | Cmd::Restart) {
                let mut t = String::new();
                s.render(&mut t);
                write!(out, "{t}")?;
            }
            if s.solved() {
                write!(out, "{}", finish_text(s))?;
                return Ok(());
            }
        }
    }
    Ok(())
}

/// The error for a line of standard input that cannot be read (not UTF-8, or a failed read).
pub fn stdin_error(e: &std::io::Error) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::InvalidData {
        anyhow::anyhow!(
            "standard input is not valid UTF-8 text: type moves as plain text (the game stops here)"
        )
    } else {
        anyhow::anyhow!("reading standard input failed: {e} (the game stops here)")
    }
}

/// Restores the terminal when dropped, even on an error.
struct RawGuard;

impl Drop for RawGuard {
    fn drop(&mut self) {
        let _ = crossterm::terminal::disable_raw_mode();
    }
}

fn play_keys(s: &mut TilesPlay) -> Result<()> {
    use crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers, read};
    let mut out = std::io::stdout();
    crossterm::terminal::enable_raw_mode()?;
    let guard = RawGuard;
    let mut msg = String::new();
    loop {
        let mut text = String::new();
        s.render(&mut text);
        text.push_str("arrows or L R U D move, Z undo, N restart, H hint, ? help, Q quit\n");
        if !msg.is_empty() {
            text.push_str(&msg);
            text.push('\n');
        }
        // Raw mode needs explicit carriage returns.
        let screen = text.replace('\n', "\r\n");
        crossterm::execute!(
            out,
            crossterm::terminal::Clear(crossterm::terminal::ClearType::All),
            crossterm::cursor::MoveTo(0, 0)
        )?;
        write!(out, "{screen}")?;
        out.flush()?;
        if s.solved() {
            drop(guard);
            print!("{}", finish_text(s));
            return Ok(());
        }
        let Event::Key(key) = read()? else { continue };
        if key.kind != KeyEventKind::Press {
            continue;
        }
        let cmd = match key.code {
            KeyCode::Left => Cmd::Move(Dir::Left),
            KeyCode::Right => Cmd::Move(Dir::Right),
            KeyCode::Up => Cmd::Move(Dir::Up),
            KeyCode::Down => Cmd::Move(Dir::Down),
            KeyCode::Backspace => Cmd::Undo,
            KeyCode::Esc => Cmd::Quit,
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Cmd::Quit,
            KeyCode::Char(c) => match c.to_ascii_lowercase() {
                'z' => Cmd::Undo,
                'n' => Cmd::Restart,
                'h' => Cmd::Hint,
                '?' => Cmd::Help,
                'q' => Cmd::Quit,
                c => match Dir::from_letter(c) {
                    Some(d) => Cmd::Move(d),
                    None => {
                        msg = format!("unknown key {c:?}");
                        continue;
                    }
                },
            },
            _ => continue,
        };
        if cmd == Cmd::Quit {
            drop(guard);
            println!("bye");
            return Ok(());
        }
        msg = s.apply(cmd);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_commands() {
        assert_eq!(
            parse_line("LU").unwrap(),
            vec![Cmd::Move(Dir::Left), Cmd::Move(Dir::Up)]
        );
        assert_eq!(parse_line(" undo ").unwrap(), vec![Cmd::Undo]);
        assert_eq!(parse_line("h").unwrap(), vec![Cmd::Hint]);
        assert_eq!(parse_line("down").unwrap(), vec![Cmd::Move(Dir::Down)]);
        assert!(parse_line("jump").is_err());
    }

    #[test]
    fn undo_restart_and_hint() {
        let level = tessera_tiles::builtin_level(3).unwrap().clone();
        let start = level.start();
        let minimum = level.optimal_length().unwrap();
        let mut s = TilesPlay {
            level,
            history: vec![start],
            moves: vec![],
            minimum,
            limit: tessera_tiles::DEFAULT_STATE_LIMIT,
        };
        assert_eq!(s.apply(Cmd::Undo), "nothing to undo");
        let hint = s.apply(Cmd::Hint);
        assert_eq!(hint, "hint: left (5 moves to go)");
        s.apply(Cmd::Move(Dir::Left));
        s.apply(Cmd::Move(Dir::Down));
        assert_eq!(s.moves.len(), 2);
        s.apply(Cmd::Undo);
        assert_eq!(s.moves, vec![Dir::Left]);
        s.apply(Cmd::Restart);
        assert_eq!(s.state(), start);
        for d in tessera_tiles::parse_moves("LULUR").unwrap() {
            s.apply(Cmd::Move(d));
        }
        assert!(s.solved());
    }

    #[test]
    fn a_piped_session() {
        let level = tessera_tiles::builtin_level(3).unwrap().clone();
        let start = level.start();
        let mut s = TilesPlay {
            level,
            history: vec![start],
            moves: vec![],
            minimum: Some(5),
            limit: tessera_tiles::DEFAULT_STATE_LIMIT,
        };
        let input = "hint\nhelp\nL\njump\nundo\nLULU\nright\nL\n";
        let mut out = Vec::new();
        play_lines(&mut s, input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("moves 0  minimum 5"));
        assert!(text.contains("hint: left (5 moves to go)"));
        assert!(text.contains("unknown command \"jump\""));
        assert!(text.contains("undone"));
        // `help` explains and moves nothing (the moves count stays as it was).
        assert!(text.contains("several per line, e.g. LUR"), "{text}");
        assert!(
            text.ends_with("Solved in 5 moves (optimal!; minimum 5): LULUR\n"),
            "{text}"
        );
    }
}
