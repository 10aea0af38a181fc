//! `tessera analyze azul-wall ...`: the thesis' wall analysis (seed 000, section 3).

use std::time::Instant;

use anyhow::{Context, Result, bail};
use tessera_azul::wall::brute::{BruteForce, MAX_FREE_CELLS};
use tessera_azul::wall::dp::FULL_WALL_BONUS_5;
use tessera_azul::wall::grid::score_cells;
use tessera_azul::wall::separable::{self, Obstruction, Verdict, compare_deciders};
use tessera_azul::wall::symmetry::{brute_orbits, burnside};
use tessera_azul::wall::tiling::{
    Decision, MAX_PERM_SIDE, PartialPerm, count_separable, count_yes_plain, count_yes_pruned,
    decide_closure, decide_patterns, schroder,
};
use tessera_azul::wall::{Picture, TilingOrder, WallDp};

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: WallCommand,
}

#[derive(clap::Subcommand, Debug)]
enum WallCommand {
    /// Best and worst full-wall scores for n x n walls, the exact number of orders reaching
    /// each, and one order of each as grids (thesis Figures 7 and 16).
    Scores {
        /// Only this side (1..=5); all of 1..=5 if omitted.
        #[arg(long)]
        n: Option<usize>,
        /// Also enumerate every order (sides up to 3) and compare.
        #[arg(long)]
        brute: bool,
        /// Leave out the order grids.
        #[arg(long)]
        no_orders: bool,
    },
    /// Best and worst completions of a partial wall, with counts and an order of each.
    /// WALL: rows separated by '/', '#' covered, '.' empty (e.g. "#..../...../....."), or
    /// the thesis' bit string of n^2 characters (Figure 12).
    Partial {
        /// The partial wall.
        wall: Picture,
        /// Also enumerate every order (at most 10 empty cells) and compare.
        #[arg(long)]
        brute: bool,
    },
    /// Score a complete tiling order given as a grid of placement numbers, rows separated by
    /// '/' (e.g. the thesis' Figure 7: "25 24 23 22 11/21 20 19 7 12/...").
    Order {
        /// The grid of placement numbers.
        #[arg(value_parser = order_grid)]
        grid: TilingOrder,
    },
    /// Decide an OptimalAzulTiling instance and show why. INSTANCE: the thesis' notation,
    /// 1-based columns per row, '_' for an empty row: "(2,5,1,_,_)" (any side up to 3000
    /// with the default decider). Yes: a completion and an optimal tiling order, replayed by
    /// the wall scorer. No: an obstruction.
    Decide {
        /// The instance (or use --file).
        #[arg(required_unless_present = "file", conflicts_with = "file")]
        instance: Option<PartialPerm>,
        /// Read the instance from this file (same notation; line breaks allowed).
        #[arg(long)]
        file: Option<std::path::PathBuf>,
        /// Which decider: separable = (c), polynomial (default); closure = (a) and patterns =
        /// (b), the thesis' searches over all completions (sides up to 16); all = all three.
        #[arg(long, value_enum, default_value_t = DeciderChoice::Separable)]
        decider: DeciderChoice,
        /// Print the order's grid of placement numbers even for sides above 20.
        #[arg(long)]
        grid: bool,
        /// Search a no-instance's obstruction even for sides above 200 (one decider run
        /// per given tile).
        #[arg(long)]
        obstruction: bool,
        /// Replay the order with the wall scorer even for sides above 1000 (the reference
        /// scorer walks rows and columns: O(n^3)).
        #[arg(long)]
        replay: bool,
    },
    /// Print a random OptimalAzulTiling instance in the thesis' notation (for `decide
    /// --file`): `yes` hides rows of a random separable permutation (always a yes-instance),
    /// `random` hides rows of a uniform random permutation (for n >= 10 and half the rows
    /// given almost always a no-instance).
    Instance {
        /// The side.
        #[arg(long)]
        n: usize,
        /// How many rows keep their tile (default: half).
        #[arg(long)]
        keep: Option<usize>,
        /// yes or random.
        #[arg(long, value_enum, default_value_t = InstanceKind::Yes)]
        kind: InstanceKind,
        /// The seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The thesis' Table 1: yes-instances among all n! permutations by decider (a), beside
    /// the Schröder numbers, with the time each n took.
    Table1 {
        /// The largest n (at most 16; 13 takes about a minute, 14 several).
        #[arg(long, default_value_t = 12)]
        max_n: usize,
        /// Also count every permutation one by one (prefix-shared closures, no memo) up to
        /// this n (12 takes seconds, 13 about a minute, 14 far longer).
        #[arg(long, default_value_t = 11)]
        plain_up_to: usize,
        /// Also count separable permutations by decider (b) up to this n.
        #[arg(long, default_value_t = 9)]
        patterns_up_to: usize,
    },
    /// All three deciders on every partial permutation of side 1..=max-n; lists
    /// disagreements.
    Compare {
        /// The largest side.
        #[arg(long, default_value_t = 8)]
        max_n: usize,
    },
    /// Wall pictures up to the 8 symmetries of the square: Burnside and brute force.
    Symmetry {
        /// The side (1..=5).
        #[arg(long, default_value_t = 5)]
        n: usize,
        /// Skip the brute force over all 2^(n^2) pictures.
        #[arg(long)]
        no_brute: bool,
    },
    /// Time the full n x n dynamic program (a timed benchmark: best of several runs).
    Bench {
        /// The side.
        #[arg(long, default_value_t = 5)]
        n: usize,
        /// How many runs.
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    match args.command {
        WallCommand::Scores {
            n,
            brute,
            no_orders,
        } => scores(n, brute, !no_orders),
        WallCommand::Partial { wall, brute } => partial(wall, brute),
        WallCommand::Order { grid } => order(&grid),
        WallCommand::Decide {
            instance,
            file,
            decider,
            grid,
            obstruction,
            replay,
        } => decide(
            instance,
            file,
            decider,
            Extras {
                grid,
                obstruction,
                replay,
            },
        ),
        WallCommand::Table1 {
            max_n,
            plain_up_to,
            patterns_up_to,
        } => table1(max_n, plain_up_to, patterns_up_to),
        WallCommand::Compare { max_n } => compare(max_n),
        WallCommand::Instance {
            n,
            keep,
            kind,
            seed,
        } => instance(n, keep, kind, seed),
        WallCommand::Symmetry { n, no_brute } => symmetry(n, !no_brute),
        WallCommand::Bench { n, runs } => bench(n, runs),
    }
}

fn scores(only: Option<usize>, brute: bool, orders: bool) -> Result<()> {
    let sides: Vec<usize> = match only {
        Some(n) => vec![n],
        None => (1..=5).collect(),
    };
    for n in sides {
        let start = Picture::empty(n).context("--n")?;
        let t = Instant::now();
        let dp = WallDp::solve(start);
        let took = t.elapsed();
        let orders_total: u128 = (1..=(n * n) as u128).product();
        println!(
            "== {n}x{n} wall ({orders_total} orders in all; DP over 2^{} pictures in {took:.2?})",
            n * n
        );
        let (b, w) = (dp.best(), dp.worst());
        println!(
            "maximum {} (n^3+n^2-n = {}), reached by {} orders",
            b.score,
            n * n * n + n * n - n,
            b.count
        );
        println!("minimum {}, reached by {} orders", w.score, w.count);
        if n == 5 {
            println!(
                "with the end-of-game bonuses of a full wall (+{FULL_WALL_BONUS_5}: 5 rows x 2, \
                 5 columns x 7, 5 colours x 10): maximum {}, minimum {}",
                b.score + FULL_WALL_BONUS_5,
                w.score + FULL_WALL_BONUS_5
            );
        }
        if brute {
            check_brute(start, &dp)?;
        }
        if orders {
            println!(
                "\none order reaching the maximum:\n{}",
                dp.example_order(true).render()
            );
            println!(
                "one order reaching the minimum:\n{}",
                dp.example_order(false).render()
            );
        }
    }
    Ok(())
}

fn check_brute(start: Picture, dp: &WallDp) -> Result<()> {
    let free = start.side() * start.side() - start.count() as usize;
    if free as u32 > MAX_FREE_CELLS {
        println!("brute force skipped: {free} empty cells (at most {MAX_FREE_CELLS})");
        return Ok(());
    }
    let t = Instant::now();
    let brute = BruteForce::run(start)?;
    let same = brute.best() == dp.best() && brute.worst() == dp.worst();
    println!(
        "brute force over all {} orders ({:.2?}): max {} x {}, min {} x {}: {}",
        brute.orders(),
        t.elapsed(),
        brute.best().score,
        brute.best().count,
        brute.worst().score,
        brute.worst().count,
        if same { "agrees" } else { "DISAGREES" }
    );
    if !same {
        bail!("the brute force disagrees with the dynamic program");
    }
    Ok(())
}

fn partial(start: Picture, brute: bool) -> Result<()> {
    let n = start.side();
    let t = Instant::now();
    let dp = WallDp::solve(start);
    println!(
        "{n}x{n} wall {start} ({} covered, {} empty; DP in {:.2?})",
        start.count(),
        n * n - start.count() as usize,
        t.elapsed()
    );
    println!(
        "best completion: {} points, reached by {} orders of the empty cells",
        dp.best().score,
        dp.best().count
    );
    println!(
        "worst completion: {} points, reached by {} orders",
        dp.worst().score,
        dp.worst().count
    );
    if brute {
        check_brute(start, &dp)?;
    }
    println!(
        "\none best completion:\n{}",
        dp.example_order(true).render()
    );
    println!(
        "one worst completion:\n{}",
        dp.example_order(false).render()
    );
    Ok(())
}

/// A tiling order's grid of placement numbers, read at the edge (clap's error on a bad one).
fn order_grid(text: &str) -> Result<TilingOrder, String> {
    TilingOrder::from_grid(text).map_err(|e| e.to_string())
}

fn order(order: &TilingOrder) -> Result<()> {
    print!("{}", order.render());
    Ok(())
}

/// The instance families of `instance`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum InstanceKind {
    /// Rows of a random separable permutation hidden.
    Yes,
    /// Rows of a uniform random permutation hidden.
    Random,
}

fn instance(n: usize, keep: Option<usize>, kind: InstanceKind, seed: u64) -> Result<()> {
    if !(1..=usize::from(u16::MAX)).contains(&n) {
        bail!("--n must be 1..=65535, got {n}");
    }
    let keep = keep.unwrap_or(n / 2);
    if keep > n {
        bail!("--keep {keep} is more than the {n} rows");
    }
    let mut rng = tessera_core::rng::seeded(seed);
    let p = match kind {
        InstanceKind::Yes => {
            separable::hide_rows(&separable::random_separable(n, &mut rng), keep, &mut rng)?
        }
        InstanceKind::Random => separable::random_partial(n, keep, &mut rng)?,
    };
    println!("{p}");
    Ok(())
}

/// Which decider `decide` runs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DeciderChoice {
    /// Decider (c): the polynomial dynamic program over blocks.
    Separable,
    /// Decider (a): every completion, closure rule.
    Closure,
    /// Decider (b): every completion, pattern test.
    Patterns,
    /// All three, checked against each other.
    All,
}

