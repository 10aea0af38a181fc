//! `tessera play azul`: Azul in the terminal, any mix of human and AI seats.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};
use tessera_azul::scoring::{WALL_SIZE, wall_colour};
use tessera_azul::{AzulAction, AzulState, Deal, RoundReport, Source};
use tessera_core::record::{Event, GameSeeds, Observer};
use tessera_core::table::Played;
use tessera_core::{Game, PlayerId, Seat, Table, Turn};
use tessera_house::spec::AgentSpec;

/// Arguments of `tessera play azul`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Number of players (2-4; default 2, or the count of a loaded position).
    #[arg(long, value_parser = super::values::players_of(&AzulState::INFO))]
    pub players: Option<usize>,
    /// Comma-separated seats, seat 1 first: `human` or an agent (`random`, `level:4`, ...).
    /// Default: one human, the other seats --opponent.
    #[arg(long, value_delimiter = ',')]
    pub seats: Vec<AgentSpec>,
    /// The AI seats' player when --seats is not given: a difficulty level (`level:N` or its
    /// name: `tessera agents azul` lists the ladder) or any agent. Default: the middle
    /// level.
    #[arg(long)]
    pub opponent: Option<AgentSpec>,
    /// Seed of the deals, the starting player and the AI seats (default: from the clock;
    /// it is printed so the game can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Resume from a position: state notation (see docs/notation.md) or a file holding it
    /// (read as the arguments are).
    #[arg(long, value_parser = load_arg)]
    pub load: Option<Box<AzulState>>,
    /// Write the JSON game record here when the game ends (or is quit).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Plain text without colours (colours are used only when the output is a terminal).
    #[arg(long)]
    pub no_color: bool,
}

/// Whether tiles are drawn in colour (set once at the start).
static COLOR: AtomicBool = AtomicBool::new(false);

/// A tile letter (B Y R K W) in its colour when colours are on: bold for a tile, dim for a
/// lower-case letter (an empty wall cell showing which colour goes there). Other characters
/// are returned as they are.
fn paint(ch: char) -> String {
    if !COLOR.load(Ordering::Relaxed) {
        return ch.to_string();
    }
    let code = match ch.to_ascii_uppercase() {
        'B' => "34",
        'Y' => "33",
        'R' => "31",
        'K' => "90",
        'W' => "97",
        _ => return ch.to_string(),
    };
    let weight = if ch.is_ascii_lowercase() { "2" } else { "1" };
    format!("\x1b[{weight};{code}m{ch}\x1b[0m")
}

/// [`paint`] for every character of `s`.
fn paint_all(s: &str) -> String {
    s.chars().map(paint).collect()
}

/// Builds a seat from its name: `human` reads moves from stdin; anything else is an agent
/// of the registry (`random`, `greedy`, `smart`, `strategic:diagonal`, ...; see `tessera
/// agents azul`), parsed once into the agent and its budget.
fn make_seat(name: &str) -> Result<Seat<'static, AzulState>> {
    match name.trim() {
        "human" => Ok(Seat::human("human")),
        other => {
            let plan = tessera_house::registry::azul::registry()
                .parse(other)
                .with_context(|| format!("seat '{other}' (or human)"))?;
            Ok(Seat::agent(plan.build()?, plan.budget()))
        }
    }
}

const HELP: &str = "\
Enter a move as SOURCE COLOUR DESTINATION:
  SOURCE       1-9 for a factory, C for the centre
  COLOUR       B blue, Y yellow, R red, K black, W white
  DESTINATION  1-5 for a pattern line (line n holds n tiles), F for the floor
  e.g. 3B2 takes the blue tiles of factory 3 onto pattern line 2; CRF puts the centre's reds on the floor.
