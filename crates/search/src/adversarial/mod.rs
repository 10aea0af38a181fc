//! Adversarial search over any [`Game`]: minimax, alpha-beta, alpha-beta with move presorting
//! by the previous iteration's values (the blog seed's three players), iterative deepening
//! under a time, node or depth limit, an optional transposition table, expectimax over
//! sampled chance outcomes, and two multi-player variants (paranoid and max^n).
//!
//! # Values
//! An [`Evaluator`] gives a value per player for a state (for Azul: each player's projected
//! score). The search turns that vector into a *utility* per player,
//! `u[p] = v[p] - max over o != p of v[o]` (for two players: my value minus the opponent's,
//! exactly the blog's value; for one player: `v[p]`).
//!
//! # Multi-player variants
//! - [`MultiMode::Paranoid`] (default): the root player maximises its utility and assumes
//!   every other player minimises it. This is ordinary two-player minimax whatever the number
//!   of players, so alpha-beta pruning and presorting apply unchanged. Turns need not
//!   alternate (the searcher asks the state who moves).
//! - [`MultiMode::MaxN`]: every player maximises its own utility (vector values, ties to the
//!   first child in search order). No pruning; with two players it equals minimax because the
//!   utilities are zero-sum.
//! - Searching fewer of the opponents' moves (paranoid search only, off by default):
//!   [`SearchConfig::plausible`] keeps at each opponent's node only its K best moves by its own
//!   static value (opponent modelling: minimax on a smaller tree fixed by the state, so every
//!   variant stays exact on that tree); [`SearchConfig::replies`] keeps the K replies an
//!   earlier iteration ranked most damaging (forward pruning; the root value can only rise).
//!   [`Evaluator::widths`] may set both per root (for example by the number of players).
//!
//! # Leaves and chance
//! A node is a leaf when the depth limit is reached, the game is over, or
//! [`Evaluator::is_leaf`] says so. The default `is_leaf` treats every chance node as a leaf:
//! for Azul the end of a round (before the refill) is a leaf, as in the blog. An evaluator
//! that returns `false` at a chance node makes the search average over
//! [`SearchConfig::chance_samples`] sampled outcomes (expectimax over samples; the window is
//! opened fully below a chance node, so pruning stays exact). Sample `j` draws from a
//! generator seeded by the search's seed, `j` and the number of chance nodes above it, so
//! sibling moves are compared on the same sampled outcomes (common random numbers).
//! With [`SearchConfig::extend_chance`] the chance leaves stay leaves until an iteration
//! exhausts the tree; if the time or node limit allows more, the search then deepens on
//! through them (for Azul: past the round's end) instead of stopping early.
//!
//! # Move order and reductions
//! With presorting, a node an earlier iteration visited tries its children best first by
//! their last values. A node searched for the first time has no such order; with
//! [`SearchConfig::killers`] it tries the table's move first, then the ply's killer moves
//! (the latest moves that cut off a sibling), and with [`SearchConfig::history`] the rest by
//! how often they cut off before: only the order changes, never a value. With
//! [`SearchConfig::lmr`] the late moves of ranked nodes are probed shallower first (late-move
//! reductions; not exact).
//!
//! # Counters
//! `nodes` counts every state the search visits, the root included; `leaves` counts
//! evaluator calls. Transposition-table hits count as nodes, not leaves.
//!
//! # Time limits
//! The deadline is checked every [`SearchConfig::check_every`] nodes (64 by default). When it
//! has passed, the running iteration is abandoned and the best move of the last completed
//! depth is played (if no depth completed, the best root move found so far, or the first legal
//! move). The overshoot is therefore the time to visit at most `check_every` nodes plus the
//! unwinding of the recursion: well under a millisecond for Azul on our machine. The test
//! `adv_deadline` asserts a generous bound of 25 ms on a loaded shared machine.
//!
//! ```
//! use tessera_core::{Game, PerPlayer, testgame::Nim};
//! use tessera_search::adversarial::{Algorithm, FnEvaluator, SearchConfig, Searcher};
//!
//! // Stones taken so far, and 100 for taking the last stone.
//! let eval = FnEvaluator(|s: &Nim| {
//!     let mut v = s.scores();
//!     if let Some(o) = s.outcome() {
//!         v[o.winners[0]] += 100;
//!     }
//!     v
//! });
//! let state: Nim = "2 1 3,4 0,0".parse().unwrap();
//! let mut ab = Searcher::new(eval, SearchConfig::new(Algorithm::AlphaBeta));
//! let r = ab.search_depth(&state, 20);
//! assert!(r.best.is_some());
//! ```

mod agent;
pub mod testtree;
mod tree;
mod tt;
mod value;

