//! Every pruned search variant returns exactly plain minimax's root value at the same depth,
//! checked against an independent reference written here, on hundreds of positions of a
//! synthetic game (2-4 players, irregular turn order, transpositions) and of Nim.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use rand::Rng;
use tessera_core::testgame::Nim;
use tessera_core::{Game, PerPlayer, PlayerId, Turn, rng::seeded};
use tessera_search::adversarial::testtree::{TreeEval, TreeGame};
use tessera_search::adversarial::{
    Algorithm, Evaluator, MultiMode, SearchConfig, Searcher, Value, utility,
};

/// Reference paranoid minimax: naive recursion, no shared code with the searcher.
fn reference<G: Game, E: Evaluator<G>>(s: &G, depth: u32, root: PlayerId, e: &mut E) -> Value {
    let leaf = |e: &mut E| {
        let v = e.evaluate(s);
        let best_other = v
            .iter()
            .filter(|(p, _)| *p != root)
            .map(|(_, &x)| x)
            .max()
            .unwrap_or(0);
        v[root] - best_other
    };
    let mover = match s.turn() {
        Turn::Player(p) if depth > 0 && !e.is_leaf(s) => p,
        _ => return leaf(e),
    };
    let mut acts = Vec::new();
    s.legal_actions(&mut acts);
    let vals = acts.iter().map(|&a| {
        let mut c = s.clone();
        c.apply(a);
        c
    });
    let vals: Vec<Value> = vals.map(|c| reference(&c, depth - 1, root, e)).collect();
    if mover == root {
        *vals.iter().max().unwrap()
    } else {
        *vals.iter().min().unwrap()
    }
}

/// Reference max^n on utilities.
fn reference_maxn<G: Game, E: Evaluator<G>>(s: &G, depth: u32, e: &mut E) -> PerPlayer<Value> {
    let n = s.num_players();
    let mover = match s.turn() {
        Turn::Player(p) if depth > 0 && !e.is_leaf(s) => p,
        _ => {
            let v = e.evaluate(s);
            return PerPlayer::from_fn(n, |p| utility(&v, p));
        }
    };
    let mut acts = Vec::new();
    s.legal_actions(&mut acts);
    let mut best: Option<PerPlayer<Value>> = None;
    for a in acts {
        let mut c = s.clone();
        c.apply(a);
        let u = reference_maxn(&c, depth - 1, e);
        if best.as_ref().is_none_or(|b| u[mover] > b[mover]) {
            best = Some(u);
        }
    }
    best.unwrap()
}

struct NimEval;
impl Evaluator<Nim> for NimEval {
    fn evaluate(&mut self, s: &Nim) -> PerPlayer<Value> {
        let mut v = s.scores();
        if let Some(o) = s.outcome() {
            v[o.winners[0]] += 100;
        }
        v
    }
    fn key(&self, s: &Nim) -> Option<u64> {
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        Some(h.finish())
    }
}

fn configs() -> Vec<(&'static str, SearchConfig)> {
    let mut out = Vec::new();
    for alg in [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Presort] {
        out.push((alg.name(), SearchConfig::new(alg)));
    }
    for (name, alg) in [
        ("alphabeta+tt", Algorithm::AlphaBeta),
        ("presort+tt", Algorithm::Presort),
    ] {
        let mut c = SearchConfig::new(alg);
        c.tt_log2 = 12;
        out.push((name, c));
    }
    // A tiny presort tree cap forces the fallback to unsorted subtrees.
    let mut c = SearchConfig::new(Algorithm::Presort);
    c.tree_cap = 40;
    out.push(("presort+cap", c));
    // Killer moves and the history order change only the order of the moves, never a value.
    let n = out.len();
    for i in 1..n {
        let (name, mut c) = out[i].clone();
        c.killers = true;
        out.push((
            match name {
                "alphabeta" => "alphabeta+killers",
                "presort" => "presort+killers",
                "alphabeta+tt" => "alphabeta+tt+killers",
                "presort+tt" => "presort+tt+killers",
                _ => "presort+cap+killers",
            },
            c.clone(),
        ));
        c.history = true;
        out.push((
            match name {
                "alphabeta" => "alphabeta+history",
                "presort" => "presort+history",
                "alphabeta+tt" => "alphabeta+tt+history",
                "presort+tt" => "presort+tt+history",
                _ => "presort+cap+history",
            },
            c,
        ));
    }
    out
}

