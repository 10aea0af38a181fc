//! Merging results files, for example the shards of one run played on many machines.
//!
//! Every run of every input is added to the output as the whole (unsharded) run with the
//! same parameters; games are keyed by their index in the run, so the merged run holds
//! exactly the games the unsharded run would, and its statistics are the same. A game
//! present in several inputs must be identical in all of them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{ArenaError, MergeError};
use crate::schedule::Shard;
use crate::store::{RunInfo, Store, StoredGame};

/// What one merge did to one run.
#[derive(Clone, Debug, PartialEq)]
pub struct MergedRun {
    /// The run in the output file after the merge.
    pub run: RunInfo,
    /// Games added by this merge.
    pub added: u64,
}

/// Merges the runs of `inputs` into `output` (created if missing). Inputs are only read.
pub fn merge(output: &Path, inputs: &[PathBuf]) -> Result<Vec<MergedRun>, ArenaError> {
    if inputs.is_empty() {
        return Err(MergeError::NoInputs.into());
    }
    let out_canon = output.canonicalize().ok();
    for i in inputs {
        if out_canon.is_some() && i.canonicalize().ok() == out_canon {
            return Err(MergeError::InputIsOutput(i.display().to_string()).into());
        }
    }
    // Open every input first, so a bad input leaves the output untouched.
    let sources = inputs
        .iter()
        .map(|p| Store::open_read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Store::open(output)?;
    let mut merged: Vec<MergedRun> = Vec::new();
    for src in &sources {
        for run in src.runs()? {
            let total = run.params.total_games().unwrap_or(0);
            let target = match out.find_run(&run.params, Shard::ALL)? {
                Some(t) => t,
                None => out.create_run(&run.params, Shard::ALL, total)?,
            };
            // External engines' names travel with their games.
            if target.params.names.iter().all(Option::is_none) {
                out.save_agent_names(target.id, &run.params.names)?;
            }
            let mut have: HashMap<u64, StoredGame> = out
                .games(target.id)?
                .into_iter()
                .map(|g| (g.slot.index, g))
                .collect();
            let mut batch = Vec::new();
            let mut added = 0u64;
            for g in src.games(run.id)? {
                if g.slot.index >= total {
                    return Err(MergeError::GameOutOfRange {
                        path: src.path().to_string(),
                        run: run.id,
                        index: g.slot.index,
                        total,
                    }
                    .into());
                }
                if let Some(old) = have.get(&g.slot.index) {
                    if (&old.slot, &old.game.scores, &old.game.winners)
                        != (&g.slot, &g.game.scores, &g.game.winners)
                    {
                        return Err(MergeError::Differs {
                            index: g.slot.index,
                            command: run.params.command_line(),
                            path: src.path().to_string(),
                        }
                        .into());
                    }
                    continue;
                }
                have.insert(g.slot.index, g.clone());
                batch.push(g);
                if batch.len() >= 1000 {
                    out.insert_games(target.id, &batch)?;
                    added += batch.len() as u64;
                    batch.clear();
                }
            }
            out.insert_games(target.id, &batch)?;
            added += batch.len() as u64;
            let now = out.run(target.id)?;
            if now.complete() {
                out.mark_finished(now.id)?;
            }
            match merged.iter_mut().find(|m| m.run.id == now.id) {
                Some(m) => {
                    m.added += added;
                    m.run = now;
                }
                None => merged.push(MergedRun { run: now, added }),
            }
        }
    }
    Ok(merged)
}