pub use agent::SearchAgent;
pub use value::{INF, Value};

use std::time::{Duration, Instant};

use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use tessera_core::{Budget, Game, GameRng, PerPlayer, PlayerId, Turn};

use tree::Tree;
use tt::{Bound, TransTable};

/// Values per player of a state, separate from the game's rules.
pub trait Evaluator<G: Game>: Send {
    /// The value of `state` for every player (for example projected scores). Called at
    /// leaves only.
    fn evaluate(&mut self, state: &G) -> PerPlayer<Value>;

    /// True if the search must stop at `state` even with depth left. Terminal states are
    /// always leaves. The default makes every chance node a leaf (for Azul: the end of the
    /// round, as in the blog).
    fn is_leaf(&self, state: &G) -> bool {
        !matches!(state.turn(), Turn::Player(_))
    }

    /// A 64-bit key identifying `state` for the transposition table (a Zobrist-style hash),
    /// or `None` (the default) to search without one.
    fn key(&self, _state: &G) -> Option<u64> {
        None
    }

    /// What `p` maximises at a leaf evaluated as `v` (the paranoid search's value for the
    /// root, max^n's value for each player). The default is `p`'s value minus the best of
    /// the others' ([`utility`]); an evaluator whose values mean something else (the logits
    /// of a conditional logit) can say how they combine.
    fn utility(&self, v: &PerPlayer<Value>, p: PlayerId) -> Value {
        utility(v, p)
    }

    /// Whether a search from `root` may go on through chance leaves once its tree is
    /// exhausted ([`SearchConfig::extend_chance`]); the default is yes.
    fn may_extend(&self, _root: &G) -> bool {
        true
    }

    /// `(replies, plausible)` for a search from `root`, overriding [`SearchConfig::replies`]
    /// and [`SearchConfig::plausible`] (for settings that depend on the table); the default,
    /// `None`, keeps the config's.
    fn widths(&self, _root: &G) -> Option<(u32, u32)> {
        None
    }

    /// A term added to the weight of the move `action` from `state` (leading to `child`) in
    /// a tree search's priors ([`crate::mcts`]: the softmax of the children's static
    /// log-odds over the temperature, plus this), for a policy learned beside the value.
    /// The default, 0, leaves the priors the static values' alone.
    fn prior_bias(&self, _state: &G, _action: G::Action, _child: &G) -> f32 {
        0.0
    }
}

/// An evaluator from a function.
#[derive(Clone, Debug)]
pub struct FnEvaluator<F>(pub F);

impl<G: Game, F: FnMut(&G) -> PerPlayer<Value> + Send> Evaluator<G> for FnEvaluator<F> {
    fn evaluate(&mut self, state: &G) -> PerPlayer<Value> {
        (self.0)(state)
    }
}

/// The search algorithm.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Plain minimax: every node to the depth limit.
    Minimax,
    /// Alpha-beta pruning, children in legal-move order.
    AlphaBeta,
    /// Alpha-beta whose children are sorted by their values from the previous iteration of
    /// iterative deepening (the blog's "presort"; a search tree is kept between iterations).
    Presort,
}

impl Algorithm {
    /// The registry name (`minimax`, `alphabeta`, `presort`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Presort => "presort",
        }
    }
}

/// How players other than the root player are modelled with 3-4 players.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MultiMode {
    /// All opponents minimise the root player's utility (prunable).
    #[default]
    Paranoid,
    /// Every player maximises its own utility (no pruning; `algorithm` is ignored).
    MaxN,
}

