//! `tessera solve tiles`: solve Match the Tiles levels with any solver and heuristic, print
//! per-run statistics, the seed's Experimental Results tables, or JSON.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Serialize;
use tessera_core::rng::{derive_seed, seeded};
use tessera_search::single::{self, Algorithm, Options, SearchResult, Status};
use tessera_tiles::generator::{GenConfig, GenError, generate};
use tessera_tiles::{Dir, Heuristic, Level, builtin_levels, format_moves, parse_levels};

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Level number (1-12 built in, or the n-th level of --file).
    #[arg(long, conflicts_with = "all")]
    level: Option<usize>,
    /// A level file (one or many levels, the format of the shipped level file).
    #[arg(long)]
    file: Option<PathBuf>,
    /// Every level (of --file, or the 12 built-in ones).
    #[arg(long)]
    all: bool,
    /// Solvers, comma-separated: bfs, dfs, iddfs, greedy:H, astar:H, idastar:H with H one of
    /// admissible, manhattan, direction, alignment, random[:SEED], zero; or `seed` for the
    /// seed's set plus A*/IDA* with the admissible heuristic. Default: astar:admissible
    /// (seed with --table).
    #[arg(long, value_parser = parse_solvers)]
    algo: Option<Vec<Solver>>,
    /// Print the seed's Experimental Results table (per solver: time, visited nodes, moves,
    /// memory per level).
    #[arg(long)]
    table: bool,
    /// Solve this many generated levels instead (see --size, --colours, --density, --optimal,
    /// --seed).
    #[arg(long, conflicts_with_all = ["level", "file", "all"])]
    generate: Option<u64>,
    /// Generated levels: side of the square grid.
    #[arg(long, default_value_t = 6)]
    size: usize,
    /// Generated levels: number of colours (one piece each).
    #[arg(long, default_value_t = 3)]
    colours: usize,
    /// Generated levels: probability that a cell is an obstacle.
    #[arg(long, default_value_t = 0.15)]
    density: f64,
    /// Generated levels: wanted optimum (lowered for a layout that cannot reach it).
    #[arg(long, default_value_t = 10)]
    optimal: u32,
    /// Generated levels: master seed (level i uses derive_seed(seed, i)).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the levels (generated or loaded) in the file format instead of solving them.
    #[arg(long)]
    print_levels: bool,
    /// Text output: one summary line per solver (totals, optimality) instead of one per run.
    #[arg(long)]
    summary: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Generate the move opposite to the previous one too (by default it is skipped).
    #[arg(long)]
    no_skip_opposite: bool,
    /// Depth cap of DFS.
    #[arg(long, default_value_t = 20)]
    depth_cap: u32,
    /// Deepest iteration of IDDFS / largest bound of IDA*.
    #[arg(long, default_value_t = 100)]
    max_depth: u32,
    /// Stop a run after this many expanded nodes (0: no limit). The default keeps IDDFS and
    /// IDA* from running for ages on unsolvable levels (they then re-search forever deeper
    /// paths) and bounds the memory of the graph searches.
    #[arg(long, default_value_t = 10_000_000)]
    node_limit: u64,
    /// Most positions the breadth-first search keeps when it finds a level's optimum (for
    /// levels whose file gives none; about 40 bytes each).
    #[arg(long, default_value_t = tessera_tiles::DEFAULT_STATE_LIMIT)]
    limit: usize,
}

/// Output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

/// A solver with its heuristic, e.g. `astar:direction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solver {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The heuristic (ignored by uninformed algorithms).
    pub heuristic: Heuristic,
}

impl Solver {
    /// Reads `ALGO[:HEURISTIC]`.
    pub fn parse(s: &str) -> Result<Solver> {
        let (a, h) = match s.split_once(':') {
            Some((a, h)) => (a, Some(h)),
            None => (s, None),
        };
        let algorithm: Algorithm = a.parse()?;
        let heuristic = match h {
            Some(h) if !algorithm.uses_heuristic() => {
                bail!("{algorithm} uses no heuristic, but {h:?} was given in {s:?}")
            }
            Some(h) => h.parse()?,
            None if algorithm.uses_heuristic() => Heuristic::Admissible,
            None => Heuristic::Zero,
        };
        Ok(Solver {
            algorithm,
            heuristic,
        })
    }