/// The value of the move a search picked equals the root value (it is a best move).
fn check_best<G: Game, E: Evaluator<G>>(s: &G, d: u32, best: G::Action, want: Value, e: &mut E) {
    let root = s.current_player().unwrap();
    let mut c = s.clone();
    c.apply(best);
    assert_eq!(
        reference(&c, d - 1, root, e),
        want,
        "best move {best} of {s} at depth {d}"
    );
}

#[test]
fn tree_game_all_variants_match_minimax() {
    let mut positions = 0;
    for seed in 0..240u64 {
        let players = 2 + (seed % 3) as usize;
        let root = TreeGame::new(players, 9, seed);
        let Some(rp) = root.current_player() else {
            continue;
        };
        positions += 1;
        for d in 1..=5 {
            let want = reference(&root, d, rp, &mut TreeEval);
            for (name, cfg) in configs() {
                let mut s = Searcher::new(TreeEval, cfg);
                let r = s.search_depth(&root, d);
                assert_eq!(r.value, Some(want), "{name} on {root} at depth {d}");
                assert!(r.iterations.last().unwrap().depth == d || r.full_depth);
                check_best(&root, d, r.best.unwrap(), want, &mut TreeEval);
            }
        }
    }
    assert!(positions >= 200, "only {positions} positions");
}

#[test]
fn pruning_visits_fewer_leaves() {
    let (mut mm, mut ab) = (0u64, 0u64);
    for seed in 0..50u64 {
        let root = TreeGame::new(2, 9, seed);
        mm += Searcher::new(TreeEval, SearchConfig::new(Algorithm::Minimax))
            .search_depth(&root, 6)
            .leaves;
        ab += Searcher::new(TreeEval, SearchConfig::new(Algorithm::AlphaBeta))
            .search_depth(&root, 6)
            .leaves;
    }
    assert!(ab < mm, "alpha-beta {ab} leaves vs minimax {mm}");
}

fn random_nim(seed: u64) -> Nim {
    let mut rng = seeded(seed);
    let players = rng.random_range(2..=3);
    let mut s = Nim::new(players);
    let deal = s.sample_chance(&mut rng);
    s.apply_chance(&deal).unwrap();
    // A few random moves in.
    let mut acts = Vec::new();
    for _ in 0..rng.random_range(0..3) {
        s.legal_actions(&mut acts);
        if acts.is_empty() {
            break;
        }
        let a = acts[rng.random_range(0..acts.len())];
        s.apply(a);
    }
    s
}

#[test]
fn nim_all_variants_match_minimax() {
    let mut positions = 0;
    for seed in 0..200u64 {
        let s = random_nim(seed);
        let Some(rp) = s.current_player() else {
            continue;
        };
        positions += 1;
        for d in [1, 2, 3, 4, 6] {
            let want = reference(&s, d, rp, &mut NimEval);
            for (name, cfg) in configs() {
                let r = Searcher::new(NimEval, cfg).search_depth(&s, d);
                assert_eq!(r.value, Some(want), "{name} on {s} at depth {d}");
                check_best(&s, d, r.best.unwrap(), want, &mut NimEval);
            }
        }
    }
    assert!(positions >= 150);
}

#[test]
fn iterative_deepening_stops_at_full_depth_with_exact_value() {
    // Without a depth limit the search deepens until every leaf is a real end, and its value
    // is then the exact game value.
    let mut checked = 0;
    for seed in 0..200u64 {
        let s = random_nim(1000 + seed);
        let Some(rp) = s.current_player() else {
            continue;
        };
        // Small positions only: the reference searches the whole tree.
        let piles = s.to_string();
        let stones: i32 = piles
            .split(' ')
            .nth(2)
            .unwrap()
            .split(',')
            .map(|x| x.parse::<i32>().unwrap())
            .sum();
        if stones > 9 {
            continue;
        }
        checked += 1;
        let want = reference(&s, 40, rp, &mut NimEval);
        let r = Searcher::new(NimEval, SearchConfig::new(Algorithm::Presort))
            .search(&s, &Default::default());
        assert!(r.full_depth);
        assert_eq!(r.value, Some(want), "{s}");
        assert!(r.iterations.iter().all(|i| i.completed));
        assert!(r.iterations.last().unwrap().full_depth);
    }
    assert!(checked >= 30, "{checked}");
}