fn decide(
    instance: Option<PartialPerm>,
    file: Option<std::path::PathBuf>,
    decider: DeciderChoice,
    extras: Extras,
) -> Result<()> {
    let p: PartialPerm = match (instance, &file) {
        (Some(p), _) => p,
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading the instance file {}", path.display()))?;
            text.parse()
                .with_context(|| format!("reading the instance in {}", path.display()))?
        }
        (None, None) => bail!("give an instance, e.g. \"(2,5,1,_,_)\", or --file PATH"),
    };
    let n = p.side();
    let enumerating = matches!(
        decider,
        DeciderChoice::Closure | DeciderChoice::Patterns | DeciderChoice::All
    );
    if enumerating && n > MAX_PERM_SIDE {
        bail!(
            "deciders (a) and (b) enumerate completions and take sides up to {MAX_PERM_SIDE}; \
             this wall has side {n} (use --decider separable, the default)"
        );
    }
    let shown = if n <= 40 {
        p.to_string()
    } else {
        format!("({n} rows)")
    };
    println!(
        "instance {shown}: {n}x{n} wall, {} tiles; target n^3+n^2-n = {}",
        p.tiles(),
        n * n * n + n * n - n
    );
    let mut answers = Vec::new();
    if matches!(decider, DeciderChoice::Separable | DeciderChoice::All) {
        answers.push(decide_separable(&p, extras)?);
    }
    if enumerating {
        answers.extend(decide_enumerating(&p, decider)?);
    }
    if answers.iter().any(|&a| a != answers[0]) {
        bail!("the deciders disagree on {p}");
    }
    Ok(())
}

