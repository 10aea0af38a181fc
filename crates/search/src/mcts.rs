//! Monte Carlo tree search guided by a learned value (PUCT without play-outs), over any
//! [`Game`] with an [`Evaluator`].
//!
//! # Values
//! The evaluator's utility for a player ([`Evaluator::utility`]) is read as the log-odds of
//! that player winning, in [`MctsConfig::value_scale`] units a logit (1000 for Azul's
//! `augur` evaluators, whose values are thousandths of a logit), and turned into a chance of
//! winning by the logistic function. Every node keeps the sum of the chances backed up
//! through it *for the player who chose it* (its parent's mover), so with three or four
//! players each player maximises its own chance (as max^n does); with two it is the usual
//! zero-sum search.
//!
//! # One simulation
//! From the root the search descends by PUCT: at a node where `m` moves, the child `c`
//! maximising `Q(c) + cpuct * P(c) * sqrt(N) / (1 + n(c))`, with `Q(c)` the mean chance for
//! `m` backed up through `c`, `n(c)` its visits, `N` the node's visits and `P(c)` the prior.
//! At the first node not yet expanded it generates every legal move and evaluates every
//! child once (one evaluator call each): the child's static chance counts as its first
//! visit, and the priors are the softmax of the children's log-odds for `m` over
//! [`MctsConfig::temperature`] (in logits). The best child's chances for every player are
//! then backed up along the path (a one-ply minimax backup). A terminal state, or a state
//! the evaluator calls a leaf ([`Evaluator::is_leaf`]), is never expanded: a visit backs up
//! its static chances again.
//!
//! # Chance
//! With [`MctsConfig::chance_samples`] = 0 every chance node is a leaf (for Azul: the end of
//! the round, valued by the evaluator, as the alpha-beta players do). With K > 0 a chance
//! node is searched through: it holds up to K sampled outcomes, widened progressively (after
//! `v` visits it has at most `ceil(sqrt(v))`, so more time buys more refills), and each visit
//! goes to the outcome visited least. Outcome `j` of the node with index `i` in the tree
//! draws from a generator seeded by the search's seed, `i` and `j` alone, so the tree is
//! reproducible from the seed. With [`MctsConfig::common_outcomes`] the generator is seeded
//! by the seed, `j` and the number of chance nodes above the node on its path instead of
//! `i` (common random numbers: for Azul every end of the same round whose bag is the same
//! gets the same `j`-th refill, so moves are compared on the same futures).
//!
//! # Lazy valuing
//! With [`MctsConfig::lazy`] an expansion does not value the children: their priors are the
//! softmax of the evaluator's [`Evaluator::prior_bias`] (a policy) over the temperature, and
//! a child is valued (one evaluator call, its static chances backed up) when a simulation
//! first reaches it, as a network-guided search does. An unvalued child's mean for PUCT is
//! its valued siblings' mean (0.5 if none) less [`MctsConfig::fpu`].
//!
//! # Implicit minimax backups
//! With [`MctsConfig::minimax`] `w` > 0 every node also keeps the minimax chances of the tree
//! below it (max^n over its children's where a player moves, their mean at a chance node,
//! the static chances at a leaf or a node not yet expanded), brought up to date along each
//! simulation's path, and PUCT reads a child's mean as `(1 - w)` times its backed-up mean
//! plus `w` times its minimax chance for the mover (Lanctot, Winands, Pepels and
//! Sturtevant, 2014). With [`MctsConfig::paranoid`] the minimax line is instead the one
//! where every other player plays against the root's mover, and only the root's mover
//! blends it in.
//!
//! # Transpositions
//! With [`MctsConfig::transpositions`] (and an evaluator with a [`Evaluator::key`]) the tree
//! becomes a graph within the part before the first chance node (for Azul, the round being
//! played): a node about to be expanded whose state another order of moves already reached,
//! chosen by the same player, becomes an alias of that node, whose visits and values it
//! shares from then on, and the simulation goes on from it. A complete graph is solved with
//! every shared node solved once.
//!
//! # Limits and the move played
//! `time` is checked before every simulation; `nodes` counts evaluator calls and visits to
//! leaves already valued (every simulation counts at least one), and is never exceeded (a
//! simulation that would pass it ends the search); `depth` stops expanding at that many
//! plies below the root. The tree holds at most [`MctsConfig::tree_cap`] nodes: past it a
//! node is left a leaf valued by the evaluator, and the search is never called solved.
//! Without a time or node limit the time limit is [`Budget::DEFAULT`]'s. The move played is
//! the root child with the most visits (ties to the higher mean), unless the tree is
//! complete (every path ends at a leaf, every chance node holds all its outcomes): then the
//! search stops early and plays the exact max^n move over the leaves' static values
//! (minimax with two players, the outcomes' mean at chance nodes), as alpha-beta does when
//! it exhausts a tree. PUCT visits unlikely moves rarely, so
//! only small trees (late in an Azul round, or under a small depth limit) are completed.
//!
//! # Tree reuse
//! With [`MctsConfig::reuse`] a searcher keeps its tree after a search. The next search
//! looks for its root among the tree's expanded player nodes at most one move of each seat
//! below the last root, with no chance node between (for Azul: the same round, the moves
//! played since), comparing positions; if found, that node's subtree is copied to the front
//! of the tree (compacted, breadth first, every count kept) and the search goes on from it,
//! its budget binding the new work only. Otherwise (a refill came between, a new game) it
//! starts from an empty tree, as without reuse. The carried tree's refills keep the seed
//! they were drawn with.
//!
//! # Threads
//! [`Mcts::search_shared`] searches one tree on several threads (tree parallelism): each
//! thread descends under the tree's lock, reserves the node it would expand and leaves a
//! virtual loss on its path (a visit of chance 0, later replaced by the real value), so the
//! others are steered to other moves, and values the node's children with its own evaluator
//! outside the lock. [`MctsAgent::with_threads`] instead searches independent trees of the
//! same root (root parallelism) and adds their visits.
//!
//! ```
//! use tessera_core::{Budget, Game, PerPlayer, testgame::Nim};
//! use tessera_search::adversarial::FnEvaluator;
//! use tessera_search::mcts::{Mcts, MctsConfig};
//!
//! // A win is worth +10 logits, a loss -10 (values in thousandths of a logit).
//! let eval = FnEvaluator(|s: &Nim| match s.outcome() {
//!     Some(o) => PerPlayer::from_fn(s.num_players(), |p| {
//!         if o.winners.contains(&p) { 5000 } else { -5000 }
//!     }),
//!     None => PerPlayer::filled(s.num_players(), 0),
//! });
//! let mut mcts = Mcts::new(eval, MctsConfig::default());
//! let state: Nim = "2 1 3,1 0,0".parse().unwrap();
//! let r = mcts.search(&state, &Budget { nodes: Some(2000), ..Budget::default() });
//! // Taking the whole pile of 3 leaves a single stone for the opponent: a loss. Taking the
//! // single stone leaves 3, which the mover's opponent takes and wins; taking 2 of the 3
//! // leaves 1 and 1, a win.
//! assert_eq!(r.best.map(|a| (a.pile, a.count)), Some((0, 2)));
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use tessera_core::rng::mix64;
use tessera_core::{Agent, Budget, Game, GameRng, MAX_PLAYERS, PlayerId, SearchInfo, Turn};

use crate::adversarial::Evaluator;

/// Settings of [`Mcts`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MctsConfig {
    /// The exploration constant of PUCT (chances are in 0..1).
    pub cpuct: f32,
    /// The priors' temperature in logits: a child whose static log-odds are one temperature
    /// lower gets `1/e` of the prior. Positive.
    pub temperature: f32,
    /// Evaluator units a logit (1000 for values in thousandths of a logit).
    pub value_scale: f32,
    /// Outcomes sampled at a chance node at most (0: chance nodes are leaves).
    pub chance_samples: u32,
    /// Largest number of nodes the tree may hold (memory cap); past it nodes are no longer
    /// expanded and the search goes on with the tree it has. The default, [`TREE_CAP`],
    /// lets Azul's searches grow for about 20 s a move.
    pub tree_cap: usize,
    /// Common random numbers at chance nodes: if true, outcome `j` of every chance node
    /// with the same number of chance nodes above it on its path (for Azul: every end of
    /// the same round) is drawn from the same random stream, so two positions with the same
    /// bag get the same `j`-th refill and their subtrees are compared on the same futures;
    /// if false, each chance node draws its own. With it a chance node's outcome slots are
    /// also reserved as they are needed (1, 2, 4, ... up to `chance_samples`) rather than
    /// all at once, so a large `chance_samples` costs memory only where visits use it.
    #[serde(default)]
    pub common_outcomes: bool,
    /// Transpositions before the first chance node: if true, a node about to be expanded
    /// whose state ([`Evaluator::key`]) is already in the tree, reached by another order of
    /// moves of the same round and chosen by the same player, is not expanded again but
    /// shares that node (its visits and values; the simulation goes on from there), so the
    /// tree becomes a graph and a budget covers more distinct positions. Only player nodes
    /// with no chance node above them are merged (for Azul the round being played, where
    /// the key is exact: the bag does not change; a round's end itself is not). Needs an
    /// evaluator with a key; without one nothing is merged.
    #[serde(default)]
    pub transpositions: bool,
    /// Tree reuse: if true, a search whose root is a position of the last search's tree
    /// (reached by the moves played since, with no chance event between: for Azul, later
    /// in the same round) starts from that node's subtree, its visits and values kept,
    /// instead of an empty tree. The budget binds the new work alone (a node limit counts
    /// this search's evaluator calls, as without reuse). Not with
    /// [`MctsConfig::transpositions`] (an alias may point outside the subtree) and never
    /// after a search under a depth limit or at the tree's cap (its leaves are not all
    /// final). Under a node limit the moves stay reproducible: the carried tree is itself
    /// the product of the seeded searches of the same game.
    #[serde(default)]
    pub reuse: bool,
    /// Stopping once the decision is settled (0: off, the search runs to its limit). With
    /// `S` in (0, 1] the limit (the time, or the node limit when no time is given) is a
    /// cap: the search stops as soon as the most visited root move can no longer be
    /// overtaken in the simulations its limit leaves (estimated from the rate so far), and,
    /// once it has spent the share `S` of its limit, as soon as the most visited move is a
    /// clear favourite: no other has half its visits, and none with a quarter of them has a
    /// better mean value ([`settled`]). What it saves goes back to a game clock; under a
    /// fixed time a move it stops early just spends less. With root parallelism each
    /// thread's tree stops by itself; a shared tree ([`Mcts::search_shared`]) ignores it.
    #[serde(default)]
    pub settle: f32,
    /// The share that replaces [`MctsConfig::settle`] when the time limit is a game
    /// clock's ([`Budget::from_clock`]): there what a search saves stays on the seat's
    /// clock and comes back on later moves, while under a fixed limit it is lost. `None`:
    /// `settle` applies under a clock as well.
    #[serde(default)]
    pub clock_settle: Option<f32>,
    /// Lazy valuing, as a network-guided search does: an expansion does not value the
    /// children; their priors are the softmax of [`Evaluator::prior_bias`] alone over the
    /// temperature (a policy), and a child is valued (one evaluator call) when a simulation
    /// first reaches it, which ends that simulation. Until then PUCT takes its mean as the
    /// mean of its valued siblings (0.5 if none) less [`MctsConfig::fpu`]. So a simulation
    /// costs one evaluator call where an expansion otherwise costs one per child. Not with
    /// a shared tree ([`Mcts::search_shared`] then searches on the calling thread alone).
    #[serde(default)]
    pub lazy: bool,
    /// With [`MctsConfig::lazy`]: how much lower than its valued siblings' mean an unvalued
    /// child's chance is taken to be (first-play urgency), 0-1.
    #[serde(default = "default_fpu")]
    pub fpu: f32,
    /// Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant, 2014), 0-1: every
    /// node also keeps the minimax chances of the tree below it (max^n over the children's
    /// at a player node, their mean at a chance node, the static chances at a leaf), kept up
    /// to date along each simulation's path, and PUCT reads a child's value as `(1 - w)`
    /// times its mean backed-up chance plus `w` times its minimax chance for the mover.
    /// 0, the default: the mean alone.
    #[serde(default)]
    pub minimax: f32,
    /// With [`MctsConfig::minimax`]: paranoid minimax chances instead of max^n. The
    /// minimax line is the one where every other player plays against the root's mover
    /// (the child worst for the root's mover at another player's node, the best at its
    /// own, the outcomes' mean at a chance node), as a paranoid alpha-beta assumes; and
    /// only the root's mover blends it into its selection, the others selecting by their
    /// means alone. At two players the line is max^n's when the chances of the two add
    /// up to 1, and the difference is then that the opponent selects by its means alone.
    #[serde(default)]
    pub paranoid: bool,
}

