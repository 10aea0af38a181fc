//! `tessera play qwirkle`: Qwirkle in the terminal, human or bot seats.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Context, Result, bail};
use tessera_core::record::{Event, Observer};
use tessera_core::table::Played;
use tessera_core::{Game, PlayerId, Seat, Table};
use tessera_house::spec::AgentSpec;
use tessera_qwirkle::movegen::Scored;
use tessera_qwirkle::{Board, End, Move, Qwirkle, QwirkleView, Tile};

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Comma-separated seats, 2 to 4 of: human or a registry player (a difficulty level
    /// `level:N`, or any player with parameters; `tessera agents qwirkle` lists them).
    /// Default: you against the middle level.
    #[arg(long, value_delimiter = ',')]
    seats: Vec<AgentSpec>,
    /// Seed of the bag and the bots (default: from the clock, printed at the start).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the game record (JSON, replayable) to this file at the end.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Plain text without colours.
    #[arg(long)]
    no_color: bool,
}

/// A seat: `human` reads moves from stdin; anything else is a registry agent (`points`,
/// `smarter`, `lookahead`, `random`, with parameters; see `tessera agents qwirkle`), parsed
/// once into the agent and its budget.
fn seat(name: &str) -> Result<Seat<'static, Qwirkle>> {
    match name.trim() {
        "human" => Ok(Seat::human("human")),
        other => {
            let plan = tessera_house::registry::qwirkle::registry()
                .parse(other)
                .with_context(|| format!("seat '{other}' (or human)"))?;
            Ok(Seat::agent(plan.build()?, plan.budget()))
        }
    }
}

/// The display settings of the human seats.
#[derive(Clone)]
struct HumanDisplay {
    names: Vec<String>,
    color: bool,
    humans: usize,
}

/// Shows seat `p` its view and reads a legal move; `None` on `quit` or the end of input, an
/// error when standard input cannot be read (e.g. it is not UTF-8).
fn ask_human(d: &HumanDisplay, state: &Qwirkle, p: PlayerId) -> Result<Option<Asked>> {
    if d.humans > 1 {
        println!("\n--- P{}'s turn (others look away) ---", p.0 + 1);
    }
    println!("\n{}", show_view(&state.view(p), &d.names, d.color));
    // Standard input keeps its buffer between locks, so no typed-ahead line is lost.
    let mut lines = std::io::stdin().lock().lines();
    ask_move(state, p, &d.names, d.color, &mut lines)
}

/// What a human asked for at the prompt (besides quitting).
enum Asked {
    Move(Move),
    Hint,
    Undo,
}

/// The strongest level's move for human seat `p` on its own view (kept in the record as a
/// hint).
fn hint(table: &mut Table<'static, Qwirkle>, p: PlayerId) -> Result<String> {
    let before = table.state().clone();
    let Some((level, m)) = super::play_azul::strongest_hint(table, p)? else {
        return Ok("No hints: this build has no difficulty levels.".into());
    };
    let why = match m {
        Move::Place(pl) => format!(" for {} points", before.placement_score(&pl)),
        _ => String::new(),
    };
    Ok(format!(
        "Hint ({}, level {}): {m}{why}.",
        level.name, level.number
    ))
}

/// What the terminal shows while the table plays: each bot move with its points and each
/// human's score.
struct TableView<'a> {
    names: &'a [String],
    before: Option<Qwirkle>,
}

impl Observer<Qwirkle> for TableView<'_> {
    fn before_action(&mut self, state: &Qwirkle, _p: PlayerId) {
        self.before = Some(state.clone());
    }

    fn on_event(&mut self, after: &Qwirkle, event: &Event<Vec<Tile>>) {
        let Event::Action { player: p, action } = event else {
            return;
        };
        let Some(before) = self.before.take() else {
            return;
        };
        let name = &self.names[p.index()];
        if name == "human" {
            println!("You scored {}.", after.scores()[*p] - before.scores()[*p]);
        } else {
            let pts = match action.parse::<Move>() {
                Ok(Move::Place(pl)) => format!(" for {} points", before.placement_score(&pl)),
                _ => String::new(),
            };
            println!("P{} ({name}) plays {action}{pts}", p.0 + 1);
        }
    }
}