/// Search settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Multi-player variant.
    pub multi: MultiMode,
    /// Transposition table size as a power of two of entries (0 = no table). Used only if the
    /// evaluator gives keys.
    pub tt_log2: u8,
    /// Outcomes sampled at a chance node that is not a leaf (at least 1).
    pub chance_samples: u32,
    /// When a time limit interrupts an iteration whose first root child (the previous best
    /// move, with presorting) was searched completely, play the best move of that partial
    /// iteration instead of the last completed one. Off for the blog's players.
    pub use_partial: bool,
    /// Check the clock every this many nodes (a power of two).
    pub check_every: u32,
    /// Largest number of nodes the presort tree may hold (memory cap).
    pub tree_cap: usize,
    /// When an iteration reaches natural leaves everywhere before the time or node limit,
    /// go on deepening *through* the chance nodes the evaluator treats as leaves (for Azul:
    /// past the round's end), averaging [`SearchConfig::chance_samples`] sampled outcomes,
    /// instead of stopping early. Off by default (the blog's players stop).
    #[serde(default)]
    pub extend_chance: bool,
    /// Forward pruning at the opponents' nodes: below the root, a node where another player
    /// moves whose children an earlier iteration has already sorted (presort only) searches
    /// only its first `replies` children, the replies that hurt the root player most last
    /// time. 0 (the default) searches them all, keeping the search exact.
    #[serde(default)]
    pub replies: u32,
    /// Opponent modelling at the opponents' nodes: where another player moves, only its
    /// `plausible` best moves by its own static value (the evaluator's utility for the mover
    /// one ply on, one leaf evaluation per legal move) are searched, and of those the root
    /// player assumes the worst. 0 (the default) searches every move.
    #[serde(default)]
    pub plausible: u32,
    /// Late-move reductions (presort only, 0 = off, the default): at a node (the root
    /// included) with at least [`LMR_MIN_DEPTH`] plies left whose children an earlier visit
    /// has ranked,
    /// the children after the first `lmr` are searched first with a null window one ply
    /// shallower (two plies from child [`SearchConfig::lmr_deep`] on, if set), and again at
    /// full depth with the node's window only if that shallower search says the move may
    /// change the node's value. Such a search is no longer exact minimax to the iteration's
    /// depth: it spends the nodes saved on the unlikely moves on depth for the likely ones.
    #[serde(default)]
    pub lmr: u32,
    /// With [`SearchConfig::lmr`]: children from this index on are reduced by two plies
    /// (0 = never).
    #[serde(default)]
    pub lmr_deep: u32,
    /// Move ordering where no earlier visit has ordered a node's children (a node searched
    /// for the first time): the transposition table's move first, then the two latest moves
    /// that cut off a sibling search at the same ply (killer moves). Only the order changes,
    /// so the value of every search stays exactly minimax's; fewer nodes are visited when
    /// the killers refute again. Off by default.
    #[serde(default)]
    pub killers: bool,
    /// With [`SearchConfig::killers`]: the other moves of a node searched for the first time
    /// come in the order of their history scores (each cutoff adds the square of the plies
    /// left to its move's score, kept apart for the root player's moves and the others').
    /// Only the order changes. Off by default.
    #[serde(default)]
    pub history: bool,
}

/// Slots of the history table per side (a power of two; moves share a slot by hash).
const HISTORY_SLOTS: usize = 4096;

/// Plies left below which [`SearchConfig::lmr`] reduces nothing.
pub const LMR_MIN_DEPTH: u32 = 3;

impl SearchConfig {
    /// Defaults for an algorithm: paranoid, no table, one chance sample, clock every 64 nodes.
    pub fn new(algorithm: Algorithm) -> Self {
        SearchConfig {
            algorithm,
            multi: MultiMode::Paranoid,
            tt_log2: 0,
            chance_samples: 1,
            use_partial: false,
            check_every: 64,
            tree_cap: 8_000_000,
            extend_chance: false,
            replies: 0,
            plausible: 0,
            lmr: 0,
            lmr_deep: 0,
            killers: false,
            history: false,
        }
    }
}

/// Limits of one search: the workspace's one budget type, [`Budget`] (`depth` is the deepest
/// iteration, `time` the wall clock, `nodes` all iterations together, reproducible unlike
/// time); `None` means no limit of that kind. With no limit at all the search deepens until
/// the whole tree reaches natural leaves. The name is kept for the search's callers.
pub type Limits = Budget;

/// Statistics of one iteration of iterative deepening.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterationStats {
    /// The iteration's depth limit in plies.
    pub depth: u32,
    /// Nodes visited in this iteration.
    pub nodes: u64,
    /// Leaves evaluated in this iteration.
    pub leaves: u64,
    /// True if the iteration finished.
    pub completed: bool,
    /// True if every leaf was a natural leaf (end of game or a leaf by the evaluator), so
    /// searching deeper changes nothing.
    pub full_depth: bool,
    /// Root value for the root player (completed iterations only).
    pub value: Option<Value>,
    /// Time spent in this iteration.
    pub elapsed: Duration,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<A> {
    /// The move to play (`None` only if the root has no legal move).
    pub best: Option<A>,
    /// Its value for the root player, from the last completed iteration (or the partial one
    /// whose move is played).
    pub value: Option<Value>,
    /// Deepest completed iteration (0 if none).
    pub depth: u32,
    /// True if the last completed iteration reached natural leaves everywhere.
    pub full_depth: bool,
    /// Nodes over all iterations.
    pub nodes: u64,
    /// Leaves over all iterations.
    pub leaves: u64,
    /// Number of legal moves at the root.
    pub root_moves: usize,
    /// Every iteration started, in order.
    pub iterations: Vec<IterationStats>,
    /// Total time.
    pub elapsed: Duration,
}

