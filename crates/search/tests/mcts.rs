//! The Monte Carlo tree search: exact on complete trees (against minimax and max^n), its
//! limits, its chance outcomes, and a winning move found in a tree far larger than its
//! budget.

use tessera_azul::AzulState;
use tessera_azul::eval::StrongEval;
use tessera_core::Agent;
use tessera_core::rng::mix64;
use tessera_core::testgame::{Nim, Take};
use tessera_core::{Budget, Game, PerPlayer, PlayerId, Turn, rng::seeded};
use tessera_search::adversarial::testtree::{TreeEval, TreeGame};
use tessera_search::adversarial::{Algorithm, Evaluator, MultiMode, SearchConfig, Searcher, Value};
use tessera_search::mcts::{Mcts, MctsAgent, MctsConfig, MctsResult, settled};

/// TreeGame's utilities are -20..=20: ten units a logit keeps them within a few logits,
/// where the chances (f32) round-trip to the same integer. PUCT visits unlikely moves so
/// rarely that a tree of more than two plies is seldom completed with the default settings;
/// flat priors and a large exploration constant spread the visits so that these small trees
/// are, and the exact solution of the complete tree can be checked.
fn tree_config() -> MctsConfig {
    MctsConfig {
        value_scale: 10.0,
        cpuct: 50.0,
        temperature: 100.0,
        ..MctsConfig::default()
    }
}

fn nodes(n: u64) -> Budget {
    Budget {
        nodes: Some(n),
        ..Budget::default()
    }
}

#[test]
fn complete_two_player_trees_are_solved_to_minimax() {
    solves_complete_trees(tree_config());
}

/// Two-player trees of depth 4, searched with `config` to far more nodes than they hold,
/// are completed and solved to minimax's value.
fn solves_complete_trees(config: MctsConfig) {
    let mut checked = 0;
    for seed in 0..60u64 {
        let root = TreeGame::new(2, 4, seed);
        if root.turn() == Turn::Terminal {
            continue;
        }
        let want =
            Searcher::new(TreeEval, SearchConfig::new(Algorithm::Minimax)).search_depth(&root, 4);
        let r = Mcts::new(TreeEval, config.clone()).search(&root, &nodes(1_000_000));
        assert!(
            r.solved,
            "seed {seed}: the tree of depth 4 must be completed"
        );
        assert_eq!(r.value, want.value, "seed {seed}: value against minimax");
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} trees had a move");
}

#[test]
fn complete_multi_player_trees_are_solved_to_max_n() {
    for players in [3, 4] {
        let mut checked = 0;
        for seed in 0..40u64 {
            let root = TreeGame::new(players, 4, 1000 + seed);
            if root.turn() == Turn::Terminal {
                continue;
            }
            let mut config = SearchConfig::new(Algorithm::Minimax);
            config.multi = MultiMode::MaxN;
            let want = Searcher::new(TreeEval, config).search_depth(&root, 4);
            let r = Mcts::new(TreeEval, tree_config()).search(&root, &nodes(1_000_000));
            assert!(r.solved, "{players} players, seed {seed}");
            assert_eq!(
                r.value, want.value,
                "{players} players, seed {seed}: against max^n"
            );
            assert_eq!(
                r.best, want.best,
                "{players} players, seed {seed}: the move"
            );
            checked += 1;
        }
        assert!(
            checked >= 25,
            "{players} players: only {checked} trees had a move"
        );
    }
}

#[test]
fn a_depth_limit_solves_to_minimax_at_that_depth() {
    for seed in 0..30u64 {
        let root = TreeGame::new(2, 20, 500 + seed);
        if root.turn() == Turn::Terminal {
            continue;
        }
        for depth in [1, 2, 3] {
            let want = Searcher::new(TreeEval, SearchConfig::new(Algorithm::Minimax))
                .search_depth(&root, depth);
            let budget = Budget {
                depth: Some(depth),
                nodes: Some(1_000_000),
                ..Budget::default()
            };
            let r = Mcts::new(TreeEval, tree_config()).search(&root, &budget);
            assert!(r.solved);
            assert_eq!(r.value, want.value, "seed {seed}, depth {depth}");
            assert!(r.depth <= depth);
        }
    }
}

/// Nim's exact values where few stones are left (the Sprague-Grundy value of a pile is its
/// size mod 4 when 1-3 stones may be taken; the mover wins iff their xor is not 0), and
/// nothing known above `known` stones: the search must reach the known positions.
#[derive(Clone)]
struct NimEval {
    known: u32,
}

impl Evaluator<Nim> for NimEval {
    fn evaluate(&mut self, s: &Nim) -> PerPlayer<Value> {
        let n = s.num_players();
        if let Some(o) = s.outcome() {
            return PerPlayer::from_fn(n, |p| if o.winners.contains(&p) { 5000 } else { -5000 });
        }
        let piles = piles(s);
        let Turn::Player(mover) = s.turn() else {
            return PerPlayer::filled(n, 0);
        };
        if piles.iter().sum::<u32>() > self.known {
            return PerPlayer::filled(n, 0);
        }
        let wins = piles.iter().fold(0, |x, &p| x ^ (p % 4)) != 0;
        PerPlayer::from_fn(n, |p| if (p == mover) == wins { 3000 } else { -3000 })
    }
}

fn piles(s: &Nim) -> Vec<u32> {
    // "PLAYERS MOVER PILES TAKEN"
    let text = s.to_string();
    let field = text.split_whitespace().nth(2).unwrap_or("");
    field.split(',').filter_map(|x| x.parse().ok()).collect()
}

/// The Sprague-Grundy value of a Nim position: 0 iff the player to move loses.
fn grundy(piles: &[u32]) -> u32 {
    piles.iter().fold(0, |x, &p| x ^ (p % 4))
}

#[test]
fn winning_moves_are_found_far_below_the_root() {
    finds_winning_moves(MctsConfig::default());
}

