//! `tessera report --db FILE`: the results table of a stored run and its charts.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use tessera_arena::analysis::{Anchor, analyze};
use tessera_arena::report::{Format, clock_text, deviation_svg, render, winrate_svg};
use tessera_arena::runner::fault_counts;
use tessera_arena::stats::{FIGURE20_SIZES, deviation_curve, summarize};
use tessera_arena::store::Store;

/// Arguments of `tessera report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The SQLite results file.
    #[arg(long, default_value = "tessera.sqlite")]
    pub db: PathBuf,
    /// The run (default: the only or the latest one); `--list` shows them.
    #[arg(long)]
    pub run: Option<i64>,
    /// List the runs in the file and exit.
    #[arg(long)]
    pub list: bool,
    /// The rating fixed in a round robin's or gauntlet's ratings, NAME=RATING (default:
    /// random=0 if random plays, else the first agent at 0).
    #[arg(long)]
    pub anchor: Option<Anchor>,
    /// Output format of the table: table, csv or json.
    #[arg(long, default_value = "table", value_parser = super::values::format)]
    pub format: Format,
    /// Directory for the charts (created if missing).
    #[arg(long, default_value = "report")]
    pub out: PathBuf,
    /// Chart files: svg or none.
    #[arg(long, value_enum, default_value_t = Charts::Svg)]
    pub charts: Charts,
    /// Also draw Figure 20 (deviation from 50% against games) for a two-agent run; done
    /// by default for self-play runs (the same agent listed twice).
    #[arg(long)]
    pub figure20: bool,
}

/// The chart files `--charts` asks for.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charts {
    /// SVG files.
    Svg,
    /// No charts.
    None,
}

/// Runs `tessera report`.
pub fn run(a: Args) -> Result<()> {
    let format = a.format;
    let anchor = a.anchor.clone();
    let svg = a.charts == Charts::Svg;
    let store = Store::open_read(&a.db)?;
    let runs = store.runs()?;
    if a.list {
        for r in &runs {
            println!(
                "run {} (created {}, shard {}): {} of {} games: {}",
                r.id,
                r.created,
                r.shard,
                r.done,
                r.total,
                r.params.command_line()
            );
        }
        return Ok(());
    }
    let run = match a.run {
        Some(id) => store.run(id)?,
        None => match runs.last() {
            Some(r) => r.clone(),
            None => bail!("{} holds no runs", a.db.display()),
        },
    };
    let rows = store.rows(run.id)?;
    let summary = summarize(&run.params.labels(), &run.params.tables(), &rows);
    let analysis = analyze(&run.params, &rows, anchor.as_ref())?;
    print!("{}", render(&run, &summary, &analysis, format));
    if format == Format::Table {
        let faults = fault_counts(&run.params, &store, run.id)?;
        print!("{}", clock_text(&run.params, &faults));
    }
    if !svg {
        return Ok(());
    }
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create directory {}", a.out.display()))?;
    let mut charts = vec![(
        format!("run{}-winrate", run.id),
        winrate_svg(&run, &summary),
    )];
    let self_play = run.params.agents.len() == 2 && run.params.agents[0] == run.params.agents[1];
    if (a.figure20 || self_play) && run.params.agents.len() == 2 {
        let rewards: Vec<f64> = rows
            .iter()
            .map(|g| {
                g.seats
                    .iter()
                    .position(|&s| s == 0)
                    .map_or(0.0, |seat| g.reward(seat))
            })
            .collect();
        let points = deviation_curve(&rewards, &FIGURE20_SIZES);
        let title = format!(
            "{} ({} games; {} for agent 1)",
            run.params.command_line(),
            rows.len(),
            run.params.labels()[0]
        );
        charts.push((
            format!("run{}-figure20", run.id),
            deviation_svg(&title, &points),
        ));
        if format == Format::Table {
            println!("\nFigure 20 (mean |win rate - 50%| over disjoint blocks of games):");
            println!(
                "{:>8}  {:>7}  {:>10}  {:>10}",
                "games", "blocks", "measured", "fair coin"
            );
            for p in &points {
                println!(
                    "{:>8}  {:>7}  {:>9.2}%  {:>9.2}%",
                    p.games,
                    p.blocks,
                    100.0 * p.mean_deviation,
                    100.0 * p.fair_coin
                );
            }
        }
    }
    for (name, text) in charts {
        let path = a.out.join(format!("{name}.svg"));
        std::fs::write(&path, &text).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