/// What `decide` shows beyond the answer, for large walls.
#[derive(Clone, Copy, Debug)]
struct Extras {
    grid: bool,
    obstruction: bool,
    replay: bool,
}

/// Decider (c) with its witness; returns the answer.
fn decide_separable(p: &PartialPerm, extras: Extras) -> Result<bool> {
    let n = p.side();
    let t = Instant::now();
    let verdict = separable::decide(p).context("decider (c)")?;
    let took = t.elapsed();
    match &verdict {
        Verdict::Yes(done) => {
            let completion = PartialPerm::complete(done.perm()).context("the completion")?;
            println!(
                "decider (c), separable completion by dynamic program: YES ({took:.2?}). \
                 Complete to {}",
                if n <= 40 {
                    completion.to_string()
                } else {
                    format!("the permutation below ({n} entries)")
                }
            );
            if n > 40 {
                println!("{completion}");
            }
            let target = (n * n * n + n * n - n) as u64;
            let score = if n <= 1000 || extras.replay {
                Some(score_cells(n, done.order()).context("replaying the order")?)
            } else {
                None
            };
            println!(
                "tiling order: the {n} tiles of the completion first, then {} more, each with \
                 a horizontal and a vertical neighbour; {}",
                n * n - n,
                match score {
                    Some(s) if s == target =>
                        format!("replayed by the wall scorer it scores {s} = n^3+n^2-n, optimal"),
                    Some(s) => format!("replayed by the wall scorer it scores {s}: NOT optimal"),
                    None => "not replayed (add --replay: O(n^3) steps)".to_string(),
                }
            );
            if n <= 20 || extras.grid {
                print_order_grid(n, done.order());
            } else {
                println!("(add --grid to print the {n}x{n} grid of placement numbers)");
            }
            if let Some(s) = score
                && s != target
            {
                bail!("the order scores {s}, not {target}");
            }
        }
        Verdict::No => {
            println!(
                "decider (c), separable completion by dynamic program: NO ({took:.2?}). No \
                 completion avoids 2413 and 3142."
            );
            if n <= 200 || extras.obstruction {
                let t = Instant::now();
                match separable::minimal_obstruction(p).context("the obstruction")? {
                    Some(Obstruction::Pattern(occ)) => println!(
                        "obstruction ({:.2?}): the given tiles in rows {} (columns {}) form {}, \
                         so every completion contains it",
                        t.elapsed(),
                        occ.rows.map(|r| (r + 1).to_string()).join(", "),
                        occ.rows
                            .map(|r| p.col(r).map_or("_".into(), |c| (c + 1).to_string()))
                            .join(", "),
                        occ.pattern
                    ),
                    Some(Obstruction::Tiles(rows)) => println!(
                        "obstruction ({:.2?}): the given tiles avoid 2413 and 3142, but already \
                         the {} tiles in rows {} (columns {}), with every other row empty, \
                         cannot be completed on this wall, and dropping any one of them makes \
                         it completable",
                        t.elapsed(),
                        rows.len(),
                        rows.iter()
                            .map(|r| (r + 1).to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                        rows.iter()
                            .map(|&r| p.col(r).map_or("_".into(), |c| (c + 1).to_string()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None => bail!("decider (c) said no, but the obstruction search found none"),
                }
            } else {
                println!("(add --obstruction to search for one: a decider run per given tile)");
            }
        }
    }
    Ok(verdict.is_yes())
}

fn print_order_grid(n: usize, order: &[(u16, u16)]) {
    let mut grid = vec![0usize; n * n];
    for (k, &(r, c)) in order.iter().enumerate() {
        grid[r as usize * n + c as usize] = k + 1;
    }
    let width = (n * n).to_string().len() + 1;
    for r in 0..n {
        let row: String = (0..n)
            .map(|c| format!("{:>width$}", grid[r * n + c]))
            .collect();
        println!("{row}");
    }
}

/// Deciders (a) and/or (b); returns their answers.
fn decide_enumerating(p: &PartialPerm, which: DeciderChoice) -> Result<Vec<bool>> {
    let p = p.clone();
    let n = p.side();
    let show_perm = |perm: &[u16]| -> String {
        PartialPerm::complete(perm).map_or_else(|_| format!("{perm:?}"), |q| q.to_string())
    };
    let mut answers = Vec::new();
    if which != DeciderChoice::Patterns {
        let t = Instant::now();
        let a = decide_closure(&p)?;
        let ta = t.elapsed();
        match &a {
            Decision::Closes { completion, order } => {
                println!(
                    "decider (a), closure search: YES ({ta:.2?}). Complete to {}, then cover, in \
                     this order, cells that each have a horizontal and a vertical neighbour:",
                    show_perm(completion)
                );
                let mut grid = vec![0usize; n * n];
                let mut k = n;
                for &(r, c) in order {
                    k += 1;
                    grid[r as usize * n + c as usize] = k;
                }
                for r in 0..n {
                    let row: Vec<String> = (0..n)
                        .map(|c| {
                            let v = grid[r * n + c];
                            if v == 0 {
                                format!("{:>4}", "*")
                            } else {
                                format!("{v:>4}")
                            }
                        })
                        .collect();
                    println!("{}", row.join(""));
                }
                println!(
                    "(* = the {n} first tiles, one per row and column, placed first in any order)"
                );
            }
            Decision::Stuck {
                completions,
                example,
            } => {
                println!(
                    "decider (a), closure search: NO ({ta:.2?}). None of the {completions} \
                     completions closes the wall."
                );
                if let Some((perm, board)) = example {
                    println!(
                        "e.g. {} closes only to {} ({} of {} cells)",
                        show_perm(perm),
                        board,
                        board.count(),
                        n * n
                    );
                }
            }
            _ => {}
        }
        answers.push(a.is_yes());
    }
    if which != DeciderChoice::Closure {
        let t = Instant::now();
        let b = decide_patterns(&p)?;
        let tb = t.elapsed();
        match &b {
            Decision::Separable { completion } => println!(
                "decider (b), patterns: YES ({tb:.2?}). {} contains neither 2413 nor 3142.",
                show_perm(completion)
            ),
            Decision::Blocked { in_given, example } => {
                if let Some(occ) = in_given {
                    println!(
                        "decider (b), patterns: NO ({tb:.2?}). The given tiles in rows {} \
                         (columns {}) form {}, so every completion contains it.",
                        occ.rows.map(|r| (r + 1).to_string()).join(", "),
                        occ.rows
                            .map(|r| p.col(r).map_or("_".into(), |c| (c + 1).to_string()))
                            .join(", "),
                        occ.pattern
                    );
                } else {
                    println!(
                        "decider (b), patterns: NO ({tb:.2?}). Every completion contains 2413 or \
                         3142."
                    );
                    if let Some((perm, occ)) = example {
                        println!(
                            "e.g. {} has {} in rows {}",
                            show_perm(perm),
                            occ.pattern,
                            occ.rows.map(|r| (r + 1).to_string()).join(", ")
                        );
                    }
                }
            }
            _ => {}
        }
        answers.push(b.is_yes());
    }
    Ok(answers)
}

fn table1(max_n: usize, plain_up_to: usize, patterns_up_to: usize) -> Result<()> {
    if !(1..=16).contains(&max_n) {
        bail!("--max-n must be 1..=16, got {max_n}");
    }
    let thesis: [u64; 11] = [1, 2, 6, 22, 90, 394, 1806, 8558, 41586, 206098, 1037718];
    println!(
        "{:>3} {:>16} {:>10} {:>16} {:>10} {:>14} {:>12} {:>16} {:>9}",
        "n",
        "yes (a) pruned",
        "time",
        "yes (a) plain",
        "time",
        "sep. (b)",
        "thesis",
        "Schröder r(n-1)",
        "conject."
    );
    for n in 1..=max_n {
        let t = Instant::now();
        let (memo, stats) = count_yes_pruned(n)?;
        let memo = memo as u128;
        let tm = t.elapsed();
        let (plain, tp) = if n <= plain_up_to {
            let t = Instant::now();
            let v = count_yes_plain(n)?;
            (v.to_string(), format!("{:.2?}", t.elapsed()))
        } else {
            ("-".into(), "-".into())
        };
        let sep = if n <= patterns_up_to {
            count_separable(n)?.to_string()
        } else {
            "-".into()
        };
        let th = thesis.get(n - 1).map_or("-".to_string(), |v| v.to_string());
        let s = schroder(n - 1);
        let mut ok = memo == s;
        if let Ok(v) = plain.parse::<u128>() {
            ok &= v == memo;
        }
        if let Ok(v) = sep.parse::<u128>() {
            ok &= v == memo;
        }
        println!(
            "{n:>3} {memo:>16} {:>10} {plain:>16} {tp:>10} {sep:>14} {th:>12} {s:>16} {:>9}",
            format!("{tm:.2?}"),
            if ok { "holds" } else { "FAILS" }
        );
        if n >= 10 {
            eprintln!(
                "    n = {n}: {} prefixes tested, {} pruned",
                stats[0], stats[1]
            );
        }
    }
    println!(
        "yes (a): permutations whose closure covers the wall; pruned = prefixes abandoned when \
         even all free columns below cannot close the wall, mirror symmetry; plain = every \
         permutation, closures shared along prefixes; \
         sep. (b) = permutations without 2413/3142; conjecture: yes-instances = Schröder \
         number r(n-1)"
    );
    Ok(())
}

fn compare(max_n: usize) -> Result<()> {
    if !(1..=10).contains(&max_n) {
        bail!("--max-n must be 1..=10 (n = 8 has 1.4 million partial permutations), got {max_n}");
    }
    println!(
        "{:>3} {:>12} {:>10} {:>10} {:>10} {:>14} {:>10}",
        "n", "instances", "yes (a)", "yes (b)", "yes (c)", "disagreements", "time"
    );
    let mut total = 0;
    for n in 1..=max_n {
        let t = Instant::now();
        let cmp = compare_deciders(n)?;
        println!(
            "{n:>3} {:>12} {:>10} {:>10} {:>10} {:>14} {:>10}",
            cmp.instances,
            cmp.yes_closure,
            cmp.yes_patterns,
            cmp.yes_separable,
            cmp.disagreement_count,
            format!("{:.2?}", t.elapsed())
        );
        for p in &cmp.disagreements {
            println!("    disagreement: {p}");
        }
        total += cmp.disagreement_count;
    }
    println!(
        "{}",
        if total == 0 {
            "the deciders agree on every partial permutation".to_string()
        } else {
            format!("{total} disagreements")
        }
    );
    Ok(())
}

fn symmetry(n: usize, brute: bool) -> Result<()> {
    let b = burnside(n).context("--n")?;
    println!("{n}x{n} wall: {} pictures", 1u64 << (n * n));
    println!("Burnside: per symmetry, cycles on the cells and fixed pictures:");
    for (g, cycles, fixed) in &b.fixed {
        println!(
            "  {:<22} {cycles:>3} cycles  2^{cycles} = {fixed}",
            g.name()
        );
    }
    println!(
        "  orbits = {} / 8 = {}",
        b.fixed.iter().map(|f| f.2).sum::<u64>(),
        b.orbits
    );
    if brute {
        let t = Instant::now();
        let c = brute_orbits(n)?;
        println!(
            "brute force, canonical forms of all {} pictures ({:.2?}): {} orbits: {}",
            1u64 << (n * n),
            t.elapsed(),
            c.orbits,
            if c.orbits == b.orbits && c.orbits_by_tiles == b.orbits_by_tiles {
                "agrees (also tile count by tile count)"
            } else {
                "DISAGREES"
            }
        );
        println!(
            "orbits of size 1: {}, 2: {}, 4: {}, 8: {}",
            c.orbit_sizes[1], c.orbit_sizes[2], c.orbit_sizes[4], c.orbit_sizes[8]
        );
        if c.orbits != b.orbits || c.orbits_by_tiles != b.orbits_by_tiles {
            bail!("Burnside and the brute force disagree");
        }
    }
    println!("orbits by number of tiles (Burnside):");
    for (k, o) in b.orbits_by_tiles.iter().enumerate() {
        println!("  {k:>2} tiles: {o}");
    }
    Ok(())
}

fn bench(n: usize, runs: usize) -> Result<()> {
    let start = Picture::empty(n).context("--n")?;
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let dp = WallDp::solve(start);
        times.push(t.elapsed());
        last = Some((dp.best(), dp.worst()));
    }
    times.sort();
    if let Some((b, w)) = last {
        println!(
            "{n}x{n} DP on {} threads: best {:.3?}, median {:.3?} over {} runs (max {} x {}, \
             min {} x {})",
            rayon_threads(),
            times[0],
            times[times.len() / 2],
            times.len(),
            b.score,
            b.count,
            w.score,
            w.count
        );
    }
    Ok(())
}

fn rayon_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Extras = Extras {
        grid: false,
        obstruction: false,
        replay: false,
    };

    #[test]
    fn decide_accepts_text_and_files_of_any_size() {
        for (instance, choice) in [
            ("(3,1,2,5,4)", DeciderChoice::All),
            ("(2,5,1,_,_)", DeciderChoice::All),
            ("(_,2,4,1,_)", DeciderChoice::Separable),
        ] {
            decide(Some(instance.parse().unwrap()), None, choice, PLAIN).unwrap();
        }
        // A 60 x 60 instance from a file, over several lines: too large for (a) and (b).
        let text: String = (1..=60)
            .map(|c| {
                if c % 3 == 0 {
                    "_".to_string()
                } else {
                    c.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(",\n");
        let path = std::env::temp_dir().join(format!("tessera-wall-{}.txt", std::process::id()));
        std::fs::write(&path, format!("({text})")).unwrap();
        decide(None, Some(path.clone()), DeciderChoice::Separable, PLAIN).unwrap();
        let err = decide(None, Some(path.clone()), DeciderChoice::Closure, PLAIN).unwrap_err();
        assert!(err.to_string().contains("sides up to 16"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn decide_names_what_is_wrong() {
        // The text is read at the edge (clap's parser is `PartialPerm::from_str`); what
        // reads is then decided.
        let err = |s: &str| match s.parse::<PartialPerm>() {
            Err(e) => e.to_string(),
            Ok(p) => format!(
                "{:#}",
                decide(Some(p), None, DeciderChoice::Separable, PLAIN).unwrap_err()
            ),
        };
        assert!(err("(1,x,2)").contains("entry 2 (\"x\") is not a column"));
        assert!(err("(1,1,_)").contains("column 1 is used twice (rows 1 and 2)"));
        assert!(err("(1,4,2)").contains("row 2 has column 4"));
        assert!(err("()").contains("a wall of side 0"));
        let big = format!("({})", vec!["_"; 3001].join(","));
        assert!(err(&big).contains("at most 3000"));
        let missing = decide(
            None,
            Some("/nonexistent/tessera-wall.txt".into()),
            DeciderChoice::Separable,
            PLAIN,
        )
        .unwrap_err();
        assert!(format!("{missing:#}").contains("reading the instance file"));
    }
}