/// Exact values are known only at 8 stones or fewer: from 14 to 17 stones the search must
/// look two to nine plies ahead, and find the winning move where there is one.
fn finds_winning_moves(config: MctsConfig) {
    let mut mcts = Mcts::new(NimEval { known: 8 }, config);
    let mut won = 0;
    for text in [
        "2 1 7,6,4 0,0",
        "2 1 5,5,4 0,0",
        "2 1 6,6,3 0,0",
        "2 1 7,5,3 0,0",
        "2 2 4,4,7 0,0",
        "2 1 6,6,4 0,0",
        "2 2 6,5,4 0,0",
        "2 1 7,7,2 0,0",
    ] {
        let root: Nim = text.parse().unwrap();
        let before = piles(&root);
        let r = mcts.search(&root, &nodes(200_000));
        assert!(
            !r.solved,
            "{text}: the tree must be far larger than the budget"
        );
        let value = r.value.unwrap_or(0);
        if grundy(&before) == 0 {
            assert!(value < 0, "{text}: a lost position valued {value}");
            continue;
        }
        let a = r.best.unwrap();
        let mut after = root.clone();
        after.apply(a);
        assert_eq!(
            grundy(&piles(&after)),
            0,
            "{text}: {a:?} does not win (visits {:?})",
            r.root_visits
        );
        assert!(
            value > 0,
            "{text}: the winning side must see its win, {value}"
        );
        won += 1;
    }
    assert!(won >= 5);
}

#[derive(Clone)]
struct Strong(StrongEval);
impl Evaluator<AzulState> for Strong {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        self.0.values(s)
    }
}

/// Decisions of a seeded random two-player game, with their round.
fn azul_positions(seed: u64) -> Vec<AzulState> {
    let mut rng = seeded(seed);
    let mut s = AzulState::new(2, PlayerId(0));
    let mut out = Vec::new();
    while s.turn() != Turn::Terminal {
        if s.turn() == Turn::Chance {
            let d = s.sample_chance(&mut rng);
            s.apply_chance(&d).unwrap();
        } else {
            if s.num_legal_actions() >= 2 {
                out.push(s.clone());
            }
            let a = s.random_action(&mut rng).unwrap();
            s.apply(a);
        }
    }
    out
}

/// Strong's values are hundredths of a projected point: a logit is taken as ten points.
fn azul_config(chance_samples: u32) -> MctsConfig {
    MctsConfig {
        value_scale: 1000.0,
        chance_samples,
        ..MctsConfig::default()
    }
}

#[test]
fn the_node_limit_binds_and_the_search_is_reproducible() {
    let positions = azul_positions(3);
    for (i, s) in positions.iter().enumerate().step_by(7) {
        for limit in [1u64, 50, 3000] {
            for samples in [0, 4] {
                let mut a = Mcts::new(Strong(StrongEval::default()), azul_config(samples));
                a.seed(7);
                let r = a.search(s, &nodes(limit));
                assert!(
                    r.nodes <= limit,
                    "position {i}: {} nodes for a limit of {limit}",
                    r.nodes
                );
                if !r.solved && limit >= 3000 {
                    assert!(
                        r.nodes + 200 > limit,
                        "position {i}: only {} of {limit} nodes",
                        r.nodes
                    );
                }
                let mut b = Mcts::new(Strong(StrongEval::default()), azul_config(samples));
                b.seed(7);
                let again = b.search(s, &nodes(limit));
                assert_eq!(
                    (r.best, r.value, &r.root_visits),
                    (again.best, again.value, &again.root_visits)
                );
                if let Some(best) = r.best {
                    let mut legal = Vec::new();
                    s.legal_actions(&mut legal);
                    assert!(legal.contains(&best));
                }
            }
        }
    }
}

#[test]
fn chance_outcomes_are_searched_only_when_asked() {
    let positions = azul_positions(5);
    // The last decisions of the first round: the round's end is a few plies away.
    let first = positions[0].round();
    let late: Vec<_> = positions
        .iter()
        .filter(|s| s.round() == first)
        .rev()
        .take(4)
        .collect();
    for s in late {
        let plain =
            Mcts::new(Strong(StrongEval::default()), azul_config(0)).search(s, &nodes(20_000));
        assert_eq!(plain.outcomes, 0);
        let mut m = Mcts::new(Strong(StrongEval::default()), azul_config(6));
        m.seed(11);
        let r = m.search(s, &nodes(20_000));
        assert!(r.outcomes > 0, "no refill sampled from {s}");
        // Each round's end holds one to six refills, more than one where visits allowed.
        assert!(r.chance_nodes > 0 && r.outcomes <= 6 * r.chance_nodes);
        assert!(
            r.outcomes > r.chance_nodes,
            "{} refills at {} round ends",
            r.outcomes,
            r.chance_nodes
        );
        assert!(
            r.depth > plain.depth,
            "{} plies with refills, {} without",
            r.depth,
            plain.depth
        );
        assert!(!r.solved, "six refills at every round's end cannot all fit");
        // A depth limit binds refills too: nothing is sampled at or below it.
        let mut shallow = Mcts::new(Strong(StrongEval::default()), azul_config(6));
        let limited = Budget {
            depth: Some(2),
            nodes: Some(20_000),
            ..Budget::default()
        };
        let r = shallow.search(s, &limited);
        assert!(r.depth <= 2, "{} plies under a depth limit of 2", r.depth);
    }
}

#[test]
fn a_tiny_budget_gives_no_move_and_spends_nothing() {
    let s = &azul_positions(9)[0];
    let mut m = Mcts::new(Strong(StrongEval::default()), azul_config(0));
    // Too few nodes to expand the root: no move, and nothing over the limit.
    let r = m.search(s, &nodes(1));
    assert_eq!(r.best, None);
    assert_eq!(r.nodes, 0);
    // A time limit of zero: no simulation.
    let r = m.search(
        s,
        &Budget {
            time: Some(std::time::Duration::ZERO),
            ..Budget::default()
        },
    );
    assert_eq!(r.simulations, 0);
}

