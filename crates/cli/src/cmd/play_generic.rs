//! `tessera play GAME` for every game without its own terminal front end (the Nim test
//! game, and any game added later): the arena's generic loop
//! ([`tessera_house::terminal::play`]) over the game's protocol notation, so this file holds
//! no per-game code.

use anyhow::Result;
use clap::Parser;

/// Arguments (parsed from what follows `tessera play`).
#[derive(Parser, Debug)]
#[command(name = "tessera play")]
pub struct Args {
    /// The game.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(game_names()))]
    pub game: String,
    /// Comma-separated seats: human or a player of the game (`tessera agents GAME`).
    #[arg(long, default_value = "human,random")]
    pub seats: String,
    /// Seed of the set-up, chance and the players (default: from the clock, printed).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// The games of the arena that `tessera play` has no own subcommand for.
fn game_names() -> Vec<&'static str> {
    tessera_house::drivers()
        .iter()
        .map(|d| d.name())
        .filter(|n| !["azul", "qwirkle", "tiles"].contains(n))
        .collect()
}

/// Runs `tessera play WORDS...` for a game without its own subcommand.
pub fn run(words: Vec<String>) -> Result<()> {
    let args = Args::try_parse_from(std::iter::once("tessera play".to_string()).chain(words))
        .unwrap_or_else(|e| e.exit());
    let driver = tessera_house::driver(&args.game)?;
    let seats: Vec<String> = args.seats.split(',').map(str::to_string).collect();
    let seed = args
        .seed
        .unwrap_or_else(tessera_house::terminal::clock_seed);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    driver.play_terminal(&seats, seed, &mut stdin.lock(), &mut out)?;
    Ok(())
}
