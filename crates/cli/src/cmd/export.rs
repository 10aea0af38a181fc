//! `tessera export --db FILE --game ID`: one stored game's record, the JSON that the replay
//! page opens and `tessera_core::replay` replays.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use tessera_arena::store::{GameId, Store};
use tessera_core::GameRecord;

use super::values::GameRef;

/// Arguments of `tessera export`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The SQLite results file (written by `tessera tournament`).
    #[arg(long, default_value = "tessera.sqlite")]
    pub db: PathBuf,
    /// The game: `RUN:INDEX` as `tessera games` lists it, or just `INDEX` with `--run` or
    /// in a file holding one run.
    #[arg(long, value_parser = super::values::game_ref)]
    pub game: GameRef,
    /// The run of a game given as `INDEX`.
    #[arg(long)]
    pub run: Option<i64>,
    /// Write the record to this file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `tessera export`.
pub fn run(a: Args) -> Result<()> {
    let store = Store::open_read(&a.db)?;
    let id = game_id(&store, a.game, a.run)?;
    let Some(stored) = store.find_game(id)? else {
        return Err(store.absent(id)?.into());
    };
    let run = store.run(id.run)?;
    // The record must be a record of this run's game, ending with the stored result: a
    // damaged row is reported, not exported.
    let record: GameRecord<serde_json::Value> = serde_json::from_str(&stored.game.record)
        .with_context(|| {
            format!(
                "game {id} in {}: the stored record is unreadable",
                a.db.display()
            )
        })?;
    if record.game != run.params.game {
        bail!(
            "game {id} in {}: the stored record is of game '{}' but run {} plays '{}'",
            a.db.display(),
            record.game,
            id.run,
            run.params.game
        );
    }
    let recorded: Option<&[i32]> = record.result.as_ref().map(|r| r.scores.as_slice());
    if recorded != Some(stored.game.scores.as_slice()) {
        bail!(
            "game {id} in {}: the stored record's result {recorded:?} differs from the stored scores {:?}",
            a.db.display(),
            stored.game.scores
        );
    }
    let text = format!("{}\n", stored.game.record);
    match &a.out {
        None => print!("{text}"),
        Some(path) => {
            std::fs::write(path, text)
                .with_context(|| format!("cannot write the record to {}", path.display()))?;
            eprintln!(
                "wrote {} (game {id}: {}, {} actions, scores {:?})",
                path.display(),
                record.seats.join(" vs "),
                stored.game.actions,
                stored.game.scores
            );
        }
    }
    Ok(())
}

/// The game `game` names: `RUN:INDEX`, or `INDEX` of `run` (or of the file's only run).
fn game_id(store: &Store, game: GameRef, run: Option<i64>) -> Result<GameId> {
    let index = match game {
        GameRef::Id(id) => {
            if let Some(r) = run.filter(|&r| r != id.run) {
                bail!("--game {id} is a game of run {} but --run says {r}", id.run);
            }
            return Ok(id);
        }
        GameRef::Index(index) => index,
    };
    let run = match run {
        Some(r) => r,
        None => {
            let runs: Vec<i64> = store.runs()?.iter().map(|r| r.id).collect();
            match runs.as_slice() {
                [one] => *one,
                [] => bail!("database {} holds no runs", store.path()),
                many => bail!(
                    "database {} holds runs {}: give the game as RUN:INDEX or add --run",
                    store.path(),
                    many.iter()
                        .map(|r| r.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
    };
    Ok(GameId { run, index })
}