#[test]
fn the_memory_cap_bounds_the_tree_and_is_never_taken_for_a_solution() {
    // A round's first decision: a tree far larger than the cap.
    let s = &azul_positions(9)[0];
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    for (samples, common) in [(0, false), (4, false), (4, true), (64, true)] {
        let capped = MctsConfig {
            tree_cap: 2_000,
            common_outcomes: common,
            ..azul_config(samples)
        };
        let mut m = Mcts::new(Strong(StrongEval::default()), capped);
        m.seed(3);
        let r = m.search(s, &nodes(100_000));
        assert!(r.tree <= 2_000, "{} nodes held under a cap of 2000", r.tree);
        assert!(r.full && !r.solved, "samples {samples}: {r:?}");
        assert!(legal.contains(&r.best.unwrap()));
        // The default cap lets the same budget grow the tree far past it.
        let uncapped = MctsConfig {
            common_outcomes: common,
            ..azul_config(samples)
        };
        let mut free = Mcts::new(Strong(StrongEval::default()), uncapped);
        free.seed(3);
        let r = free.search(s, &nodes(100_000));
        assert!(r.tree > 20_000 && !r.full, "samples {samples}: {}", r.tree);
    }
    // A complete tree is solved when it fits the cap exactly, and not when one node less
    // is allowed: a node left out for memory is not a leaf of the game.
    let mut checked = 0;
    for seed in 0..20u64 {
        let root = TreeGame::new(2, 4, seed);
        if root.turn() == Turn::Terminal {
            continue;
        }
        let whole = Mcts::new(TreeEval, tree_config()).search(&root, &nodes(1_000_000));
        assert!(whole.solved && !whole.full, "seed {seed}");
        let fits = MctsConfig {
            tree_cap: whole.tree,
            ..tree_config()
        };
        let r = Mcts::new(TreeEval, fits).search(&root, &nodes(1_000_000));
        assert!(r.solved && !r.full, "seed {seed}: {} nodes", whole.tree);
        assert_eq!(r.value, whole.value, "seed {seed}");
        let short = MctsConfig {
            tree_cap: whole.tree - 1,
            ..tree_config()
        };
        let r = Mcts::new(TreeEval, short).search(&root, &nodes(1_000_000));
        assert!(r.full && !r.solved, "seed {seed}: {r:?}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} trees had a move");
}

/// Strong's values, recording the factories of every state evaluated at the start of the
/// round after `round` (a refill the search sampled).
struct Refills {
    eval: StrongEval,
    round: u32,
    seen: std::sync::Arc<std::sync::Mutex<Vec<Vec<[u8; 5]>>>>,
}
impl Evaluator<AzulState> for Refills {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        // A refill is evaluated before any move of its round: every factory still full.
        let fresh = s.factories().iter().all(|f| f.total() == 4);
        if s.round() == self.round + 1 && fresh && s.turn() != Turn::Terminal {
            let deal = s.factories().iter().map(|f| f.0).collect();
            if let Ok(mut seen) = self.seen.lock() {
                seen.push(deal);
            }
        }
        self.eval.values(s)
    }
}

#[test]
fn common_outcomes_give_every_end_of_a_round_the_same_refills() {
    let positions = azul_positions(5);
    let first = positions[0].round();
    // Decisions a few plies before the first round's end, whose bag is the same at every
    // end of the round, and still holds every tile of the next deal.
    let late: Vec<_> = positions
        .iter()
        .filter(|s| s.round() == first && s.bag().total() >= 20)
        .rev()
        .skip(2)
        .take(3)
        .collect();
    assert_eq!(late.len(), 3);
    for s in late {
        let mut distinct = Vec::new();
        for common in [false, true] {
            let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
            let eval = Refills {
                eval: StrongEval::default(),
                round: s.round(),
                seen: seen.clone(),
            };
            let config = MctsConfig {
                common_outcomes: common,
                ..azul_config(4)
            };
            let mut m = Mcts::new(eval, config);
            m.seed(21);
            let r = m.search(s, &nodes(20_000));
            assert!(r.chance_nodes > 4, "{} round ends searched", r.chance_nodes);
            let mut deals = seen.lock().unwrap().clone();
            let sampled = deals.len();
            deals.sort();
            deals.dedup();
            distinct.push((sampled, deals.len(), r.chance_nodes));
        }
        let (own, common) = (distinct[0], distinct[1]);
        // Growing slots: with up to 64 refills a round's end, most rounds' ends hold one or
        // two, so a tree that reserves all 64 at each holds many more nodes: common
        // outcomes' tree is smaller by at least 16 slots a round's end.
        let size = |common: bool| {
            let config = MctsConfig {
                common_outcomes: common,
                ..azul_config(64)
            };
            let mut m = Mcts::new(Strong(StrongEval::default()), config);
            m.seed(21);
            let r = m.search(s, &nodes(20_000));
            (r.tree, r.outcomes, r.chance_nodes)
        };
        let (reserved, grown) = (size(false), size(true));
        assert!(
            grown.0 + 16 * reserved.2 as usize <= reserved.0,
            "tree of {grown:?} nodes and outcomes growing, {reserved:?} reserved"
        );
        // Each round's end draws its own refills: nearly every one is new.
        assert!(own.1 > 4 * 4, "own streams: {own:?}");
        // The same streams: at most one refill per slot, whatever the round's end.
        assert!(common.1 <= 4 && common.0 > 4, "common streams: {common:?}");
    }
}

/// Nim's exact values as [`NimEval`], with a key: the state's hash (piles, mover and the
/// stones each player took), so moves of the same players in another order meet.
struct KeyedNim(NimEval);
impl Evaluator<Nim> for KeyedNim {
    fn evaluate(&mut self, s: &Nim) -> PerPlayer<Value> {
        self.0.evaluate(s)
    }
    fn key(&self, s: &Nim) -> Option<u64> {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        Some(h.finish())
    }
}

fn transposing(config: MctsConfig) -> MctsConfig {
    MctsConfig {
        transpositions: true,
        ..config
    }
}

#[test]
fn transpositions_solve_complete_trees_to_the_same_value_with_fewer_nodes() {
    // Small positions whose whole tree fits: the graph's exact value must be the tree's,
    // for the same move's value, and sharing must save evaluator calls.
    let mut merged = 0;
    for text in [
        "2 1 3,2,2 0,0",
        "2 1 2,2,2 0,0",
        "2 2 3,3,1 0,0",
        "2 1 4,2,1 0,0",
        "3 1 2,2,2 0,0,0",
    ] {
        let root: Nim = text.parse().unwrap();
        let config = MctsConfig {
            value_scale: 1000.0,
            cpuct: 50.0,
            temperature: 100.0,
            ..MctsConfig::default()
        };
        let tree = Mcts::new(KeyedNim(NimEval { known: 0 }), config.clone())
            .search(&root, &nodes(10_000_000));
        let graph = Mcts::new(KeyedNim(NimEval { known: 0 }), transposing(config))
            .search(&root, &nodes(10_000_000));
        assert!(tree.solved && graph.solved, "{text}: both must be complete");
        assert_eq!(tree.merged, 0, "{text}: nothing merged without the setting");
        assert_eq!(graph.value, tree.value, "{text}: the graph's value");
        // The moves may differ only between moves of equal value.
        let value_of = |a| {
            let mut s = root.clone();
            s.apply(a);
            Mcts::new(KeyedNim(NimEval { known: 0 }), config_for_value())
                .search(&s, &nodes(10_000_000))
                .value
        };
        assert_eq!(
            value_of(graph.best.unwrap()),
            value_of(tree.best.unwrap()),
            "{text}: the moves' values"
        );
        assert!(
            graph.merged > 0 && graph.nodes < tree.nodes,
            "{text}: {} merged, {} nodes against {}",
            graph.merged,
            graph.nodes,
            tree.nodes
        );
        merged += graph.merged;
    }
    assert!(merged > 20, "only {merged} transpositions in five trees");
}