fn default_fpu() -> f32 {
    0.1
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            cpuct: 1.5,
            temperature: 1.0,
            value_scale: 1000.0,
            chance_samples: 0,
            tree_cap: TREE_CAP,
            common_outcomes: false,
            transpositions: false,
            reuse: false,
            settle: 0.0,
            clock_settle: None,
            lazy: false,
            fpu: default_fpu(),
            minimax: 0.0,
            paranoid: false,
        }
    }
}

impl MctsConfig {
    /// The settling share a search within `limits` uses: [`MctsConfig::clock_settle`] if
    /// the limits are a game clock's and it is set, else [`MctsConfig::settle`].
    pub fn settle_for(&self, limits: &Budget) -> f32 {
        match self.clock_settle {
            Some(s) if limits.from_clock => s,
            _ => self.settle,
        }
    }
}

/// A child's weight in its parent's priors before the softmax: the log-odds of its static
/// `chance` for the parent's mover (clamped to 1e-6..1 - 1e-6) over the priors'
/// `temperature` (at least 1e-3). The priors are the softmax of these over the children.
#[inline]
pub fn prior_logit(chance: f32, temperature: f32) -> f32 {
    let c = chance.clamp(1e-6, 1.0 - 1e-6);
    (c / (1.0 - c)).ln() / temperature.max(1e-3)
}

/// Simulations between two checks of [`MctsConfig::settle`]'s rule.
const SETTLE_EVERY: u64 = 16;

/// Whether a search may stop before its limit ([`MctsConfig::settle`]): `kids` are the root
/// moves' visits and mean chances for the root's mover, `progress` the share of the limit
/// spent (0-1), `simulations` those run so far. True when the most visited move (ties to
/// the better mean, as the move played is chosen) leads the next by more visits than the
/// simulations left at the rate so far (`simulations x (1 - progress) / progress`), so no
/// other move can become the most visited; or, once `progress` reaches `settle`, when the
/// most visited move is a clear favourite: no other has half its visits, and no move with
/// a quarter of its visits or more has a better mean (the search's choice and its values
/// agree). With fewer than two moves there is nothing to decide: true.
pub fn settled(kids: &[(u32, f32)], progress: f64, settle: f64, simulations: u64) -> bool {
    if kids.len() < 2 {
        return true;
    }
    if progress <= 0.0 || settle <= 0.0 {
        return false;
    }
    let mut best = 0;
    for (i, &(v, q)) in kids.iter().enumerate() {
        let (bv, bq) = kids[best];
        if v > bv || (v == bv && q > bq) {
            best = i;
        }
    }
    let (bv, bq) = kids[best];
    let second = kids
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != best)
        .map(|(_, &(v, _))| v)
        .max()
        .unwrap_or(0);
    let left = simulations as f64 * (1.0 - progress.min(1.0)) / progress;
    if f64::from(bv - second) > left {
        return true;
    }
    progress >= settle
        && u64::from(second) * 2 <= u64::from(bv)
        && kids
            .iter()
            .all(|&(v, q)| u64::from(v) * 4 < u64::from(bv) || q <= bq)
}

/// The default [`MctsConfig::tree_cap`]: 32 million nodes, about 1.9 GB for Azul's nodes
/// of 60 bytes (44 before the minimax chances of [`MctsConfig::minimax`]; the tree grows as it needs: a search of 1 s holds about 2 million, one of
/// 10 s 14-16 million, `cargo run --release -p tessera-house --example mcts_tree`). It was
/// 4 million until 2026-11-28, which an Azul search of `oracle`'s evaluator fills in about
/// 2 s, so a search of 5 s a move stopped growing before half its time.
pub const TREE_CAP: usize = 32_000_000;

/// What a node is to the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Created and evaluated, not yet expanded.
    New,
    /// ([`MctsConfig::lazy`]) Created by its parent's expansion, not yet evaluated: the
    /// first simulation to reach it values it, and it becomes [`Kind::New`] or a leaf.
    Unvalued,
    /// Its children are in the tree.
    Expanded,
    /// Never expanded (terminal, a leaf by the evaluator, a chance leaf, the depth limit or
    /// the tree's cap): every visit backs up its static chances.
    Leaf,
    /// A move leading to a state already in the tree ([`MctsConfig::transpositions`]):
    /// `first` is that node's index, whose visits and values it shares; only the move and
    /// the prior are its own.
    Alias,
    /// Being expanded by one thread of a shared-tree search ([`Mcts::search_shared`]): its
    /// children are being valued outside the tree's lock. Another thread reaching it backs
    /// up its static chances, as at a leaf.
    Busy,
}

/// A tree node. Children are contiguous: `first .. first + len` (chance nodes reserve
/// `chance_samples` slots and fill them as they widen; with common outcomes they reserve
/// one and move to a block twice as large whenever theirs is full).
#[derive(Copy, Clone, Debug)]
struct Node<A> {
    /// The move leading here (`None` at the root and at a chance outcome).
    action: Option<A>,
    prior: f32,
    visits: u32,
    /// Sum of the chances backed up through this node for its parent's mover.
    sum: f32,
    /// The static chances of every player (from one evaluator call).
    chances: [f32; MAX_PLAYERS],
    /// ([`MctsConfig::minimax`]) The minimax chances of every player over the tree below
    /// (max^n at player nodes, the outcomes' mean at chance nodes, the static chances at
    /// leaves and at nodes not yet expanded).
    mm: [f32; MAX_PLAYERS],
    first: u32,
    len: u32,
    kind: Kind,
    /// Who moves here: a seat, [`CHANCE`] or [`OVER`].
    mover: u8,
}

/// The slots of a growing chance node's block ([`MctsConfig::common_outcomes`]) holding
/// `len` outcomes of at most `k`: blocks are 1, 2, 4, ... slots, the last one `k`.
fn slots_for(len: u32, k: u32) -> u32 {
    len.max(1).next_power_of_two().min(k)
}

/// [`Node::mover`] at a chance node.
const CHANCE: u8 = 254;
/// [`Node::mover`] at a terminal state.
const OVER: u8 = 255;

