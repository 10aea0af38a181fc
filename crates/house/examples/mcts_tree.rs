//! How large `oracle`'s tree search grows in a given time: for the first decision of each
//! of the first three rounds of a seeded game between two random players, one search of
//! `oracle:mcts`'s evaluator (v10, `outcomes` refills at a round's end) per time, printing
//! the nodes the tree holds, whether it reached the cap, the node count, the depth, the
//! simulations and the transpositions merged.
//!
//! `cargo run --release -p tessera-house --example mcts_tree -- [SECONDS,...] [OUTCOMES]
//! [COMMON] [TRANSPOSE]` (default `1,5 8 0 0`; COMMON and TRANSPOSE 0 or 1, `oracle`'s
//! `common` and `transpose`).

use std::time::Duration;

use tessera_azul::AzulState;
use tessera_azul::augur::AugurEval;
use tessera_core::{Budget, Game, PlayerId, Turn, rng::seeded};
use tessera_house::registry::azul_augur::{AugurEvaluator, Narrow};
use tessera_search::mcts::{Mcts, MctsConfig};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let times: Vec<f64> = match args.next() {
        Some(t) => t
            .split(',')
            .map(|x| x.parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("SECONDS: numbers separated by commas ({e})"))?,
        None => vec![1.0, 5.0],
    };
    let outcomes: u32 = match args.next() {
        Some(k) => k
            .parse()
            .map_err(|e| anyhow::anyhow!("OUTCOMES: a count of refills, 0-64 ({e})"))?,
        None => 8,
    };
    let mut flag = |name: &str| -> anyhow::Result<bool> {
        match args.next().as_deref() {
            None | Some("0") => Ok(false),
            Some("1") => Ok(true),
            Some(x) => anyhow::bail!("{name}: 0 or 1, not '{x}'"),
        }
    };
    let common = flag("COMMON")?;
    let transpose = flag("TRANSPOSE")?;
    let eval = AugurEvaluator::for_tree_search(
        AugurEval::version("v10").ok_or_else(|| anyhow::anyhow!("no weights v10"))?,
        Narrow::ALL,
    );
    let config = MctsConfig {
        value_scale: 1000.0,
        chance_samples: outcomes,
        common_outcomes: common,
        transpositions: transpose,
        ..MctsConfig::default()
    };
    println!(
        "cap {} nodes; round, seconds, tree, full, nodes, depth, simulations, merged",
        config.tree_cap
    );
    let mut rng = seeded(1);
    let mut s = AzulState::new(2, PlayerId(0));
    let mut round = 0;
    while s.turn() != Turn::Terminal {
        if s.turn() == Turn::Chance {
            let d = s.sample_chance(&mut rng);
            s.apply_chance(&d)?;
            continue;
        }
        if s.round() != round && round < 3 {
            round = s.round();
            for &t in &times {
                let mut m = Mcts::new(eval.clone(), config.clone());
                let budget = Budget {
                    time: Some(Duration::from_secs_f64(t)),
                    ..Budget::default()
                };
                let r = m.search(&s, &budget);
                println!(
                    "{round}, {t}, {}, {}, {}, {}, {}, {}",
                    r.tree, r.full, r.nodes, r.depth, r.simulations, r.merged
                );
            }
        }
        let a = s
            .random_action(&mut rng)
            .ok_or_else(|| anyhow::anyhow!("no legal move"))?;
        s.apply(a);
    }
    Ok(())
}