fn config_for_value() -> MctsConfig {
    MctsConfig {
        value_scale: 1000.0,
        cpuct: 50.0,
        temperature: 100.0,
        ..MctsConfig::default()
    }
}

#[test]
fn transpositions_still_find_winning_moves_far_below_the_root() {
    // As `winning_moves_are_found_far_below_the_root`, on the graph.
    let mut mcts = Mcts::new(
        KeyedNim(NimEval { known: 8 }),
        transposing(MctsConfig::default()),
    );
    let mut won = 0;
    for text in [
        "2 1 7,6,4 0,0",
        "2 1 5,5,4 0,0",
        "2 1 6,6,3 0,0",
        "2 1 7,5,3 0,0",
        "2 2 4,4,7 0,0",
        "2 1 6,6,4 0,0",
        "2 2 6,5,4 0,0",
        "2 1 7,7,2 0,0",
    ] {
        let root: Nim = text.parse().unwrap();
        let before = piles(&root);
        let r = mcts.search(&root, &nodes(200_000));
        assert!(r.merged > 0, "{text}: no transposition met");
        assert!(r.nodes <= 200_000);
        let value = r.value.unwrap_or(0);
        if grundy(&before) == 0 {
            assert!(value < 0, "{text}: a lost position valued {value}");
            continue;
        }
        let mut after = root.clone();
        after.apply(r.best.unwrap());
        assert_eq!(grundy(&piles(&after)), 0, "{text}: not a winning move");
        won += 1;
    }
    assert!(won >= 5);
}

struct KeyedStrong(StrongEval);
impl Evaluator<AzulState> for KeyedStrong {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        self.0.values(s)
    }
    fn key(&self, s: &AzulState) -> Option<u64> {
        Some(tessera_azul::eval::state_key(s))
    }
}

#[test]
fn azul_transpositions_are_merged_within_the_round_and_keep_the_limits() {
    let positions = azul_positions(3);
    let first = positions[0].round();
    let mut merged = 0;
    for (i, s) in positions.iter().enumerate().step_by(5) {
        for samples in [0, 8] {
            let search = |seed| {
                let mut m = Mcts::new(
                    KeyedStrong(StrongEval::default()),
                    transposing(azul_config(samples)),
                );
                m.seed(seed);
                m.search(s, &nodes(20_000))
            };
            let r = search(7);
            assert!(r.nodes <= 20_000, "position {i}: {} nodes", r.nodes);
            let again = search(7);
            assert_eq!(
                (r.best, r.value, &r.root_visits, r.merged),
                (again.best, again.value, &again.root_visits, again.merged),
                "position {i}: not reproducible"
            );
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            assert!(r.best.is_some_and(|b| legal.contains(&b)));
            assert_eq!(r.root_visits.len(), legal.len());
            if s.round() == first {
                merged += r.merged;
            }
            // Without a key nothing is merged, whatever the setting says.
            let mut plain = Mcts::new(Strong(StrongEval::default()), transposing(azul_config(0)));
            assert_eq!(plain.search(s, &nodes(2000)).merged, 0);
        }
    }
    assert!(merged > 0, "no transposition in the first round's searches");
}