    /// `astar:direction`, `bfs`, ...
    pub fn name(&self) -> String {
        if self.algorithm.uses_heuristic() {
            format!("{}:{}", self.algorithm, self.heuristic)
        } else {
            self.algorithm.to_string()
        }
    }

    /// The seed's title for this solver's table.
    fn title(&self) -> String {
        let algo = match self.algorithm {
            Algorithm::Bfs => return "BFS/Uniform Cost".into(),
            Algorithm::Dfs => return "DFS".into(),
            Algorithm::Iddfs => return "Iterative Deepening".into(),
            Algorithm::Greedy => "Greedy",
            Algorithm::AStar => "A*",
            Algorithm::IdaStar => "IDA*",
        };
        format!("{algo} with {} heuristic", self.heuristic)
    }

    /// True if this solver's solutions are proven shortest.
    pub fn is_optimal(&self) -> bool {
        self.algorithm.is_optimal(self.heuristic.is_admissible())
    }

    /// Runs it on `level`.
    pub fn run(&self, level: &Level, options: &Options) -> SearchResult<Dir> {
        let h = self.heuristic;
        single::solve(level, self.algorithm, |s| h.evaluate(level, s), options)
    }
}

/// The seed's solvers in its table order, then ours.
pub const SEED_SOLVERS: &str = "bfs,dfs,iddfs,greedy:manhattan,greedy:direction,greedy:alignment,greedy:random,astar:manhattan,astar:direction,astar:alignment,astar:random,astar:admissible,idastar:admissible";

/// Reads a level file, or the built-in levels, with errors naming the file.
pub fn load_levels(file: Option<&Path>) -> Result<Vec<Level>> {
    match file {
        None => Ok(builtin_levels().to_vec()),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read level file {}", path.display()))?;
            parse_levels(&text).with_context(|| format!("{}: bad level file", path.display()))
        }
    }
}

/// `--algo`: comma-separated solvers, or `seed` (or `all`) for the seed's set.
fn parse_solvers(text: &str) -> Result<Vec<Solver>, String> {
    let text = if text == "seed" || text == "all" {
        SEED_SOLVERS
    } else {
        text
    };
    text.split(',')
        .map(|s| Solver::parse(s.trim()).map_err(|e| e.to_string()))
        .collect()
}

/// Picks level `number` (1-based) of `levels`.
pub fn pick_level(levels: Vec<Level>, number: usize, source: &str) -> Result<Level> {
    let n = levels.len();
    match number
        .checked_sub(1)
        .and_then(|i| levels.into_iter().nth(i))
    {
        Some(l) => Ok(l),
        None => bail!("no level {number} in {source}: levels are numbered 1 to {n}"),
    }
}

