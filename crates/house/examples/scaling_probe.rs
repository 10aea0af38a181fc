//! What more time changes in `oracle`'s tree search: positions from seeded two-player games
//! of the search against itself at 20,000 nodes a move (common refills, 32 a round's end:
//! the scaling goal runs' settings), every EVERY-th decision with two or more moves; at
//! each, one fresh search per time in SECONDS (same seed), and the static chances of the
//! root's moves (one expansion of the root: every move valued once, as the search values
//! it), from which the priors are the softmax of their log-odds over the temperature (1).
//! Prints one line a position (the move each time chooses, as its rank among the root's
//! moves by static chance, 1 the best, and its prior), then how often each pair of times
//! chooses the same move, and how the chosen moves' static ranks are spread.
//!
//! `cargo run --release -p tessera-house --example scaling_probe -- GAMES SEED SECONDS
//! [EVERY]` (for example `8 1 0.1,1,5 4`).

use std::time::Duration;

use anyhow::{Context, bail};
use tessera_azul::AzulState;
use tessera_azul::augur::AugurEval;
use tessera_core::rng::{mix64, seeded};
use tessera_core::{Budget, Game, PlayerId, Turn};
use tessera_house::registry::azul_augur::{AugurEvaluator, Narrow};
use tessera_search::mcts::{Mcts, MctsConfig, prior_logit};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        bail!(
            "usage: scaling_probe GAMES SEED SECONDS [EVERY] (SECONDS: times separated by commas)"
        );
    }
    let games: u64 = args[0].parse().context("GAMES: a number of games")?;
    let seed: u64 = args[1].parse().context("SEED: a whole number")?;
    let times: Vec<f64> = args[2]
        .split(',')
        .map(|x| x.parse::<f64>())
        .collect::<Result<_, _>>()
        .context("SECONDS: times in seconds separated by commas")?;
    if times.is_empty() || times.iter().any(|t| !(0.0 < *t && *t <= 3600.0)) {
        bail!("SECONDS: times from above 0 to 3600 seconds, separated by commas");
    }
    let every: u64 = match args.get(3) {
        Some(e) => e
            .parse()
            .context("EVERY: a number of decisions, at least 1")?,
        None => 4,
    };
    if every == 0 {
        bail!("EVERY: at least 1");
    }
    let eval = AugurEvaluator::for_tree_search(
        AugurEval::version("v10").context("no weights v10")?,
        Narrow::ALL,
    );
    let config = MctsConfig {
        value_scale: 1000.0,
        chance_samples: 32,
        common_outcomes: true,
        ..MctsConfig::default()
    };
    let temperature = config.temperature;
    let mut player = Mcts::new(eval.clone(), config.clone());
    let mut probe = Mcts::new(eval, config);
    let play = Budget {
        nodes: Some(20_000),
        ..Budget::default()
    };
    let n = times.len();
    // same[i][j]: positions where times i and j chose the same move.
    let mut same = vec![vec![0u64; n]; n];
    // ranks[i][b]: positions where time i chose a move of static rank in bucket b.
    const BUCKETS: [(usize, usize, &str); 4] = [
        (1, 1, "1"),
        (2, 3, "2-3"),
        (4, 10, "4-10"),
        (11, usize::MAX, "11+"),
    ];
    let mut ranks = vec![[0u64; BUCKETS.len()]; n];
    let mut prior_sum = vec![0.0f64; n];
    let mut positions = 0u64;
    let mut legal = Vec::new();
    println!("game, round, moves, then for each time: static rank of its move, its prior");
    for g in 0..games {
        let mut rng = seeded(mix64(seed ^ mix64(g)));
        let mut s = AzulState::new(2, PlayerId(0));
        let mut decision = 0u64;
        loop {
            match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let d = s.sample_chance(&mut rng);
                    s.apply_chance(&d)?;
                    continue;
                }
                Turn::Player(_) => {}
            }
            s.legal_actions(&mut legal);
            let k = legal.len();
            if k >= 2 {
                decision += 1;
            }
            if k >= 2 && decision.is_multiple_of(every) {
                positions += 1;
                let pseed = mix64(seed ^ mix64(g ^ mix64(decision)));
                // One expansion of the root: every move valued once, nothing searched.
                probe.seed(pseed);
                let once = probe.search(
                    &s,
                    &Budget {
                        nodes: Some(k as u64),
                        ..Budget::default()
                    },
                );
                if once.root_visits.len() != k || once.root_visits.iter().any(|&v| v != 1) {
                    bail!("the one-expansion search did not value each root move once");
                }
                let chances = &once.root_sums;
                // The search's own weights (`insert`'s), the softmax taken here in f64.
                let logit = |c: f32| f64::from(prior_logit(c, temperature));
                let top = chances.iter().map(|&c| logit(c)).fold(f64::MIN, f64::max);
                let total: f64 = chances.iter().map(|&c| (logit(c) - top).exp()).sum();
                let prior = |i: usize| (logit(chances[i]) - top).exp() / total;
                let rank = |i: usize| 1 + chances.iter().filter(|&&c| c > chances[i]).count();
                let mut line = format!("{g}, {}, {k}", s.round());
                let mut chosen = Vec::with_capacity(n);
                for (t, &secs) in times.iter().enumerate() {
                    probe.seed(pseed);
                    let r = probe.search(
                        &s,
                        &Budget {
                            time: Some(Duration::from_secs_f64(secs)),
                            ..Budget::default()
                        },
                    );
                    let best = r.best.context("a search found no move")?;
                    let i = legal
                        .iter()
                        .position(|a| *a == best)
                        .context("the search's move is not legal")?;
                    chosen.push(i);
                    let rk = rank(i);
                    let b = BUCKETS
                        .iter()
                        .position(|&(lo, hi, _)| (lo..=hi).contains(&rk))
                        .unwrap_or(BUCKETS.len() - 1);
                    ranks[t][b] += 1;
                    prior_sum[t] += prior(i);
                    line.push_str(&format!(", {rk} {:.3}", prior(i)));
                }
                for i in 0..n {
                    for j in 0..n {
                        same[i][j] += u64::from(chosen[i] == chosen[j]);
                    }
                }
                println!("{line}");
            }
            // The game goes on by the 20,000-node search's move.
            player.seed(mix64(seed ^ mix64(g ^ mix64(1_000_000 + decision))));
            let r = player.search(&s, &play);
            let a = r.best.context("the playing search found no move")?;
            s.apply(a);
        }
    }
    println!("\n{positions} positions; the same move chosen (share of positions):");
    for i in 0..n {
        for j in (i + 1)..n {
            println!(
                "  {} s and {} s: {:.1}%",
                times[i],
                times[j],
                100.0 * same[i][j] as f64 / positions.max(1) as f64
            );
        }
    }
    println!("static rank of the chosen move (share of positions), mean prior of the chosen move:");
    for (t, &secs) in times.iter().enumerate() {
        let shares: Vec<String> = BUCKETS
            .iter()
            .zip(&ranks[t])
            .map(|(&(_, _, name), &c)| {
                format!("{name}: {:.1}%", 100.0 * c as f64 / positions.max(1) as f64)
            })
            .collect();
        println!(
            "  {secs} s: {}; mean prior {:.3}",
            shares.join(", "),
            prior_sum[t] / positions.max(1) as f64
        );
    }
    Ok(())
}