/// A reusable searcher: owns the evaluator, the settings and every buffer, so repeated
/// searches allocate nothing once warmed up.
pub struct Searcher<G: Game, E: Evaluator<G>> {
    /// The evaluator.
    pub eval: E,
    /// The settings.
    pub config: SearchConfig,
    bufs: Vec<Vec<G::Action>>,
    pool: Vec<G>,
    tree: Tree<G::Action>,
    tt: Option<TransTable<G::Action>>,
    chance_seed: u64,
    chance_level: u64,
    extending: bool,
    root: PlayerId,
    nodes: u64,
    leaves: u64,
    depth_cut: bool,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    aborted: bool,
    mask: u64,
    root_best: Option<(usize, Value)>,
    root_first_done: bool,
    scored: Vec<(Value, u32, G::Action)>,
    replies: u32,
    plausible: u32,
    killer_moves: Vec<[Option<G::Action>; 2]>,
    history_table: Vec<u32>,
}

/// The history table's slot of `action` for the root player's moves (`maximize`) or the
/// others'.
fn history_slot<A: std::hash::Hash>(action: &A, maximize: bool) -> usize {
    use std::hash::Hasher;
    let mut h = SlotHasher(0);
    action.hash(&mut h);
    // The high bits of a multiplicative hash are the well-mixed ones.
    ((h.finish().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize & (HISTORY_SLOTS - 1))
        + if maximize { 0 } else { HISTORY_SLOTS }
}

/// A small, fast, deterministic hasher for the history table's slots (a move is a few bytes;
/// collisions only merge two moves' scores, never change a value).
struct SlotHasher(u64);

impl std::hash::Hasher for SlotHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517C_C1B7_2722_0A95);
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517C_C1B7_2722_0A95);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

/// Moves `action`, if it is in `buf[from..]`, to `buf[from]` (the others keep their order);
/// true if it was there.
fn promote<A: PartialEq>(buf: &mut [A], from: usize, action: &A) -> bool {
    match buf.iter().skip(from).position(|a| a == action) {
        Some(k) => {
            buf[from..=from + k].rotate_right(1);
            true
        }
        None => false,
    }
}