#[test]
fn maxn_matches_reference_and_minimax_with_two_players() {
    for seed in 0..150u64 {
        let players = 2 + (seed % 3) as usize;
        let root = TreeGame::new(players, 8, 5000 + seed);
        let Some(rp) = root.current_player() else {
            continue;
        };
        for d in 1..=4 {
            let mut cfg = SearchConfig::new(Algorithm::Minimax);
            cfg.multi = MultiMode::MaxN;
            let r = Searcher::new(TreeEval, cfg).search_depth(&root, d);
            let want = reference_maxn(&root, d, &mut TreeEval);
            assert_eq!(r.value, Some(want[rp]), "max^n on {root} at depth {d}");
            if players == 2 {
                assert_eq!(r.value, Some(reference(&root, d, rp, &mut TreeEval)));
            }
        }
    }
}

#[test]
fn counters_are_consistent() {
    let root = TreeGame::new(2, 9, 77);
    let r = Searcher::new(TreeEval, SearchConfig::new(Algorithm::Presort)).search_depth(&root, 4);
    assert_eq!(r.iterations.len(), 4);
    assert_eq!(r.nodes, r.iterations.iter().map(|i| i.nodes).sum::<u64>());
    assert_eq!(r.leaves, r.iterations.iter().map(|i| i.leaves).sum::<u64>());
    for it in &r.iterations {
        assert!(it.leaves <= it.nodes && it.leaves > 0);
    }
    // Minimax at depth 1 evaluates exactly one leaf per root move.
    let r1 = Searcher::new(TreeEval, SearchConfig::new(Algorithm::Minimax)).search_depth(&root, 1);
    assert_eq!(r1.leaves as usize, r1.root_moves);
    assert_eq!(r1.nodes as usize, r1.root_moves + 1);
}

/// The synthetic game's values combined as "own minus the sum of the others" instead of the
/// default "own minus the best other".
struct SumEval;
impl Evaluator<TreeGame> for SumEval {
    fn evaluate(&mut self, s: &TreeGame) -> PerPlayer<Value> {
        TreeEval.evaluate(s)
    }
    fn key(&self, s: &TreeGame) -> Option<u64> {
        TreeEval.key(s)
    }
    fn utility(&self, v: &PerPlayer<Value>, p: PlayerId) -> Value {
        v[p] - v
            .iter()
            .filter(|(q, _)| *q != p)
            .map(|(_, &x)| x)
            .sum::<Value>()
    }
}

/// Reference paranoid minimax with leaves valued as own minus the sum of the others.
fn reference_sum(s: &TreeGame, depth: u32, root: PlayerId) -> Value {
    let mover = match s.turn() {
        Turn::Player(p) if depth > 0 => p,
        _ => {
            let v = s.values();
            let others: Value = v.iter().filter(|(q, _)| *q != root).map(|(_, &x)| x).sum();
            return v[root] - others;
        }
    };
    let mut acts = Vec::new();
    s.legal_actions(&mut acts);
    let vals = acts.iter().map(|&a| {
        let mut c = s.clone();
        c.apply(a);
        reference_sum(&c, depth - 1, root)
    });
    if mover == root {
        vals.max().unwrap()
    } else {
        vals.min().unwrap()
    }
}

#[test]
fn an_evaluator_can_say_how_its_values_combine() {
    // Every variant (and max^n's per-player values at the leaves) uses the evaluator's
    // utility: with 3-4 players "own minus the sum" differs from "own minus the best".
    let mut differ = 0;
    for seed in 0..120u64 {
        let players = 3 + (seed % 2) as usize;
        let root = TreeGame::new(players, 8, seed);
        let Some(rp) = root.current_player() else {
            continue;
        };
        for d in 1..=4 {
            let want = reference_sum(&root, d, rp);
            differ += usize::from(want != reference(&root, d, rp, &mut TreeEval));
            for (name, cfg) in configs() {
                let r = Searcher::new(SumEval, cfg).search_depth(&root, d);
                assert_eq!(r.value, Some(want), "{name} on {root} at depth {d}");
            }
        }
    }
    assert!(
        differ > 100,
        "the two utilities differ on {differ} searches only"
    );
    // max^n at depth 0 is the leaf's utilities.
    let root = TreeGame::new(3, 8, 7);
    let mut cfg = SearchConfig::new(Algorithm::Minimax);
    cfg.multi = MultiMode::MaxN;
    let r = Searcher::new(SumEval, cfg).search_depth(&root, 1);
    let mut acts = Vec::new();
    root.legal_actions(&mut acts);
    let rp = root.current_player().unwrap();
    let best = acts
        .iter()
        .map(|&a| {
            let mut c = root.clone();
            c.apply(a);
            SumEval.utility(&c.values(), rp)
        })
        .max()
        .unwrap();
    assert_eq!(r.value, Some(best));
}
