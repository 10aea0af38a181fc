//! `tessera play GAME` for every registered game without its own terminal front end (the
//! Nim test game, and any game added later): one subcommand per registration
//! ([`tessera_house::drivers`]), each running the house's generic loop
//! ([`tessera_house::terminal::play`]) over the game's protocol notation, so this file holds
//! no per-game code and no list of games.

use anyhow::Result;
use clap::{ArgMatches, Args as _, FromArgMatches};
use tessera_house::spec::AgentSpec;

/// Arguments of `tessera play GAME` for a game played through the generic loop.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Comma-separated seats: human or a player of the game (`tessera agents GAME`).
    #[arg(long, default_value = "human,random", value_delimiter = ',')]
    pub seats: Vec<AgentSpec>,
    /// Seed of the set-up, chance and the players (default: from the clock, printed).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// The registered games that `rich` (the games with their own terminal front end) does not
/// name, in registration order.
pub fn generic_games(rich: &[String]) -> Vec<Box<dyn tessera_house::GameDriver>> {
    tessera_house::drivers()
        .into_iter()
        .filter(|d| !rich.iter().any(|r| r == d.name()))
        .collect()
}

/// One `tessera play GAME` subcommand per registered game that `rich` does not name.
pub fn subcommands(rich: &[String]) -> Vec<clap::Command> {
    generic_games(rich)
        .iter()
        .map(|d| {
            let info = d.info();
            let about = format!(
                "{} for {}-{} players, moves in the game's notation (docs/protocol.md)",
                info.title, info.min_players, info.max_players
            );
            // The about goes after the arguments: `augment_args` sets the struct's own.
            Args::augment_args(clap::Command::new(info.name)).about(about)
        })
        .collect()
}

/// Runs `tessera play GAME ...` for a game played through the generic loop, from the
/// subcommand's parsed arguments.
pub fn run(game: &str, matches: &ArgMatches) -> Result<()> {
    let args = Args::from_arg_matches(matches).unwrap_or_else(|e| e.exit());
    let driver = tessera_house::driver(game)?;
    let seats: Vec<String> = args.seats.into_iter().map(|s| s.text).collect();
    let seed = args
        .seed
        .unwrap_or_else(tessera_house::terminal::clock_seed);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    driver.play_terminal(&seats, seed, &mut stdin.lock(), &mut out)?;
    Ok(())
}
