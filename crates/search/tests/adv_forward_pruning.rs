//! The two ways of searching fewer of the opponents' moves:
//! - opponent modelling ([`SearchConfig::plausible`]): at a node where another player moves,
//!   only its K best moves by its own static value one ply on are searched. That is plain
//!   minimax on a smaller tree fixed by the state alone, so every pruned variant (alpha-beta,
//!   presort, transposition table) must return exactly the value of an independent reference
//!   written here on that tree;
//! - forward pruning by rank ([`SearchConfig::replies`]): an opponent's node searches only
//!   the K replies an earlier iteration ranked most damaging. Its tree depends on the search's
//!   history, so the checks are the bounds it must obey: the opponents choose among fewer
//!   moves, so the root value can only rise; wide enough it is exact; it visits fewer leaves.

use tessera_core::{Game, PlayerId, Turn};
use tessera_search::adversarial::testtree::{TreeEval, TreeGame};
use tessera_search::adversarial::{Algorithm, Evaluator, SearchConfig, Searcher, Value, utility};

/// Reference paranoid minimax in which a player other than `root` considers only its
/// `plausible` best moves by `utility(evaluate(child), mover)` (ties: the earlier legal
/// move); `plausible = 0` considers all.
fn reference(s: &TreeGame, depth: u32, root: PlayerId, plausible: usize) -> Value {
    let mover = match s.turn() {
        Turn::Player(p) if depth > 0 => p,
        _ => return utility(&TreeEval.evaluate(s), root),
    };
    let mut acts = Vec::new();
    s.legal_actions(&mut acts);
    let children: Vec<TreeGame> = acts
        .iter()
        .map(|&a| {
            let mut c = s.clone();
            c.apply(a);
            c
        })
        .collect();
    let mut order: Vec<usize> = (0..children.len()).collect();
    if mover != root && plausible > 0 {
        let own: Vec<Value> = children
            .iter()
            .map(|c| utility(&TreeEval.evaluate(c), mover))
            .collect();
        // Best first; a stable sort keeps legal order among equals.
        order.sort_by_key(|&i| std::cmp::Reverse(own[i]));
        order.truncate(plausible);
    }
    let vals = order
        .iter()
        .map(|&i| reference(&children[i], depth - 1, root, plausible));
    if mover == root {
        vals.max().expect("a player to move has a move")
    } else {
        vals.min().expect("a player to move has a move")
    }
}

fn configs() -> Vec<(&'static str, SearchConfig)> {
    let mut out = Vec::new();
    for alg in [Algorithm::AlphaBeta, Algorithm::Presort] {
        out.push((alg.name(), SearchConfig::new(alg)));
        let mut c = SearchConfig::new(alg);
        c.tt_log2 = 12;
        out.push((
            if alg == Algorithm::Presort {
                "presort+tt"
            } else {
                "alphabeta+tt"
            },
            c,
        ));
    }
    let mut c = SearchConfig::new(Algorithm::Presort);
    c.tree_cap = 40;
    out.push(("presort+cap", c));
    out
}

fn roots() -> impl Iterator<Item = (TreeGame, PlayerId)> {
    (0..200u64).filter_map(|seed| {
        let root = TreeGame::new(2 + (seed % 3) as usize, 9, seed);
        let p = root.current_player()?;
        Some((root, p))
    })
}

#[test]
fn opponent_modelling_is_minimax_on_the_modelled_tree() {
    let mut narrowed = 0;
    for (root, rp) in roots() {
        for d in 1..=5 {
            let exact = reference(&root, d, rp, 0);
            for k in 1..=3usize {
                let want = reference(&root, d, rp, k);
                // The opponents choose among fewer moves: never worse for the root player.
                assert!(want >= exact, "{root} depth {d} k {k}: {want} < {exact}");
                if want != exact {
                    narrowed += 1;
                }
                for (name, mut cfg) in configs() {
                    cfg.plausible = k as u32;
                    let r = Searcher::new(TreeEval, cfg).search_depth(&root, d);
                    assert_eq!(r.value, Some(want), "{name} k {k} on {root} at depth {d}");
                    let mut c = root.clone();
                    c.apply(r.best.expect("a move"));
                    assert_eq!(
                        reference(&c, d - 1, rp, k),
                        want,
                        "{name}: best move's value"
                    );
                }
            }
            // Wider than any node (at most 5 children): the exact search.
            let mut cfg = SearchConfig::new(Algorithm::Presort);
            cfg.plausible = 5;
            let r = Searcher::new(TreeEval, cfg).search_depth(&root, d);
            assert_eq!(r.value, Some(exact), "k 5 on {root} at depth {d}");
        }
    }
    // The test means something only if the modelling changed many values.
    assert!(narrowed > 100, "only {narrowed} values changed");
}

#[test]
fn forward_pruning_by_rank_only_raises_the_value_and_saves_leaves() {
    let (mut full_leaves, mut pruned_leaves, mut raised) = (0u64, 0u64, 0);
    for (root, rp) in roots() {
        for d in 1..=6 {
            let exact = reference(&root, d, rp, 0);
            let mut full = Searcher::new(TreeEval, SearchConfig::new(Algorithm::Presort));
            let f = full.search_depth(&root, d);
            assert_eq!(f.value, Some(exact));
            for k in [1u32, 2] {
                let mut cfg = SearchConfig::new(Algorithm::Presort);
                cfg.replies = k;
                let r = Searcher::new(TreeEval, cfg).search_depth(&root, d);
                let v = r.value.expect("a completed search");
                assert!(v >= exact, "{root} depth {d} k {k}: {v} < {exact}");
                if v > exact {
                    raised += 1;
                }
                if k == 1 && d == 6 {
                    full_leaves += f.leaves;
                    pruned_leaves += r.leaves;
                }
            }
            let mut cfg = SearchConfig::new(Algorithm::Presort);
            cfg.replies = 5;
            let r = Searcher::new(TreeEval, cfg).search_depth(&root, d);
            assert_eq!(r.value, Some(exact), "k 5 on {root} at depth {d}");
        }
    }
    assert!(raised > 50, "pruning changed only {raised} values");
    assert!(
        pruned_leaves < full_leaves,
        "{pruned_leaves} leaves pruned vs {full_leaves} exact"
    );
}