#[derive(Serialize)]
struct Row {
    level: String,
    solver: String,
    status: Status,
    moves: Option<usize>,
    solution: Option<String>,
    optimal: Option<usize>,
    proven_optimal: bool,
    expanded: u64,
    generated: u64,
    iterations: u32,
    peak_bytes: usize,
    time_ms: f64,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let source = args
        .file
        .as_ref()
        .map_or("the built-in levels".to_string(), |p| {
            p.display().to_string()
        });
    let levels = if let Some(n) = args.generate {
        generate_levels(n, &args)?
    } else {
        let levels = load_levels(args.file.as_deref())?;
        match (args.level, args.all) {
            (Some(n), _) => vec![pick_level(levels, n, &source)?],
            (None, true) => levels,
            (None, false) if args.file.is_some() => levels,
            (None, false) => {
                bail!("say which level: --level N (1-12), --all, --file PATH or --generate N")
            }
        }
    };
    if args.print_levels {
        let text: String = levels.iter().map(|l| format!("{l}\n")).collect();
        return write_stdout(&text);
    }
    let solvers = match (&args.algo, args.table) {
        (Some(a), _) => a.clone(),
        (None, true) => parse_solvers(SEED_SOLVERS).map_err(anyhow::Error::msg)?,
        (None, false) => parse_solvers("astar:admissible").map_err(anyhow::Error::msg)?,
    };
    let options = Options {
        skip_opposite: !args.no_skip_opposite,
        dfs_depth_cap: args.depth_cap,
        max_depth: args.max_depth,
        node_limit: (args.node_limit > 0).then_some(args.node_limit),
        deadline: None,
    };
    // The optimum of each level: from its header, else from BFS.
    let optima: Vec<Option<usize>> = levels
        .iter()
        .map(|l| match l.known_optimal() {
            Some(o) => Ok(Some(o as usize)),
            None => l
                .optimal_length_within(args.limit)
                .map_err(|e| limit_error(e, args.limit))
                .with_context(|| format!("level {}", l.name())),
        })
        .collect::<Result<_>>()?;
    let mut rows = Vec::new();
    for solver in &solvers {
        for (level, &optimal) in levels.iter().zip(&optima) {
            let r = solver.run(level, &options);
            if let Some(sol) = &r.solution
                && !level.is_solution(sol)
            {
                bail!(
                    "internal error: {} returned a non-solution on level {}",
                    solver.name(),
                    level.name()
                );
            }
            rows.push(Row {
                level: level.name().to_string(),
                solver: solver.name(),
                status: r.status,
                moves: r.solution_len(),
                solution: r.solution.as_deref().map(format_moves),
                optimal,
                proven_optimal: solver.is_optimal() && r.status == Status::Solved,
                expanded: r.stats.expanded,
                generated: r.stats.generated,
                iterations: r.stats.iterations,
                peak_bytes: r.stats.peak_bytes,
                time_ms: r.stats.elapsed.as_secs_f64() * 1e3,
            });
        }
    }
    let mut out = String::new();
    match args.format {
        Format::Json => {
            out = serde_json::to_string_pretty(&rows)?;
            out.push('\n');
        }
        Format::Text if args.table => print_tables(&mut out, &solvers, &rows, levels.len()),
        Format::Text if args.summary => print_summary(&mut out, &solvers, &rows, levels.len()),
        Format::Text => {
            for r in &rows {
                let moves = match (r.moves, r.optimal) {
                    (Some(m), Some(o)) if m > o => format!("{m} (optimum {o})"),
                    (Some(m), _) => format!("{m}"),
                    (None, _) => format!("none ({:?})", r.status),
                };
                let _ = writeln!(
                    out,
                    "level {:<3} {:<20} moves {:<14} {:<22} expanded {:<8} generated {:<8} memory {:>9} B  time {:.3} ms",
                    r.level,
                    r.solver,
                    moves,
                    r.solution.as_deref().unwrap_or("-"),
                    r.expanded,
                    r.generated,
                    r.peak_bytes,
                    r.time_ms
                );
            }
        }
    }
    write_stdout(&out)
}

/// Generates `n` levels from the arguments' settings.
fn generate_levels(n: u64, args: &Args) -> Result<Vec<Level>> {
    (0..n)
        .map(|i| {
            let mut rng = seeded(derive_seed(args.seed, i));
            let mut cfg = GenConfig::new(args.size, args.colours, args.optimal);
            cfg.obstacle_density = args.density;
            loop {
                match generate(&cfg, &mut rng) {
                    Ok(mut level) => {
                        level.set_name(format!("g{i}"));
                        return Ok(level);
                    }
                    Err(GenError::NotFound { .. }) if cfg.optimal > 1 => cfg.optimal -= 1,
                    Err(e) => return Err(e.into()),
                }
            }
        })
        .collect()
}

