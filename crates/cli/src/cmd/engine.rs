//! `tessera engine GAME`: the Tessera Engine Protocol (TEP) on stdin/stdout for any game the
//! arena knows, a line protocol in the spirit of chess's UCI. The full description is in
//! docs/protocol.md; the session is [`tessera_house::engine::EngineServer`], generic over the
//! game, so this file holds no per-game code.
//!
//! Commands (one per line; replies end with a line the client can wait for):
//! - `tep` -> `id name ...`, `id author ...`, `id game GAME`, `option ...` lines, `tepok`
//! - `isready` -> `readyok`
//! - `setoption name NAME value VALUE` (options `Player`, `Seed`) -> nothing, or `error ...`
//! - `newgame` -> nothing (the player forgets the previous game)
//! - `position state NOTATION` | `position start players N [first K] [moves M...]`
//! - `go [movetime MS] [depth N] [nodes N]` -> `info ...` then `bestmove ACTION`
//! - `legal` -> `legal A B ...`; `show` -> `state NOTATION`; `quit`
//!
//! Every malformed or impossible command gets one `error MESSAGE` line; the engine never
//! stops on bad input.

use anyhow::Result;
use tessera_house::spec::AgentSpec;

use super::values::GameName;

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (`tessera engine --help` lists them).
    #[arg(value_parser = super::values::game())]
    pub game: GameName,
    /// The player answering `go` (a registry name, see `tessera agents GAME`; default: the
    /// game's engine player, `strong` for Azul, `montecarlo` for Qwirkle). The limits of
    /// `go` decide its budget; its own limits apply to a `go` without any.
    #[arg(long)]
    pub player: Option<AgentSpec>,
    /// Seed of the player's random generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let driver = args.game.driver()?;
    let player = args.player.as_ref().map(|p| p.text.as_str());
    let mut session = driver.engine(player, args.seed)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    tessera_house::engine::serve(session.as_mut(), stdin.lock(), &mut out)?;
    Ok(())
}
