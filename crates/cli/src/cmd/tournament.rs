//! `tessera tournament GAME --agents A,B ...`: play a seeded tournament, store every game,
//! print the results.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, bail};
use tessera_arena::analysis::Anchor;
use tessera_arena::report::{Format, clock_text, render};
use tessera_arena::runner::{Progress, RunOptions, check_jobs, prepare, run_prepared};
use tessera_arena::schedule::{RunParams, Shard, parse_sprt};
use tessera_arena::sprt::SprtParams;
use tessera_house::spec::AgentSpec;

use super::values::GameName;
use tessera_arena::store::Store;
use tessera_core::Clock;
use tessera_core::table::FaultKind;

/// Arguments of `tessera tournament`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  tessera tournament azul --agents smart,greedy --games 1000 --series 5 --seed 7 --jobs 2
  tessera tournament azul --agents greedy,smart,strategic --players 2   (round robin)
  tessera tournament azul --agents greedy,greedy --games 10000 --unpaired   (self-play)
  tessera tournament azul --agents smart,greedy --games 1000 --shard 3/8 --db shard3.sqlite
  tessera tournament azul --agents strong:depth=1,greedy --games 20000 --sprt elo0=0,elo1=10
  tessera tournament azul --agents random,greedy,smart,strategic --gauntlet smart --anchor random=0
  tessera tournament azul --agents augur,strong --clock 60s+1s --jobs 1   (a game clock)")]
