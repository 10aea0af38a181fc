//! Late-move reductions ([`SearchConfig::lmr`]). A reduced search is not minimax to the
//! iteration's depth, so the checks are what it must still do:
//! - with an evaluator that already knows every node's exact value (a consistent one), the
//!   null-window probes and re-searches must return the exact value and a move of that value
//!   (a wrong probe window or re-search condition breaks this);
//! - wider than every node, it reduces nothing: the exact search, node for node;
//! - on ordinary trees it visits fewer leaves for the same depth.

use tessera_core::{Game, PerPlayer, PlayerId, Turn};
use tessera_search::adversarial::testtree::{TreeEval, TreeGame};
use tessera_search::adversarial::{Algorithm, Evaluator, SearchConfig, Searcher, Value, utility};

/// Exact paranoid minimax of the whole subtree for player 0 (two players), from the tree's
/// own values at its ends.
fn exact(s: &TreeGame) -> Value {
    let mover = match s.turn() {
        Turn::Player(p) => p,
        _ => return utility(&TreeEval.evaluate(s), PlayerId(0)),
    };
    let mut acts = Vec::new();
    s.legal_actions(&mut acts);
    let vals = acts.iter().map(|&a| {
        let mut c = s.clone();
        c.apply(a);
        exact(&c)
    });
    if mover == PlayerId(0) {
        vals.max().expect("a move")
    } else {
        vals.min().expect("a move")
    }
}

/// Values every node at its exact minimax value: `[exact, 0]`, so the utility for player 0
/// is `exact` and for player 1 `-exact`.
struct Oracle;

impl Evaluator<TreeGame> for Oracle {
    fn evaluate(&mut self, s: &TreeGame) -> PerPlayer<Value> {
        let v = exact(s);
        PerPlayer::from_fn(2, |p| if p == PlayerId(0) { v } else { 0 })
    }
}

fn roots(depth: u8) -> impl Iterator<Item = TreeGame> {
    (0..300u64)
        .map(move |seed| TreeGame::new(2, depth, seed))
        .filter(|r| r.current_player().is_some())
}

fn lmr(k: u32, deep: u32) -> SearchConfig {
    let mut c = SearchConfig::new(Algorithm::Presort);
    c.lmr = k;
    c.lmr_deep = deep;
    c
}

#[test]
fn with_exact_values_the_reduced_search_is_exact() {
    let mut reduced_somewhere = 0;
    for root in roots(8) {
        let rp = root.current_player().expect("a mover");
        let want = {
            let e = exact(&root);
            if rp == PlayerId(0) { e } else { -e }
        };
        for d in 3..=8 {
            for (k, deep) in [(1, 0), (1, 2), (2, 3)] {
                let mut s = Searcher::new(Oracle, lmr(k, deep));
                let r = s.search_depth(&root, d);
                assert_eq!(r.value, Some(want), "lmr {k}/{deep} on {root} at depth {d}");
                let mut c = root.clone();
                c.apply(r.best.expect("a move"));
                let got = if rp == PlayerId(0) {
                    exact(&c)
                } else {
                    -exact(&c)
                };
                assert_eq!(
                    got, want,
                    "lmr {k}/{deep} on {root} at depth {d}: best move"
                );
                let plain = Searcher::new(Oracle, SearchConfig::new(Algorithm::Presort))
                    .search_depth(&root, d);
                if r.nodes != plain.nodes {
                    reduced_somewhere += 1;
                }
            }
        }
    }
    // The check means something only if the reductions changed the searches.
    assert!(
        reduced_somewhere > 200,
        "only {reduced_somewhere} searches changed"
    );
}

/// The tree's own values, except that a node cut by the search's depth (not an end of the
/// tree) at least `cut` plies above the tree's leaves looks 100 better for `root`: a root
/// move probed one ply shallower looks better than it is.
struct Flattering {
    root: PlayerId,
    cut: u8,
}

impl Evaluator<TreeGame> for Flattering {
    fn evaluate(&mut self, s: &TreeGame) -> PerPlayer<Value> {
        let mut v = TreeEval.evaluate(s);
        if s.current_player().is_some() && s.depth_left() >= self.cut {
            v[self.root] += 100;
        }
        v
    }
}

#[test]
fn a_move_that_passes_the_shallower_probe_is_searched_again_at_full_depth() {
    // Depth 3 from a tree of depth 6: only the root has 3 plies left, so only root moves
    // are reduced, to a probe of one ply that sees the flattering values (nodes 4 plies
    // above the tree's leaves), while the full depth sees the true ones (3 plies above). A
    // probe that flatters a move makes it pass, and the search again at full depth must give
    // the plain search's value; without that search, or with the test the wrong way round,
    // the flattered value would stand.
    let mut probed = 0;
    for root in (0..400u64)
        .map(|seed| TreeGame::new(2, 6, seed))
        .filter(|r| r.current_player().is_some())
    {
        let rp = root.current_player().expect("a mover");
        let eval = || Flattering { root: rp, cut: 4 };
        let plain =
            Searcher::new(eval(), SearchConfig::new(Algorithm::Presort)).search_depth(&root, 3);
        let reduced = Searcher::new(eval(), lmr(1, 0)).search_depth(&root, 3);
        assert_eq!(reduced.value, plain.value, "{root}");
        // The move played has the plain search's value.
        let mut c = root.clone();
        c.apply(reduced.best.expect("a move"));
        let v = match c.current_player() {
            None => utility(&TreeEval.evaluate(&c), rp),
            Some(p) => {
                let mut after = Searcher::new(eval(), SearchConfig::new(Algorithm::Presort));
                let v = after.search_depth(&c, 2).value.expect("searched");
                if p == rp { v } else { -v }
            }
        };
        assert_eq!(Some(v), plain.value, "{root}: the move's value");
        probed += usize::from(reduced.nodes != plain.nodes);
    }
    assert!(probed > 100, "only {probed} searches probed");
}

#[test]
fn wider_than_every_node_it_is_the_exact_search() {
    for root in roots(7).take(100) {
        for d in 1..=7 {
            let plain = Searcher::new(TreeEval, SearchConfig::new(Algorithm::Presort))
                .search_depth(&root, d);
            // The tree has at most 5 children a node: lmr=5 reduces none.
            let wide = Searcher::new(TreeEval, lmr(5, 0)).search_depth(&root, d);
            assert_eq!(
                (wide.value, wide.best, wide.nodes, wide.leaves),
                (plain.value, plain.best, plain.nodes, plain.leaves),
                "{root} at depth {d}"
            );
        }
    }
}

#[test]
fn reductions_visit_fewer_leaves_for_the_same_depth() {
    let (mut plain_leaves, mut reduced_leaves, mut differ) = (0u64, 0u64, 0);
    for root in roots(10).take(150) {
        let plain =
            Searcher::new(TreeEval, SearchConfig::new(Algorithm::Presort)).search_depth(&root, 10);
        let reduced = Searcher::new(TreeEval, lmr(1, 3)).search_depth(&root, 10);
        plain_leaves += plain.leaves;
        reduced_leaves += reduced.leaves;
        differ += usize::from(plain.value != reduced.value);
    }
    assert!(
        reduced_leaves * 10 < plain_leaves * 9,
        "{reduced_leaves} leaves reduced vs {plain_leaves} plain"
    );
    // Not exact on ordinary trees: some values differ (that is the price).
    assert!(differ > 0);
}