/// [`Node::mover`] of `state`.
fn mover_of<G: Game>(state: &G) -> u8 {
    match state.turn() {
        Turn::Player(p) => p.0,
        Turn::Chance => CHANCE,
        Turn::Terminal => OVER,
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<A> {
    /// The move to play (`None` only if the root has no legal move or the node limit did not
    /// allow its expansion).
    pub best: Option<A>,
    /// The best move's mean chance for the root player, as log-odds in evaluator units.
    pub value: Option<i32>,
    /// True if the tree was complete (every path ends at a leaf, every chance node holds
    /// all its outcomes), so the move and value are the exact max^n (with two players:
    /// minimax, expectimax at chance nodes) of the leaves' static values.
    pub solved: bool,
    /// Simulations run.
    pub simulations: u64,
    /// Nodes: evaluator calls (one per node created) and visits to leaves already valued.
    pub nodes: u64,
    /// The deepest node expanded, in plies below the root (chance outcomes count as plies).
    pub depth: u32,
    /// Chance outcomes sampled into the tree.
    pub outcomes: u64,
    /// Chance nodes searched through (each holds from one to
    /// [`MctsConfig::chance_samples`] of the outcomes).
    pub chance_nodes: u64,
    /// Visits of each root move, in legal order.
    pub root_visits: Vec<u32>,
    /// The sum of the chances backed up through each root move for the root's mover, in
    /// legal order (its mean is this over [`MctsResult::root_visits`]).
    pub root_sums: Vec<f32>,
    /// Nodes the tree held at the end (the chance nodes' reserved outcome slots included).
    pub tree: usize,
    /// True if the tree reached [`MctsConfig::tree_cap`]: some node was left unexpanded
    /// (a leaf valued by the evaluator), so the search is never `solved`, and once nothing
    /// else can be added it stops early.
    pub full: bool,
    /// Nodes that were transpositions of nodes already in the tree and share them instead
    /// of being expanded ([`MctsConfig::transpositions`]).
    pub merged: u64,
    /// Simulations of a shared-tree search ([`Mcts::search_shared`]) that reached a node
    /// another thread was expanding and backed up its static chances (0 on one thread).
    pub collisions: u64,
    /// Nodes carried over from the last search's tree ([`MctsConfig::reuse`]; 0 when the
    /// search began with an empty tree).
    pub reused: usize,
    /// The root's visits carried over with them.
    pub reused_visits: u32,
    /// True if the search stopped before its limit because the decision was settled
    /// ([`MctsConfig::settle`]).
    pub settled: bool,
    /// Total time.
    pub elapsed: Duration,
}

/// A reusable Monte Carlo tree searcher: owns the evaluator, the settings, the tree and every
/// buffer, so once warmed up a search allocates only its result's `root_visits` and `root_sums`.
pub struct Mcts<G: Game, E: Evaluator<G>> {
    /// The evaluator.
    pub eval: E,
    /// The settings.
    pub config: MctsConfig,
    tree: Vec<Node<G::Action>>,
    /// The nodes of the current simulation's path, each with its mover (`None` at chance).
    path: Vec<(u32, Option<PlayerId>)>,
    actions: Vec<G::Action>,
    state: Option<G>,
    child: Option<G>,
    seed: u64,
    players: usize,
    /// Evaluator calls and revisits of valued leaves in this search.
    nodes: u64,
    max_nodes: Option<u64>,
    max_depth: Option<u32>,
    stop: bool,
    deepest: u32,
    outcomes: u64,
    chance_nodes: u64,
    /// Nodes a simulation could still add to: new nodes, and chance nodes with outcomes
    /// left to sample. At 0 the tree is complete and searching on changes nothing.
    open: u64,
    /// A node was left unexpanded because the tree reached [`MctsConfig::tree_cap`].
    full: bool,
    /// With [`MctsConfig::transpositions`]: the tree index of every node expanded before
    /// the first chance node of its path, by its state's key, with the seat that chose it.
    table: HashMap<u64, (u32, u8), BuildHasherDefault<KeyHasher>>,
    merged: u64,
    /// The children of an expansion, valued before they go into the tree.
    kids: Vec<Kid<G::Action>>,
    /// ([`MctsConfig::lazy`]) An expansion's children by prior, highest first: each one's
    /// bias and place in [`Mcts::kids`] (see [`Mcts::select_lazy`]).
    order: Vec<(f32, u32)>,
    /// True during a shared-tree search: a node to expand is reserved ([`Kind::Busy`]) and
    /// its children are valued by the thread outside the lock.
    defer: bool,
    /// Children reserved by expansions in flight (counted against the tree's cap).
    pending: usize,
    /// Simulations finished in this search.
    simulations: u64,
    /// Descents that reached a node being expanded by another thread.
    collisions: u64,
    /// With [`MctsConfig::reuse`]: the root of the last search, if its tree may be carried
    /// into the next one (no depth limit, not capped).
    last_root: Option<G>,
    /// The seed the tree's chance outcomes were drawn with (kept while a tree is carried,
    /// so its refills and the new ones come from the same streams).
    tree_seed: u64,
    /// The outcome keys of chance nodes carried from an earlier tree without common
    /// outcomes, by their index in this tree: their outcomes were drawn with the key of
    /// their index in the tree they were sampled in, and must be drawn with it again.
    carried_keys: HashMap<u32, u64, BuildHasherDefault<KeyHasher>>,
    /// Nodes and root visits carried into this search.
    reused: usize,
    reused_visits: u32,
    /// The time limit of this search ([`MctsConfig::settle`] measures its progress by it).
    time_limit: Option<Duration>,
    /// The search stopped early, its decision settled.
    settled: bool,
    /// The root moves' visits and means, for [`settled`].
    settle_kids: Vec<(u32, f32)>,
    /// The mover at the root of the tree ([`MctsConfig::paranoid`] values every line for it).
    root_mover: u8,
}

/// A child valued for an expansion: its move, static chances, whether it is a leaf, and
/// who moves there.
#[derive(Copy, Clone, Debug)]
struct Kid<A> {
    action: A,
    chances: [f32; MAX_PLAYERS],
    leaf: bool,
    mover: u8,
    /// [`Evaluator::prior_bias`] of the move.
    bias: f32,
}

/// What a descent from the root ends with.
enum Descent {
    /// Chances to back up along the path.
    Back([f32; MAX_PLAYERS]),
    /// The node limit ends the search.
    Stop,
    /// (Shared tree only.) The player node `idx`, where `m` moves at `depth` plies, is
    /// reserved for expansion: its legal moves are in [`Mcts::actions`] and a virtual loss
    /// is on every node of the path.
    Expand { idx: u32, m: PlayerId, depth: u32 },
}

/// The settings a thread needs to value children outside the tree's lock.
#[derive(Copy, Clone)]
struct Valuing {
    players: usize,
    scale: f32,
    chance_samples: u32,
    max_depth: Option<u32>,
}

impl Valuing {
    /// The static chances of every player at `state` (one evaluator call).
    fn chances<G: Game, E: Evaluator<G>>(&self, eval: &mut E, state: &G) -> [f32; MAX_PLAYERS] {
        let v = eval.evaluate(state);
        let mut c = [0.0; MAX_PLAYERS];
        for (p, slot) in c.iter_mut().enumerate().take(self.players) {
            let u = eval.utility(&v, PlayerId(p as u8));
            *slot = sigmoid(u as f32 / self.scale);
        }
        c
    }

    /// Whether `state`, just created at `depth`, can never be expanded.
    fn is_leaf<G: Game, E: Evaluator<G>>(&self, eval: &E, state: &G, depth: u32) -> bool {
        let deep = self.max_depth.is_some_and(|d| depth >= d);
        match state.turn() {
            Turn::Terminal => true,
            Turn::Chance => self.chance_samples == 0 || deep,
            Turn::Player(_) => eval.is_leaf(state) || deep,
        }
    }

    /// Values every child of `state` by `actions` into `kids` (cleared first), using `child`
    /// as the buffer.
    fn children<G: Game, E: Evaluator<G>>(
        &self,
        eval: &mut E,
        state: &G,
        actions: &[G::Action],
        depth: u32,
        child: &mut G,
        kids: &mut Vec<Kid<G::Action>>,
    ) {
        kids.clear();
        for &a in actions {
            child.clone_from(state);
            child.apply(a);
            kids.push(Kid {
                action: a,
                chances: self.chances(eval, child),
                leaf: self.is_leaf(eval, child, depth + 1),
                mover: mover_of(child),
                bias: eval.prior_bias(state, a, child),
            });
        }
    }
}

impl Valuing {
    /// [`MctsConfig::lazy`]: every child of `state` by `actions` into `kids` (cleared
    /// first) with its move, its mover and the evaluator's prior bias, not valued.
    fn policy_children<G: Game, E: Evaluator<G>>(
        eval: &E,
        state: &G,
        actions: &[G::Action],
        child: &mut G,
        kids: &mut Vec<Kid<G::Action>>,
    ) {
        kids.clear();
        for &a in actions {
            child.clone_from(state);
            child.apply(a);
            kids.push(Kid {
                action: a,
                chances: [0.0; MAX_PLAYERS],
                leaf: false,
                mover: mover_of(child),
                bias: eval.prior_bias(state, a, child),
            });
        }
    }
}

/// The hasher of [`Mcts::table`]: its keys are hashes already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).rotate_left(5);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The logistic function.
#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A chance of winning as log-odds in evaluator units (`scale` a logit): the inverse of
/// [`sigmoid`], kept finite at 0 and 1.
fn log_odds(q: f32, scale: f32) -> i32 {
    let q = q.clamp(1e-6, 1.0 - 1e-6);
    ((q / (1.0 - q)).ln() * scale).round() as i32
}

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// A searcher with an evaluator and settings.
    pub fn new(eval: E, config: MctsConfig) -> Self {
        Mcts {
            eval,
            config,
            tree: Vec::new(),
            path: Vec::new(),
            actions: Vec::new(),
            state: None,
            child: None,
            seed: 0,
            players: 0,
            nodes: 0,
            max_nodes: None,
            max_depth: None,
            stop: false,
            deepest: 0,
            outcomes: 0,
            chance_nodes: 0,
            open: 0,
            full: false,
            table: HashMap::default(),
            merged: 0,
            kids: Vec::new(),
            order: Vec::new(),
            defer: false,
            pending: 0,
            simulations: 0,
            collisions: 0,
            last_root: None,
            tree_seed: 0,
            carried_keys: HashMap::default(),
            reused: 0,
            reused_visits: 0,
            time_limit: None,
            settled: false,
            settle_kids: Vec::new(),
            root_mover: 0,
        }
    }

    /// Forgets the last search's tree, so the next search starts from an empty one (a new
    /// game).
    pub fn forget(&mut self) {
        self.last_root = None;
    }

    /// Seeds the chance outcomes (used only with [`MctsConfig::chance_samples`] > 0).
    pub fn seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Searches `root` within `limits` (without a time or node limit, for
    /// [`Budget::DEFAULT`]'s time).
    pub fn search(&mut self, root: &G, limits: &Budget) -> MctsResult<G::Action> {
        let start = Instant::now();
        let deadline = self.begin(root, limits, start);
        let settle = f64::from(self.config.settle_for(limits));
        if matches!(root.turn(), Turn::Player(_)) {
            loop {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                self.simulate(root);
                if self.stop {
                    break;
                }
                self.simulations += 1;
                if self.open == 0 {
                    break;
                }
                if settle > 0.0
                    && self.simulations.is_multiple_of(SETTLE_EVERY)
                    && self.is_settled(start, settle)
                {
                    self.settled = true;
                    break;
                }
            }
        }
        self.finish(root, start)
    }

    /// Searches `root` within `limits` on one thread for each of `evals`, all of them in
    /// this searcher's one tree (tree parallelism). A thread descends under the tree's lock,
    /// reserves the node it reaches and puts a virtual loss (a visit whose chance is 0 for
    /// the chooser) on every node of its path, so the other threads are steered to other
    /// moves; then it values the node's children with its own evaluator outside the lock,
    /// and under the lock again puts them in the tree and backs up, the virtual losses
    /// becoming real values. A thread reaching a node another is expanding backs up that
    /// node's static chances, as at a leaf; chance outcomes are sampled under the lock (one
    /// evaluator call, this searcher's). Limits bind as for [`Mcts::search`]: a node limit
    /// counts every thread's evaluator calls (an expansion reserves its children's before it
    /// starts), so it is never passed; the time is checked by each thread before each
    /// simulation. The moves depend on the threads' timing, so even under a node limit a
    /// search is not reproducible. With no evaluator in `evals` it is [`Mcts::search`].
    pub fn search_shared(
        &mut self,
        evals: &mut [E],
        root: &G,
        limits: &Budget,
    ) -> MctsResult<G::Action> {
        if evals.is_empty() || self.config.lazy {
            return self.search(root, limits);
        }
        let start = Instant::now();
        let deadline = self.begin(root, limits, start);
        // The root's expansion first, on this thread, so that no thread waits on it.
        if matches!(root.turn(), Turn::Player(_)) && deadline.is_none_or(|d| Instant::now() < d) {
            self.simulate(root);
            if !self.stop {
                self.simulations += 1;
            }
        }
        if matches!(root.turn(), Turn::Player(_)) && !self.stop && self.open > 0 {
            let valuing = self.valuing();
            self.defer = true;
            let tree = std::sync::Mutex::new(&mut *self);
            std::thread::scope(|scope| {
                for eval in evals.iter_mut() {
                    let tree = &tree;
                    scope.spawn(move || worker(tree, eval, root, deadline, valuing));
                }
            });
            self.defer = false;
        }
        self.finish(root, start)
    }

    /// [`settled`] for the tree as it stands, `start` being the search's start: progress is
    /// the larger of the time's share spent and the node limit's (none without a limit).
    fn is_settled(&mut self, start: Instant, settle: f64) -> bool {
        let by_time = self
            .time_limit
            .filter(|t| !t.is_zero())
            .map(|t| start.elapsed().as_secs_f64() / t.as_secs_f64());
        let by_nodes = self
            .max_nodes
            .filter(|&n| n > 0)
            .map(|n| self.nodes as f64 / n as f64);
        let Some(progress) = by_time.into_iter().chain(by_nodes).reduce(f64::max) else {
            return false;
        };
        let root = self.tree[0];
        let mut kids = std::mem::take(&mut self.settle_kids);
        kids.clear();
        kids.extend((root.first..root.first + root.len).map(|k| {
            let n = self.shared(k);
            (n.visits, n.sum / n.visits.max(1) as f32)
        }));
        let done = settled(&kids, progress, settle, self.simulations);
        self.settle_kids = kids;
        done
    }

    /// The settings for valuing children.
    fn valuing(&self) -> Valuing {
        Valuing {
            players: self.players,
            scale: self.config.value_scale,
            chance_samples: self.config.chance_samples,
            max_depth: self.max_depth,
        }
    }

    /// Resets the searcher for a search of `root` within `limits` started at `start`;
    /// returns the deadline.
    fn begin(&mut self, root: &G, limits: &Budget, start: Instant) -> Option<Instant> {
        let time = match (limits.time, limits.nodes) {
            (None, None) => Budget::DEFAULT.time,
            (time, _) => time,
        };
        let deadline = time.map(|t| start + t);
        self.time_limit = time;
        self.settled = false;
        self.max_nodes = limits.nodes;
        self.max_depth = limits.depth;
        self.players = root.num_players();
        self.nodes = 0;
        self.stop = false;
        self.deepest = 0;
        self.outcomes = 0;
        self.chance_nodes = 0;
        self.full = false;
        self.merged = 0;
        self.table.clear();
        self.reused = 0;
        self.reused_visits = 0;
        // A carried tree's paranoid minimax chances were valued for its own root's mover.
        let mover = mover_of(root);
        let same_mover = !self.config.paranoid || mover == self.root_mover;
        self.root_mover = mover;
        let carried = self.config.reuse
            && !self.config.transpositions
            && limits.depth.is_none()
            && same_mover
            && self.reroot(root);
        if carried {
            // The carried tree's outcomes were drawn with its first search's seed.
            self.seed = self.tree_seed;
        } else {
            self.tree_seed = self.seed;
            self.carried_keys.clear();
            self.open = 1;
            self.tree.clear();
            self.tree.push(Node {
                action: None,
                prior: 1.0,
                visits: 1,
                sum: 0.0,
                chances: [0.0; MAX_PLAYERS],
                mm: [0.0; MAX_PLAYERS],
                first: 0,
                len: 0,
                kind: Kind::New,
                mover: mover_of(root),
            });
        }
        if self.config.reuse {
            match &mut self.last_root {
                Some(r) => r.clone_from(root),
                None => self.last_root = Some(root.clone()),
            }
        }
        self.simulations = 0;
        self.collisions = 0;
        self.pending = 0;
        deadline
    }

    /// The result of the search begun at `start`, from the tree as it stands.
    fn finish(&mut self, root: &G, start: Instant) -> MctsResult<G::Action> {
        if self.full || self.max_depth.is_some() {
            // Some leaves are leaves only for this search's limits: never carried on.
            self.last_root = None;
        }
        let simulations = self.simulations;
        let root_node = self.tree[0];
        let kids = root_node.first as usize..(root_node.first + root_node.len) as usize;
        // The root's children in legal order (a lazy search's are in order of prior): the
        // results list them so, and ties between moves go as they would without the order.
        let mut order: Vec<usize> = kids.clone().collect();
        if self.config.lazy && !order.is_empty() {
            let mut legal = std::mem::take(&mut self.actions);
            root.legal_actions(&mut legal);
            order.clear();
            order.extend(
                legal
                    .iter()
                    .filter_map(|&a| kids.clone().find(|&k| self.tree[k].action == Some(a))),
            );
            self.actions = legal;
        }
        // A complete tree (nothing left to add, and nothing left out for the memory cap) is
        // solved exactly; otherwise the most visited move is played.
        let solved = self.open == 0 && !self.full && root_node.kind == Kind::Expanded;
        let best = if solved {
            let m = usize::from(root_node.mover);
            let mut best: Option<(u32, f32)> = None;
            let mut memo = vec![None; self.tree.len()];
            for &k in &order {
                let c = self.solve(k as u32, &mut memo)[m];
                if best.is_none_or(|(_, b)| c > b) {
                    best = Some((k as u32, c));
                }
            }
            best
        } else {
            order
                .iter()
                .copied()
                .max_by(|&a, &b| {
                    let (a, b) = (self.shared(a as u32), self.shared(b as u32));
                    // (A lazy search's unvalued children have no visit: their mean is 0.)
                    let mean = |n: &Node<G::Action>| n.sum / n.visits.max(1) as f32;
                    a.visits.cmp(&b.visits).then(mean(a).total_cmp(&mean(b)))
                })
                .map(|k| {
                    let n = self.shared(k as u32);
                    (k as u32, n.sum / n.visits.max(1) as f32)
                })
        };
        let value = best.map(|(_, q)| log_odds(q, self.config.value_scale));
        MctsResult {
            best: best.and_then(|(k, _)| self.tree[k as usize].action),
            value,
            solved,
            simulations,
            nodes: self.nodes,
            depth: self.deepest,
            outcomes: self.outcomes,
            chance_nodes: self.chance_nodes,
            root_visits: order
                .iter()
                .map(|&k| self.shared(k as u32).visits)
                .collect(),
            root_sums: order.iter().map(|&k| self.shared(k as u32).sum).collect(),
            tree: self.tree.len(),
            full: self.full,
            merged: self.merged,
            collisions: self.collisions,
            reused: self.reused,
            reused_visits: self.reused_visits,
            settled: self.settled,
            elapsed: start.elapsed(),
        }
    }

    /// With a tree carried from the last search ([`MctsConfig::reuse`]): if `root` is the
    /// position of one of its player nodes, searched before (expanded), at most one move of
    /// each seat below its root and with no chance event between, that node's subtree
    /// becomes the tree (copied, compacted, to the front; [`Mcts::open`] counted again) and
    /// true is returned. Otherwise the tree is left as it is and false returned.
    fn reroot(&mut self, root: &G) -> bool {
        let Some(old) = self.last_root.take() else {
            return false;
        };
        let found = self.find(&old, root);
        self.last_root = Some(old);
        let Some(top) = found else {
            return false;
        };
        let k = self.config.chance_samples;
        let grows = self.config.common_outcomes;
        // What a node adds to `open`: a node not yet expanded, or a chance node with
        // outcomes left to sample.
        let open_of = |n: &Node<G::Action>| match n.kind {
            Kind::New | Kind::Unvalued => 1,
            Kind::Expanded if n.mover == CHANCE && n.len < k => 1,
            _ => 0,
        };
        // A new vector: the old tree's memory is freed once the subtree is out of it, so a
        // searcher holds one tree's memory between moves, not two.
        let mut carried = Vec::new();
        let mut keys = HashMap::default();
        let mut head = self.tree[top as usize];
        head.action = None;
        head.prior = 1.0;
        let mut open = open_of(&head);
        carried.push(head);
        // Breadth first: each node's block of children (a chance node's reserved slots
        // included) is copied whole to the new tree's end.
        let mut i = 0;
        while i < carried.len() {
            let n = carried[i];
            if n.kind == Kind::Expanded {
                let slots = match n.mover {
                    CHANCE if grows => slots_for(n.len, k),
                    CHANCE => k,
                    _ => n.len,
                };
                let first = carried.len() as u32;
                for s in 0..slots {
                    let old = n.first + s;
                    let c = self.tree[old as usize];
                    if s < n.len {
                        open += open_of(&c);
                        if !grows && c.mover == CHANCE && c.kind == Kind::Expanded {
                            // Its outcomes keep their random streams (their key is
                            // the node's old index, or the key it was carried with).
                            keys.insert(carried.len() as u32, self.outcome_key(old, 0));
                        }
                    }
                    carried.push(c);
                }
                carried[i].first = first;
            }
            i += 1;
        }
        self.tree = carried;
        self.carried_keys = keys;
        self.open = open;
        self.reused = self.tree.len();
        self.reused_visits = self.tree[0].visits;
        true
    }

    /// The expanded player node of the tree (a search's root `old`) whose position is
    /// `root`: the root itself, or a node reached by at most one move of each seat with no
    /// chance node between.
    fn find(&self, old: &G, root: &G) -> Option<u32> {
        if self.tree.first().is_none_or(|n| n.kind != Kind::Expanded) {
            return None;
        }
        if old == root {
            return Some(0);
        }
        let plies = self.players.max(1) as u32;
        let mut stack = vec![(0u32, old.clone(), 0u32)];
        let mut child = old.clone();
        while let Some((idx, state, depth)) = stack.pop() {
            let n = self.tree[idx as usize];
            for c in n.first..n.first + n.len {
                let node = self.tree[c as usize];
                // Only expanded player nodes: a new node carries nothing, and a chance
                // event's outcome is the game's, not one of the tree's samples.
                if node.kind != Kind::Expanded || node.mover >= CHANCE {
                    continue;
                }
                let Some(a) = node.action else { continue };
                child.clone_from(&state);
                child.apply(a);
                if child == *root {
                    return Some(c);
                }
                if depth + 1 < plies {
                    stack.push((c, child.clone(), depth + 1));
                }
            }
        }
        None
    }

    /// The node whose visits and values the tree slot `k` has: itself, or the node an
    /// [`Kind::Alias`] shares.
    fn shared(&self, k: u32) -> &Node<G::Action> {
        let n = &self.tree[k as usize];
        if n.kind == Kind::Alias {
            &self.tree[n.first as usize]
        } else {
            n
        }
    }

    /// The static chances of every player at `state` (one evaluator call).
    fn chances(&mut self, state: &G) -> [f32; MAX_PLAYERS] {
        self.nodes += 1;
        self.valuing().chances(&mut self.eval, state)
    }

    /// Whether `state`, just created in the tree, can never be expanded.
    fn is_leaf(&self, state: &G, depth: u32) -> bool {
        self.valuing().is_leaf(&self.eval, state, depth)
    }

    fn would_pass_limit(&self, more: usize) -> bool {
        self.max_nodes.is_some_and(|m| self.nodes + more as u64 > m)
    }

    /// The key of the chance node with tree index `i` and `level` chance nodes above it on
    /// its path: its outcomes' random streams are drawn from the key (see
    /// [`MctsConfig::common_outcomes`]).
    fn outcome_key(&self, i: u32, level: u32) -> u64 {
        if self.config.common_outcomes {
            // Apart from every tree index (which fits in 32 bits).
            (1u64 << 40) | u64::from(level)
        } else if self.carried_keys.is_empty() {
            u64::from(i)
        } else {
            // A node carried from an earlier tree keeps the key it had there.
            self.carried_keys.get(&i).copied().unwrap_or(u64::from(i))
        }
    }

    /// Outcome `j` of the chance node with key `key` ([`Mcts::outcome_key`]), applied to
    /// `state`.
    fn apply_outcome(&self, state: &mut G, key: u64, j: u32) {
        let stream =
            mix64(self.seed ^ mix64(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(j) + 1)));
        let mut rng = GameRng::seed_from_u64(stream);
        let outcome = state.sample_chance(&mut rng);
        if state.apply_chance(&outcome).is_err() {
            debug_assert!(false, "a sampled chance outcome must be possible");
        }
    }

    /// One simulation from `root`: descend, expand or revisit a leaf, back up.
    fn simulate(&mut self, root: &G) {
        let mut state = match self.state.take() {
            Some(s) => s,
            None => root.clone(),
        };
        let backed = self.descend(root, &mut state);
        self.state = Some(state);
        match backed {
            Descent::Back(chances) => self.backup(&chances, true),
            Descent::Stop => self.stop = true,
            Descent::Expand { .. } => debug_assert!(false, "only a shared tree defers"),
        }
    }

    /// Descends from `root` (with `state` as the buffer, left at the node the descent ends
    /// at), the nodes passed in [`Mcts::path`]: expands or revisits a leaf, or in a shared
    /// tree reserves the node to expand.
    fn descend(&mut self, root: &G, state: &mut G) -> Descent {
        state.clone_from(root);
        self.path.clear();
        let mut idx = 0u32;
        let mut depth = 0u32;
        // Chance nodes passed on this path.
        let mut level = 0u32;
        loop {
            let node = self.tree[idx as usize];
            let mover = match state.turn() {
                Turn::Player(m) => Some(m),
                _ => None,
            };
            self.path.push((idx, mover));
            match (node.kind, state.turn()) {
                (Kind::Alias, _) => {
                    // Never on a path: the descent goes to the node an alias shares.
                    debug_assert!(false, "an alias is never descended into");
                    break Descent::Back(node.chances);
                }
                (Kind::Unvalued, _) => {
                    // A lazy search's child reached for the first time: valued now (one
                    // evaluator call), which ends the simulation.
                    if self.would_pass_limit(1) {
                        break Descent::Stop;
                    }
                    let chances = self.chances(state);
                    let leaf = self.is_leaf(state, depth);
                    let n = &mut self.tree[idx as usize];
                    n.chances = chances;
                    n.mm = chances;
                    if leaf {
                        n.kind = Kind::Leaf;
                        self.open -= 1;
                    } else {
                        n.kind = Kind::New;
                    }
                    break Descent::Back(chances);
                }
                (Kind::Leaf | Kind::Busy, _) | (_, Turn::Terminal) => {
                    // A visit to a node already valued (or, in a shared tree, being
                    // expanded by another thread): it counts as a node, so a node limit
                    // ends every search.
                    if self.would_pass_limit(1) {
                        break Descent::Stop;
                    }
                    self.nodes += 1;
                    self.collisions += u64::from(node.kind == Kind::Busy);
                    break Descent::Back(node.chances);
                }
                (Kind::New, Turn::Player(m)) => {
                    if let Some(t) = self.transposition(state, idx, level) {
                        // Go on from the node this one now shares, as if it had been chosen.
                        self.path.pop();
                        idx = t;
                        continue;
                    }
                    if self.defer {
                        break self.reserve(state, idx, m, depth);
                    }
                    if self.config.lazy {
                        match self.expand_lazy(state, idx, depth) {
                            Some(d) => break d,
                            None => {
                                // Expanded: the descent goes on from the same node, now
                                // choosing among its children.
                                self.path.pop();
                                continue;
                            }
                        }
                    }
                    break match self.expand(state, idx, m, depth) {
                        Some(c) => Descent::Back(c),
                        None => Descent::Stop,
                    };
                }
                (Kind::Expanded, Turn::Player(_)) => {
                    let c = self.select(idx);
                    let slot = self.tree[c as usize];
                    if let Some(a) = slot.action {
                        state.apply(a);
                    }
                    idx = if slot.kind == Kind::Alias {
                        slot.first
                    } else {
                        c
                    };
                }
                (_, Turn::Chance) => {
                    let allowed = (node.visits as f32).sqrt().ceil() as u32;
                    let allowed = allowed.min(self.config.chance_samples).max(1);
                    let key = self.outcome_key(idx, level);
                    if node.kind == Kind::New || node.len < allowed {
                        break match self.widen(state, idx, key, depth) {
                            Some(c) => Descent::Back(c),
                            None => Descent::Stop,
                        };
                    }
                    let kids = node.first..node.first + node.len;
                    let c = kids
                        .min_by_key(|&k| self.tree[k as usize].visits)
                        .unwrap_or(node.first);
                    // Outcome j sits in the j-th of the node's reserved slots.
                    let j = c - node.first;
                    self.apply_outcome(state, key, j);
                    idx = c;
                    level += 1;
                }
            }
            depth += 1;
        }
    }

    /// With [`MctsConfig::transpositions`], before the new node `idx` at `state` (`level`
    /// chance nodes below the root, last on the path) is expanded: if a node of the same
    /// state, chosen by the same player, was reached before, `idx` becomes an alias of it
    /// and that node is returned; otherwise `idx` is recorded as the state's node.
    fn transposition(&mut self, state: &G, idx: u32, level: u32) -> Option<u32> {
        if !self.config.transpositions || level > 0 {
            return None;
        }
        let key = self.eval.key(state)?;
        // The player who chose the node (its sums are that player's chances).
        let chooser = match self.path.len().checked_sub(2).map(|i| self.path[i].1) {
            Some(Some(p)) => p.0,
            // The root, or a node below a chance node: never merged.
            _ => return None,
        };
        match self.table.get(&key) {
            Some(&(t, c)) if c == chooser && t != idx => {
                let n = &mut self.tree[idx as usize];
                n.kind = Kind::Alias;
                n.first = t;
                // It will never be expanded itself.
                self.open -= 1;
                self.merged += 1;
                Some(t)
            }
            Some(_) => None,
            None => {
                self.table.insert(key, (idx, chooser));
                None
            }
        }
    }

    /// The child of the player node `idx` that PUCT prefers (each child's sum is already its
    /// chooser's, the node's mover's).
    fn select(&self, idx: u32) -> u32 {
        if self.config.lazy {
            let c = self.select_lazy(idx);
            debug_assert_eq!(c, self.select_scan(idx), "the valued children are a prefix");
            return c;
        }
        self.select_scan(idx)
    }

    /// [`Mcts::select`] for a lazy search, in one pass over the valued children and the
    /// first unvalued one. Its expansion put the children in order of prior, highest first.
    /// The unvalued children share one mean (their valued siblings' less `fpu`) and have no
    /// visits, so of them PUCT prefers the one of highest prior, the first in that order.
    /// So they are valued from the front, the valued children are always a prefix, and the
    /// choice is [`Mcts::select_scan`]'s (checked in debug builds) at a cost that grows
    /// with the children visited rather than with all of them. The minimax blend
    /// ([`MctsConfig::minimax`]) changes only the valued children's means, so the prefix
    /// holds with it too.
    fn select_lazy(&self, idx: u32) -> u32 {
        let node = &self.tree[idx as usize];
        let sqrt_n = (node.visits.max(1) as f32).sqrt();
        let w = self.blend_at(node.mover);
        let m = usize::from(node.mover) % MAX_PLAYERS;
        let (first, end) = (node.first, node.first + node.len);
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        let (mut sum, mut visits) = (0.0f32, 0u32);
        let mut k = first;
        while k < end {
            let c = &self.tree[k as usize];
            if c.visits == 0 {
                break;
            }
            sum += c.sum;
            visits += c.visits;
            let q = if w > 0.0 {
                (1.0 - w) * (c.sum / c.visits as f32) + w * c.mm[m]
            } else {
                c.sum / c.visits as f32
            };
            let score = q + self.config.cpuct * c.prior * sqrt_n / (1.0 + c.visits as f32);
            if score > best_score {
                best_score = score;
                best = k;
            }
            k += 1;
        }
        if k < end {
            let mean = if visits > 0 { sum / visits as f32 } else { 0.5 };
            let q = mean - self.config.fpu;
            let score = q + self.config.cpuct * self.tree[k as usize].prior * sqrt_n;
            if score > best_score {
                best = k;
            }
        }
        best
    }

    /// The minimax blend's weight in the selection at a node where `mover` moves:
    /// [`MctsConfig::minimax`], but 0 at the other players' nodes of a paranoid search.
    #[inline]
    fn blend_at(&self, mover: u8) -> f32 {
        if self.config.paranoid && mover != self.root_mover {
            0.0
        } else {
            self.config.minimax
        }
    }

    /// How much the minimax chances `c` are worth to the player `m` moving at a node, for
    /// the choice of the minimax line there: its own chance, or with
    /// [`MctsConfig::paranoid`] the root's mover's chance, negated at another player's node.
    #[inline]
    fn line_key(&self, m: usize, c: &[f32; MAX_PLAYERS]) -> f32 {
        if !self.config.paranoid {
            return c[m];
        }
        let r = usize::from(self.root_mover) % MAX_PLAYERS;
        if m == r { c[r] } else { -c[r] }
    }

    /// [`Mcts::select`] by a scan of every child (the plain search's; for a lazy search,
    /// the reference [`Mcts::select_lazy`] is checked against).
    fn select_scan(&self, idx: u32) -> u32 {
        let node = self.tree[idx as usize];
        let sqrt_n = (node.visits.max(1) as f32).sqrt();
        let kids = node.first..node.first + node.len;
        // A lazy search's unvalued children (no visit yet): their valued siblings' mean
        // less the first-play reduction.
        let fpu = if self.config.lazy {
            let (sum, visits) = kids
                .clone()
                .map(|k| self.shared(k))
                .fold((0.0f32, 0u32), |(s, v), c| (s + c.sum, v + c.visits));
            let mean = if visits > 0 { sum / visits as f32 } else { 0.5 };
            mean - self.config.fpu
        } else {
            0.0
        };
        let mut best = node.first;
        let mut best_score = f32::NEG_INFINITY;
        let w = self.blend_at(node.mover);
        let m = usize::from(node.mover) % MAX_PLAYERS;
        for k in kids {
            let prior = self.tree[k as usize].prior;
            let c = self.shared(k);
            // Every child has a visit from its expansion, but for a lazy search's unvalued.
            let q = if c.visits == 0 {
                fpu
            } else if w > 0.0 {
                (1.0 - w) * (c.sum / c.visits as f32) + w * c.mm[m]
            } else {
                c.sum / c.visits as f32
            };
            let score = q + self.config.cpuct * prior * sqrt_n / (1.0 + c.visits as f32);
            if score > best_score {
                best_score = score;
                best = k;
            }
        }
        best
    }

    /// Before the player node `idx` at `state` is expanded: its legal moves into
    /// [`Mcts::actions`]. Returns what the descent ends with instead if it is not expanded:
    /// its own chances if it has no move or the tree is full (it becomes a leaf), or the
    /// node limit's end.
    fn prepare(&mut self, state: &G, idx: u32) -> Option<Descent> {
        let mut actions = std::mem::take(&mut self.actions);
        state.legal_actions(&mut actions);
        let n = actions.len();
        self.actions = actions;
        let own = self.tree[idx as usize].chances;
        let full = self.tree.len() + self.pending + n > self.config.tree_cap;
        if n == 0 || full {
            self.full |= full;
            self.tree[idx as usize].kind = Kind::Leaf;
            self.open -= 1;
            return Some(Descent::Back(own));
        }
        // A lazy expansion values one child in this simulation; otherwise every child.
        if self.would_pass_limit(if self.config.lazy { 1 } else { n }) {
            return Some(Descent::Stop);
        }
        None
    }

    /// Expands the player node `idx` at `state`: every child evaluated once. Returns the
    /// chances to back up (the best child's for `m`; the node's own if it cannot be
    /// expanded), or `None` if the node limit ends the search.
    fn expand(
        &mut self,
        state: &G,
        idx: u32,
        m: PlayerId,
        depth: u32,
    ) -> Option<[f32; MAX_PLAYERS]> {
        match self.prepare(state, idx) {
            Some(Descent::Back(c)) => return Some(c),
            Some(_) => return None,
            None => {}
        }
        let mut kids = std::mem::take(&mut self.kids);
        let mut child = match self.child.take() {
            Some(c) => c,
            None => state.clone(),
        };
        let valuing = self.valuing();
        valuing.children(
            &mut self.eval,
            state,
            &self.actions,
            depth,
            &mut child,
            &mut kids,
        );
        self.child = Some(child);
        self.nodes += kids.len() as u64;
        let chances = self.insert(idx, m, depth, &kids);
        self.kids = kids;
        Some(chances)
    }

    /// [`MctsConfig::lazy`]: expands the player node `idx` at `state` (`depth` plies below
    /// the root) without valuing its children: their priors from the
    /// evaluator's bias alone. `None` when expanded; otherwise what the descent ends with
    /// (the node's own chances if it cannot be expanded, or the node limit's end).
    fn expand_lazy(&mut self, state: &G, idx: u32, depth: u32) -> Option<Descent> {
        if let Some(d) = self.prepare(state, idx) {
            return Some(d);
        }
        let mut kids = std::mem::take(&mut self.kids);
        let mut child = match self.child.take() {
            Some(c) => c,
            None => state.clone(),
        };
        Valuing::policy_children(&self.eval, state, &self.actions, &mut child, &mut kids);
        self.child = Some(child);
        let first = self.tree.len() as u32;
        let t = self.config.temperature.max(1e-3);
        let top = kids
            .iter()
            .map(|k| k.bias / t)
            .fold(f32::NEG_INFINITY, f32::max);
        let total: f32 = kids.iter().map(|k| (k.bias / t - top).exp()).sum();
        // By prior, highest first, so the children are valued from the front
        // ([`Mcts::select_lazy`]); equal priors in the moves' order, as PUCT's scan takes
        // them, so a search chooses as it would without the order.
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(kids.iter().zip(0..).map(|(k, i)| (k.bias, i)));
        order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for k in order.iter().map(|&(_, i)| &kids[i as usize]) {
            self.tree.push(Node {
                action: Some(k.action),
                prior: (k.bias / t - top).exp() / total,
                visits: 0,
                sum: 0.0,
                chances: [0.0; MAX_PLAYERS],
                mm: [0.0; MAX_PLAYERS],
                first: 0,
                len: 0,
                kind: Kind::Unvalued,
                mover: k.mover,
            });
        }
        self.order = order;
        self.open += kids.len() as u64;
        let node = &mut self.tree[idx as usize];
        node.first = first;
        node.len = kids.len() as u32;
        node.kind = Kind::Expanded;
        self.open -= 1;
        self.deepest = self.deepest.max(depth + 1);
        self.kids = kids;
        None
    }

    /// In a shared tree: reserves the player node `idx` at `state` for expansion by the
    /// descending thread (its legal moves in [`Mcts::actions`], their evaluator calls
    /// counted now, a virtual loss on every node of the path), or ends the descent as
    /// [`Mcts::prepare`] says.
    fn reserve(&mut self, state: &G, idx: u32, m: PlayerId, depth: u32) -> Descent {
        if let Some(d) = self.prepare(state, idx) {
            return d;
        }
        let n = self.actions.len();
        self.nodes += n as u64;
        self.pending += n;
        self.tree[idx as usize].kind = Kind::Busy;
        for &(i, _) in &self.path {
            // A visit whose chance (0) the backup replaces by the real one.
            self.tree[i as usize].visits += 1;
        }
        Descent::Expand { idx, m, depth }
    }

    /// In a shared tree: the valued children `kids` of the node `idx` reserved by
    /// [`Mcts::reserve`] go into the tree, and their best chances are backed up along the
    /// path (in [`Mcts::path`]), replacing the virtual losses.
    fn complete(&mut self, idx: u32, m: PlayerId, depth: u32, kids: &[Kid<G::Action>]) {
        self.pending -= kids.len();
        let chances = self.insert(idx, m, depth, kids);
        self.backup(&chances, false);
    }

    /// Puts the valued children `kids` of the player node `idx` (where `m` moves, `depth`
    /// plies below the root) into the tree, with their priors; returns the chances to back
    /// up (the best child's for `m`).
    fn insert(
        &mut self,
        idx: u32,
        m: PlayerId,
        depth: u32,
        kids: &[Kid<G::Action>],
    ) -> [f32; MAX_PLAYERS] {
        let own = self.tree[idx as usize].chances;
        let first = self.tree.len() as u32;
        let mut best: Option<[f32; MAX_PLAYERS]> = None;
        let mut top = f32::NEG_INFINITY;
        for k in kids {
            let kind = if k.leaf {
                Kind::Leaf
            } else {
                self.open += 1;
                Kind::New
            };
            let c = k.chances[m.index()];
            if best.is_none() || c > top {
                top = c;
                best = Some(k.chances);
            }
            self.tree.push(Node {
                action: Some(k.action),
                // The evaluator's bias for now; the prior itself below.
                prior: k.bias,
                visits: 1,
                sum: c,
                chances: k.chances,
                mm: k.chances,
                first: 0,
                len: 0,
                kind,
                mover: k.mover,
            });
        }
        // Priors: the softmax of the children's log-odds for `m` over the temperature, each
        // plus the evaluator's bias (held in `prior` until here).
        let t = self.config.temperature;
        let logit = |n: &Node<G::Action>| prior_logit(n.chances[m.index()], t) + n.prior;
        let range = first as usize..self.tree.len();
        let max = self.tree[range.clone()]
            .iter()
            .map(logit)
            .fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0.0;
        for n in &mut self.tree[range.clone()] {
            n.prior = (logit(n) - max).exp();
            total += n.prior;
        }
        for n in &mut self.tree[range.clone()] {
            n.prior /= total;
        }
        let node = &mut self.tree[idx as usize];
        node.first = first;
        node.len = range.len() as u32;
        node.kind = Kind::Expanded;
        self.open -= 1;
        self.deepest = self.deepest.max(depth + 1);
        best.unwrap_or(own)
    }

    /// Adds the next sampled outcome to the chance node `idx` at `state` (reserving its
    /// slots on the first visit; with common outcomes one, and a block twice as large
    /// whenever the node's is full). Returns the new outcome's chances to back up (the node's
    /// own if it is full or the tree is), or `None` if the node limit ends the search.
    fn widen(&mut self, state: &G, idx: u32, key: u64, depth: u32) -> Option<[f32; MAX_PLAYERS]> {
        let node = self.tree[idx as usize];
        let k = self.config.chance_samples;
        // With common outcomes the slots grow as the outcomes do (1, 2, 4, ... up to K), so
        // a large K costs memory only where the visits ask for the outcomes; otherwise all K
        // are reserved at once (the layout the searches before common outcomes had, kept so
        // that their seeded games replay).
        let grows = self.config.common_outcomes;
        if node.kind == Kind::New {
            let reserve = if grows { 1 } else { k };
            if self.tree.len() + reserve as usize > self.config.tree_cap {
                self.full = true;
                self.tree[idx as usize].kind = Kind::Leaf;
                self.open -= 1;
                return Some(node.chances);
            }
            let first = self.tree.len() as u32;
            self.push_slots(reserve);
            let n = &mut self.tree[idx as usize];
            n.first = first;
            n.len = 0;
            n.kind = Kind::Expanded;
            self.chance_nodes += 1;
        }
        let node = self.tree[idx as usize];
        debug_assert!(node.len < k, "simulate widens only a chance node with room");
        if self.would_pass_limit(1) {
            return None;
        }
        if grows && node.len > 0 && node.len == slots_for(node.len, k) {
            // The block is full: move its outcomes to one twice as large at the tree's end
            // (their subtrees stay where they are; the old slots are left unused).
            let larger = (2 * node.len).min(k);
            if self.tree.len() + larger as usize > self.config.tree_cap {
                // No room for another outcome: the node's own chances, as at a capped leaf.
                self.full = true;
                return Some(node.chances);
            }
            let first = self.tree.len() as u32;
            for t in node.first..node.first + node.len {
                let moved = self.tree[t as usize];
                self.tree.push(moved);
            }
            self.push_slots(larger - node.len);
            self.tree[idx as usize].first = first;
        }
        let node = self.tree[idx as usize];
        let j = node.len;
        let mut child = match self.child.take() {
            Some(c) => c,
            None => state.clone(),
        };
        child.clone_from(state);
        self.apply_outcome(&mut child, key, j);
        let chances = self.chances(&child);
        let leaf = self.is_leaf(&child, depth + 1);
        let mover = mover_of(&child);
        self.child = Some(child);
        let slot = &mut self.tree[(node.first + j) as usize];
        slot.chances = chances;
        slot.mm = chances;
        slot.kind = if leaf { Kind::Leaf } else { Kind::New };
        slot.mover = mover;
        if !leaf {
            self.open += 1;
        }
        // Its first visit is this one (the backup below counts it).
        self.tree[idx as usize].len = j + 1;
        if j + 1 == k {
            // Every outcome is in the tree: nothing more to sample here.
            self.open -= 1;
        }
        self.path.push((node.first + j, None));
        self.outcomes += 1;
        self.deepest = self.deepest.max(depth + 1);
        Some(chances)
    }

    /// Pushes `n` empty outcome slots at the tree's end.
    fn push_slots(&mut self, n: u32) {
        for _ in 0..n {
            self.tree.push(Node {
                action: None,
                prior: 0.0,
                visits: 0,
                sum: 0.0,
                chances: [0.0; MAX_PLAYERS],
                mm: [0.0; MAX_PLAYERS],
                first: 0,
                len: 0,
                kind: Kind::New,
                mover: OVER,
            });
        }
    }

    /// The exact value of the complete subtree at `idx`: its static chances at a leaf,
    /// the mean over the outcomes at a chance node, and where a player moves the child best
    /// for that player (the first of equals). `memo` holds the values found (one slot a
    /// tree node), so a node that several aliases share is solved once.
    fn solve(&self, idx: u32, memo: &mut [Option<[f32; MAX_PLAYERS]>]) -> [f32; MAX_PLAYERS] {
        let n = self.tree[idx as usize];
        if n.kind == Kind::Alias {
            return self.solve(n.first, memo);
        }
        if n.kind != Kind::Expanded || n.len == 0 {
            return n.chances;
        }
        if let Some(v) = memo[idx as usize] {
            return v;
        }
        let v = self.solve_expanded(n, memo);
        memo[idx as usize] = Some(v);
        v
    }

    /// [`Mcts::solve`] at the expanded node `n`.
    fn solve_expanded(
        &self,
        n: Node<G::Action>,
        memo: &mut [Option<[f32; MAX_PLAYERS]>],
    ) -> [f32; MAX_PLAYERS] {
        let kids = n.first..n.first + n.len;
        if n.mover == CHANCE {
            let mut mean = [0.0; MAX_PLAYERS];
            for k in kids {
                for (m, c) in mean.iter_mut().zip(self.solve(k, memo)) {
                    *m += c / n.len as f32;
                }
            }
            return mean;
        }
        let m = usize::from(n.mover) % MAX_PLAYERS;
        let mut best: Option<[f32; MAX_PLAYERS]> = None;
        for k in kids {
            let c = self.solve(k, memo);
            if best.is_none_or(|b| c[m] > b[m]) {
                best = Some(c);
            }
        }
        best.unwrap_or(n.chances)
    }

    /// Adds `chances` to every node on the path: to each node's sum the chance of the
    /// player who chose it, and a visit each if `visits` (a shared tree's expansion counted
    /// its visits when it put its virtual losses on the path).
    fn backup(&mut self, chances: &[f32; MAX_PLAYERS], visits: bool) {
        let mut parent_mover: Option<PlayerId> = None;
        for &(idx, mover) in &self.path {
            let n = &mut self.tree[idx as usize];
            n.visits += u32::from(visits);
            if let Some(p) = parent_mover {
                n.sum += chances[p.index()];
            }
            parent_mover = mover;
        }
        if self.config.minimax > 0.0 {
            self.update_minimax();
        }
    }

    /// ([`MctsConfig::minimax`]) Brings the minimax chances of the nodes on the path up to
    /// date, from the deepest up, stopping at the first node above the deepest whose
    /// chances did not change (nor then will its ancestors'). The deepest node and its
    /// parent (which may have gained an outcome or a valued child) are recomputed from all
    /// their children; above them a player node is rescanned only when the child on the
    /// path was its best and fell, or ties its best.
    fn update_minimax(&mut self) {
        let last = self.path.len();
        // The child on the path below: its chances before and after this update.
        let mut below: Option<([f32; MAX_PLAYERS], [f32; MAX_PLAYERS])> = None;
        for i in (0..last).rev() {
            let idx = self.path[i].0;
            let n = self.tree[idx as usize];
            if n.kind != Kind::Expanded || n.len == 0 {
                // A leaf, or a node not yet expanded: its static chances.
                below = None;
                continue;
            }
            let mm = match below {
                Some((old, new)) if i + 2 < last && n.mover != CHANCE => {
                    let m = usize::from(n.mover) % MAX_PLAYERS;
                    let (key_new, key_best) = (self.line_key(m, &new), self.line_key(m, &n.mm));
                    if key_new > key_best {
                        new
                    } else if key_new < key_best && old != n.mm {
                        // Neither its best before nor now: the best is unchanged.
                        n.mm
                    } else {
                        self.minimax_of(n)
                    }
                }
                _ => self.minimax_of(n),
            };
            // (With transpositions a shared node's other parents are brought up to date only
            // when a path passes them.)
            debug_assert!(
                self.config.transpositions || mm == self.minimax_of(n),
                "node {idx}"
            );
            if mm == n.mm && i + 1 < last {
                break;
            }
            self.tree[idx as usize].mm = mm;
            below = Some((n.mm, mm));
        }
    }

    /// The minimax chances of the expanded node `n` from all its children's: their mean
    /// at a chance node, the best for the mover at a player node (the first of equals; a
    /// lazy search's children not yet valued left out; with [`MctsConfig::paranoid`] the
    /// best by [`Mcts::line_key`]).
    fn minimax_of(&self, n: Node<G::Action>) -> [f32; MAX_PLAYERS] {
        let kids = n.first..n.first + n.len;
        if n.mover == CHANCE {
            let mut mean = [0.0; MAX_PLAYERS];
            for k in kids {
                for (s, c) in mean.iter_mut().zip(self.tree[k as usize].mm) {
                    *s += c;
                }
            }
            return mean.map(|s| s / n.len as f32);
        }
        let m = usize::from(n.mover) % MAX_PLAYERS;
        let mut best: Option<[f32; MAX_PLAYERS]> = None;
        for k in kids {
            let c = self.shared(k);
            if c.visits > 0 && best.is_none_or(|b| self.line_key(m, &c.mm) > self.line_key(m, &b)) {
                best = Some(c.mm);
            }
        }
        best.unwrap_or(n.chances)
    }
}

/// One thread of [`Mcts::search_shared`]: simulations in the shared `tree` until the
/// deadline, the node limit or a complete tree, valuing the children of the nodes it
/// expands with `eval` outside the lock.
fn worker<G, E>(
    tree: &std::sync::Mutex<&mut Mcts<G, E>>,
    eval: &mut E,
    root: &G,
    deadline: Option<Instant>,
    valuing: Valuing,
) where
    G: Game,
    E: Evaluator<G>,
{
    let lock = || {
        tree.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    let mut state = root.clone();
    let mut child = root.clone();
    let mut path = Vec::new();
    let mut actions = Vec::new();
    let mut kids = Vec::new();
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return;
        }
        let (idx, m, depth) = {
            let mut t = lock();
            if t.stop || t.open == 0 {
                return;
            }
            std::mem::swap(&mut t.path, &mut path);
            let descent = t.descend(root, &mut state);
            match descent {
                Descent::Back(chances) => {
                    t.backup(&chances, true);
                    t.simulations += 1;
                    std::mem::swap(&mut t.path, &mut path);
                    continue;
                }
                Descent::Stop => {
                    t.stop = true;
                    std::mem::swap(&mut t.path, &mut path);
                    return;
                }
                Descent::Expand { idx, m, depth } => {
                    std::mem::swap(&mut t.path, &mut path);
                    std::mem::swap(&mut t.actions, &mut actions);
                    (idx, m, depth)
                }
            }
        };
        valuing.children(eval, &state, &actions, depth, &mut child, &mut kids);
        let mut t = lock();
        std::mem::swap(&mut t.path, &mut path);
        t.complete(idx, m, depth, &kids);
        t.simulations += 1;
        std::mem::swap(&mut t.path, &mut path);
    }
}

