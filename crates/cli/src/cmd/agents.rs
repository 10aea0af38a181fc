//! `tessera agents [GAME]`: list the registered players and their parameters.

use anyhow::Result;

use super::values::GameName;

/// Arguments of `tessera agents`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only this game's agents (azul, nim, ...).
    #[arg(value_parser = super::values::game())]
    pub game: Option<GameName>,
    /// Output format: table or json.
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
}

/// How `tessera agents` prints the registrations.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListFormat {
    /// A text table.
    Table,
    /// JSON.
    Json,
}

/// Runs `tessera agents`.
pub fn run(a: Args) -> Result<()> {
    let drivers = match &a.game {
        Some(g) => vec![g.driver()?],
        None => tessera_house::drivers(),
    };
    match a.format {
        ListFormat::Json => {
            let all: Vec<serde_json::Value> = drivers
                .iter()
                .map(|d| {
                    serde_json::json!({
                        "game": d.name(),
                        "players": [d.players().0, d.players().1],
                        "agents": d.agents(),
                        "levels": d.levels(),
                    })
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&all)?);
        }
        ListFormat::Table => {
            for (i, d) in drivers.iter().enumerate() {
                if i > 0 {
                    println!();
                }
                let (lo, hi) = d.players();
                println!("{} ({lo}-{hi} players):", d.name());
                for e in d.agents() {
                    println!("  {:<12} {}", e.name, e.summary);
                    for p in e.params {
                        let default = p
                            .default
                            .map(|d| format!(" (default {d})"))
                            .unwrap_or_default();
                        println!("    {}:{:<18} {}{default}", e.name, p.syntax, p.doc);
                    }
                }
                if !d.levels().is_empty() {
                    println!("  levels (level:N or level:NAME):");
                    for l in d.levels() {
                        println!(
                            "    {} {:<9} {:<22} {}",
                            l.number, l.name, l.spec, l.summary
                        );
                    }
                }
            }
            println!(
                "\nSpell an agent NAME or NAME:PARAM:PARAM (PARAM is KEY=VALUE or a flag); \
                 separate agents with commas.\nEvery agent but ext also takes blunder=P: a random \
                 legal move with probability P (0-1)."
            );
        }
    }
    Ok(())
}
