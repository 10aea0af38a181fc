//! `tessera` subcommand (under construction: its owner replaces this file).

use anyhow::{Result, bail};

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> Result<()> {
    bail!("this subcommand is not built yet")
}