/// An [`Agent`] that plays the move of a Monte Carlo tree search ([`Mcts`]).
///
/// It holds no limits: the [`Budget`] it is handed binds (an empty one means
/// [`Budget::DEFAULT`]). With a single legal move it plays it without searching.
///
/// # Threads
/// Made by [`MctsAgent::with_threads`] with `t` > 1 threads it searches by root
/// parallelism: `t` independent trees of the same root, each on its own thread with its own
/// evaluator and its own seed (so with refills each tree samples its own futures), under the
/// same time limit; a node limit is shared out between them (the trees' nodes together never
/// pass it) and so is nothing else. The move played is the one with the most visits over
/// all the trees (ties to the higher mean chance), unless a tree is complete: then its exact
/// move. Under a node limit the move depends only on the seed, as with one thread.
///
/// Made by [`MctsAgent::with_shared_tree`] it searches by tree parallelism instead: its
/// threads share one tree ([`Mcts::search_shared`]), steered apart by virtual losses.
pub struct MctsAgent<G: Game, E: Evaluator<G>> {
    name: String,
    mcts: Mcts<G, E>,
    /// The other threads' searchers (none with one thread, or with a shared tree).
    helpers: Vec<Mcts<G, E>>,
    /// With a shared tree: one evaluator for each thread.
    workers: Vec<E>,
    last: Option<MctsResult<G::Action>>,
}