#[test]
fn azul_complete_rounds_solve_to_the_same_value_with_transpositions() {
    // The last decisions of a round: the round's tree is completed with and without
    // sharing, to the same exact value (the round's end a leaf).
    let mut checked = 0;
    for seed in [5u64, 6, 7] {
        let positions = azul_positions(seed);
        let first = positions[0].round();
        let late: Vec<_> = positions
            .iter()
            .filter(|s| s.round() == first)
            .rev()
            .take(5)
            .collect();
        for s in late {
            let config = MctsConfig {
                cpuct: 50.0,
                temperature: 100.0,
                ..azul_config(0)
            };
            let tree = Mcts::new(KeyedStrong(StrongEval::default()), config.clone())
                .search(s, &nodes(5_000_000));
            let graph = Mcts::new(KeyedStrong(StrongEval::default()), transposing(config))
                .search(s, &nodes(5_000_000));
            if !tree.solved {
                continue;
            }
            assert!(graph.solved, "the graph of a complete tree is complete");
            assert_eq!(graph.value, tree.value, "{s}");
            assert!(graph.nodes <= tree.nodes);
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} complete rounds");
}

/// The seed an [`MctsAgent`] draws from `rng` for its next search (its first draw).
fn next_seed(rng: &tessera_core::GameRng) -> u64 {
    use rand::Rng;
    rng.clone().random::<u64>()
}

#[test]
fn two_threads_are_two_trees_sharing_the_node_limit() {
    // The agent's combined visits are exactly those of two one-thread searches with the
    // node limit halved, the first with the agent's seed and the second with the helper's;
    // it plays the move with the most of them, and replays the same.
    for (i, s) in azul_positions(11).iter().enumerate().step_by(6) {
        let mut rng = seeded(100 + i as u64);
        let seed = next_seed(&rng);
        let mut agent =
            MctsAgent::with_threads("t2", Strong(StrongEval::default()), azul_config(8), 2);
        assert_eq!(agent.threads(), 2);
        let a = agent.choose(s, &nodes(20_001), &mut rng);
        let r = agent.last_result().expect("a search").clone();
        assert!(r.nodes <= 20_001, "position {i}: {} nodes", r.nodes);
        let one = |seed, n| {
            let mut m = Mcts::new(Strong(StrongEval::default()), azul_config(8));
            m.seed(seed);
            m.search(s, &nodes(n))
        };
        let (first, second) = (one(seed, 10_001), one(mix64(seed ^ mix64(1)), 10_000));
        assert_eq!(r.nodes, first.nodes + second.nodes, "position {i}");
        assert_eq!(r.simulations, first.simulations + second.simulations);
        let summed: Vec<u32> = first
            .root_visits
            .iter()
            .zip(&second.root_visits)
            .map(|(x, y)| x + y)
            .collect();
        assert_eq!(r.root_visits, summed, "position {i}");
        if !(first.solved || second.solved) {
            assert!(!r.solved);
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            let most = *summed.iter().max().unwrap();
            let k = legal.iter().position(|&m| m == a).unwrap();
            assert_eq!(summed[k], most, "position {i}: not the most visited move");
        }
        let mut again =
            MctsAgent::with_threads("t2", Strong(StrongEval::default()), azul_config(8), 2);
        assert_eq!(
            again.choose(s, &nodes(20_001), &mut seeded(100 + i as u64)),
            a
        );
        assert_eq!(
            again.last_result().map(|r| &r.root_visits),
            Some(&r.root_visits)
        );
    }
}

#[test]
fn one_thread_is_the_plain_search() {
    for (i, s) in azul_positions(12).iter().enumerate().step_by(7) {
        let mut plain = MctsAgent::new("p", Strong(StrongEval::default()), azul_config(8));
        let mut one =
            MctsAgent::with_threads("p", Strong(StrongEval::default()), azul_config(8), 1);
        let a = plain.choose(s, &nodes(5_000), &mut seeded(i as u64));
        let b = one.choose(s, &nodes(5_000), &mut seeded(i as u64));
        assert_eq!(a, b, "position {i}");
        let timeless = |r: Option<&tessera_search::mcts::MctsResult<_>>| {
            r.cloned().map(|r| tessera_search::mcts::MctsResult {
                elapsed: std::time::Duration::ZERO,
                ..r
            })
        };
        assert_eq!(
            timeless(plain.last_result()),
            timeless(one.last_result()),
            "position {i}"
        );
    }
}

/// Checks a two-thread player made by `make` (from an evaluator and settings): it plays a
/// winning move in three won Nim positions, and completes a small game, playing the exact
/// move and value; returns the complete search's result and the plain search's.
fn two_threads_play_nim_exactly(
    make: impl Fn(NimEval, MctsConfig) -> MctsAgent<Nim, NimEval>,
) -> (MctsResult<Take>, MctsResult<Take>) {
    let mut agent = make(NimEval { known: 8 }, MctsConfig::default());
    let mut rng = seeded(3);
    for text in ["2 1 7,6,4 0,0", "2 1 7,5,3 0,0", "2 1 6,6,3 0,0"] {
        let root: Nim = text.parse().unwrap();
        let a = agent.choose(&root, &nodes(200_000), &mut rng);
        let mut after = root.clone();
        after.apply(a);
        assert_eq!(grundy(&piles(&after)), 0, "{text}: {a:?} does not win");
    }
    // Flat priors and wide exploration complete this small game.
    let wide = MctsConfig {
        cpuct: 50.0,
        temperature: 100.0,
        ..MctsConfig::default()
    };
    let mut agent = make(NimEval { known: 0 }, wide.clone());
    let root: Nim = "2 1 3,2,2 0,0".parse().unwrap();
    let a = agent.choose(&root, &nodes(1_000_000), &mut rng);
    let mut after = root.clone();
    after.apply(a);
    assert_eq!(grundy(&piles(&after)), 0, "{a:?} does not win");
    let r = agent.last_result().expect("a search").clone();
    assert!(r.solved);
    let exact = Mcts::new(NimEval { known: 0 }, wide).search(&root, &nodes(1_000_000));
    assert!(exact.solved);
    assert_eq!((Some(a), r.value), (exact.best, exact.value));
    (r, exact)
}

#[test]
fn two_threads_find_winning_moves_and_solve_complete_trees() {
    // Each of the two trees is complete and solved: the agent plays its exact move.
    two_threads_play_nim_exactly(|e, c| MctsAgent::with_threads("nim", e, c, 2));
}

/// A result without its time, to compare two searches.
fn timeless<A: Clone>(
    r: &tessera_search::mcts::MctsResult<A>,
) -> tessera_search::mcts::MctsResult<A> {
    tessera_search::mcts::MctsResult {
        elapsed: std::time::Duration::ZERO,
        ..r.clone()
    }
}

#[test]
fn a_shared_tree_on_one_thread_is_the_plain_search() {
    // With one thread the deferred expansion (reserve, value outside the lock, complete)
    // builds the tree the plain search builds, result for result: the virtual losses are
    // all replaced, the node counts and the refills the same.
    let settings = [
        azul_config(0),
        azul_config(8),
        MctsConfig {
            common_outcomes: true,
            transpositions: true,
            ..azul_config(32)
        },
    ];
    for (i, s) in azul_positions(13).iter().enumerate().step_by(5) {
        for config in &settings {
            let mut plain = Mcts::new(Strong(StrongEval::default()), config.clone());
            plain.seed(i as u64);
            let want = plain.search(s, &nodes(8_000));
            let mut shared = Mcts::new(Strong(StrongEval::default()), config.clone());
            shared.seed(i as u64);
            let got = shared.search_shared(&mut [Strong(StrongEval::default())], s, &nodes(8_000));
            assert_eq!(timeless(&got), timeless(&want), "position {i}, {config:?}");
            assert_eq!(got.collisions, 0);
        }
    }
}

#[test]
fn a_shared_tree_keeps_the_node_limit_and_every_visit_adds_up() {
    // Two threads in one tree: the node limit is never passed, every simulation after the
    // root's expansion adds exactly one visit to one root move (no virtual loss is left
    // behind), the means are chances, and the move played is the most visited.
    let mut searched = 0;
    for (i, s) in azul_positions(14).iter().enumerate().step_by(4) {
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        for (samples, limit) in [(0, 20_000u64), (8, 30_000)] {
            let mut agent = MctsAgent::with_shared_tree(
                "shared",
                Strong(StrongEval::default()),
                azul_config(samples),
                2,
            );
            assert_eq!(agent.threads(), 2);
            assert!(agent.shares_tree());
            let a = agent.choose(s, &nodes(limit), &mut seeded(i as u64));
            if legal.len() == 1 {
                continue;
            }
            let r = agent.last_result().expect("a search").clone();
            assert!(r.nodes <= limit, "position {i}: {} nodes", r.nodes);
            let visits: u64 = r.root_visits.iter().map(|&v| u64::from(v)).sum();
            assert_eq!(
                visits,
                legal.len() as u64 + r.simulations - 1,
                "position {i}: {r:?}"
            );
            for (&v, &sum) in r.root_visits.iter().zip(&r.root_sums) {
                assert!(
                    v >= 1 && (0.0..=v as f32 + 1e-3).contains(&sum),
                    "{v} {sum}"
                );
            }
            if !r.solved {
                let most = *r.root_visits.iter().max().unwrap();
                let k = legal.iter().position(|&m| m == a).unwrap();
                assert_eq!(
                    r.root_visits[k], most,
                    "position {i}: not the most visited move"
                );
            }
            searched += 1;
        }
    }
    assert!(searched >= 6, "only {searched} searches");
}

#[test]
fn a_shared_tree_keeps_the_memory_cap() {
    // Expansions in flight count against the cap: two threads never grow the tree past it.
    let s = &azul_positions(9)[0];
    for samples in [0, 8] {
        let capped = MctsConfig {
            tree_cap: 2_000,
            ..azul_config(samples)
        };
        let mut m = Mcts::new(Strong(StrongEval::default()), capped);
        let evals = &mut [Strong(StrongEval::default()), Strong(StrongEval::default())];
        let r = m.search_shared(evals, s, &nodes(100_000));
        assert!(r.tree <= 2_000, "{} nodes held under a cap of 2000", r.tree);
        assert!(r.full && !r.solved, "samples {samples}: {r:?}");
    }
}

#[test]
fn a_shared_tree_finds_winning_moves_and_solves_complete_trees() {
    // The two threads complete one tree together: the plain search's complete tree.
    let (r, exact) =
        two_threads_play_nim_exactly(|e, c| MctsAgent::with_shared_tree("nim", e, c, 2));
    assert_eq!(r.tree, exact.tree, "the complete tree is the same tree");
}

/// Settings that keep the tree between moves.
fn reusing(config: MctsConfig) -> MctsConfig {
    MctsConfig {
        reuse: true,
        ..config
    }
}

#[test]
fn a_carried_subtree_of_a_complete_tree_is_solved_without_a_new_node() {
    // A complete tree of four plies, searched with reuse; two plies later (the move played
    // and a reply) the carried subtree is itself complete: the next search is solved at
    // once, with no evaluator call, to minimax's value of the remaining two plies. A copy
    // that lost a node, or counted a finished node as open, fails it.
    let mut checked = 0;
    for seed in 0..40u64 {
        let root = TreeGame::new(2, 4, 3000 + seed);
        if root.turn() == Turn::Terminal {
            continue;
        }
        let mut mcts = Mcts::new(TreeEval, reusing(tree_config()));
        let first = mcts.search(&root, &nodes(1_000_000));
        assert!(first.solved && first.reused == 0, "seed {seed}");
        let mut next = root.clone();
        next.apply(first.best.unwrap());
        let mut replies = Vec::new();
        next.legal_actions(&mut replies);
        let Some(&reply) = replies.last() else {
            continue;
        };
        next.apply(reply);
        if next.turn() == Turn::Terminal {
            continue;
        }
        let r = mcts.search(&next, &nodes(1));
        let want =
            Searcher::new(TreeEval, SearchConfig::new(Algorithm::Minimax)).search_depth(&next, 2);
        assert!(r.reused > 1, "seed {seed}: nothing carried");
        assert!(r.solved, "seed {seed}: the carried tree is complete, {r:?}");
        assert_eq!(r.value, want.value, "seed {seed}: against minimax");
        assert_eq!(r.nodes, 1, "seed {seed}: one revisit, no evaluator call");
        // The same position again carries the whole tree.
        let again = mcts.search(&next, &nodes(1));
        assert_eq!(
            (again.reused, again.value),
            (r.tree, r.value),
            "seed {seed}"
        );
        // A fresh searcher needs the nodes and gets the same value.
        let fresh = Mcts::new(TreeEval, tree_config()).search(&next, &nodes(1_000_000));
        let mut legal = Vec::new();
        next.legal_actions(&mut legal);
        assert!(fresh.solved, "seed {seed}: {fresh:?}");
        assert!(fresh.nodes >= legal.len() as u64, "seed {seed}: {fresh:?}");
        assert_eq!(fresh.value, r.value, "seed {seed}");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} trees checked");
}

/// Plays a seeded two-player Azul game between two searchers of `config` at `limit` nodes a
/// move (seats 0 and 1 their own agents), checking every search's limits and visit counts;
/// returns the moves and the searches that carried a tree.
fn azul_game_with(config: &MctsConfig, limit: u64, seed: u64) -> (Vec<String>, usize, usize) {
    let mut rng = seeded(seed);
    let mut seats: Vec<_> = (0..2)
        .map(|_| MctsAgent::new("p", Strong(StrongEval::default()), config.clone()))
        .collect();
    let mut s = AzulState::new(2, PlayerId(0));
    let (mut moves, mut searches, mut carried) = (Vec::new(), 0, 0);
    while s.turn() != Turn::Terminal {
        let Turn::Player(p) = s.turn() else {
            let d = s.sample_chance(&mut rng);
            s.apply_chance(&d).unwrap();
            continue;
        };
        let agent = &mut seats[p.index()];
        let a = agent.choose(&s, &nodes(limit), &mut rng);
        if let Some(r) = agent.last_result() {
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            assert!(r.nodes <= limit, "{} nodes", r.nodes);
            let visits: u64 = r.root_visits.iter().map(|&v| u64::from(v)).sum();
            // The root's children hold one visit each from its expansion and one for every
            // simulation after it, carried ones included: the copy kept every count.
            let root_visits = if r.reused > 0 {
                u64::from(r.reused_visits) + r.simulations
            } else {
                1 + r.simulations
            };
            if r.reused > 0 || r.simulations > 0 {
                assert_eq!(visits, root_visits + legal.len() as u64 - 2, "{r:?}");
            }
            searches += 1;
            carried += usize::from(r.reused > 0);
        }
        moves.push(a.to_string());
        s.apply(a);
    }
    (moves, searches, carried)
}

#[test]
fn azul_trees_are_carried_between_moves_within_the_limits_and_replay() {
    for config in [
        azul_config(0),
        azul_config(8),
        MctsConfig {
            common_outcomes: true,
            ..azul_config(16)
        },
    ] {
        let on = reusing(config.clone());
        let (moves, searches, carried) = azul_game_with(&on, 4_000, 21);
        // Every search but a round's first (a refill came between) can find its position
        // two plies down the last tree; most do.
        assert!(
            carried * 2 > searches,
            "{config:?}: {carried} of {searches} searches carried a tree"
        );
        assert_eq!(
            azul_game_with(&on, 4_000, 21).0,
            moves,
            "{config:?}: replay"
        );
        let (plain, _, none) = azul_game_with(&config, 4_000, 21);
        assert_eq!(none, 0);
        assert_ne!(plain, moves, "{config:?}: reuse changed no move");
    }
}

#[test]
fn a_new_game_or_a_depth_limit_starts_an_empty_tree() {
    let positions = azul_positions(23);
    let mut agent = MctsAgent::new("p", Strong(StrongEval::default()), reusing(azul_config(8)));
    let s = &positions[0];
    agent.choose(s, &nodes(3_000), &mut seeded(1));
    agent.choose(s, &nodes(3_000), &mut seeded(1));
    assert!(agent.last_result().unwrap().reused > 0, "the same position");
    agent.reset();
    agent.choose(s, &nodes(3_000), &mut seeded(1));
    assert_eq!(agent.last_result().unwrap().reused, 0, "after reset");
    let deep = Budget {
        depth: Some(2),
        ..nodes(3_000)
    };
    agent.choose(s, &deep, &mut seeded(1));
    assert_eq!(
        agent.last_result().unwrap().reused,
        0,
        "under a depth limit"
    );
    agent.choose(s, &nodes(3_000), &mut seeded(1));
    assert_eq!(
        agent.last_result().unwrap().reused,
        0,
        "after a depth limit: its leaves were the limit's"
    );
    // A capped tree is not carried either.
    let mut capped = MctsAgent::new(
        "p",
        Strong(StrongEval::default()),
        reusing(MctsConfig {
            tree_cap: 500,
            ..azul_config(0)
        }),
    );
    capped.choose(s, &nodes(3_000), &mut seeded(1));
    assert!(capped.last_result().unwrap().full);
    capped.choose(s, &nodes(3_000), &mut seeded(1));
    assert_eq!(capped.last_result().unwrap().reused, 0);
}

#[test]
fn a_shared_tree_is_carried_too() {
    let config = reusing(azul_config(8));
    let mut agent = MctsAgent::with_shared_tree("shared", Strong(StrongEval::default()), config, 2);
    let mut rng = seeded(5);
    let mut s = azul_positions(25)[0].clone();
    let mut carried = 0;
    for _ in 0..6 {
        if s.turn() != Turn::Player(PlayerId(0)) && s.turn() != Turn::Player(PlayerId(1)) {
            break;
        }
        let a = agent.choose(&s, &nodes(20_000), &mut rng);
        if let Some(r) = agent.last_result() {
            assert!(r.nodes <= 20_000);
            carried += usize::from(r.reused > 0);
        }
        s.apply(a);
    }
    assert!(carried >= 2, "{carried} searches carried a tree");
}

#[test]
fn the_settled_rule_stops_when_no_move_can_overtake_or_the_values_agree() {
    // One move: nothing to decide.
    assert!(settled(&[(5, 0.1)], 0.01, 0.5, 10));
    // No progress measured: never.
    assert!(!settled(&[(100, 0.6), (10, 0.4)], 0.0, 0.5, 110));
    // No other move can overtake: a lead of 90 visits with 110 simulations done at a
    // tenth of the limit leaves 990 to come (no), at nine tenths 12.2 (yes), whatever the
    // share `settle` asks before the values are read.
    let lead = [(100, 0.5), (10, 0.6)];
    assert!(!settled(&lead, 0.1, 1.0, 110));
    assert!(!settled(&lead, 0.5, 1.0, 110));
    assert!(settled(&lead, 0.9, 1.0, 110));
    // A clear favourite: no other move has half its visits, and the best mean among the
    // moves with a quarter of its visits or more is its own.
    let agree = [(100, 0.6), (50, 0.5), (10, 0.9)];
    assert!(settled(&agree, 0.5, 0.5, 160));
    assert!(!settled(&agree, 0.49, 0.5, 160), "before the share");
    let close = [(100, 0.6), (51, 0.5), (10, 0.9)];
    assert!(
        !settled(&close, 0.5, 0.5, 161),
        "a second move with half the visits"
    );
    let disagree = [(100, 0.6), (40, 0.65), (10, 0.9)];
    assert!(!settled(&disagree, 0.5, 0.5, 150));
    let little_seen = [(100, 0.6), (25, 0.7)];
    assert!(
        !settled(&little_seen, 0.5, 0.5, 125),
        "a quarter of the visits counts"
    );
    let unseen = [(100, 0.6), (24, 0.7)];
    assert!(
        settled(&unseen, 0.5, 0.5, 124),
        "less than a quarter does not"
    );
    // Ties in visits are never settled by the values (only by what is left).
    assert!(!settled(&[(50, 0.4), (50, 0.6)], 0.5, 0.5, 100));
    // Off: only a single move stops the search.
    assert!(!settled(&agree, 0.99, 0.0, 170));
}

#[test]
fn a_settled_search_stops_early_on_the_move_its_values_agree_with() {
    let limit = 20_000;
    let settle = 0.5;
    let config = MctsConfig {
        settle,
        ..azul_config(8)
    };
    let (mut early, mut full_length) = (0, 0);
    for (i, s) in azul_positions(5).iter().enumerate().step_by(3) {
        let mut a = Mcts::new(Strong(StrongEval::default()), config.clone());
        a.seed(i as u64);
        let r = a.search(s, &nodes(limit));
        assert!(r.nodes <= limit, "position {i}");
        let mut again = Mcts::new(Strong(StrongEval::default()), config.clone());
        again.seed(i as u64);
        assert_eq!(
            timeless(&again.search(s, &nodes(limit))),
            timeless(&r),
            "position {i}: reproducible"
        );
        let mut plain = Mcts::new(Strong(StrongEval::default()), azul_config(8));
        plain.seed(i as u64);
        let p = plain.search(s, &nodes(limit));
        assert!(!p.settled, "position {i}: settled without the setting");
        if r.settled {
            early += 1;
            assert!(r.nodes < limit && !r.solved, "position {i}");
            // The rule held on the tree it stopped with, and the move played is the most
            // visited one (ties to the better mean).
            let kids: Vec<(u32, f32)> = r
                .root_visits
                .iter()
                .zip(&r.root_sums)
                .map(|(&v, &sum)| (v, sum / v as f32))
                .collect();
            let progress = r.nodes as f64 / limit as f64;
            assert!(
                settled(&kids, progress, f64::from(settle), r.simulations),
                "position {i}"
            );
            let top = (0..kids.len())
                .max_by(|&a, &b| {
                    kids[a]
                        .0
                        .cmp(&kids[b].0)
                        .then(kids[a].1.total_cmp(&kids[b].1))
                })
                .unwrap();
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            assert_eq!(r.best, Some(legal[top]), "position {i}");
        } else if !r.solved {
            full_length += 1;
            assert!(r.nodes + 200 > limit, "position {i}: {} nodes", r.nodes);
        }
    }
    assert!(
        early >= 3 && full_length >= 1,
        "{early} searches settled early, {full_length} ran to the limit"
    );
}

/// `clock_settle` binds only limits marked as a game clock's: under a fixed limit the
/// search is the plain one, result for result; on a clock it is the search with `settle`
/// at that share; and a `settle` given applies on a clock too when `clock_settle` is unset.
#[test]
fn the_clock_share_applies_only_under_a_clock() {
    let limit = 20_000;
    let on_clock_only = MctsConfig {
        clock_settle: Some(0.5),
        ..azul_config(8)
    };
    let given = MctsConfig {
        settle: 0.5,
        ..azul_config(8)
    };
    let clocked = Budget {
        from_clock: true,
        ..nodes(limit)
    };
    let mut early = 0;
    for (i, s) in azul_positions(5).iter().enumerate().step_by(3) {
        let run = |config: &MctsConfig, limits: &Budget| {
            let mut a = Mcts::new(Strong(StrongEval::default()), config.clone());
            a.seed(i as u64);
            timeless(&a.search(s, limits))
        };
        assert_eq!(
            run(&on_clock_only, &nodes(limit)),
            run(&azul_config(8), &nodes(limit)),
            "position {i}: a fixed limit"
        );
        let on_clock = run(&on_clock_only, &clocked);
        assert_eq!(
            on_clock,
            run(&given, &nodes(limit)),
            "position {i}: on a clock"
        );
        assert_eq!(
            run(&given, &clocked),
            on_clock,
            "position {i}: settle given"
        );
        early += usize::from(on_clock.settled);
    }
    assert!(early >= 3, "{early} searches on a clock settled early");
    assert_eq!(on_clock_only.settle_for(&nodes(limit)), 0.0);
    assert_eq!(on_clock_only.settle_for(&clocked), 0.5);
    assert_eq!(given.settle_for(&clocked), 0.5);
}

/// Nim valued flat (every position 0) with a policy term: `bonus` logits on `favourite`.
#[derive(Clone)]
struct BiasedNim {
    favourite: Take,
    bonus: f32,
}

impl Evaluator<Nim> for BiasedNim {
    fn evaluate(&mut self, s: &Nim) -> PerPlayer<Value> {
        PerPlayer::filled(s.num_players(), 0)
    }
    fn prior_bias(&self, _state: &Nim, action: Take, _child: &Nim) -> f32 {
        if action == self.favourite {
            self.bonus
        } else {
            0.0
        }
    }
}

#[test]
fn the_evaluators_prior_bias_steers_the_visits() {
    bias_steers_the_visits(MctsConfig::default());
}

/// Every position is valued alike, so the priors alone decide where the visits go: flat
/// without a bias (ties go to the first move), and to the favoured move with one; a bias
/// of 0 is the plain search, visit for visit.
fn bias_steers_the_visits(config: MctsConfig) {
    let root: Nim = "2 1 7,6,4 0,0".parse().unwrap();
    let mut legal = Vec::new();
    root.legal_actions(&mut legal);
    let favourite = *legal.last().unwrap();
    let last = legal.len() - 1;
    let visits = |bonus: f32| {
        let mut m = Mcts::new(BiasedNim { favourite, bonus }, config.clone());
        m.search(&root, &nodes(2_000)).root_visits
    };
    let flat = visits(0.0);
    let steered = visits(3.0);
    let total: u32 = steered.iter().sum();
    assert!(
        flat[last] <= flat.iter().sum::<u32>() / legal.len() as u32 + 1,
        "without a bias the last move gets no more than its share: {flat:?}"
    );
    assert!(
        2 * steered[last] > total,
        "a bias of 3 logits gives the favoured move most of the visits: {steered:?}"
    );
    assert_eq!(flat, visits(0.0));
}

fn lazy(config: MctsConfig) -> MctsConfig {
    MctsConfig {
        lazy: true,
        ..config
    }
}

#[test]
fn lazy_valuing_solves_complete_trees_to_minimax() {
    solves_complete_trees(lazy(tree_config()));
}

#[test]
fn lazy_valuing_spends_one_evaluator_call_a_simulation_and_keeps_the_limits() {
    // Every simulation ends at its first new evaluator call (a child valued, or a refill
    // sampled), or at a leaf revisited: nodes never outnumber simulations by more than the
    // one that hit the limit. The node limit binds, the seed replays the search, and the
    // move is legal; plain searches of the same nodes run far fewer simulations.
    let positions = azul_positions(3);
    let mut legal = Vec::new();
    let (mut lazy_sims, mut plain_sims) = (0, 0);
    for (i, s) in positions.iter().enumerate().step_by(7) {
        for limit in [1u64, 50, 3000] {
            for samples in [0, 4] {
                let run = || {
                    let mut a =
                        Mcts::new(Strong(StrongEval::default()), lazy(azul_config(samples)));
                    a.seed(7);
                    a.search(s, &nodes(limit))
                };
                let r = run();
                assert!(
                    r.nodes <= limit,
                    "position {i}: {} nodes of {limit}",
                    r.nodes
                );
                assert!(
                    r.nodes <= r.simulations + 1,
                    "position {i}: {} nodes in {} simulations",
                    r.nodes,
                    r.simulations
                );
                let again = run();
                assert_eq!(
                    (r.best, r.value, &r.root_visits),
                    (again.best, again.value, &again.root_visits)
                );
                let best = r.best.expect("one node values a move");
                s.legal_actions(&mut legal);
                assert!(legal.contains(&best), "position {i}");
                if limit == 3000 && !r.solved {
                    assert!(r.nodes + 1 >= limit, "position {i}: {} nodes", r.nodes);
                    let mut plain = Mcts::new(Strong(StrongEval::default()), azul_config(samples));
                    plain.seed(7);
                    let p = plain.search(s, &nodes(limit));
                    lazy_sims += r.simulations;
                    plain_sims += p.simulations;
                }
            }
        }
    }
    assert!(
        lazy_sims > 3 * plain_sims,
        "{lazy_sims} lazy against {plain_sims} plain simulations"
    );
}

#[test]
fn lazy_valuing_finds_winning_moves_far_below_the_root() {
    finds_winning_moves(lazy(MctsConfig::default()));
}

#[test]
fn a_lazy_search_takes_its_priors_from_the_bias_alone() {
    bias_steers_the_visits(lazy(MctsConfig::default()));
}