fn print_summary(out: &mut String, solvers: &[Solver], rows: &[Row], per_solver: usize) {
    let _ = writeln!(
        out,
        "| solver | levels solved | optimal | mean excess moves | expanded (total) | generated (total) | mean peak bytes | time (ms, total) |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|");
    for (solver, chunk) in solvers.iter().zip(rows.chunks(per_solver)) {
        let solved = chunk.iter().filter(|r| r.moves.is_some()).count();
        let optimal = chunk
            .iter()
            .filter(|r| r.moves.is_some() && r.moves == r.optimal)
            .count();
        let excess: usize = chunk
            .iter()
            .filter_map(|r| Some(r.moves?.saturating_sub(r.optimal?)))
            .sum();
        let expanded: u64 = chunk.iter().map(|r| r.expanded).sum();
        let generated: u64 = chunk.iter().map(|r| r.generated).sum();
        let bytes: usize = chunk.iter().map(|r| r.peak_bytes).sum();
        let time: f64 = chunk.iter().map(|r| r.time_ms).sum();
        let _ = writeln!(
            out,
            "| {} | {solved}/{} | {optimal} | {:.3} | {expanded} | {generated} | {:.0} | {time:.2} |",
            solver.name(),
            chunk.len(),
            excess as f64 / solved.max(1) as f64,
            bytes as f64 / chunk.len().max(1) as f64,
        );
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error.
pub fn write_stdout(text: &str) -> Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}

fn print_tables(out: &mut String, solvers: &[Solver], rows: &[Row], per_solver: usize) {
    let _ = writeln!(
        out,
        "Experimental Results (visited nodes = expanded nodes; memory = peak bytes of the"
    );
    let _ = writeln!(
        out,
        "search's containers; moves marked + exceed the optimum by that much)"
    );
    for (solver, chunk) in solvers.iter().zip(rows.chunks(per_solver)) {
        let _ = writeln!(out);
        let _ = writeln!(out, "{}", solver.title());
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "| level | t(ms) | visited nodes | generated | moves | memory (byte) |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|");
        for r in chunk {
            let moves = match (r.moves, r.optimal) {
                (Some(m), Some(o)) if m > o => format!("{m} (+{})", m - o),
                (Some(m), _) => m.to_string(),
                (None, _) => "-".to_string(),
            };
            let _ = writeln!(
                out,
                "| Lv{} | {:.3} | {} | {} | {} | {} |",
                r.level, r.time_ms, r.expanded, r.generated, moves, r.peak_bytes
            );
        }
    }
}

/// The solver's limit error with the option that raises it.
pub fn limit_error(e: tessera_tiles::StateLimit, limit: usize) -> anyhow::Error {
    anyhow::anyhow!(
        "the solver stopped: {e}. Raise it with --limit N (now {limit}; each position takes about 40 bytes)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_names() {
        let s = Solver::parse("astar:direction").unwrap();
        assert_eq!(
            (s.algorithm, s.heuristic),
            (Algorithm::AStar, Heuristic::Direction)
        );
        assert_eq!(
            Solver::parse("idastar").unwrap().heuristic,
            Heuristic::Admissible
        );
        assert_eq!(
            Solver::parse("greedy:random:7").unwrap().name(),
            "greedy:random:7"
        );
        assert!(Solver::parse("bfs:manhattan").is_err());
        assert!(Solver::parse("astar:nope").is_err());
        for name in SEED_SOLVERS.split(',') {
            assert_eq!(Solver::parse(name).unwrap().name(), name);
        }
    }

    #[test]
    fn the_seed_table_covers_every_solver_and_level() {
        let solvers: Vec<Solver> = SEED_SOLVERS
            .split(',')
            .map(|s| Solver::parse(s).unwrap())
            .collect();
        let levels = builtin_levels();
        let mut rows = Vec::new();
        for solver in &solvers {
            for level in levels {
                let r = solver.run(level, &Options::default());
                assert!(level.is_solution(r.solution.as_deref().unwrap()));
                rows.push(Row {
                    level: level.name().into(),
                    solver: solver.name(),
                    status: r.status,
                    moves: r.solution_len(),
                    solution: None,
                    optimal: level.known_optimal().map(|o| o as usize),
                    proven_optimal: solver.is_optimal(),
                    expanded: r.stats.expanded,
                    generated: r.stats.generated,
                    iterations: r.stats.iterations,
                    peak_bytes: r.stats.peak_bytes,
                    time_ms: 0.0,
                });
            }
        }
        let mut out = String::new();
        print_tables(&mut out, &solvers, &rows, levels.len());
        assert_eq!(out.matches("| Lv12 |").count(), solvers.len());
        assert!(out.contains("A* with direction heuristic"));
        assert!(out.contains("BFS/Uniform Cost"));
    }
}