impl<G: Game, E: Evaluator<G>> MctsAgent<G, E> {
    /// A player called `name` with an evaluator and settings, searching on one thread.
    pub fn new(name: impl Into<String>, eval: E, config: MctsConfig) -> Self {
        Self::with_parts(name, eval, config, Vec::new(), Vec::new())
    }

    /// A player from its main searcher's evaluator and settings, the other trees'
    /// searchers (root parallelism) and the shared tree's evaluators (tree parallelism).
    fn with_parts(
        name: impl Into<String>,
        eval: E,
        config: MctsConfig,
        helpers: Vec<Mcts<G, E>>,
        workers: Vec<E>,
    ) -> Self {
        MctsAgent {
            name: name.into(),
            mcts: Mcts::new(eval, config),
            helpers,
            workers,
            last: None,
        }
    }

    /// A player searching on `threads` threads (root parallelism, see the type's
    /// documentation); 0 is taken as 1.
    pub fn with_threads(
        name: impl Into<String>,
        eval: E,
        config: MctsConfig,
        threads: usize,
    ) -> Self
    where
        E: Clone,
    {
        let helpers = (1..threads)
            .map(|_| Mcts::new(eval.clone(), config.clone()))
            .collect();
        Self::with_parts(name, eval, config, helpers, Vec::new())
    }