Commands: moves (list the legal moves), board (show the table again), hint (the strongest
  level's move and its projected points), undo (back to your previous turn), help, quit.
  Hints and undos are kept in the record.";

/// What a human typed at the prompt.
enum Input {
    Move(AzulAction),
    Hint,
    Undo,
    Quit,
}

/// Reads a legal move (or a hint or undo request) of the player to move from the keyboard;
/// `Quit` when the human quits or the input ends, an error when standard input cannot be read
/// (e.g. it is not UTF-8).
fn ask_human(state: &AzulState) -> Result<Input> {
    let me = state.current_player().unwrap_or(PlayerId(0));
    let stdin = std::io::stdin();
    let mut line = String::new();
    loop {
        print!("{me} move (or help)> ");
        let _ = std::io::stdout().flush();
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) => {
                println!("\nInput ended: the game stops here.");
                return Ok(Input::Quit);
            }
            Err(e) => return Err(super::play_tiles::stdin_error(&e)),
            Ok(_) => {}
        }
        let text = line.trim();
        match text.to_ascii_lowercase().as_str() {
            "" => continue,
            "help" | "h" | "?" => println!("{HELP}"),
            "moves" | "m" => println!("{}", list_moves(state)),
            "board" | "b" => println!("{}", render(state, &[])),
            "quit" | "q" | "exit" => return Ok(Input::Quit),
            "hint" => return Ok(Input::Hint),
            "undo" | "u" => return Ok(Input::Undo),
            _ => match text.parse::<AzulAction>() {
                Err(e) => println!("{e}. Type help for the format, moves for the list."),
                Ok(a) => match state.check_action(a) {
                    Ok(()) => return Ok(Input::Move(a)),
                    Err(e) => {
                        println!("{a} is not legal: {e}. Type moves for the legal moves.")
                    }
                },
            },
        }
    }
}

/// The legal moves grouped by source and colour.
fn list_moves(state: &AzulState) -> String {
    let mut v = Vec::new();
    state.legal_actions(&mut v);
    let mut out = format!("{} legal moves:", v.len());
    let mut last = None;
    for a in &v {
        let key = (a.source, a.colour);
        if last != Some(key) {
            let n = match a.source {
                Source::Centre => state.centre()[a.colour],
                Source::Factory(i) => state.factories()[i as usize][a.colour],
            };
            let from = match a.source {
                Source::Centre => "centre".to_string(),
                Source::Factory(i) => format!("factory {}", i + 1),
            };
            out += &format!("\n  {n} {} from {from}:", a.colour.name());
            last = Some(key);
        }
        out += &format!(" {a}");
    }
    out
}

/// The table and every board as text. Wall cells show their colour: upper case when
/// tiled, lower case when empty.
pub fn render(state: &AzulState, seats: &[String]) -> String {
    let mut out = String::new();
    let status = match state.turn() {
        Turn::Player(p) => format!("{p} to move"),
        Turn::Chance => "waiting for the deal".into(),
        Turn::Terminal => "game over".into(),
    };
    out += &format!(
        "=== Round {} · {status} · started by {} ===\n",
        state.round(),
        state.starting_player()
    );
    let facs: Vec<String> = state
        .factories()
        .iter()
        .enumerate()
        .map(|(i, f)| format!("{}:{}", i + 1, paint_all(&f.to_string())))
        .collect();
    out += &format!("Factories  {}\n", facs.join("  "));
    let token = if state.token_in_centre() { "1 " } else { "" };
    let centre = if state.centre().is_empty() {
        "-".to_string()
    } else {
        paint_all(&state.centre().to_string())
    };
    out += &format!("Centre     {token}{centre}\n");
    out += &format!(
        "Bag {} · box lid {}\n",
        state.bag().total(),
        state.lid().total()
    );
    for (i, b) in state.boards().iter().enumerate() {
        let p = PlayerId(i as u8);
        let who = seats.get(i).map(|s| format!(" ({s})")).unwrap_or_default();
        let token = if b.has_token() {
            " · has the token"
        } else {
            ""
        };
        out += &format!("\n{p}{who} · score {}{token}\n", b.score());
        for row in 0..WALL_SIZE {
            let mut line = String::new();
            for _ in row + 1..WALL_SIZE {
                line.push_str("  ");
            }
            let (colour, n) = match b.pattern_line(row) {
                Some((c, n)) => (Some(c), n as usize),
                None => (None, 0),
            };
            for slot in 0..=row {
                // Lines fill from the right.
                let filled = slot >= row + 1 - n;
                line.push_str(&paint(match (filled, colour) {
                    (true, Some(c)) => c.letter(),
                    _ => '.',
                }));
                line.push(' ');
            }
            let wall: String = (0..WALL_SIZE)
                .map(|col| {
                    let c = wall_colour(row, col).letter();
                    if b.wall_has(row, col) {
                        format!("{} ", paint(c))
                    } else {
                        format!("{} ", paint(c.to_ascii_lowercase()))
                    }
                })
                .collect();
            out += &format!("  {} {line}| {}\n", row + 1, wall.trim_end());
        }
        let mut floor = String::new();
        if b.has_token() {
            floor.push_str("1 ");
        }
        for c in b.floor().colours() {
            for _ in 0..b.floor()[c] {
                floor.push_str(&paint(c.letter()));
                floor.push(' ');
            }
        }
        let floor = if floor.is_empty() {
            "-".to_string()
        } else {
            floor
        };
        out += &format!("  floor {} ({})\n", floor.trim_end(), -b.floor_penalty());
    }
    out
}

