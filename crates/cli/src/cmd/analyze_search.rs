//! `tessera analyze azul-search --seed S`: the blog seed's search tables for any deal.
//!
//! 1. "Comparison": leaf nodes evaluated at each depth of iterative deepening at the first
//!    turn of a two-player game, for minimax, alpha-beta and alpha-beta with presorting
//!    (the blog's value function; the end of the round is a leaf).
//! 2. Per turn: one round between two players of the same search at a fixed time per move
//!    (default minimax at 1 s, as in the blog): turn, depth reached, legal moves, leaves of
//!    the last completed depth, and whether that depth reached the end of the round
//!    everywhere ("full depth").

use std::time::Duration;

use anyhow::{Result, bail};
use tessera_azul::AzulState;
use tessera_azul::eval::blog_values;
use tessera_core::record::GameSeeds;
use tessera_core::{Game, PerPlayer, Turn};
use tessera_search::adversarial::{Algorithm, FnEvaluator, Limits, SearchConfig, Searcher, Value};

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game seed (the deal and starting player come from it, as in a tournament game).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Deepest depth of the comparison table for alpha-beta and presort.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Deepest depth for minimax (4 evaluates tens of millions of leaves).
    #[arg(long, default_value_t = 3)]
    pub minimax_depth: u32,
    /// Search of the per-turn table: minimax, alphabeta or presort.
    #[arg(long, value_enum, default_value_t = SearchPlayer::Minimax)]
    pub player: SearchPlayer,
    /// Time per move in the per-turn table, e.g. 1s or 250ms.
    #[arg(long, default_value = "1s", value_parser = parse_time)]
    pub time: Duration,
    /// Skip the per-turn table.
    #[arg(long)]
    pub no_turns: bool,
}

type BlogFn = fn(&AzulState) -> PerPlayer<Value>;

fn searcher(alg: Algorithm) -> Searcher<AzulState, FnEvaluator<BlogFn>> {
    Searcher::new(FnEvaluator(blog_values as BlogFn), SearchConfig::new(alg))
}

/// The searches of the per-turn table.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchPlayer {
    /// Plain minimax.
    Minimax,
    /// Alpha-beta.
    Alphabeta,
    /// Alpha-beta with presorted moves.
    Presort,
}

impl SearchPlayer {
    fn algorithm(self) -> Algorithm {
        match self {
            SearchPlayer::Minimax => Algorithm::Minimax,
            SearchPlayer::Alphabeta => Algorithm::AlphaBeta,
            SearchPlayer::Presort => Algorithm::Presort,
        }
    }

    fn name(self) -> &'static str {
        match self {
            SearchPlayer::Minimax => "minimax",
            SearchPlayer::Alphabeta => "alphabeta",
            SearchPlayer::Presort => "presort",
        }
    }
}

/// `--time`: whole seconds or milliseconds (`1s`, `250ms`, a bare number is seconds).
pub(crate) fn parse_time(t: &str) -> Result<Duration, String> {
    let bad = || format!("'{t}': expected a duration such as 1s or 250ms");
    let (num, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let n: u64 = num.parse().map_err(|_| bad())?;
    match unit {
        "ms" => Ok(Duration::from_millis(n)),
        "s" | "" => Ok(Duration::from_secs(n)),
        _ => Err(bad()),
    }
}

/// `1s` or `250ms`, as `--time` is written.
fn humantime(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

/// The position at the first turn of game `seed` (two players), as a tournament deals it.
pub fn first_turn(seed: u64) -> AzulState {
    let seeds = GameSeeds { seed };
    let mut s = AzulState::new_random(2, &mut seeds.setup_rng());
    let deal = s.sample_chance(&mut seeds.chance_rng());
    // A sampled deal is always possible.
    if s.apply_chance(&deal).is_err() {
        unreachable!("sampled deal rejected");
    }
    s
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    if args.depth == 0 || args.depth > 8 || args.minimax_depth > 6 {
        bail!("--depth must be 1-8 and --minimax-depth 0-6");
    }
    let alg = args.player.algorithm();
    let time = args.time;
    let start = first_turn(args.seed);
    println!("# Azul search analysis, seed {}\n", args.seed);
    println!(
        "First turn: {} legal moves. Position: `{start}`\n",
        start.num_legal_actions()
    );
    println!("## Comparison: leaf nodes evaluated per depth at the first turn\n");
    let header: Vec<String> = (1..=args.depth).map(|d| d.to_string()).collect();
    println!("| Method | {} | time |", header.join(" | "));
    println!("|---|{}---|", "---|".repeat(args.depth as usize));
    for (name, a, max) in [
        ("Minimax", Algorithm::Minimax, args.minimax_depth),
        ("Alpha-beta pruning", Algorithm::AlphaBeta, args.depth),
        ("Alpha-beta + presort", Algorithm::Presort, args.depth),
    ] {
        let mut cells = Vec::new();
        let mut total = Duration::ZERO;
        if a == Algorithm::Presort {
            let r = searcher(a).search(
                &start,
                &Limits {
                    depth: Some(max),
                    ..Limits::default()
                },
            );
            for it in &r.iterations {
                cells.push(it.leaves.to_string());
            }
            total = r.elapsed;
        } else {
            for d in 1..=max {
                let r = searcher(a).search_depth(&start, d);
                cells.push(r.leaves.to_string());
                total += r.elapsed;
            }
        }
        while cells.len() < args.depth as usize {
            cells.push("n/a".into());
        }
        println!(
            "| {name} | {} | {:.2} s |",
            cells.join(" | "),
            total.as_secs_f64()
        );
    }
    println!("| *blog: Minimax* | 84 | 6552 | 396552 | N/A | |");
    println!("| *blog: Alpha-beta* | 84 | 393 | 9401 | 41275 | |");
    println!("| *blog: Alpha-beta + presort* | 84 | 316 | 7373 | 36754 | |");
    if args.no_turns {
        return Ok(());
    }
    println!(
        "\n## One round, {} for both players at {} per move\n",
        args.player.name(),
        humantime(args.time)
    );
    println!("| Turn | Depth | Moves | Leaf nodes | Full depth |");
    println!("|---|---|---|---|---|");
    let mut s = start;
    let mut searcher = searcher(alg);
    let mut turn = 1;
    while let Turn::Player(_) = s.turn() {
        let r = searcher.search(
            &s,
            &Limits {
                time: Some(time),
                ..Limits::default()
            },
        );
        let last = r
            .iterations
            .iter()
            .rev()
            .find(|i| i.completed)
            .map_or(0, |i| i.leaves);
        println!(
            "| {turn} | {} | {} | {last} | {} |",
            r.depth,
            r.root_moves,
            if r.full_depth { "yes" } else { "no" }
        );
        let Some(best) = r.best else { break };
        s.apply(best);
        turn += 1;
    }
    Ok(())
}