    /// A player searching on `threads` threads that share one tree (tree parallelism with
    /// virtual losses, [`Mcts::search_shared`]); with 0 or 1 it is [`MctsAgent::new`]. Its
    /// moves depend on the threads' timing: with more than one thread it is not
    /// reproducible, even under a node limit.
    pub fn with_shared_tree(
        name: impl Into<String>,
        eval: E,
        config: MctsConfig,
        threads: usize,
    ) -> Self
    where
        E: Clone,
    {
        let workers = if threads > 1 {
            (0..threads).map(|_| eval.clone()).collect()
        } else {
            Vec::new()
        };
        Self::with_parts(name, eval, config, Vec::new(), workers)
    }

    /// The threads it searches on.
    pub fn threads(&self) -> usize {
        if self.workers.is_empty() {
            1 + self.helpers.len()
        } else {
            self.workers.len()
        }
    }

    /// True if its threads share one tree.
    pub fn shares_tree(&self) -> bool {
        !self.workers.is_empty()
    }

    /// The full result of the last search (with several threads: the trees' results
    /// combined, their counts summed; `depth` the deepest, `tree` the largest).
    pub fn last_result(&self) -> Option<&MctsResult<G::Action>> {
        self.last.as_ref()
    }

    /// Searches `state` on every thread and combines the trees' results.
    fn search_all(
        &mut self,
        state: &G,
        actions: &[G::Action],
        budget: &Budget,
        seed: u64,
    ) -> MctsResult<G::Action> {
        self.mcts.seed(seed);
        if !self.workers.is_empty() {
            return self.mcts.search_shared(&mut self.workers, state, budget);
        }
        if self.helpers.is_empty() {
            return self.mcts.search(state, budget);
        }
        let threads = self.threads() as u64;
        // Tree `t`'s share of a node limit: the first trees take the remainder.
        let share = |t: u64| Budget {
            nodes: budget
                .nodes
                .map(|n| n / threads + u64::from(t < n % threads)),
            ..*budget
        };
        let main = &mut self.mcts;
        let helpers = &mut self.helpers;
        let (first, others) = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, h)| {
                    let t = i as u64 + 1;
                    h.seed(mix64(seed ^ mix64(t)));
                    let root = state.clone();
                    let limits = share(t);
                    scope.spawn(move || h.search(&root, &limits))
                })
                .collect();
            let first = main.search(state, &share(0));
            let others: Vec<_> = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            (first, others)
        });
        combine(first, others, actions, main.config.value_scale)
    }
}