pub struct Args {
    /// The game (`tessera agents` lists every registered game and its players).
    #[arg(value_parser = super::values::game())]
    pub game: GameName,
    /// Comma-separated agents, e.g. smart,greedy or strategic:diagonal,smart. More agents
    /// than seats make a round robin over every table of --players of them.
    #[arg(long, required = true, value_delimiter = ',')]
    pub agents: Vec<AgentSpec>,
    /// Seats per table (from the fewest to the most the game is played by).
    #[arg(long, default_value_t = 2, value_parser = super::values::players_of_any_game())]
    pub players: usize,
    /// Games per table and series (with --sprt: the most games to play).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Series per table (the thesis plays series of 1000 games).
    #[arg(long, default_value_t = 1)]
    pub series: u32,
    /// Master seed: game seeds derive from it, so a run is reproducible.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core; at most 4 per core).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Sequential test of two agents: play deal pairs until the log-likelihood ratio
    /// crosses a bound: elo0=E0,elo1=E1[,alpha=0.05][,beta=0.05][,model=logistic|normalized].
    /// --games is then the maximum.
    #[arg(long, value_parser = parse_sprt_arg)]
    pub sprt: Option<SprtParams>,
    /// A gauntlet: this agent plays every other agent (who do not play each other). It is
    /// put first in --agents if it is not listed.
    #[arg(long)]
    pub gauntlet: Option<AgentSpec>,
    /// The rating fixed in a round robin's or gauntlet's ratings, NAME=RATING (default:
    /// random=0 if random plays, else the first agent at 0).
    #[arg(long)]
    pub anchor: Option<Anchor>,
    /// The SQLite results file (created if missing).
    #[arg(long, default_value = "tessera.sqlite")]
    pub db: PathBuf,
    /// Complete a stopped run with the same parameters, without replaying stored games.
    #[arg(long)]
    pub resume: bool,
    /// Play only slice K of N of the run (whole deals; K from 1), e.g. 2/8. Merge the
    /// slices' files with `tessera merge`.
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    /// Every game its own deal, seated in list order (no seat swapping); for self-play.
    #[arg(long)]
    pub unpaired: bool,
    /// A game clock for every seat, BASE[+INCREMENT]: 60s+1s, 5m, 90s+0.5s. The clock
    /// replaces the per-move budget: each move's time comes from the seat's time manager
    /// (forced moves are instant; `depth=`/`nodes=` still bind), and an external engine is
    /// sent the clocks (`go wtime ... btime ...`). Only an agent whose specification
    /// names its own `time=` keeps it: a fixed per-move player, off the clock (its time
    /// is recorded, its flag never falls). A seat whose time runs out loses the game (a
    /// flag loss, counted below the table).
    #[arg(long)]
    pub clock: Option<Clock>,
    /// Output format: table, csv or json.
    #[arg(long, default_value = "table", value_parser = super::values::format)]
    pub format: Format,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

struct Bar(Option<indicatif::ProgressBar>);

impl Progress for Bar {
    fn start(&mut self, total: u64, done: u64) {
        if let Some(b) = &self.0 {
            b.set_length(total);
            b.set_position(done);
            b.reset_eta();
        }
    }
    fn advance(&mut self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }
    fn message(&mut self, text: &str) {
        if let Some(b) = &self.0 {
            b.set_message(text.to_string());
        }
    }
    fn finish(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

fn bar(quiet: bool) -> Bar {
    if quiet || !std::io::stderr().is_terminal() {
        return Bar(None);
    }
    let b = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} games ({per_sec}, eta {eta}) {msg}",
    ) {
        b.set_style(style);
    }
    Bar(Some(b))
}

/// `--sprt`: the test's parameters.
fn parse_sprt_arg(text: &str) -> Result<SprtParams, String> {
    parse_sprt(text).map_err(|e| e.to_string())
}

/// Runs `tessera tournament`.
pub fn run(a: Args) -> Result<()> {
    let format = a.format;
    let shard = a.shard;
    let driver = a.game.driver()?;
    check_jobs(a.jobs)?;
    let mut agents: Vec<&str> = a.agents.iter().map(|s| s.text.as_str()).collect();
    if let Some(g) = &a.gauntlet {
        let g = g.text.as_str();
        match agents.iter().position(|x| *x == g) {
            Some(i) => {
                let centre = agents.remove(i);
                agents.insert(0, centre);
            }
            None => agents.insert(0, g),
        }
    }
    let mut params = RunParams::new(a.game.0, &agents, a.players, a.games, a.series, a.seed);
    params.paired = !a.unpaired;
    params.gauntlet = a.gauntlet.is_some();
    params.sprt = a.sprt;
    params.clock = a.clock;
    if params.sprt.is_some() && shard != Shard::ALL {
        bail!("--sprt decides from every pair in order, so it cannot be split with --shard");
    }
    let anchor = a.anchor;
    if let Some(anchor) = &anchor {
        anchor.index(&params.labels())?;
    }
    // Check everything, and build the first worker's agents, before touching the file.
    let prepared = prepare(driver.as_ref(), &params)?;
    let mut store = Store::open(&a.db)?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // Ctrl-C once: finish the games in flight, store them, stop. Twice: quit now.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nstopping: storing finished games (Ctrl-C again to quit at once)");
    });
    let opts = RunOptions {
        jobs: a.jobs,
        shard,
        resume: a.resume,
        stop,
        anchor,
        ..RunOptions::default()
    };
    let mut progress = bar(a.quiet);
    let report = run_prepared(
        driver.as_ref(),
        &params,
        prepared,
        &mut store,
        &opts,
        &mut progress,
    )?;
    print!(
        "{}",
        render(&report.run, &report.summary, &report.analysis, format)
    );
    let faults: Vec<_> = report
        .faults
        .iter()
        .filter(|(_, kind, _)| *kind != FaultKind::Flag)
        .collect();
    if format == Format::Table {
        print!("{}", clock_text(&report.run.params, &report.faults));
        if !faults.is_empty() {
            println!("\nAgent faults (a fallback move was played; details stored with the games):");
            for (agent, kind, n) in &faults {
                println!("  {agent}: {n} {kind}");
            }
        }
        println!(
            "\n{} games played now, {} stored in {} (run {})",
            report.played,
            report.run.done,
            a.db.display(),
            report.run.id
        );
    } else if !report.faults.is_empty() {
        for (agent, kind, n) in &report.faults {
            eprintln!("agent faults: {agent}: {n} {kind}");
        }
    }
    Ok(())
}