fn paint(t: Tile, color: bool) -> String {
    if !color {
        return t.to_string();
    }
    // Red, orange (bright yellow-red), yellow, green, blue, purple.
    const CODES: [&str; 6] = ["31", "38;5;208", "33", "32", "34", "35"];
    format!("\x1b[1;{}m{}\x1b[0m", CODES[t.color() as usize], t)
}

/// The board with column numbers on top and row numbers on the left.
fn render_board(board: &Board, color: bool) -> String {
    let Some((x0, y0, x1, y1)) = board.bounds() else {
        return "  (empty board: the first line goes on row 0 from cell 0,0 to the right)\n".into();
    };
    let (x0, y0, x1, y1) = (x0 - 1, y0 - 1, x1 + 1, y1 + 1);
    let mut s = String::from("      ");
    for x in x0..=x1 {
        s += &format!("{x:>3} ");
    }
    s.push('\n');
    for y in y0..=y1 {
        s += &format!("{y:>4}  ");
        for x in x0..=x1 {
            match board.get(x, y) {
                Some(t) => s += &format!(" {} ", paint(t, color)),
                None => s += "  . ",
            }
        }
        s.push('\n');
    }
    s
}

fn show_view(v: &QwirkleView, names: &[String], color: bool) -> String {
    let mut s = render_board(&v.board, color);
    let scores: Vec<String> = v
        .scores
        .iter()
        .enumerate()
        .map(|(i, sc)| format!("P{} {} {sc} ({} tiles)", i + 1, names[i], v.hand_sizes[i]))
        .collect();
    s += &format!("Scores: {}   Bag: {}\n", scores.join(" | "), v.bag_size);
    let hand: Vec<String> = v.hand.iter().map(|&t| paint(t, color)).collect();
    s += &format!("Your hand (P{}): {}\n", v.observer.0 + 1, hand.join(" "));
    if let Some(k) = v.first_move_size {
        s += &format!(
            "First move: place {k} tiles of your largest group on row 0 from 0,0 rightwards, e.g. {}\n",
            (0..k)
                .map(|i| format!("T@{i},0"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    s
}

const HELP: &str = "\
Moves:   R1@0,1 R2@1,1     place tiles (TILE@COLUMN,ROW; columns grow right, rows grow down)
         trade R1 O4       put tiles back into the bag and draw as many
         pass              only when you can neither place nor trade
Tiles:   colour R O Y G B P (red orange yellow green blue purple) + shape 1-6
         (circle cross diamond square star clover)
Other:   moves [N]  list your N best placements (default 15)    board  show the position again
         hint       the strongest level's move                   undo   back to your previous turn
         quit       stop the game       (hints and undos are kept in the record)";

fn best_placements(g: &Qwirkle) -> Vec<Scored> {
    let mut v = Vec::new();
    g.scored_placements(&mut v);
    v.sort_by_key(|s| std::cmp::Reverse(s.score));
    v
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let names: Vec<String> = if args.seats.is_empty() {
        vec![
            "human".to_string(),
            super::play_azul::default_opponent(&tessera_house::registry::qwirkle::registry()),
        ]
    } else {
        args.seats.iter().map(|s| s.text.clone()).collect()
    };
    if let Err(e) = Qwirkle::INFO.check_seats(names.len()) {
        bail!(
            "--seats names {} seats: {e} (e.g. --seats human,points)",
            names.len()
        );
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let color = !args.no_color && std::io::stdout().is_terminal();
    let input = HumanDisplay {
        names: names.clone(),
        color,
        humans: names.iter().filter(|n| *n == "human").count(),
    };
    let seats: Vec<Seat<'static, Qwirkle>> =
        names.iter().map(|n| seat(n)).collect::<Result<_>>()?;
    // The record's file is created now, so an unwritable path fails before the game.
    let record_file = match &args.record {
        Some(path) => Some(super::play_azul::open_record(path)?),
        None => None,
    };
    println!(
        "Qwirkle, {} players, seed {seed}. Seats: {}. Type 'help' for help.",
        names.len(),
        names.join(", ")
    );
    let initial = Qwirkle::new(names.len()).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut view = TableView {
        names: &names,
        before: None,
    };
    let mut table = Table::new(initial, seats, seed)?;
    let mut quit = false;
    let mut input_error = None;
    while let Played::Human(p) = table.play_out(None, &mut view)? {
        view.before_action(table.state(), p);
        let m = match ask_human(&input, table.state(), p) {
            Ok(Some(Asked::Move(m))) => m,
            Ok(Some(Asked::Hint)) => {
                println!("{}", hint(&mut table, p)?);
                continue;
            }
            Ok(Some(Asked::Undo)) => {
                match table.take_back(p) {
                    Ok(()) => println!("Taken back: P{} to move again.", p.0 + 1),
                    Err(e) => println!("Cannot undo: {e}."),
                }
                continue;
            }
            Ok(None) => {
                quit = true;
                break;
            }
            Err(e) => {
                input_error = Some(e);
                quit = true;
                break;
            }
        };
        table.play(p, m)?;
        if let Some(step) = table.steps().last() {
            view.on_event(&step.state, &step.event);
        }
    }
    let g = table.state().clone();
    let record = table.record();
    if quit && !g.is_terminal() {
        println!("Game stopped.");
    } else {
        println!("\n{}", render_board(g.board(), color));
        match g.end() {
            Some(End::Out(p)) => println!(
                "P{} placed their last tile with the bag empty (+6).",
                p.0 + 1
            ),
            Some(End::Blocked) => println!("Nobody can place a tile: the game is blocked."),
            None => {}
        }
        if let Some(o) = g.outcome() {
            for (p, s) in o.scores.iter() {
                println!("P{} {}: {s}", p.0 + 1, names[p.index()]);
            }
            let w: Vec<String> = o.winners.iter().map(|p| format!("P{}", p.0 + 1)).collect();
            println!(
                "{} {}",
                if w.len() > 1 {
                    "Shared win:"
                } else {
                    "Winner:"
                },
                w.join(", ")
            );
        }
    }
    if let (Some(path), Some(file)) = (&args.record, record_file) {
        super::play_azul::write_record(path, file, &record)?;
        println!("Record written to {}.", path.display());
    }
    match input_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn ask_move(
    g: &Qwirkle,
    p: PlayerId,
    names: &[String],
    color: bool,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> Result<Option<Asked>> {
    loop {
        print!("P{} move> ", p.0 + 1);
        std::io::stdout().flush()?;
        let Some(line) = lines.next() else {
            return Ok(None);
        };
        let line = line.map_err(|e| super::play_tiles::stdin_error(&e))?;
        let text = line.trim();
        let mut words = text.split_whitespace();
        match words.next().map(|w| w.to_ascii_lowercase()).as_deref() {
            None => continue,
            Some("quit") | Some("exit") => return Ok(None),
            Some("help") | Some("?") => {
                println!("{HELP}");
                continue;
            }
            Some("board") => {
                println!("{}", show_view(&g.view(p), names, color));
                continue;
            }
            Some("moves") => {
                let n: usize = words.next().and_then(|w| w.parse().ok()).unwrap_or(15);
                let all = best_placements(g);
                if all.is_empty() {
                    println!(
                        "No tile of yours fits anywhere: trade (e.g. 'trade {}') or pass if the bag is empty.",
                        g.hand(p)
                            .iter()
                            .map(|t| t.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    );
                } else {
                    println!("{} legal placements; the best:", all.len());
                    for s in all.iter().take(n) {
                        println!("  {:>3}  {}", s.score, s.placement);
                    }
                }
                continue;
            }
            Some("hint") => return Ok(Some(Asked::Hint)),
            Some("undo") => return Ok(Some(Asked::Undo)),
            _ => {}
        }
        match text.parse::<Move>() {
            Err(e) => println!("Not a move: {e}. Type 'help' for the notation."),
            Ok(m) => {
                let mut copy = g.clone();
                match copy.try_apply(m) {
                    Ok(()) => return Ok(Some(Asked::Move(m))),
                    Err(e) => println!("Illegal: {e}. Type 'moves' to list legal placements."),
                }
            }
        }
    }
}