/// The root-parallel trees' results as one: the exact move of a complete tree if there is
/// one, otherwise the move with the most visits over all the trees (ties to the higher mean).
/// `actions` are the root's legal moves, in the order of every tree's root children.
fn combine<A: Copy>(
    first: MctsResult<A>,
    others: Vec<MctsResult<A>>,
    actions: &[A],
    scale: f32,
) -> MctsResult<A> {
    let exact = std::iter::once(&first)
        .chain(&others)
        .find(|r| r.solved)
        .map(|r| (r.best, r.value));
    let mut all = first;
    for r in &others {
        all.simulations += r.simulations;
        all.nodes += r.nodes;
        all.depth = all.depth.max(r.depth);
        all.outcomes += r.outcomes;
        all.chance_nodes += r.chance_nodes;
        all.tree = all.tree.max(r.tree);
        all.full |= r.full;
        all.merged += r.merged;
        all.collisions += r.collisions;
        all.reused += r.reused;
        all.reused_visits += r.reused_visits;
        all.elapsed = all.elapsed.max(r.elapsed);
        if all.root_visits.is_empty() {
            all.root_visits = vec![0; r.root_visits.len()];
            all.root_sums = vec![0.0; r.root_sums.len()];
        }
        if r.root_visits.len() == all.root_visits.len() {
            for (v, x) in all.root_visits.iter_mut().zip(&r.root_visits) {
                *v += x;
            }
            for (v, x) in all.root_sums.iter_mut().zip(&r.root_sums) {
                *v += x;
            }
        }
    }
    if let Some((best, value)) = exact {
        all.best = best;
        all.value = value;
        all.solved = true;
        return all;
    }
    let mean = |k: usize| all.root_sums[k] / all.root_visits[k].max(1) as f32;
    let pick = (0..all.root_visits.len()).max_by(|&a, &b| {
        all.root_visits[a]
            .cmp(&all.root_visits[b])
            .then(mean(a).total_cmp(&mean(b)))
    });
    if let Some((k, &best)) = pick.and_then(|k| actions.get(k).map(|a| (k, a))) {
        let value = log_odds(mean(k), scale);
        all.best = Some(best);
        all.value = Some(value);
    }
    all.solved = false;
    all
}

