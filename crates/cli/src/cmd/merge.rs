//! `tessera merge --out ALL.sqlite A.sqlite B.sqlite ...`: combine results files, for
//! example the shards of one run.

use std::path::PathBuf;

use anyhow::Result;

/// Arguments of `tessera merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The merged file (created if missing; runs already in it are completed).
    #[arg(long)]
    pub out: PathBuf,
    /// The files to merge (only read).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

/// Runs `tessera merge`.
pub fn run(a: Args) -> Result<()> {
    let merged = tessera_arena::merge::merge(&a.out, &a.inputs)?;
    for m in &merged {
        println!("{}", describe(m));
    }
    Ok(())
}

/// One line on what a merge or split did to a run: games added, stored of total, and the
/// command that makes the run.
pub fn describe(m: &tessera_arena::merge::MergedRun) -> String {
    format!(
        "run {}: {} games added, {} of {} stored{}: {}",
        m.run.id,
        m.added,
        m.run.done,
        m.run.total,
        if m.run.complete() { " (complete)" } else { "" },
        m.run.params.command_line()
    )
}
