//! Training rows for a policy prior of `oracle`'s tree search: seeded two-player games of
//! the search against itself at NODES a move (common refills, 32 a round's end: the scaling
//! goal runs' settings). At every decision with two or more moves it prints, for each root
//! move, the visits the NODES search gave it, its static log-odds for the mover (one
//! expansion of the root: every move valued once, as the search values it; the priors are
//! the softmax of these over the temperature) and features of the move read off the
//! position before and after it.
//!
//! `cargo run --release -p tessera-house --example policy_data -- GAMES SEED NODES > rows.txt`
//!
//! Output: one line a position, `P game decision round moves`, then one line a move,
//! `visits logit f1 ... f12` (the features of `tessera_azul::policy::move_features`, in its
//! order).

use anyhow::{Context, bail};
use tessera_azul::AzulState;
use tessera_azul::augur::AugurEval;
use tessera_azul::policy::move_features;
use tessera_core::rng::{mix64, seeded};
use tessera_core::{Budget, Game, PlayerId, Turn};
use tessera_house::registry::azul_augur::{AugurEvaluator, Narrow};
use tessera_search::mcts::{Mcts, MctsConfig, prior_logit};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 3 {
        bail!("usage: policy_data GAMES SEED NODES");
    }
    let games: u64 = args[0].parse().context("GAMES: a number of games")?;
    let seed: u64 = args[1].parse().context("SEED: a whole number")?;
    let nodes: u64 = args[2]
        .parse()
        .context("NODES: a node budget, at least 1000")?;
    if nodes < 1000 {
        bail!("NODES: a node budget, at least 1000");
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
    let mut player = Mcts::new(eval.clone(), config.clone());
    let mut probe = Mcts::new(eval, config);
    let play = Budget {
        nodes: Some(nodes),
        ..Budget::default()
    };
    let mut legal = Vec::new();
    let mut out = String::new();
    for g in 0..games {
        let mut rng = seeded(mix64(seed ^ mix64(g)));
        let mut s = AzulState::new(2, PlayerId(0));
        let mut decision = 0u64;
        loop {
            let m = match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let d = s.sample_chance(&mut rng);
                    s.apply_chance(&d)?;
                    continue;
                }
                Turn::Player(m) => m,
            };
            s.legal_actions(&mut legal);
            let k = legal.len();
            decision += 1;
            player.seed(mix64(seed ^ mix64(g ^ mix64(1_000_000 + decision))));
            let r = player.search(&s, &play);
            let a = r.best.context("the playing search found no move")?;
            if k >= 2 {
                probe.seed(mix64(seed ^ mix64(g ^ mix64(decision))));
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
                if r.root_visits.len() != k {
                    bail!("the search's root does not hold every legal move");
                }
                out.clear();
                out.push_str(&format!("P {g} {decision} {} {k}\n", s.round()));
                for (i, &mv) in legal.iter().enumerate() {
                    let mut after = s.clone();
                    after.apply(mv);
                    let f = move_features(&s, mv, &after, m);
                    out.push_str(&format!(
                        "{} {:.4}",
                        r.root_visits[i],
                        prior_logit(once.root_sums[i], 1.0)
                    ));
                    for x in f {
                        out.push_str(&format!(" {x}"));
                    }
                    out.push('\n');
                }
                print!("{out}");
            }
            s.apply(a);
        }
        eprintln!("game {g} done");
    }
    Ok(())
}