/// Why a finished game ended: who completed a horizontal wall row, or that nobody ever can.
pub fn end_reason(state: &AzulState) -> String {
    let done: Vec<String> = state
        .boards()
        .iter()
        .enumerate()
        .filter(|(_, b)| b.complete_rows() > 0)
        .map(|(i, _)| PlayerId(i as u8).to_string())
        .collect();
    if done.is_empty() {
        "no wall row can ever be completed (every row misses a colour whose tiles are locked \
         in pattern lines that cannot fill), so the game ends here"
            .into()
    } else {
        format!("{} completed a horizontal wall row", done.join(" and "))
    }
}

/// The wall tiling of a round, as text; `after` is the state after it (for the reason the
/// game ended).
fn render_report(r: &RoundReport, after: &AzulState) -> String {
    let mut out = format!("--- End of round {}: wall tiling ---\n", r.round);
    for (i, b) in r.boards.iter().enumerate() {
        let p = PlayerId(i as u8);
        let mut parts: Vec<String> = b
            .placements
            .iter()
            .map(|(row, _col, c, pts)| format!("line {} {} +{pts}", row + 1, c.name()))
            .collect();
        if b.floor_penalty > 0 {
            parts.push(format!("floor -{}", b.floor_penalty));
        }
        if parts.is_empty() {
            parts.push("nothing".into());
        }
        out += &format!(
            "  {p}: {} → score {} → {}\n",
            parts.join(", "),
            b.score_before,
            b.score_after_round
        );
    }
    if r.game_over {
        out += &format!("--- Game over: {} ---\n", end_reason(after));
        out += "--- Bonuses (2 per row, 7 per column, 10 per colour) ---\n";
        for (i, b) in r.boards.iter().enumerate() {
            out += &format!(
                "  {}: +{} → {}\n",
                PlayerId(i as u8),
                b.bonus,
                b.score_after_round + b.bonus as i32
            );
        }
    } else {
        out += &format!("  {} starts the next round.\n", r.next_start);
    }
    out
}

/// `--load`: [`load_state`] (boxed: a position is large beside the other arguments), its
/// error with every cause (clap names the argument).
fn load_arg(text: &str) -> std::result::Result<Box<AzulState>, String> {
    load_state(text).map(Box::new).map_err(|e| format!("{e:#}"))
}