/// The utility of `p`: its value minus the best value among the others.
#[inline]
pub fn utility(v: &PerPlayer<Value>, p: PlayerId) -> Value {
    let own = v[p];
    let mut best_other: Option<Value> = None;
    for (q, &x) in v.iter() {
        if q != p {
            best_other = Some(best_other.map_or(x, |b| b.max(x)));
        }
    }
    own - best_other.unwrap_or(0)
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with an evaluator and settings.
    pub fn new(eval: E, config: SearchConfig) -> Self {
        let tt = (config.tt_log2 > 0).then(|| TransTable::new(config.tt_log2));
        Searcher {
            eval,
            config,
            bufs: Vec::new(),
            pool: Vec::new(),
            tree: Tree::new(),
            tt,
            chance_seed: 0,
            chance_level: 0,
            extending: false,
            root: PlayerId(0),
            nodes: 0,
            leaves: 0,
            depth_cut: false,
            deadline: None,
            max_nodes: None,
            aborted: false,
            mask: 63,
            root_best: None,
            root_first_done: false,
            scored: Vec::new(),
            replies: 0,
            plausible: 0,
            killer_moves: Vec::new(),
            history_table: Vec::new(),
        }
    }

    /// Seeds the chance samples (only used when chance nodes are searched). Sample `j` at
    /// the `l`-th chance node on a path draws from a generator seeded by (`seed`, `l`, `j`)
    /// alone, so every chance node of one search at the same level sees the same random
    /// numbers (common random numbers: sibling moves are compared on the same sampled
    /// outcomes wherever their chance states agree, as Azul's bag does within a round).
    pub fn seed(&mut self, seed: u64) {
        self.chance_seed = seed;
    }

    /// A single search to exactly `depth` plies (for presort: iterative deepening from 1 to
    /// `depth`, since it sorts by the previous iteration). No time limit.
    pub fn search_depth(&mut self, state: &G, depth: u32) -> SearchResult<G::Action> {
        if self.config.algorithm == Algorithm::Presort || self.config.multi == MultiMode::MaxN {
            return self.search(
                state,
                &Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
            );
        }
        self.run(state, &Limits::default(), Some(depth))
    }

    /// Iterative deepening from depth 1 within `limits`.
    pub fn search(&mut self, state: &G, limits: &Limits) -> SearchResult<G::Action> {
        self.run(state, limits, None)
    }

    fn run(&mut self, state: &G, limits: &Limits, only: Option<u32>) -> SearchResult<G::Action> {
        let start = Instant::now();
        self.deadline = limits.time.map(|t| start + t);
        self.max_nodes = limits.nodes;
        self.mask = u64::from(self.config.check_every.max(1).next_power_of_two()) - 1;
        self.nodes = 0;
        self.leaves = 0;
        self.aborted = false;
        self.extending = false;
        self.chance_level = 0;
        self.tree.clear();
        for k in &mut self.killer_moves {
            *k = [None, None];
        }
        if self.config.history {
            self.history_table.clear();
            self.history_table.resize(2 * HISTORY_SLOTS, 0);
        }
        if let Some(tt) = &mut self.tt {
            tt.new_search();
        }
        let mut root_actions = Vec::new();
        state.legal_actions(&mut root_actions);
        let mut result = SearchResult {
            best: root_actions.first().copied(),
            value: None,
            depth: 0,
            full_depth: false,
            nodes: 0,
            leaves: 0,
            root_moves: root_actions.len(),
            iterations: Vec::new(),
            elapsed: Duration::ZERO,
        };
        let Some(root) = state.current_player() else {
            return result;
        };
        self.root = root;
        (self.replies, self.plausible) = self
            .eval
            .widths(state)
            .unwrap_or((self.config.replies, self.config.plausible));
        if self.config.algorithm == Algorithm::Presort {
            self.tree.init_root();
        }
        let (first, last) = match only {
            Some(d) => (d.max(1), d.max(1)),
            None => (1, limits.depth.unwrap_or(u32::MAX).max(1)),
        };
        for depth in first..=last {
            let it_start = Instant::now();
            let (n0, l0) = (self.nodes, self.leaves);
            self.depth_cut = false;
            self.root_best = None;
            self.root_first_done = false;
            let tnode = (self.config.algorithm == Algorithm::Presort).then_some(0u32);
            let value = match self.config.multi {
                MultiMode::Paranoid => self.alphabeta(state, depth, 0, -INF, INF, tnode),
                MultiMode::MaxN => {
                    let u = self.maxn(state, depth, 0);
                    u[root]
                }
            };
            let completed = !self.aborted;
            result.iterations.push(IterationStats {
                depth,
                nodes: self.nodes - n0,
                leaves: self.leaves - l0,
                completed,
                full_depth: completed && !self.depth_cut,
                value: completed.then_some(value),
                elapsed: it_start.elapsed(),
            });
            if !completed {
                let partial_ok = self.config.use_partial && self.root_first_done;
                if let (true, Some((i, v))) = (partial_ok || result.depth == 0, self.root_best) {
                    result.best = Some(self.root_action(state, i));
                    result.value = Some(v);
                }
                break;
            }
            let (i, v) = self.root_best.unwrap_or((0, value));
            result.best = Some(self.root_action(state, i));
            result.value = Some(v);
            result.depth = depth;
            result.full_depth = !self.depth_cut;
            if !self.depth_cut {
                let limited =
                    limits.time.is_some() || limits.nodes.is_some() || limits.depth.is_some();
                if self.config.extend_chance
                    && !self.extending
                    && limited
                    && depth < last
                    && self.eval.may_extend(state)
                {
                    // Exhausted with budget left: search on through the chance nodes. The
                    // table's values assumed chance leaves, so they are dropped.
                    self.extending = true;
                    if let Some(tt) = &mut self.tt {
                        tt.new_search();
                    }
                    continue;
                }
                break;
            }
        }
        result.nodes = self.nodes;
        result.leaves = self.leaves;
        result.elapsed = start.elapsed();
        result
    }

    /// The root action with index `i` in the order the last iteration searched it (with
    /// presort the tree holds the order; otherwise legal order, with a table move first).
    fn root_action(&mut self, state: &G, i: usize) -> G::Action {
        if let Some(&a) = self.bufs.first().and_then(|b| b.get(i)) {
            return a;
        }
        let mut v = Vec::new();
        state.legal_actions(&mut v);
        v[i.min(v.len().saturating_sub(1))]
    }

    /// Counts a node about to be searched; true if the search must stop instead. A node
    /// limit of N stops at the (N+1)-th node without counting it, so at most N nodes are
    /// searched and reported (the same nodes as before this was fixed: only the count
    /// changed, so node-limited games are unchanged).
    #[inline]
    fn tick(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.max_nodes.is_some_and(|m| self.nodes >= m) {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes & self.mask == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        self.aborted
    }

    #[inline]
    fn leaf(&mut self, state: &G) -> PerPlayer<Value> {
        self.leaves += 1;
        self.eval.evaluate(state)
    }

    /// The leaf's utility for `p` ([`Evaluator::utility`]).
    #[inline]
    fn leaf_utility(&mut self, state: &G, p: PlayerId) -> Value {
        let v = self.leaf(state);
        self.eval.utility(&v, p)
    }

    /// The leaf's utility for every player.
    #[inline]
    fn leaf_utilities(&mut self, state: &G) -> PerPlayer<Value> {
        let v = self.leaf(state);
        PerPlayer::from_fn(state.num_players(), |p| self.eval.utility(&v, p))
    }

    fn child_state(&mut self, state: &G, action: G::Action) -> G {
        let mut c = match self.pool.pop() {
            Some(mut c) => {
                c.clone_from(state);
                c
            }
            None => state.clone(),
        };
        c.apply(action);
        c
    }

    /// Outcome `j` of the chance node `state` (common random numbers, see [`Searcher::seed`]).
    fn sample_child(&mut self, state: &G, j: u32) -> G {
        const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
        let stream = self
            .chance_seed
            .wrapping_add(self.chance_level.wrapping_mul(MIX))
            .rotate_left(17)
            ^ (u64::from(j) + 1).wrapping_mul(MIX);
        let mut rng = GameRng::seed_from_u64(stream);
        let outcome = state.sample_chance(&mut rng);
        let mut c = match self.pool.pop() {
            Some(mut c) => {
                c.clone_from(state);
                c
            }
            None => state.clone(),
        };
        if c.apply_chance(&outcome).is_err() {
            debug_assert!(false, "a sampled chance outcome must be possible");
        }
        c
    }

    fn ensure_buf(&mut self, ply: usize) {
        while self.bufs.len() <= ply {
            self.bufs.push(Vec::new());
        }
    }

    /// Paranoid alpha-beta / minimax from the root player's point of view (fail-soft).
    fn alphabeta(
        &mut self,
        state: &G,
        depth: u32,
        ply: usize,
        alpha: Value,
        beta: Value,
        tnode: Option<u32>,
    ) -> Value {
        if self.tick() {
            return 0;
        }
        let root = self.root;
        let mover = match state.turn() {
            Turn::Terminal => return self.leaf_utility(state, root),
            Turn::Chance => {
                if !self.extending && self.eval.is_leaf(state) {
                    return self.leaf_utility(state, root);
                }
                return self.chance_ab(state, depth, ply);
            }
            Turn::Player(p) => {
                if self.eval.is_leaf(state) {
                    return self.leaf_utility(state, root);
                }
                if depth == 0 {
                    self.depth_cut = true;
                    return self.leaf_utility(state, root);
                }
                p
            }
        };
        let maximize = mover == root;
        let prune = self.config.algorithm != Algorithm::Minimax;

        // Transposition table probe (exact-depth entries only, so values equal plain
        // minimax at this depth).
        let key = if self.tt.is_some() {
            self.eval.key(state)
        } else {
            None
        };
        let mut tt_move: Option<G::Action> = None;
        if let (Some(k), Some(tt)) = (key, &self.tt)
            && let Some(e) = tt.probe(k)
        {
            tt_move = e.best;
            if e.depth == depth && ply > 0 {
                let hit = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if hit {
                    if e.depth_cut {
                        self.depth_cut = true;
                    }
                    return e.value;
                }
            }
        }

        let depth_cut_before = self.depth_cut;
        self.depth_cut = false;

        // Children: from the presort tree, or freshly generated.
        let mut tchildren: Option<(u32, u32)> = None;
        if let Some(t) = tnode {
            if !self.tree.expanded(t) {
                self.ensure_buf(ply);
                let mut buf = std::mem::take(&mut self.bufs[ply]);
                state.legal_actions(&mut buf);
                if !maximize {
                    self.keep_plausible(state, mover, &mut buf);
                }
                self.order_fresh(&mut buf, ply, tt_move, maximize);
                self.tree.expand(t, &buf, self.config.tree_cap);
                self.bufs[ply] = buf;
            }
            tchildren = self.tree.children(t);
        }
        let mut buf = Vec::new();
        let n = match tchildren {
            Some((first, len)) => {
                if ply == 0 {
                    // Remember the root order so the caller can name the best move.
                    self.ensure_buf(0);
                    let mut order = std::mem::take(&mut self.bufs[0]);
                    order.clear();
                    for k in 0..len {
                        order.push(self.tree.action(first + k));
                    }
                    self.bufs[0] = order;
                }
                len as usize
            }
            None => {
                self.ensure_buf(ply);
                buf = std::mem::take(&mut self.bufs[ply]);
                state.legal_actions(&mut buf);
                if !maximize {
                    self.keep_plausible(state, mover, &mut buf);
                }
                if self.config.killers {
                    self.order_fresh(&mut buf, ply, tt_move, maximize);
                } else if let Some(m) = tt_move
                    && let Some(pos) = buf.iter().position(|&a| a == m)
                {
                    buf[..=pos].rotate_right(1);
                }
                buf.len()
            }
        };

        if n == 0 {
            // Not possible under the Game contract; evaluate rather than panic.
            if tchildren.is_none() {
                self.bufs[ply] = buf;
            }
            self.depth_cut = depth_cut_before;
            return self.leaf_utility(state, root);
        }
        // Forward pruning at the opponents' nodes: skip the replies an earlier iteration
        // searched and ranked below the first `replies` (unsearched ones are still tried).
        let skip = match tnode {
            Some(t) if !maximize && self.replies > 0 => (self.replies, self.tree.ranked(t)),
            _ => (0, 0),
        };
        // Late-move reductions: only where an earlier visit ranked the children, so that a
        // late child is one that did worse (or was never reached) before.
        let reducible = self.config.lmr > 0
            && prune
            && depth >= LMR_MIN_DEPTH
            && tnode.is_some_and(|t| tchildren.is_some() && self.tree.ranked(t) > 0);
        let mut best = if maximize { -INF } else { INF };
        let mut best_i = 0usize;
        let (mut a, mut b) = (alpha, beta);
        for i in 0..n {
            if (skip.0..skip.1).contains(&(i as u32)) {
                if let Some((first, _)) = tchildren {
                    self.tree.keep_value(first + i as u32);
                }
                continue;
            }
            let (action, child_t) = match tchildren {
                Some((first, _)) => {
                    let ci = first + i as u32;
                    (self.tree.action(ci), Some(ci))
                }
                None => (buf[i], None),
            };
            let child = self.child_state(state, action);
            let reduce = if reducible && i as u32 >= self.config.lmr {
                if self.config.lmr_deep > 0
                    && i as u32 >= self.config.lmr_deep
                    && depth > LMR_MIN_DEPTH
                {
                    2
                } else {
                    1
                }
            } else {
                0
            };
            let v = if reduce > 0 {
                // A null window at the bound the move must pass, one or two plies shallower;
                // the full search only if it passes.
                let (na, nb) = if maximize { (a, a + 1) } else { (b - 1, b) };
                let v = self.alphabeta(&child, depth - 1 - reduce, ply + 1, na, nb, child_t);
                let passes = if maximize { v > a } else { v < b };
                if passes && !self.aborted {
                    self.alphabeta(&child, depth - 1, ply + 1, a, b, child_t)
                } else {
                    v
                }
            } else {
                self.alphabeta(&child, depth - 1, ply + 1, a, b, child_t)
            };
            self.pool.push(child);
            if self.aborted {
                if tchildren.is_none() {
                    self.bufs[ply] = buf;
                }
                return 0;
            }
            if let Some(ci) = child_t {
                self.tree.set_value(ci, v);
            }
            let better = if maximize { v > best } else { v < best };
            if better {
                best = v;
                best_i = i;
                if ply == 0 {
                    self.root_best = Some((i, v));
                }
            }
            if ply == 0 && i == 0 {
                self.root_first_done = true;
            }
            if prune {
                if maximize {
                    a = a.max(v);
                } else {
                    b = b.min(v);
                }
                if a >= b {
                    if self.config.killers {
                        self.remember_killer(ply, action);
                        if self.config.history {
                            let slot = history_slot(&action, maximize);
                            if let Some(h) = self.history_table.get_mut(slot) {
                                *h = h.saturating_add(depth * depth);
                            }
                        }
                    }
                    break;
                }
            }
        }
        let best_action = match tchildren {
            Some((first, _)) => self.tree.action(first + best_i as u32),
            None => buf[best_i],
        };
        if tchildren.is_none() {
            self.bufs[ply] = buf;
        }
        if let Some(t) = tnode
            && tchildren.is_some()
        {
            self.tree.sort_children(t, maximize);
        }
        let cut_here = self.depth_cut;
        self.depth_cut = depth_cut_before || cut_here;
        if let (Some(k), Some(tt)) = (key, &mut self.tt) {
            let bound = if best <= alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            tt.store(k, depth, best, bound, Some(best_action), cut_here);
        }
        best
    }

    /// [`SearchConfig::killers`]: orders the children of a node searched for the first time,
    /// the table's move first, then the ply's killer moves (nothing without the setting).
    fn order_fresh(
        &mut self,
        buf: &mut [G::Action],
        ply: usize,
        tt_move: Option<G::Action>,
        maximize: bool,
    ) {
        if !self.config.killers {
            return;
        }
        if self.config.history && !self.history_table.is_empty() {
            // Highest history first; a stable order among equals (legal order).
            let mut scored = std::mem::take(&mut self.scored);
            scored.clear();
            for (i, &a) in buf.iter().enumerate() {
                let h = self.history_table[history_slot(&a, maximize)];
                scored.push((h.min(i32::MAX as u32) as Value, i as u32, a));
            }
            scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            for (b, &(_, _, a)) in buf.iter_mut().zip(scored.iter()) {
                *b = a;
            }
            self.scored = scored;
        }
        let mut next = 0;
        if let Some(m) = tt_move
            && promote(buf, 0, &m)
        {
            next = 1;
        }
        if let Some(&killers) = self.killer_moves.get(ply) {
            for k in killers.into_iter().flatten() {
                if next < buf.len() && promote(buf, next, &k) {
                    next += 1;
                }
            }
        }
    }

    /// Records a move that cut off a search at `ply` as that ply's latest killer.
    fn remember_killer(&mut self, ply: usize, action: G::Action) {
        while self.killer_moves.len() <= ply {
            self.killer_moves.push([None, None]);
        }
        let k = &mut self.killer_moves[ply];
        if k[0] != Some(action) {
            k[1] = k[0];
            k[0] = Some(action);
        }
    }

    /// Opponent modelling ([`SearchConfig::plausible`]): keeps in `buf` only the mover's
    /// `plausible` best moves by its own utility one ply on, best first (ties in legal
    /// order). Each scored move counts as a node and a leaf.
    fn keep_plausible(&mut self, state: &G, mover: PlayerId, buf: &mut Vec<G::Action>) {
        let k = self.plausible as usize;
        if k == 0 || buf.len() <= k {
            return;
        }
        let mut scored = std::mem::take(&mut self.scored);
        scored.clear();
        for (i, &a) in buf.iter().enumerate() {
            let child = self.child_state(state, a);
            self.nodes += 1;
            let u = self.leaf_utility(&child, mover);
            self.pool.push(child);
            scored.push((u, i as u32, a));
        }
        scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        buf.clear();
        buf.extend(scored.iter().take(k).map(|&(_, _, a)| a));
        self.scored = scored;
    }

    /// A chance node that is not a leaf: the mean over sampled outcomes, each searched with a
    /// full window.
    fn chance_ab(&mut self, state: &G, depth: u32, ply: usize) -> Value {
        let k = self.config.chance_samples.max(1);
        let mut sum: i64 = 0;
        self.chance_level += 1;
        for j in 0..k {
            let child = self.sample_child(state, j);
            let v = self.alphabeta(&child, depth, ply + 1, -INF, INF, None);
            self.pool.push(child);
            if self.aborted {
                self.chance_level -= 1;
                return 0;
            }
            sum += i64::from(v);
        }
        self.chance_level -= 1;
        (sum / i64::from(k)) as Value
    }

    /// Max^n: the utility vector of the best child for the player to move.
    fn maxn(&mut self, state: &G, depth: u32, ply: usize) -> PerPlayer<Value> {
        let np = state.num_players();
        let zero = PerPlayer::filled(np, 0);
        if self.tick() {
            return zero;
        }
        let mover = match state.turn() {
            Turn::Terminal => return self.leaf_utilities(state),
            Turn::Chance => {
                if !self.extending && self.eval.is_leaf(state) {
                    return self.leaf_utilities(state);
                }
                let k = self.config.chance_samples.max(1);
                let mut sum = [0i64; tessera_core::MAX_PLAYERS];
                self.chance_level += 1;
                for j in 0..k {
                    let child = self.sample_child(state, j);
                    let u = self.maxn(&child, depth, ply + 1);
                    self.pool.push(child);
                    if self.aborted {
                        self.chance_level -= 1;
                        return zero;
                    }
                    for (p, &x) in u.iter() {
                        sum[p.index()] += i64::from(x);
                    }
                }
                self.chance_level -= 1;
                return PerPlayer::from_fn(np, |p| (sum[p.index()] / i64::from(k)) as Value);
            }
            Turn::Player(p) => {
                if self.eval.is_leaf(state) {
                    return self.leaf_utilities(state);
                }
                if depth == 0 {
                    self.depth_cut = true;
                    return self.leaf_utilities(state);
                }
                p
            }
        };
        self.ensure_buf(ply);
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        state.legal_actions(&mut buf);
        let mut best: Option<PerPlayer<Value>> = None;
        for (i, &action) in buf.iter().enumerate() {
            let child = self.child_state(state, action);
            let u = self.maxn(&child, depth - 1, ply + 1);
            self.pool.push(child);
            if self.aborted {
                self.bufs[ply] = buf;
                return zero;
            }
            if best.as_ref().is_none_or(|b| u[mover] > b[mover]) {
                if ply == 0 {
                    self.root_best = Some((i, u[mover]));
                }
                best = Some(u);
            }
            if ply == 0 && i == 0 {
                self.root_first_done = true;
            }
        }
        self.bufs[ply] = buf;
        best.unwrap_or(zero)
    }
}
