//! `tessera`: play, pit agents against each other, analyse and solve tile games.

use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod cmd;

/// Tessera: engines, AI players, tournaments and analysis for tile-laying games.
#[derive(Parser, Debug)]
#[command(name = "tessera", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game in the terminal (human or AI seats). Every registered game is listed:
    /// those without their own front end (`tessera play nim --seats human,random`) use the
    /// generic loop over their notation.
    #[command(subcommand)]
    Play(PlayGame),
    /// Run a tournament between agents and store every game in SQLite.
    Tournament(cmd::tournament::Args),
    /// List the registered agents and their parameters.
    Agents(cmd::agents::Args),
    /// Merge tournament databases (for example the shards of one run).
    Merge(cmd::merge::Args),
    /// Split the runs of a tournament database into shard files (to finish a stopped run on
    /// several cores or machines; `tessera merge` joins them again).
    Split(cmd::split::Args),
    /// Draw charts and tables from a tournament database.
    Report(cmd::report::Args),
    /// List the games stored in a tournament database.
    Games(cmd::games::Args),
    /// Write one stored game's record (JSON, replayable) from a tournament database.
    Export(cmd::export::Args),
    /// Mathematical and search analyses.
    #[command(subcommand)]
    Analyze(Analysis),
    /// Solve puzzles.
    #[command(subcommand)]
    Solve(SolveGame),
    /// Serve the browser UI and JSON API.
    Serve(cmd::serve::Args),
    /// Regenerate learned weights from self-play (azul-augur) and fit augur's board network (azul-board-net).
    Train(cmd::train::Args),
    /// Speak the engine protocol on stdin/stdout (docs/protocol.md), for any game.
    Engine(cmd::engine::Args),
}

#[derive(Subcommand, Debug)]
enum PlayGame {
    /// Azul for 2-4 players.
    Azul(cmd::play_azul::Args),
    /// Qwirkle for 2-4 players.
    Qwirkle(cmd::play_qwirkle::Args),
    /// The Match the Tiles sliding puzzle.
    Tiles(cmd::play_tiles::Args),
    // Every other registered game gets a subcommand from its registration: see
    // `command` (cmd::play_generic).
}

/// The games with their own terminal front end (the variants of [`PlayGame`]).
fn rich_games() -> Vec<String> {
    PlayGame::augment_subcommands(clap::Command::new("play"))
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// The command line: the derived [`Cli`], with one `play` subcommand added per registered
/// game that has no front end of its own ([`cmd::play_generic`]).
fn command() -> clap::Command {
    let rich = rich_games();
    Cli::command().mut_subcommand("play", |play| {
        play.subcommands(cmd::play_generic::subcommands(&rich))
    })
}

#[derive(Subcommand, Debug)]
enum Analysis {
    /// The thesis' wall analysis: max/min scores, tiling orders, the n x n problem, symmetry.
    #[command(name = "azul-wall")]
    Wall(cmd::analyze_wall::Args),
    /// The blog's search comparison: leaf nodes per depth and per-turn tables.
    #[command(name = "azul-search")]
    Search(cmd::analyze_search::Args),
    /// The exact value of every move of a two-player position in the game's last round.
    #[command(name = "azul-endgame")]
    Endgame(cmd::analyze_endgame::Args),
}

#[derive(Subcommand, Debug)]
enum SolveGame {
    /// Solve Match the Tiles levels.
    Tiles(cmd::solve_tiles::Args),
}

/// Runs the command. A user error is printed as `error: ...` and one `caused by: ...` line
/// per cause, never with a backtrace (anyhow captures one when `RUST_BACKTRACE` is set, and
/// returning the error from `main` would print it); a panic still prints the standard panic
/// message and its backtrace.
fn main() -> ExitCode {
    let matches = command().get_matches();
    let outcome = match generic_play(&matches) {
        Some((game, args)) => cmd::play_generic::run(game, args),
        None => run(Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprint!("{}", error_text(&e));
            ExitCode::FAILURE
        }
    }
}

/// `error: ...` then `caused by: ...` lines, from the error's chain of causes (a cause whose
/// text its parent already ends with is not repeated).
fn error_text(e: &anyhow::Error) -> String {
    let mut out = format!("error: {e}\n");
    let mut shown = e.to_string();
    for cause in e.chain().skip(1) {
        let text = cause.to_string();
        if !shown.ends_with(&text) {
            out.push_str(&format!("caused by: {text}\n"));
        }
        shown = text;
    }
    out
}

/// `tessera play GAME ...` for a game played through the generic loop: its name and
/// arguments.
fn generic_play(matches: &clap::ArgMatches) -> Option<(&str, &clap::ArgMatches)> {
    let ("play", play) = matches.subcommand()? else {
        return None;
    };
    let (game, args) = play.subcommand()?;
    (!rich_games().iter().any(|r| r == game)).then_some((game, args))
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Play(PlayGame::Azul(a)) => cmd::play_azul::run(a),
        Command::Play(PlayGame::Qwirkle(a)) => cmd::play_qwirkle::run(a),
        Command::Play(PlayGame::Tiles(a)) => cmd::play_tiles::run(a),
        Command::Tournament(a) => cmd::tournament::run(a),
        Command::Agents(a) => cmd::agents::run(a),
        Command::Merge(a) => cmd::merge::run(a),
        Command::Split(a) => cmd::split::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Games(a) => cmd::games::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Analyze(Analysis::Wall(a)) => cmd::analyze_wall::run(a),
        Command::Analyze(Analysis::Search(a)) => cmd::analyze_search::run(a),
        Command::Analyze(Analysis::Endgame(a)) => cmd::analyze_endgame::run(a),
        Command::Solve(SolveGame::Tiles(a)) => cmd::solve_tiles::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Train(a) => cmd::train::run(a),
        Command::Engine(a) => cmd::engine::run(a),
    }
}

#[cfg(test)]
mod tests {
    use super::{command, error_text, rich_games};

    #[test]
    fn play_has_one_subcommand_per_registered_game() {
        let cmd = command();
        let play = cmd.find_subcommand("play").expect("play subcommand");
        let names: Vec<&str> = play.get_subcommands().map(|c| c.get_name()).collect();
        for d in tessera_house::drivers() {
            assert!(
                names.contains(&d.name()),
                "{} missing from {names:?}",
                d.name()
            );
        }
        // The rich front ends are not listed twice, and tiles (a puzzle, not registered
        // with the house) keeps its own.
        assert_eq!(rich_games(), ["azul", "qwirkle", "tiles"]);
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{names:?}");
        cmd.debug_assert();
    }
    use anyhow::Context;

    #[test]
    fn errors_print_their_causes_once_each() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = Err::<(), _>(io)
            .context("cannot write out.json")
            .context("exporting game 1:0")
            .unwrap_err();
        assert_eq!(
            error_text(&e),
            "error: exporting game 1:0\ncaused by: cannot write out.json\ncaused by: no such file\n"
        );
        // A message that already ends with its cause's text does not repeat it.
        let e = anyhow::Error::new(std::io::Error::other("disk full")).context("write: disk full");
        assert_eq!(error_text(&e), "error: write: disk full\n");
    }
}