impl<G: Game, E: Evaluator<G>> Agent<G> for MctsAgent<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G, budget: &Budget, rng: &mut GameRng) -> G::Action {
        use rand::Rng;
        let seed = rng.random::<u64>();
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        assert!(
            !actions.is_empty(),
            "MctsAgent asked to move with no legal action"
        );
        if actions.len() == 1 {
            self.last = None;
            return actions[0];
        }
        let r = self.search_all(state, &actions, &budget.or_default(), seed);
        let best = r.best.unwrap_or(actions[0]);
        self.last = Some(r);
        best
    }

    fn reset(&mut self) {
        self.last = None;
        self.mcts.forget();
        for h in &mut self.helpers {
            h.forget();
        }
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last.as_ref().map(|r| SearchInfo {
            depth: r.depth,
            nodes: r.nodes,
            leaves: r.nodes,
            value: r.value.map(f64::from),
            elapsed: r.elapsed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_azul::AzulState;
    use tessera_core::PerPlayer;
    use tessera_core::testgame::Nim;

    /// Every node's minimax chances ([`MctsConfig::minimax`]) equal the max^n value of the
    /// tree below it as [`Mcts::solve`] computes it from scratch (the outcomes' mean at a
    /// chance node, the static chances at a leaf or a node not yet expanded).
    fn minimax_is_the_trees<G: Game, E: Evaluator<G>>(mcts: &Mcts<G, E>) -> usize {
        let mut memo = vec![None; mcts.tree.len()];
        let mut expanded = 0;
        // The nodes reachable from the root (a full chance node's outcomes move to a larger
        // block, leaving stale copies behind).
        let mut stack = vec![0u32];
        while let Some(i) = stack.pop() {
            let n = mcts.tree[i as usize];
            if n.kind == Kind::Alias {
                continue;
            }
            let exact = mcts.solve(i, &mut memo);
            for (p, (a, b)) in n.mm.iter().zip(exact).enumerate().take(mcts.players) {
                assert!(
                    (a - b).abs() < 1e-5,
                    "node {i}, player {p}: {a} against {b}"
                );
            }
            if n.kind == Kind::Expanded {
                expanded += 1;
                stack.extend(n.first..n.first + n.len);
            }
        }
        expanded
    }

    /// The decision `plies` moves into a seeded random two-player game of Azul.
    fn azul_root(seed: u64, plies: usize) -> AzulState {
        azul_root_of(2, seed, plies)
    }

    /// The decision `plies` moves into a seeded random game of Azul of `players`.
    fn azul_root_of(players: usize, seed: u64, plies: usize) -> AzulState {
        let mut rng = tessera_core::rng::seeded(seed);
        let mut s = AzulState::new(players, PlayerId(0));
        let mut played = 0;
        while played < plies || s.turn() != Turn::Player(PlayerId((played % players) as u8)) {
            match s.turn() {
                Turn::Chance => {
                    let d = s.sample_chance(&mut rng);
                    s.apply_chance(&d).unwrap();
                }
                Turn::Player(_) if played < plies => {
                    let a = s.random_action(&mut rng).unwrap();
                    s.apply(a);
                    played += 1;
                }
                _ => break,
            }
        }
        s
    }

    struct Strong(tessera_azul::eval::StrongEval);
    impl Evaluator<AzulState> for Strong {
        fn evaluate(&mut self, s: &AzulState) -> PerPlayer<crate::adversarial::Value> {
            self.0.values(s)
        }
    }

    #[test]
    fn minimax_chances_are_the_max_n_of_the_tree_below() {
        for (seed, common) in [(1, true), (2, false), (3, true)] {
            let config = MctsConfig {
                minimax: 0.5,
                chance_samples: 8,
                common_outcomes: common,
                ..MctsConfig::default()
            };
            let mut mcts = Mcts::new(Strong(Default::default()), config);
            mcts.seed(seed);
            let root = azul_root(seed, 6);
            let budget = Budget {
                nodes: Some(30_000),
                ..Budget::default()
            };
            let r = mcts.search(&root, &budget);
            assert!(r.best.is_some());
            assert!(mcts.chance_nodes > 0, "the tree passed a round's end");
            let expanded = minimax_is_the_trees(&mcts);
            assert!(expanded > 100, "{expanded} expanded nodes");
        }
        // Three players of Nim (max^n), the values from the game's end alone.
        assert!(minimax_is_the_trees(&nim_searched(false)) > 20);
    }

    /// A search of 3,000 nodes with the blend at its full weight (paranoid or max^n) of a
    /// three-player game of Nim valued by its end alone.
    fn nim_searched(paranoid: bool) -> Mcts<Nim, impl Evaluator<Nim>> {
        let nim = crate::adversarial::FnEvaluator(|s: &Nim| match s.outcome() {
            Some(o) => PerPlayer::from_fn(s.num_players(), |p| {
                if o.winners.contains(&p) { 3000 } else { -3000 }
            }),
            None => PerPlayer::filled(s.num_players(), 0),
        });
        let config = MctsConfig {
            minimax: 1.0,
            paranoid,
            ..MctsConfig::default()
        };
        let mut mcts = Mcts::new(nim, config);
        let root: Nim = "3 1 3,2,4,5 0,0,0".parse().unwrap();
        mcts.search(
            &root,
            &Budget {
                nodes: Some(3_000),
                ..Budget::default()
            },
        );
        mcts
    }

    /// The paranoid minimax chances of the tree below `i`, from scratch: the static chances
    /// at a leaf or a node not yet expanded, the outcomes' mean at a chance node, and where
    /// a player moves, of its children with a visit, the one with the highest chance for
    /// the root's mover `r` if `r` moves there and the lowest otherwise (the first of
    /// equals).
    fn paranoid_value<G: Game, E: Evaluator<G>>(
        mcts: &Mcts<G, E>,
        i: u32,
        r: usize,
    ) -> [f32; MAX_PLAYERS] {
        let n = mcts.tree[i as usize];
        if n.kind == Kind::Alias {
            return paranoid_value(mcts, n.first, r);
        }
        if n.kind != Kind::Expanded || n.len == 0 {
            return n.chances;
        }
        let kids = n.first..n.first + n.len;
        if n.mover == CHANCE {
            let values: Vec<_> = kids.map(|k| paranoid_value(mcts, k, r)).collect();
            return std::array::from_fn(|p| {
                values.iter().map(|v| v[p]).sum::<f32>() / values.len() as f32
            });
        }
        let mut best: Option<[f32; MAX_PLAYERS]> = None;
        for k in kids {
            if mcts.shared(k).visits == 0 {
                continue;
            }
            let v = paranoid_value(mcts, k, r);
            let better = match best {
                None => true,
                Some(b) if usize::from(n.mover) == r => v[r] > b[r],
                Some(b) => v[r] < b[r],
            };
            if better {
                best = Some(v);
            }
        }
        best.unwrap_or(n.chances)
    }

    /// With [`MctsConfig::paranoid`] every reachable node's minimax chances are the
    /// paranoid line's for the root's mover, computed from scratch. Returns the expanded
    /// nodes checked and the nodes whose paranoid chances differ from max^n's.
    fn paranoid_is_the_trees<G: Game, E: Evaluator<G>>(mcts: &Mcts<G, E>) -> (usize, usize) {
        let r = usize::from(mcts.root_mover);
        let mut memo = vec![None; mcts.tree.len()];
        let (mut expanded, mut differ) = (0, 0);
        let mut stack = vec![0u32];
        while let Some(i) = stack.pop() {
            let n = mcts.tree[i as usize];
            if n.kind == Kind::Alias {
                continue;
            }
            let want = paranoid_value(mcts, i, r);
            for (p, (a, b)) in n.mm.iter().zip(want).enumerate().take(mcts.players) {
                assert!(
                    (a - b).abs() < 1e-5,
                    "node {i}, player {p}: {a} against {b}"
                );
            }
            let maxn = mcts.solve(i, &mut memo);
            differ += usize::from((0..mcts.players).any(|p| (maxn[p] - want[p]).abs() > 1e-5));
            if n.kind == Kind::Expanded {
                expanded += 1;
                stack.extend(n.first..n.first + n.len);
            }
        }
        (expanded, differ)
    }

    /// A paranoid search (three players of Azul, eager and lazy, and of Nim) keeps the
    /// paranoid line's chances at every node (for Azul, unlike max^n's somewhere), and
    /// selects by the means alone at the other players' nodes while the blend changes the
    /// root's mover's choice somewhere.
    #[test]
    fn paranoid_minimax_chances_are_the_root_movers_line() {
        for (seed, lazy) in [(6, false), (7, true)] {
            let config = MctsConfig {
                minimax: 0.5,
                paranoid: true,
                lazy,
                chance_samples: 8,
                common_outcomes: true,
                ..MctsConfig::default()
            };
            let mut mcts = Mcts::new(Strong(Default::default()), config);
            mcts.seed(seed);
            let root = azul_root_of(3, seed, 7);
            let Turn::Player(r) = root.turn() else {
                panic!("the root is a decision")
            };
            mcts.search(
                &root,
                &Budget {
                    nodes: Some(30_000),
                    ..Budget::default()
                },
            );
            assert_eq!(mcts.root_mover, r.0);
            assert!(mcts.chance_nodes > 0, "the tree passed a round's end");
            let (expanded, differ) = paranoid_is_the_trees(&mcts);
            assert!(expanded > 100, "{expanded} expanded nodes");
            assert!(differ > 0, "the paranoid line is max^n's at every node");
            // The selection: the means alone at the others' nodes; the blend at the root's
            // mover's changes a choice somewhere.
            let mut nodes = Vec::new();
            let mut stack = vec![0u32];
            while let Some(i) = stack.pop() {
                let n = mcts.tree[i as usize];
                if n.kind == Kind::Expanded {
                    if n.mover != CHANCE {
                        nodes.push((i, n.mover == r.0));
                    }
                    stack.extend(n.first..n.first + n.len);
                }
            }
            let chosen: Vec<u32> = nodes.iter().map(|&(i, _)| mcts.select(i)).collect();
            mcts.config.minimax = 0.0;
            let mut changed = 0;
            for (&(i, own), &c) in nodes.iter().zip(&chosen) {
                if own {
                    changed += usize::from(mcts.select(i) != c);
                } else {
                    assert_eq!(mcts.select(i), c, "node {i} of another player");
                }
            }
            assert!(
                changed > 0,
                "the blend changed no choice of the root's mover"
            );
        }
        // Three players of Nim, the values from the game's end alone (won and lost games
        // alone: here the paranoid line may be max^n's everywhere).
        assert!(paranoid_is_the_trees(&nim_searched(true)).0 > 20);
    }

    /// A lazy search with the minimax blend selects in one pass over its valued children
    /// ([`Mcts::select_lazy`]) what a scan of every child selects, at every player node
    /// reachable from the root, and the blend changes the choice at some of them.
    #[test]
    fn a_lazy_search_with_the_blend_selects_as_a_scan_of_every_child() {
        for (seed, common) in [(4, true), (5, false)] {
            let config = MctsConfig {
                minimax: 0.5,
                lazy: true,
                chance_samples: 8,
                common_outcomes: common,
                ..MctsConfig::default()
            };
            let mut mcts = Mcts::new(Strong(Default::default()), config);
            mcts.seed(seed);
            mcts.search(
                &azul_root(seed, 6),
                &Budget {
                    nodes: Some(30_000),
                    ..Budget::default()
                },
            );
            let mut players = Vec::new();
            let mut stack = vec![0u32];
            while let Some(i) = stack.pop() {
                let n = mcts.tree[i as usize];
                if n.kind == Kind::Expanded {
                    if n.mover != CHANCE {
                        players.push(i);
                    }
                    stack.extend(n.first..n.first + n.len);
                }
            }
            assert!(players.len() > 100, "{} player nodes", players.len());
            let blended: Vec<u32> = players.iter().map(|&i| mcts.select_lazy(i)).collect();
            for (&i, &c) in players.iter().zip(&blended) {
                assert_eq!(c, mcts.select_scan(i), "node {i}");
            }
            mcts.config.minimax = 0.0;
            let changed = players
                .iter()
                .zip(&blended)
                .filter(|&(&i, &c)| mcts.select_lazy(i) != c)
                .count();
            assert!(changed > 0, "the blend changed no choice");
        }
    }
}
