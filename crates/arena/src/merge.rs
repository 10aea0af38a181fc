//! Merging results files, for example the shards of one run played on many machines, and
//! splitting a stopped run into shards, so the rest of it can be played on many cores or
//! machines.
//!
//! [`merge`]: every run of every input is added to the output as the whole (unsharded) run
//! with the same parameters; games are keyed by their index in the run, so the merged run
//! holds exactly the games the unsharded run would, and its statistics are the same. A game
//! present in several inputs must be identical in all of them.
//!
//! [`split`]: the reverse. Every run of the input becomes, in the `k`-th of `n` outputs,
//! shard `k/n` of the same run holding the input's games of that shard, exactly as if
//! `tessera tournament --shard k/n` had played them; `--resume` with that shard then plays
//! the rest, and [`merge`] joins the outputs again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{ArenaError, MergeError};
use crate::schedule::{Shard, Slot};
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
            let added = absorb(&mut out, &target, src, &run, total, |_| true)?;
            settle(&out, target.id, added, &mut merged)?;
        }
    }
    Ok(merged)
}

/// Adds to run `target` of `out` the games of `run` (of `src`) that `keep` accepts, checking
/// that each lies in the run (`total` games in all shards) and equals any copy already in
/// `out`. Returns how many were added.
fn absorb(
    out: &mut Store,
    target: &RunInfo,
    src: &Store,
    run: &RunInfo,
    total: u64,
    keep: impl Fn(&Slot) -> bool,
) -> Result<u64, ArenaError> {
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
        if !keep(&g.slot) {
            continue;
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
    Ok(added)
}

/// Marks run `id` of `out` finished if it is complete, and counts the `added` games under
/// it in `report` (one entry per run, however many inputs fed it).
fn settle(out: &Store, id: i64, added: u64, report: &mut Vec<MergedRun>) -> Result<(), ArenaError> {
    let now = out.run(id)?;
    if now.complete() {
        out.mark_finished(now.id)?;
    }
    match report.iter_mut().find(|m| m.run.id == now.id) {
        Some(m) => {
            m.added += added;
            m.run = now;
        }
        None => report.push(MergedRun { run: now, added }),
    }
    Ok(())
}

/// What one split did to one output file.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitShard {
    /// The output file.
    pub path: PathBuf,
    /// Its runs after the split (one per run of the input), with the games each gained.
    pub runs: Vec<MergedRun>,
}

/// Splits every run of `input` into `outputs.len()` shards: the `k`-th output (1-based) gets
/// shard `k/n` of each run with the input's games of that shard (outputs are created if
/// missing; a run already in an output is completed, its games checked to be the same).
/// The input is only read. A run decided by a sequential test cannot be split (it decides
/// from every pair in order, as `--sprt` with `--shard` is refused).
pub fn split(input: &Path, outputs: &[PathBuf]) -> Result<Vec<SplitShard>, ArenaError> {
    if outputs.len() < 2 {
        return Err(MergeError::TooFewShards(outputs.len()).into());
    }
    let n = u32::try_from(outputs.len()).map_err(|_| MergeError::TooFewShards(0))?;
    let in_canon = input.canonicalize().ok();
    for (i, o) in outputs.iter().enumerate() {
        let canon = o.canonicalize().ok();
        if canon.is_some() && canon == in_canon {
            return Err(MergeError::InputIsOutput(o.display().to_string()).into());
        }
        if canon.is_some() && outputs[..i].iter().any(|p| p.canonicalize().ok() == canon) {
            return Err(MergeError::OutputTwice(o.display().to_string()).into());
        }
        if canon.is_none() && outputs[..i].contains(o) {
            return Err(MergeError::OutputTwice(o.display().to_string()).into());
        }
    }
    let src = Store::open_read(input)?;
    let runs = src.runs()?;
    if let Some(r) = runs.iter().find(|r| r.params.sprt.is_some()) {
        return Err(MergeError::SequentialRun {
            path: src.path().to_string(),
            run: r.id,
        }
        .into());
    }
    let mut result = Vec::new();
    for (k, path) in outputs.iter().enumerate() {
        let shard = Shard {
            index: k as u32 + 1,
            count: n,
        };
        let mut out = Store::open(path)?;
        let mut done: Vec<MergedRun> = Vec::new();
        for run in &runs {
            let params = &run.params;
            let total = params.total_games().unwrap_or(0);
            let tables = params.tables();
            let in_shard = |s: &Slot| params.in_shard(&params.slot_in(s.index, &tables), shard);
            let target = match out.find_run(params, shard)? {
                Some(t) => t,
                None => {
                    let size = (0..total)
                        .filter(|&i| params.in_shard(&params.slot_in(i, &tables), shard))
                        .count() as u64;
                    out.create_run(params, shard, size)?
                }
            };
            if target.params.names.iter().all(Option::is_none) {
                out.save_agent_names(target.id, &params.names)?;
            }
            let added = absorb(&mut out, &target, &src, run, total, in_shard)?;
            settle(&out, target.id, added, &mut done)?;
        }
        result.push(SplitShard {
            path: path.clone(),
            runs: done,
        });
    }
    Ok(result)
}
