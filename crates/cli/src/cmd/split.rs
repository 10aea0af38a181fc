//! `tessera split --from RUN.sqlite SHARD1.sqlite SHARD2.sqlite ...`: split the runs of a
//! results file into shards, one output per shard, so a stopped run can be finished on
//! several cores or machines (`tessera tournament ... --shard K/N --db SHARDK.sqlite
//! --resume`) and joined again with `tessera merge`.

use std::path::PathBuf;

use anyhow::Result;

/// Arguments of `tessera split`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example: finish a stopped run on two cores
  tessera split --from run.sqlite s1.sqlite s2.sqlite
  taskset -c 0 tessera tournament azul --agents ... --shard 1/2 --db s1.sqlite --resume &
  taskset -c 1 tessera tournament azul --agents ... --shard 2/2 --db s2.sqlite --resume
  tessera merge --out all.sqlite s1.sqlite s2.sqlite")]
pub struct Args {
    /// The file to split (only read).
    #[arg(long)]
    pub from: PathBuf,
    /// One file per shard, in shard order: the k-th of N gets shard k/N of every run
    /// (created if missing; a shard already in it is completed).
    #[arg(required = true)]
    pub outputs: Vec<PathBuf>,
}

/// Runs `tessera split`.
pub fn run(a: Args) -> Result<()> {
    let n = a.outputs.len();
    let shards = tessera_arena::merge::split(&a.from, &a.outputs)?;
    for (k, s) in shards.iter().enumerate() {
        for m in &s.runs {
            println!(
                "{} (shard {}/{n}): {}",
                s.path.display(),
                k + 1,
                super::merge::describe(m)
            );
        }
    }
    Ok(())
}