/// A position from `--load`: a file holding state notation or JSON, or the notation itself.
/// A single word that names no file is reported as a missing file (notation has spaces).
fn load_state(text: &str) -> Result<AzulState> {
    let path = std::path::Path::new(text);
    let content = if path.exists() {
        std::fs::read_to_string(path)
            .with_context(|| format!("reading the file {}", path.display()))?
    } else if !text.trim().contains(char::is_whitespace) && !text.trim().starts_with('{') {
        bail!(
            "there is no file {text} (give a file holding a position, or the position itself \
             in state notation: see docs/notation.md)"
        );
    } else {
        text.to_string()
    };
    let content = content.trim();
    if content.starts_with('{') {
        return serde_json::from_str(content)
            .context("the JSON state does not describe an Azul position");
    }
    content
        .parse::<AzulState>()
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// What the terminal shows while the table plays: the table before a human's move and at
/// each new round, every AI move, and each round's wall tiling.
struct TerminalView<'a> {
    seat_names: &'a [String],
    any_human: bool,
    shown_round: u32,
    /// The state before the action being chosen (for its round report).
    before: Option<AzulState>,
}

impl Observer<AzulState> for TerminalView<'_> {
    fn before_action(&mut self, state: &AzulState, p: PlayerId) {
        let human_to_move = self.seat_names[p.index()] == "human";
        if self.any_human && (human_to_move || self.shown_round != state.round()) {
            println!("\n{}", render(state, self.seat_names));
            self.shown_round = state.round();
        }
        self.before = Some(state.clone());
    }

    fn on_event(&mut self, _after: &AzulState, event: &Event<Deal>) {
        let Event::Action { player, action } = event else {
            return;
        };
        let name = &self.seat_names[player.index()];
        if self.any_human && name != "human" {
            println!("{player} ({name}) plays {action}");
        }
        // Replays the action on the state before it for the round's wall-tiling report.
        if let (Some(mut before), Ok(a)) = (self.before.take(), action.parse::<AzulAction>())
            && let Some(r) = before.apply_reporting(a)
        {
            print!("{}", render_report(&r, &before));
        }
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    use std::io::IsTerminal;
    COLOR.store(
        !args.no_color && std::io::stdout().is_terminal(),
        Ordering::Relaxed,
    );
    let seeds = GameSeeds { seed };
    // The record's file is created now, so an unwritable path fails before the game.
    let record_file = match &args.record {
        Some(path) => Some(open_record(path)?),
        None => None,
    };
    let initial = match args.load {
        Some(state) => {
            if let Some(p) = args.players
                && p != state.num_players()
            {
                bail!(
                    "--players {p} conflicts with the loaded position, which has {} players \
                     (leave --players out to play the position as it is)",
                    state.num_players()
                );
            }
            *state
        }
        // (clap has checked --players against Azul's range.)
        None => AzulState::new_random(args.players.unwrap_or(2), &mut seeds.setup_rng()),
    };
    let n = initial.num_players();
    let seat_names: Vec<String> = if args.seats.is_empty() {
        let opponent = match args.opponent {
            Some(o) => o.text,
            None => default_opponent(&tessera_house::registry::azul::registry()),
        };
        std::iter::once("human".to_string())
            .chain(std::iter::repeat_n(opponent, n - 1))
            .collect()
    } else {
        args.seats.into_iter().map(|s| s.text).collect()
    };
    if seat_names.len() != n {
        bail!(
            "--seats names {} seats but the game has {n} players",
            seat_names.len()
        );
    }
    let seats: Vec<Seat<'static, AzulState>> = seat_names
        .iter()
        .map(|s| make_seat(s))
        .collect::<Result<_>>()?;
    let any_human = seat_names.iter().any(|s| s == "human");
    println!(
        "Azul, {n} players, seed {seed}. Seats: {}",
        seat_names.join(", ")
    );
    if any_human {
        println!("Type help for how to enter moves.");
    }

    let mut view = TerminalView {
        seat_names: &seat_names,
        any_human,
        shown_round: 0,
        before: None,
    };
    let mut table = Table::new(initial, seats, seed)?;
    let mut quit = false;
    let mut input_error = None;
    while let Played::Human(p) = table.play_out(None, &mut view)? {
        view.before_action(table.state(), p);
        let a = match ask_human(table.state()) {
            Ok(Input::Move(a)) => a,
            Ok(Input::Hint) => {
                println!("{}", hint(&mut table, p)?);
                continue;
            }
            Ok(Input::Undo) => {
                match table.take_back(p) {
                    Ok(()) => println!("Taken back: {p} to move again."),
                    Err(e) => println!("Cannot undo: {e}."),
                }
                continue;
            }
            Ok(Input::Quit) => {
                quit = true;
                break;
            }
            Err(e) => {
                input_error = Some(e);
                quit = true;
                break;
            }
        };
        table.play(p, a)?;
        if let Some(step) = table.steps().last() {
            view.on_event(&step.state, &step.event);
        }
    }
    let state = table.state().clone();
    let record = table.record();
    if quit && !state.is_terminal() {
        println!("Game stopped. Position (resume with --load):\n{state}");
    }
    if let Some(out) = &record.result {
        println!("\n{}", render(&state, &seat_names));
        println!("Game over: {}.", end_reason(&state));
        println!("Final scores:");
        for (p, s) in out.scores.iter() {
            let rows = state.board(p).complete_rows();
            let mark = if out.winners.contains(&p) {
                if out.winners.len() > 1 {
                    "  shared win"
                } else {
                    "  winner"
                }
            } else {
                ""
            };
            println!(
                "  {p} ({}): {s} points, {rows} complete rows{mark}",
                seat_names[p.index()]
            );
        }
    }
    if let (Some(path), Some(file)) = (&args.record, record_file) {
        write_record(path, file, &record)?;
        println!("Record written to {}", path.display());
    }
    match input_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The strongest level's move for human seat `p`, with its projected points (kept in the
/// record as a hint).
fn hint(table: &mut Table<'static, AzulState>, p: PlayerId) -> Result<String> {
    let before = table.state().clone();
    let Some((level, a)) = strongest_hint(table, p)? else {
        return Ok("No hints: this build has no difficulty levels.".into());
    };
    let mut after = before.clone();
    after.try_apply(a)?;
    Ok(format!(
        "Hint ({}, level {}): {a}, projected score if the round ended now {} → {}.",
        level.name,
        level.number,
        before.projected_score(p),
        after.projected_score(p)
    ))
}

/// The move the game's strongest level would play for human seat `p` (at most 2 s; kept in
/// the record as a hint), and that level; `None` for a game without levels.
pub fn strongest_hint<G: tessera_house::ArenaGame>(
    table: &mut Table<'static, G>,
    p: PlayerId,
) -> Result<Option<(&'static tessera_house::registry::Level, G::Action)>> {
    let registry = G::registry();
    let Some(level) = registry.levels().last() else {
        return Ok(None);
    };
    let plan = registry.parse(level.spec)?;
    let cap = tessera_core::Budget::time(std::time::Duration::from_secs(2));
    let action = table
        .hint(p, plan.build()?, plan.budget().clamp(&cap))?
        .run()
        .action();
    Ok(Some((level, action)))
}

/// The registry's middle difficulty level as a seat (`level:3`), or `random` for a game
/// without levels.
pub fn default_opponent<G: tessera_core::Game>(
    registry: &tessera_house::registry::Registry<G>,
) -> String {
    registry
        .default_level()
        .map_or("random".to_string(), |l| format!("level:{}", l.number))
}

/// Creates the record's file before the game (so a bad path costs no game).
pub fn open_record(path: &std::path::Path) -> Result<std::fs::File> {
    std::fs::File::create(path).with_context(|| {
        format!(
            "--record {}: cannot create the file (nothing was played)",
            path.display()
        )
    })
}

/// Writes a record as pretty JSON into the file [`open_record`] created.
pub fn write_record(
    path: &std::path::Path,
    mut file: std::fs::File,
    record: &impl serde::Serialize,
) -> Result<()> {
    let json = serde_json::to_string_pretty(record)?;
    file.write_all(json.as_bytes())
        .and_then(|()| file.flush())
        .with_context(|| format!("writing the record to {}", path.display()))
}
