//! `seer`: determinized Monte Carlo for Qwirkle that reads the opponents' hands from what
//! they did not play.
//!
//! Like [`crate::mc`] it plays every candidate move out for a few turns in sampled *worlds*
//! (the hidden hands and the bag resampled; common random numbers, so every candidate meets
//! the same luck) and picks the best mean score margin. What it adds:
//!
//! - **Inference.** The bot remembers the board and the scores after its own move; at its
//!   next turn the difference is the previous player's placement and its points (two
//!   players; at more seats only when exactly one opponent placed tiles since). A sampled
//!   hand of that player is weighed by how likely it makes the move it made: the tiles it
//!   held then are its kept tiles (the sampled hand minus as many random tiles as it drew)
//!   plus the tiles it placed, and if they allowed a placement scoring `d` points more than
//!   the one played, the world is accepted with probability `floor + (1 - floor) x
//!   exp(-infer x d)` (rejection sampling, at most `tries` samples a world, the most likely
//!   one kept if none is accepted). A greedy opponent is read sharply; the `floor` keeps the
//!   bot sound against any other (with `infer=0` every sample is accepted). With `exclude`
//!   (off by default) the kept tiles are drawn only among the kinds a greedy player could
//!   have kept (see [`SeerConfig::exclude`]). With `track` (off by default, two seats) the
//!   reading spans every placement seen, not just the last: particles of the tiles the
//!   other player may have kept are carried from move to move (see [`SeerConfig::track`]).
//! - **Trades** as candidates: the whole hand, and the tiles outside the hand's largest
//!   group (with the duplicates), when the bag holds enough tiles.
//! - **Endgame.** Once the bag is empty every play-out runs to the end of the game.
//!
//! Budgets come only from the `budget` argument of `choose`: `nodes=N` plays exactly `N`
//! worlds (reproducible), `time=T` adds worlds until `T` is spent (checked after every
//! candidate's play-out; an unfinished world is dropped), and an empty budget plays the
//! configured `worlds`.

use std::time::Instant;

use arrayvec::ArrayVec;
use rand::Rng;
use rand::seq::SliceRandom;
use tessera_core::rng::{derive_seed, seeded};
use tessera_core::{Agent, Budget, Game, GameRng, PerPlayer, PlayerId, SearchInfo};

use crate::action::{HAND_SIZE, Move, Placed, Placement, Trade};
use crate::board::Board;
use crate::bots::{differs, fallback_move, leave_value};
use crate::mc::{Guard, OwnScratch, play_candidate, play_candidate_own, play_candidate_split};
use crate::movegen::{self, BestScratch, Scored};
use crate::state::{Hand, Phase, Qwirkle, hand_without};
use crate::tile::{COPIES, KINDS, Line, Tile, TileCounts};

/// One proposal in this many of the particle tracking starts from nothing known.
const RESET: usize = 8;

/// The largest world count a `nodes` budget or `worlds` setting may ask for.
pub const MAX_WORLDS: u64 = 100_000;

/// Settings of the [`SeerBot`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SeerConfig {
    /// Placements examined (the best by immediate points).
    pub candidates: usize,
    /// Turns played out after the candidate (all players), until the bag is empty.
    pub plies: usize,
    /// Worlds per decision when the budget sets neither nodes nor time.
    pub worlds: usize,
    /// Trades among the candidates.
    pub trades: bool,
    /// Sharpness of the inference per point given up (0: no inference).
    pub infer: f64,
    /// Smallest acceptance of a sampled hand, however unlikely its owner's move.
    pub floor: f64,
    /// Samples tried per world before the most likely one is kept.
    pub tries: usize,
    /// Sequential halving: the play-outs are spent in rounds, the worse half of the
    /// candidates dropped after each (false: every candidate in every world).
    pub halving: bool,
    /// Weight of the hands' leave at the end of a play-out that does not end the game: the
    /// value adds `leave x (leave_value(own hand) - the best other leave_value)` (0: the
    /// margin alone, as `seer`; `sage` sets it).
    pub leave: f64,
    /// Points added to the value of a play-out that ends the game won, taken from one that
    /// ends it lost, so the search prefers a likelier win to a larger margin (0: the margin
    /// alone, as `seer`; `sage` takes it as its `win` setting, default 0 too).
    pub win: f64,
    /// Values a play-out by the chance of winning it leads to rather than its margin: the
    /// value (margin, leave and `win` included) `x` becomes `100 tanh(0.85 x / (risk
    /// sqrt(T)))` plus `x / 100`, where `T` is the number of tiles not yet on the board
    /// (bag and hands), a normal model of the final margin whose spread grows as the
    /// square root of what is left to play; a finished game is `100 sign(x)` plus `x /
    /// 100`. So the search plays safe when ahead and takes chances when behind (0: off, the
    /// value as before, bit for bit). The sampled play-outs only: `sage`'s exact endgame
    /// keeps the margin and `win`.
    pub risk: f64,
    /// Weight of the Qwirkle threats at the end of a play-out that does not end the game
    /// ([`threats`]: every line of five that a sixth tile could complete, valued by the
    /// tiles still unseen; 0: off, the value as before, bit for bit).
    pub threat: f64,
    /// Exclusion sampling of the seen player's hand: its kept tiles (the hand minus the
    /// tiles it drew) are drawn only among the tile kinds that, held with the tiles it
    /// placed, would not have allowed a higher-scoring placement (a greedy player cannot
    /// have kept them); its fresh draws from every unseen tile. A `floor` share of the
    /// worlds is sampled without any inference, and every sampled hand is still weighed by
    /// the likelihood of the whole kept set (false: the kept tiles are a random part of a
    /// uniformly sampled hand, weighed alone).
    pub exclude: bool,
    /// Exact bookkeeping of the other player's kept tiles at two seats, with this many
    /// particles (0: off). Every particle is a set of tiles that player may have kept after
    /// its last seen move; at each seen placement a particle's hand then is completed by
    /// draws from the tiles unseen at the time (those the placement needs and the particle
    /// lacks first, weighed by the chance of drawing them), weighed by the inference's
    /// likelihood of the placement (`infer`, `floor`), and the particles are resampled; one
    /// proposal in eight starts from a hand drawn afresh, so a reading gone wrong recovers.
    /// The worlds then give that player a particle's tiles plus fresh draws. A move the bot
    /// cannot read (a trade) forgets everything. Overrides `exclude` at two seats.
    pub track: usize,
    /// The bot's own turns in the play-outs look one reply ahead: among its `guard` best
    /// placements by points it takes the one whose points minus the next player's best reply
    /// (with that player's hand in the world) is largest (0 or 1: the `points` policy, as
    /// every other seat). The other seats stay greedy.
    pub guard: usize,
    /// The bot's own turns in the play-outs take the placement whose points plus `lleave`
    /// times the learned leave of the tiles it keeps ([`crate::leave`]) are largest, while
    /// the bag holds tiles (0: off). With `guard` the reply is taken off as well.
    pub lleave: f64,
    /// A play-out that does not end the game is valued with the weighted learned leave of
    /// the bot's last own placement in it added (needs `lleave`; false: off).
    pub ltail: bool,
    /// Once the bag holds at most this many tiles at the decision, every play-out runs to
    /// the end of the game instead of `plies` turns (0: only once the bag is empty, as
    /// always), so the last draws, the +6 for going out and a blocked end are seen in every
    /// world a few turns before the bag runs out.
    pub finish: usize,
    /// Weight of the value one turn before a play-out's end: a play-out of `plies` turns is
    /// valued `(1 - early) x` its value at the end `+ early x` its value after `plies - 1`
    /// turns (same worlds, same draws; the play-out is not made longer), which evens out
    /// which player had the last turn before the horizon (0: the end alone, as always).
    /// Not used for play-outs run to the end of the game.
    pub early: f64,
    /// Play-outs stop after `plies` turns even when the bag runs out inside them (false:
    /// once the bag is empty a play-out runs on to the end of the game, as always). Play-outs
    /// from a decision with the bag already empty still run to the end.
    pub cut: bool,
    /// The bot's first own turn in every play-out is searched: each of its `own` best
    /// placements by points is played out greedily for the rest of the play-out's turns
    /// (the same draws) and the one whose end is valued highest is kept, so the play-out
    /// is worth what the bot's best reply to the other player's move makes of it (0 or 1:
    /// the `points` policy, as always). Not with `guard`, `lleave` or `early`.
    pub own: usize,
    /// A third trade among the candidates (with `trades`): the one that keeps the part of
    /// the hand with the largest learned leave ([`crate::leave`]), when it differs from the
    /// other two (false: the whole hand and the hand outside its largest group only).
    pub ltrade: bool,
    /// Placements added to the candidates beyond the `candidates` best by points: the
    /// `lcand` best of the rest by points plus the learned leave of the tiles they keep
    /// ([`crate::leave`]), while the bag holds tiles (0: by points alone).
    pub lcand: usize,
    /// Ties broken at random in the play-outs: every seat's greedy turn takes, among the
    /// start cells whose placements score the most, one at random (each candidate's
    /// play-out in a world from the same seed), as `points` picks among its best
    /// placements at random ([`crate::movegen::BestScratch::break_ties`]); false: the first
    /// best placement in generation order, the same every time.
    pub ties: bool,
}

impl SeerConfig {
    /// The turns a play-out runs after the candidate when the bag holds `bag` tiles at the
    /// decision: `plies`, or to the end of the game (`usize::MAX`) once `bag` is at most
    /// `finish` (a play-out always runs to the end once the bag is empty).
    pub fn playout_plies(&self, bag: usize) -> usize {
        if bag <= self.finish && self.finish > 0 {
            usize::MAX
        } else {
            self.plies
        }
    }
}

impl Default for SeerConfig {
    fn default() -> Self {
        SeerConfig {
            candidates: 10,
            plies: 4,
            worlds: 32,
            trades: true,
            infer: 1.0,
            floor: 0.1,
            tries: 8,
            halving: true,
            leave: 0.0,
            win: 0.0,
            risk: 0.0,
            threat: 0.0,
            exclude: false,
            track: 0,
            guard: 0,
            lleave: 0.0,
            ltail: false,
            finish: 0,
            early: 0.0,
            cut: false,
            own: 0,
            ltrade: false,
            lcand: 0,
            ties: false,
        }
    }
}

/// A move the bot weighs.
#[derive(Copy, Clone, Debug)]
enum Cand {
    Place(Scored),
    Trade(Trade),
}

impl Cand {
    fn to_move(self) -> Move {
        match self {
            Cand::Place(s) => Move::Place(s.placement),
            Cand::Trade(t) => Move::Trade(t),
        }
    }
}

/// What the bot remembers of its own last move.
#[derive(Clone, Debug)]
struct Memory {
    /// The board after its placement.
    board: Board,
    /// Scores after its move.
    scores: PerPlayer<i32>,
    /// Tiles in the bag once it has drawn.
    bag: usize,
    /// Who moved.
    me: PlayerId,
    /// The tiles it traded away (empty after a placement): the other player's earlier
    /// draws cannot hold them.
    traded: Hand,
}

/// The previous player's last placement, as the bot saw it.
#[derive(Clone, Debug)]
struct Seen {
    player: PlayerId,
    before: Board,
    placement: Placement,
    /// Tiles that player drew after placing.
    drawn: usize,
    /// The tiles the bot traded away in its move before (not in that player's draws).
    traded: Hand,
}

/// What an analysis harness tells the bot about the other player's hand at two seats, to
/// measure what knowing it is worth. Never set by the registry: a seat at a table is handed
/// a determinized state, whose hidden tiles are a guess, so only a harness that hands the
/// bot the true state may use it (`examples/hand_value.rs`).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Oracle {
    /// Nothing: the bot infers (the normal play).
    #[default]
    Nothing,
    /// The tiles the other player kept after its last move; its fresh draws are sampled.
    Kept(Hand),
    /// The whole state handed to `choose` is true: every world is that state (only the
    /// bag's order stays unknown).
    Hands,
}

/// The `seer` player (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct SeerBot {
    /// Settings.
    pub config: SeerConfig,
    memory: Option<Memory>,
    seen: Option<Seen>,
    /// Tile kinds (bit `Tile::index`) the seen player cannot have kept (`exclude`).
    excluded: u64,
    oracle: Oracle,
    /// The other player's possible kept tiles (`track`), equally likely; empty: unknown.
    particles: Vec<Hand>,
    next: Vec<Hand>,
    weights: Vec<f64>,
    cands: Vec<Cand>,
    placements: Vec<Scored>,
    scratch: BestScratch,
    /// The play-outs' policy for the bot's own turns (`guard`), with its scratch space.
    guard: Option<Guard>,
    /// The scratch space of the searched own turn in the play-outs (`own`).
    own: OwnScratch,
    /// Each candidate's margin in each world it was played out in.
    values: Vec<Vec<f64>>,
    survivors: Vec<usize>,
    /// The sampled worlds of this move, with their seeds.
    worlds: Vec<(u64, Qwirkle)>,
    info: Option<SearchInfo>,
    accepted: u64,
    sampled: u64,
}

impl SeerBot {
    /// A bot with the default settings.
    pub fn new() -> Self {
        SeerBot::default()
    }

    /// A bot with the given settings.
    pub fn with_config(config: SeerConfig) -> Self {
        SeerBot {
            config,
            ..SeerBot::default()
        }
    }

    /// Tells the bot what an analysis harness knows of the other player's hand (see
    /// [`Oracle`]; two seats only).
    pub fn set_oracle(&mut self, oracle: Oracle) {
        self.oracle = oracle;
    }

    /// `n` worlds as the bot samples them for a move from `state` (the player to move's
    /// view), reading the opponent's hand as its last `choose` left it: an analysis hook
    /// to measure how close the reading is to the truth (`examples/reading.rs`).
    pub fn sample_worlds(&mut self, state: &Qwirkle, n: usize, rng: &mut GameRng) -> Vec<Qwirkle> {
        let Phase::Play { player: me } = state.phase() else {
            return Vec::new();
        };
        (0..n).map(|_| self.sample_world(state, me, rng)).collect()
    }

    /// Samples seen by the inference and accepted at the first try, over the bot's life
    /// (for reports and tests).
    pub fn inference_counts(&self) -> (u64, u64) {
        (self.accepted, self.sampled)
    }

    /// Reads the previous player's placement from the difference with the remembered board.
    fn observe(&mut self, state: &Qwirkle, me: PlayerId) {
        self.seen = None;
        let Some(mem) = self.memory.take() else {
            return;
        };
        if mem.me != me || mem.board.len() > state.board().len() {
            return;
        }
        let n = state.num_players();
        let scores = state.scores();
        // The players who moved since: exactly one of them must have scored (placed).
        let movers: ArrayVec<PlayerId, 4> = PlayerId::all(n)
            .filter(|&p| p != me && scores[p] != mem.scores[p])
            .collect();
        let [player] = movers.as_slice() else {
            return;
        };
        let player = *player;
        let mut cells: ArrayVec<Placed, HAND_SIZE> = ArrayVec::new();
        for bt in state.board().tiles() {
            match mem.board.get(bt.x, bt.y) {
                Some(t) if t == bt.tile => {}
                Some(_) => return,
                None => {
                    let Some(p) = Placed::new(bt.x, bt.y, bt.tile) else {
                        return;
                    };
                    if cells.try_push(p).is_err() {
                        return;
                    }
                }
            }
        }
        if cells.len() + mem.board.len() != state.board().len() {
            return;
        }
        let Some(placement) = Placement::new(&cells) else {
            return;
        };
        let score = movegen::score_placement(&mem.board, &placement);
        if score != scores[player] - mem.scores[player] {
            return;
        }
        let drawn = cells.len().min(mem.bag);
        // A trade by another player would leave the bag's count unchanged; then we do not
        // know who drew what.
        if state.bag().total() + drawn != mem.bag {
            return;
        }
        self.excluded = 0;
        if self.config.exclude {
            for t in Tile::all() {
                if deficit(&mem.board, &placement, &[t], &mut self.scratch) > 0 {
                    self.excluded |= 1 << t.index();
                }
            }
        }
        self.seen = Some(Seen {
            player,
            before: mem.board,
            placement,
            drawn,
            traded: mem.traded,
        });
    }

    /// How likely the seen player's move is if it holds `hand` now.
    fn likelihood(&mut self, hand: &[Tile], rng: &mut GameRng) -> f64 {
        let Some(seen) = &self.seen else {
            return 1.0;
        };
        // Which tiles of the hand are the fresh draws is unknown: a random choice of them
        // (the draws were random) keeps the estimate unbiased.
        let mut kept: ArrayVec<Tile, HAND_SIZE> = hand.iter().copied().collect();
        kept.shuffle(rng);
        kept.truncate(hand.len().saturating_sub(seen.drawn));
        self.likelihood_kept(&kept)
    }

    /// How likely the seen player's move is if it kept `kept` after it.
    fn likelihood_kept(&mut self, kept: &[Tile]) -> f64 {
        let Some(seen) = &self.seen else {
            return 1.0;
        };
        let d = f64::from(deficit(
            &seen.before,
            &seen.placement,
            kept,
            &mut self.scratch,
        ));
        let f = self.config.floor.clamp(0.0, 1.0);
        f + (1.0 - f) * (-self.config.infer * d).exp()
    }

    /// A world: the hidden tiles resampled, weighed by the inference.
    fn sample_world(&mut self, state: &Qwirkle, me: PlayerId, rng: &mut GameRng) -> Qwirkle {
        match &self.oracle {
            Oracle::Nothing => {}
            Oracle::Hands => {
                // Drawn like a sampled world (the same random numbers spent), then replaced
                // by the true state.
                let mut w = state.determinize(me, rng);
                w.clone_from(state);
                return w;
            }
            Oracle::Kept(kept) => return known_kept(state, me, kept, rng),
        }
        if self.tracking(state) {
            if self.particles.is_empty() {
                return state.determinize(me, rng);
            }
            let i = rng.random_range(0..self.particles.len());
            return known_kept(state, me, &self.particles[i], rng);
        }
        let Some(player) = self.seen.as_ref().map(|s| s.player) else {
            return state.determinize(me, rng);
        };
        if self.config.infer <= 0.0 {
            return state.determinize(me, rng);
        }
        if self.config.exclude && rng.random::<f64>() < self.config.floor {
            return state.determinize(me, rng);
        }
        let mut best: Option<(f64, Qwirkle)> = None;
        for _ in 0..self.config.tries.max(1) {
            let sampled = if self.config.exclude {
                self.sample_excluding(state, me, player, rng)
            } else {
                None
            };
            let (w, l) = match sampled {
                Some((w, kept)) => {
                    let l = self.likelihood_kept(&kept);
                    (w, l)
                }
                None => {
                    let w = state.determinize(me, rng);
                    let l = self.likelihood(w.hand(player), rng);
                    (w, l)
                }
            };
            self.sampled += 1;
            if rng.random::<f64>() < l {
                self.accepted += 1;
                return w;
            }
            if best.as_ref().is_none_or(|(b, _)| l > *b) {
                best = Some((l, w));
            }
        }
        best.map_or_else(|| state.determinize(me, rng), |(_, w)| w)
    }

    /// A world whose `player` keeps only tile kinds it could have kept as a greedy player
    /// (`exclude`), with those kept tiles; `None` when too few unseen tiles are allowed.
    fn sample_excluding(
        &mut self,
        state: &Qwirkle,
        me: PlayerId,
        player: PlayerId,
        rng: &mut GameRng,
    ) -> Option<(Qwirkle, Hand)> {
        let drawn = self.seen.as_ref()?.drawn;
        let mut w = state.determinize(me, rng);
        // Every tile `me` cannot see: the player's hand and the bag of the world.
        let mut allowed = *w.bag();
        for &t in w.hand(player) {
            allowed.add(t);
        }
        for t in Tile::all() {
            if self.excluded >> t.index() & 1 == 1 {
                while allowed.remove(t) {}
            }
        }
        let k = w.hand(player).len().saturating_sub(drawn);
        if allowed.total() < k {
            return None;
        }
        let mut kept = Hand::new();
        for _ in 0..k {
            let t = allowed.nth(rng.random_range(0..allowed.total()))?;
            allowed.remove(t);
            kept.push(t);
        }
        deal_hidden(&mut w, player, &kept, rng);
        Some((w, kept))
    }

    /// Whether the bot keeps particles of the other player's kept tiles (`track`, two
    /// seats, no oracle).
    fn tracking(&self, state: &Qwirkle) -> bool {
        self.config.track > 0 && state.num_players() == 2 && self.oracle == Oracle::Nothing
    }

    /// Updates the particles with the seen placement (see [`SeerConfig::track`]); forgets
    /// them when no placement was seen.
    fn track(&mut self, state: &Qwirkle, rng: &mut GameRng) {
        let Some(seen) = &self.seen else {
            self.particles.clear();
            return;
        };
        let other = seen.player;
        let placed = seen.placement.cells();
        // The tiles unseen before the move: those unseen now (the bag and the hand, as a
        // whole) and the tiles it placed; the bot's own traded tiles were not among them.
        let mut before = *state.bag();
        state.hand(other).iter().for_each(|&t| before.add(t));
        placed.iter().for_each(|c| before.add(c.tile));
        for &t in &seen.traded {
            before.remove(t);
        }
        let held = (state.hand(other).len() + placed.len()).saturating_sub(seen.drawn);
        let m = self.config.track;
        if self.particles.is_empty() {
            self.particles.push(Hand::new());
        }
        let f = self.config.floor.clamp(0.0, 1.0);
        self.next.clear();
        self.weights.clear();
        let empty = Hand::new();
        for i in 0..m {
            // Every `RESET`-th proposal forgets the past (a hand drawn afresh), so that a
            // reading gone wrong (or an opponent that is not greedy) is recovered from.
            let kept = if i % RESET == RESET - 1 {
                &empty
            } else {
                &self.particles[i % self.particles.len()]
            };
            let Some((hand, w)) = complete_hand(&before, kept, placed, held, rng) else {
                continue;
            };
            // The completed hand holds the placed tiles.
            let Some(mut left) = hand_without(&hand, &seen.placement) else {
                continue;
            };
            let d = f64::from(deficit(
                &seen.before,
                &seen.placement,
                &left,
                &mut self.scratch,
            ));
            let w = w * (f + (1.0 - f) * (-self.config.infer * d).exp());
            if w > 0.0 {
                left.sort_unstable();
                self.next.push(left);
                self.weights.push(w);
            }
        }
        self.particles.clear();
        let total: f64 = self.weights.iter().sum();
        if self.next.is_empty() || total <= 0.0 || !total.is_finite() {
            return;
        }
        // Systematic resampling: `m` equally weighted particles.
        let step = total / m as f64;
        let mut at = rng.random::<f64>() * step;
        let mut acc = 0.0;
        for (p, &w) in self.next.iter().zip(&self.weights) {
            acc += w;
            while at < acc && self.particles.len() < m {
                self.particles.push(p.clone());
                at += step;
            }
        }
    }

    fn candidates(&mut self, state: &Qwirkle, me: PlayerId) {
        self.cands.clear();
        let k = self.config.candidates.max(1).min(self.placements.len());
        self.cands
            .extend(self.placements[..k].iter().map(|&s| Cand::Place(s)));
        if self.config.lcand > 0 && state.bag().total() > 0 {
            self.leave_candidates(state, me, k);
        }
        let hand = state.hand(me);
        if !self.config.trades || state.bag().total() < hand.len() || hand.is_empty() {
            return;
        }
        if let Some(t) = Trade::new(hand) {
            self.cands.push(Cand::Trade(t));
        }
        // Keep the largest group (distinct tiles sharing a colour or a shape); trade the rest.
        let mut best_keep: ArrayVec<Tile, HAND_SIZE> = ArrayVec::new();
        for attr in 0..12u8 {
            let mut keep: ArrayVec<Tile, HAND_SIZE> = ArrayVec::new();
            for &t in hand {
                let fits = if attr < 6 {
                    t.color() == attr
                } else {
                    t.shape() == attr - 6
                };
                if fits && !keep.contains(&t) {
                    keep.push(t);
                }
            }
            if keep.len() > best_keep.len() {
                best_keep = keep;
            }
        }
        if best_keep.len() >= 2 && best_keep.len() < hand.len() {
            let mut rest: ArrayVec<Tile, HAND_SIZE> = hand.iter().copied().collect();
            for t in &best_keep {
                if let Some(i) = rest.iter().position(|u| u == t) {
                    rest.remove(i);
                }
            }
            if let Some(t) = Trade::new(&rest) {
                self.cands.push(Cand::Trade(t));
            }
        }
        if self.config.ltrade
            && let Some(t) = learned_trade(hand)
            && !self
                .cands
                .iter()
                .any(|c| matches!(c, Cand::Trade(u) if *u == t))
        {
            self.cands.push(Cand::Trade(t));
        }
    }

    /// Adds the `lcand` best placements after the first `k` (by points) by points plus the
    /// learned leave of the tiles they keep; ties keep the order by points.
    fn leave_candidates(&mut self, state: &Qwirkle, me: PlayerId, k: usize) {
        let mut best: ArrayVec<(f64, usize), 100> = ArrayVec::new();
        let want = self.config.lcand.min(100);
        for (i, c) in self.placements.iter().enumerate().skip(k) {
            let Some(kept) = state.kept_after(me, &c.placement) else {
                continue;
            };
            let v = f64::from(c.score) + crate::leave::value(&crate::leave::WEIGHTS, &kept);
            // Insertion into the list kept sorted by value, best first, earlier first on ties.
            let at = best.iter().position(|&(b, _)| v > b).unwrap_or(best.len());
            if at < want {
                if best.len() == want {
                    best.pop();
                }
                best.insert(at, (v, i));
            }
        }
        self.cands
            .extend(best.iter().map(|&(_, i)| Cand::Place(self.placements[i])));
    }

    fn remember(&mut self, state: &Qwirkle, me: PlayerId, m: Move) {
        let mut after = state.clone();
        after.apply(m);
        let drawn = match after.phase() {
            Phase::Draw { count, .. } => count as usize,
            _ => 0,
        };
        let bag = match m {
            Move::Trade(_) => after.bag().total(),
            _ => after.bag().total().saturating_sub(drawn),
        };
        let traded = match m {
            Move::Trade(t) => t.tiles().iter().copied().collect(),
            _ => Hand::new(),
        };
        self.memory = Some(Memory {
            board: after.board().clone(),
            scores: after.scores(),
            bag,
            me,
            traded,
        });
    }
}

/// The trade that keeps the part of `hand` with the largest learned leave
/// ([`crate::leave::value`] with the shipped weights), keeping 1 to all but one of its
/// tiles (the first such part in the order of the subsets' bit masks on ties); `None` for
/// a hand of fewer than two tiles.
fn learned_trade(hand: &[Tile]) -> Option<Trade> {
    let n = hand.len();
    if n < 2 {
        return None;
    }
    let full = (1u32 << n) - 1;
    let mut best: Option<(f64, u32)> = None;
    for keep in 1..full {
        let kept: ArrayVec<Tile, HAND_SIZE> = (0..n)
            .filter(|i| keep & (1 << i) != 0)
            .map(|i| hand[i])
            .collect();
        let v = crate::leave::value(&crate::leave::WEIGHTS, &kept);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, keep));
        }
    }
    let (_, keep) = best?;
    let traded: ArrayVec<Tile, HAND_SIZE> = (0..n)
        .filter(|i| keep & (1 << i) == 0)
        .map(|i| hand[i])
        .collect();
    Trade::new(&traded)
}

/// A world of a two-seat `state` in which the other player holds `kept` (those of them
/// still unseen by `me`) plus tiles drawn at random from the rest of the unseen tiles.
fn known_kept(state: &Qwirkle, me: PlayerId, kept: &[Tile], rng: &mut GameRng) -> Qwirkle {
    let mut w = state.determinize(me, rng);
    if let Some(other) = PlayerId::all(state.num_players()).find(|&p| p != me) {
        deal_hidden(&mut w, other, kept, rng);
    }
    w
}

/// Deals `player` of the sampled world `w` a new hand of the same size from the tiles it
/// and the bag hold: `first` (those of them among these tiles), then tiles drawn at random
/// from the rest, which become the bag.
fn deal_hidden(w: &mut Qwirkle, player: PlayerId, first: &[Tile], rng: &mut GameRng) {
    let mut pool = *w.bag();
    for &t in w.hand(player) {
        pool.add(t);
    }
    let n = w.hand(player).len();
    let mut hand = Hand::new();
    for &t in first {
        if hand.len() < n && pool.remove(t) {
            hand.push(t);
        }
    }
    while hand.len() < n && pool.total() > 0 {
        let Some(t) = pool.nth(rng.random_range(0..pool.total())) else {
            break;
        };
        pool.remove(t);
        hand.push(t);
    }
    hand.sort_unstable();
    w.resample_hidden(player, hand, pool);
}

/// A hand of `held` tiles made of `kept` and draws from `pool` (minus `kept`) that holds
/// every `placed` tile, with the chance that random draws would hold the placed tiles
/// `kept` lacks (each needed kind's ways to pick its copies, times the ways to draw the
/// rest, over the ways to draw at all: exact when the needed tiles are of distinct kinds
/// with one copy each, otherwise counting a hand with spare copies more than once); the
/// draws beyond the needed tiles are random. `None` when `kept` is not among the tiles
/// of `pool` or the hand cannot hold them all.
fn complete_hand(
    pool: &TileCounts,
    kept: &[Tile],
    placed: &[Placed],
    held: usize,
    rng: &mut GameRng,
) -> Option<(Hand, f64)> {
    let mut pool = *pool;
    let mut hand = Hand::new();
    for &t in kept {
        if !pool.remove(t) {
            return None;
        }
        hand.try_push(t).ok()?;
    }
    let draws = held.checked_sub(kept.len())?;
    let mut from_kept: Hand = hand.clone();
    let mut needed = TileCounts::default();
    for c in placed {
        match from_kept.iter().position(|&t| t == c.tile) {
            Some(j) => {
                from_kept.swap_remove(j);
            }
            None => needed.add(c.tile),
        }
    }
    let r = needed.total();
    let n = pool.total();
    if r > draws || draws > n {
        return None;
    }
    let mut chance = binomial(n - r, draws - r) / binomial(n, draws);
    for t in Tile::all() {
        let k = needed.get(t);
        if k > 0 {
            chance *= binomial(pool.get(t).into(), k.into());
            for _ in 0..k {
                pool.remove(t);
                hand.try_push(t).ok()?;
            }
        }
    }
    if chance <= 0.0 {
        return None;
    }
    for _ in r..draws {
        let total = pool.total();
        let t = pool.nth(rng.random_range(0..total.max(1)))?;
        pool.remove(t);
        hand.try_push(t).ok()?;
    }
    Some((hand, chance))
}

/// `n` choose `k` (0 when `k > n`), as a real number.
fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Points given up by playing `placed` on `before` while also holding `kept`: the best
/// placement of `kept` plus the placed tiles on `before` minus the placement's own score
/// (0 for a greedy player; 0 when the tiles do not fit in a hand).
pub fn deficit(
    before: &Board,
    placed: &Placement,
    kept: &[Tile],
    scratch: &mut BestScratch,
) -> i32 {
    let mut then: ArrayVec<Tile, HAND_SIZE> = ArrayVec::new();
    for &t in kept.iter().chain(placed.cells().iter().map(|c| &c.tile)) {
        if then.try_push(t).is_err() {
            return 0;
        }
    }
    let score = movegen::score_placement(before, placed);
    let best = movegen::best_placement(before, &then, None, scratch).map_or(score, |b| b.score);
    (best - score).max(0)
}

/// A play-out's value for `me`: the score margin, plus `leave` times the difference of the
/// hands' [`leave_value`]s (own minus the best other) when the game goes on, or plus or
/// minus `win` when it has ended won or lost (`leave = win = 0`: the margin alone, bit for
/// bit).
fn value(s: &Qwirkle, me: PlayerId, config: &SeerConfig) -> f64 {
    let mut x = margin_value(s, me, config.leave, config.win);
    if config.threat != 0.0 && !s.is_terminal() {
        x += config.threat * threats(s, me);
    }
    if config.risk == 0.0 {
        return x;
    }
    let left = if s.is_terminal() {
        0
    } else {
        s.bag().total()
            + PlayerId::all(s.num_players())
                .map(|p| s.hand(p).len())
                .sum::<usize>()
    };
    win_value(x, config.risk, left)
}

/// Points a Qwirkle (a line of six) is worth at least: six for the line, six for the bonus.
const QWIRKLE_POINTS: f64 = 12.0;

/// The Qwirkle threats on `s`'s board for `me`, in points: every line of five tiles (a run
/// in a row or a column) with an end cell where its missing sixth tile may legally go is
/// worth a Qwirkle to whoever places that tile first. The player to move takes it if it
/// holds the tile; otherwise the next player may. `me`'s hand is known; a hand of another
/// player is valued by the tiles `me` has not seen (the bag and the other hands): the
/// chance that `h` tiles drawn from those `n` include one of the `u` unseen copies of the
/// missing tile, `1 - C(n - u, h) / C(n, h)`. So a line is worth `+12` to `me` if `me`
/// moves and holds the tile, `-12 x P(the next player holds it)` if `me` moves without it,
/// and `-12 x P(mover holds it) + 12 x (1 - P) x [me holds it]` if another player moves.
/// 0 when the game is over or no line of five is open.
pub(crate) fn threats(s: &Qwirkle, me: PlayerId) -> f64 {
    let Phase::Play { player: mover } = s.phase() else {
        return 0.0;
    };
    let board = s.board();
    let mut open: ArrayVec<Tile, 16> = ArrayVec::new();
    for bt in board.tiles() {
        for (dx, dy) in [(1, 0), (0, 1)] {
            if board.occupied(bt.x - dx, bt.y - dy) {
                continue; // not the start of its run
            }
            let line = Line::EMPTY
                .with(bt.tile)
                .union(board.run(bt.x, bt.y, dx, dy));
            if line.len != 5 {
                continue;
            }
            let Some(missing) = sixth_tile(line) else {
                continue;
            };
            let ends = [(bt.x - dx, bt.y - dy), (bt.x + 5 * dx, bt.y + 5 * dy)];
            let fits = ends.iter().any(|&(x, y)| {
                board.line_around(x, y, dx, dy).with(missing).is_valid()
                    && board.line_around(x, y, dy, dx).with(missing).is_valid()
            });
            if fits && open.try_push(missing).is_err() {
                break;
            }
        }
    }
    if open.is_empty() {
        return 0.0;
    }
    let others = PlayerId::all(s.num_players()).filter(|&p| p != me);
    let unseen_total = s.bag().total() + others.map(|p| s.hand(p).len()).sum::<usize>();
    let next = mover.next(s.num_players());
    let mut value = 0.0;
    for &t in &open {
        let seen = board.tiles().filter(|bt| bt.tile == t).count()
            + s.hand(me).iter().filter(|&&h| h == t).count();
        let unseen = usize::from(COPIES).saturating_sub(seen);
        let holds = |p: PlayerId| -> f64 {
            if p == me {
                f64::from(u8::from(s.hand(me).contains(&t)))
            } else {
                chance_of_one(unseen_total, unseen, s.hand(p).len())
            }
        };
        value += if mover == me {
            let mine = holds(me);
            QWIRKLE_POINTS * mine - QWIRKLE_POINTS * (1.0 - mine) * holds(next)
        } else {
            let p = holds(mover);
            -QWIRKLE_POINTS * p + QWIRKLE_POINTS * (1.0 - p) * holds(me)
        };
    }
    value
}

/// The tile that completes a line of five to a Qwirkle: the one shape (or colour) of its
/// colour (or shape) that the line lacks.
fn sixth_tile(line: Line) -> Option<Tile> {
    let all = (1u8 << KINDS) - 1;
    let (colors, shapes) = (line.colors_mask(), line.shapes_mask());
    let single = |mask: u8| (mask.count_ones() == 1).then(|| mask.trailing_zeros() as u8);
    let lacking = |mask: u8| {
        let rest = all & !mask;
        (rest.count_ones() == 1).then(|| rest.trailing_zeros() as u8)
    };
    match (single(colors), single(shapes)) {
        (Some(c), None) => lacking(shapes).map(|sh| Tile::new(c, sh)),
        (None, Some(sh)) => lacking(colors).map(|c| Tile::new(c, sh)),
        _ => None,
    }
}

/// The chance that `h` tiles drawn without replacement from `n` include at least one of
/// `u` marked ones: `1 - C(n - u, h) / C(n, h)`.
fn chance_of_one(n: usize, u: usize, h: usize) -> f64 {
    if u == 0 || h == 0 {
        return 0.0;
    }
    let mut none = 1.0;
    for i in 0..h.min(n) {
        if n - i <= u {
            return 1.0;
        }
        none *= (n - u - i) as f64 / (n - i) as f64;
    }
    1.0 - none
}

/// The value of a play-out in points: [`value`] without `risk`.
fn margin_value(s: &Qwirkle, me: PlayerId, leave: f64, win: f64) -> f64 {
    if s.is_terminal() {
        return crate::mc::outcome(s, me, win);
    }
    let m = crate::mc::margin(s, me);
    if leave == 0.0 {
        return m;
    }
    let best_other = PlayerId::all(s.num_players())
        .filter(|&p| p != me)
        .map(|p| leave_value(s.hand(p)))
        .fold(f64::NEG_INFINITY, f64::max);
    m + leave * (leave_value(s.hand(me)) - best_other)
}

/// A margin `x` with `left` tiles still to come, as a chance of winning on a scale of -100
/// (lost) to 100 (won), plus `x / 100` so that equal chances still prefer the larger
/// margin: `100 tanh(0.85 x / (risk sqrt(left)))` (about `100 (2 P(win) - 1)` if the
/// final margin is normal around `x` with spread `risk sqrt(left)`), and `100 sign(x)`
/// when nothing is left.
pub(crate) fn win_value(x: f64, risk: f64, left: usize) -> f64 {
    let chance = if left == 0 {
        if x > 0.0 {
            100.0
        } else if x < 0.0 {
            -100.0
        } else {
            0.0
        }
    } else {
        100.0 * (0.85 * x / (risk * (left as f64).sqrt())).tanh()
    };
    chance + x / 100.0
}

/// The settings of `c` that differ from `d`, as `:key=value` pairs in a fixed order (the
/// tail of `seer`'s and `sage`'s names).
pub(crate) fn settings_suffix(c: &SeerConfig, d: &SeerConfig) -> String {
    let mut name = String::new();
    differs(&mut name, "candidates", c.candidates, d.candidates);
    differs(&mut name, "plies", c.plies, d.plies);
    differs(&mut name, "worlds", c.worlds, d.worlds);
    differs(&mut name, "trades", u8::from(c.trades), u8::from(d.trades));
    differs(&mut name, "infer", c.infer, d.infer);
    differs(&mut name, "floor", c.floor, d.floor);
    differs(&mut name, "tries", c.tries, d.tries);
    differs(
        &mut name,
        "halving",
        u8::from(c.halving),
        u8::from(d.halving),
    );
    differs(&mut name, "leave", c.leave, d.leave);
    differs(&mut name, "win", c.win, d.win);
    differs(&mut name, "risk", c.risk, d.risk);
    differs(&mut name, "threat", c.threat, d.threat);
    differs(
        &mut name,
        "exclude",
        u8::from(c.exclude),
        u8::from(d.exclude),
    );
    differs(&mut name, "track", c.track, d.track);
    differs(&mut name, "guard", c.guard, d.guard);
    differs(&mut name, "lleave", c.lleave, d.lleave);
    differs(&mut name, "ltail", u8::from(c.ltail), u8::from(d.ltail));
    differs(&mut name, "finish", c.finish, d.finish);
    differs(&mut name, "early", c.early, d.early);
    differs(&mut name, "cut", u8::from(c.cut), u8::from(d.cut));
    differs(&mut name, "own", c.own, d.own);
    differs(&mut name, "ltrade", u8::from(c.ltrade), u8::from(d.ltrade));
    differs(&mut name, "lcand", c.lcand, d.lcand);
    differs(&mut name, "ties", u8::from(c.ties), u8::from(d.ties));
    name
}

impl Agent<Qwirkle> for SeerBot {
    fn name(&self) -> String {
        format!(
            "seer{}",
            settings_suffix(&self.config, &SeerConfig::default())
        )
    }

    fn reset(&mut self) {
        self.memory = None;
        self.seen = None;
        self.particles.clear();
    }

    fn choose(&mut self, state: &Qwirkle, budget: &Budget, rng: &mut GameRng) -> Move {
        let start = Instant::now();
        let Phase::Play { player: me } = state.phase() else {
            return Move::Pass;
        };
        self.observe(state, me);
        self.scratch.play_out_ties = self.config.ties;
        if self.tracking(state) {
            let seed: u64 = rng.random();
            self.track(state, &mut seeded(seed));
        }
        state.scored_placements(&mut self.placements);
        let forced = if self.placements.is_empty() {
            Some(fallback_move(state, rng))
        } else if state.first_move_size().is_some() || self.placements.len() == 1 {
            Some(Move::Place(self.placements[0].placement))
        } else {
            None
        };
        if let Some(m) = forced {
            self.info = None;
            self.remember(state, me, m);
            return m;
        }
        // Best placements by immediate score; exact ties in random order.
        movegen::rank_by_points(&mut self.placements, rng);
        self.candidates(state, me);
        let k = self.cands.len();
        let deadline = budget.deadline_from(start);
        let cap = MAX_WORLDS * k as u64;
        // The play-outs this move may use: `nodes` (or `worlds`) for every candidate; with
        // a time budget, re-estimated from the measured cost at every round.
        let mut total = match (budget.nodes, budget.time) {
            (Some(n), _) => n.clamp(1, MAX_WORLDS) * k as u64,
            (None, Some(_)) => 2 * k as u64,
            (None, None) => (self.config.worlds as u64).clamp(1, MAX_WORLDS) * k as u64,
        };
        let timed = budget.nodes.is_none() && budget.time.is_some();
        let base_seed: u64 = rng.random();
        self.values.resize_with(k, Vec::new);
        for v in &mut self.values[..k] {
            v.clear();
        }
        self.survivors.clear();
        self.survivors.extend(0..k);
        self.worlds.clear();
        let rounds = if self.config.halving {
            (usize::BITS - (k - 1).leading_zeros()).max(1) as u64
        } else {
            1
        };
        let mut used = 0u64;
        let mut nodes = 0u64;
        let mut s = state.clone();
        let guarded = self.config.guard > 1 || self.config.lleave > 0.0;
        if guarded {
            let g = self
                .guard
                .get_or_insert_with(|| Guard::new(me, self.config.guard));
            g.me = me;
            g.k = self.config.guard;
            g.leave = self.config.lleave;
        }
        let mut out_of_time = false;
        let mut round = 0u64;
        loop {
            if timed && round > 0 {
                // Spend what is left of the time at the cost measured so far.
                let spent = start.elapsed().as_secs_f64().max(1e-6);
                let left = deadline.map_or(0.0, |d| {
                    d.saturating_duration_since(Instant::now()).as_secs_f64()
                });
                let per = spent / used.max(1) as f64;
                total = (used + (left / per) as u64).min(cap);
            }
            let n = self.survivors.len() as u64;
            let rounds_left = rounds.saturating_sub(round).max(1);
            let budget_left = total.saturating_sub(used);
            let per_cand = if rounds_left == 1 {
                budget_left / n
            } else {
                budget_left / (rounds_left * n)
            }
            .max(u64::from(used == 0));
            if per_cand == 0 {
                break;
            }
            let done = self.values[self.survivors[0]].len();
            let target = done + per_cand as usize;
            'cands: for si in 0..self.survivors.len() {
                let c = self.survivors[si];
                for w in done..target {
                    // Worlds are sampled when first played (in order), so a huge node
                    // budget under a time limit samples no more than the time allows.
                    if self.worlds.len() <= w {
                        let seed = derive_seed(base_seed, w as u64);
                        let world = self.sample_world(state, me, &mut seeded(seed));
                        self.worlds.push((seed, world));
                    }
                    let (seed, ref world) = self.worlds[w];
                    let m = self.cands[c].to_move();
                    let plies = self.config.playout_plies(state.bag().total());
                    let guard = self.guard.as_mut().filter(|_| guarded);
                    let to_end = !self.config.cut || state.bag().total() == 0;
                    let early = self.config.early;
                    let mut before = None;
                    if self.config.own > 1 {
                        let config = &self.config;
                        nodes += play_candidate_own(
                            &mut s,
                            world,
                            seed,
                            m,
                            plies,
                            to_end,
                            &mut self.scratch,
                            (me, config.own),
                            &mut self.own,
                            &|t| value(t, me, config),
                        );
                    } else if early > 0.0 && plies >= 2 && plies != usize::MAX {
                        let config = &self.config;
                        nodes += play_candidate_split(
                            &mut s,
                            world,
                            seed,
                            m,
                            (plies - 1, 1),
                            to_end,
                            &mut self.scratch,
                            guard,
                            &mut |t| before = Some(value(t, me, config)),
                        );
                    } else {
                        nodes += play_candidate(
                            &mut s,
                            world,
                            seed,
                            m,
                            plies,
                            to_end,
                            &mut self.scratch,
                            guard,
                        );
                    }
                    let tail = match &self.guard {
                        Some(g) if guarded && self.config.ltail && !s.is_terminal() => g.last,
                        _ => 0.0,
                    };
                    let end = value(&s, me, &self.config) + tail;
                    self.values[c].push(match before {
                        Some(b) => (1.0 - early) * end + early * b,
                        None => end,
                    });
                    used += 1;
                    if used > 1 && deadline.is_some_and(|d| Instant::now() >= d) {
                        out_of_time = true;
                        break 'cands;
                    }
                }
            }
            round += 1;
            // Rank the survivors by their mean over the worlds all of them have played.
            let common = self
                .survivors
                .iter()
                .map(|&c| self.values[c].len())
                .min()
                .unwrap_or(0);
            let values = &self.values;
            let mean = |c: usize| values[c][..common].iter().sum::<f64>();
            self.survivors
                .sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(a.cmp(&b)));
            if out_of_time || used >= total {
                break;
            }
            if self.survivors.len() > 2 && round < rounds {
                let keep = self.survivors.len().div_ceil(2);
                self.survivors.truncate(keep);
            }
        }
        let best = self.survivors[0];
        let played = self.values[best].len().max(1);
        self.info = Some(SearchInfo {
            depth: self.config.plies as u32,
            nodes,
            leaves: used,
            value: Some(self.values[best].iter().sum::<f64>() / played as f64),
            elapsed: start.elapsed(),
        });
        let m = self.cands[best].to_move();
        self.remember(state, me, m);
        m
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.info.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::PointsBot;
    use crate::test_positions::{dealt, middle_game};
    use std::time::Duration;
    use tessera_core::Turn;
    use tessera_core::play_game;

    fn t(s: &str) -> Tile {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_play_out_in_two_legs_ends_where_one_in_one_leg_does() {
        let mut scratch = BestScratch::new();
        let (mut compared, mut moved_between) = (0, 0);
        for seed in 0..10 {
            let g = middle_game(seed, 4 + seed as usize);
            let mut places = Vec::new();
            g.scored_placements(&mut places);
            let Some(m) = places.first().map(|p| Move::Place(p.placement)) else {
                continue;
            };
            let mut bot = SeerBot::new();
            for (w, world) in bot
                .sample_worlds(&g, 4, &mut seeded(seed))
                .iter()
                .enumerate()
            {
                for (first, then) in [(3, 1), (1, 3), (4, 2), (2, 0)] {
                    let seed = 1000 * seed + w as u64;
                    let mut one = world.clone();
                    play_candidate(
                        &mut one,
                        world,
                        seed,
                        m,
                        first + then,
                        true,
                        &mut scratch,
                        None,
                    );
                    let mut two = world.clone();
                    let mut seen = None;
                    play_candidate_split(
                        &mut two,
                        world,
                        seed,
                        m,
                        (first, then),
                        true,
                        &mut scratch,
                        None,
                        &mut |t| seen = Some(t.clone()),
                    );
                    assert_eq!(one, two, "seed {seed}, legs {first}+{then}");
                    // The state between the legs is the one a play-out of `first` turns
                    // reaches.
                    let mut short = world.clone();
                    play_candidate(&mut short, world, seed, m, first, true, &mut scratch, None);
                    let seen = seen.unwrap_or_else(|| panic!("mid not called"));
                    assert_eq!(short, seen);
                    compared += 1;
                    moved_between += usize::from(then > 0 && seen != two);
                }
            }
        }
        assert!(compared >= 100, "{compared}");
        assert!(moved_between >= 50, "{moved_between}");
    }

    #[test]
    fn late_play_outs_run_to_the_end_of_the_game() {
        let c = SeerConfig {
            finish: 20,
            ..SeerConfig::default()
        };
        assert_eq!(c.playout_plies(21), 4);
        assert_eq!(c.playout_plies(20), usize::MAX);
        assert_eq!(c.playout_plies(0), usize::MAX);
        let off = SeerConfig::default();
        assert_eq!(off.playout_plies(0), 4);
        assert_eq!(off.playout_plies(20), 4);
        // In sampled worlds of middle games: the default's play-outs stop after 4 turns
        // with tiles still in the bag; with `finish` at the bag's size every one ends the
        // game.
        let (mut finished, mut stopped) = (0, 0);
        let mut scratch = BestScratch::new();
        for seed in 0..12 {
            let g = middle_game(seed, 6 + seed as usize);
            let Phase::Play { .. } = g.phase() else {
                continue;
            };
            let mut places = Vec::new();
            g.scored_placements(&mut places);
            let Some(m) = places.first().map(|p| Move::Place(p.placement)) else {
                continue;
            };
            let bag = g.bag().total();
            let mut bot = SeerBot::new();
            for (w, world) in bot
                .sample_worlds(&g, 3, &mut seeded(seed))
                .iter()
                .enumerate()
            {
                let all = SeerConfig {
                    finish: bag,
                    ..SeerConfig::default()
                };
                let mut s = world.clone();
                play_candidate(
                    &mut s,
                    world,
                    w as u64,
                    m,
                    all.playout_plies(bag),
                    true,
                    &mut scratch,
                    None,
                );
                assert!(s.is_terminal(), "seed {seed}, world {w}");
                finished += 1;
                let mut s = world.clone();
                play_candidate(
                    &mut s,
                    world,
                    w as u64,
                    m,
                    off.playout_plies(bag),
                    true,
                    &mut scratch,
                    None,
                );
                if !s.is_terminal() && s.bag().total() > 0 {
                    stopped += 1;
                }
            }
        }
        assert!(finished >= 20, "{finished}");
        assert_eq!(
            stopped, finished,
            "a 4-turn play-out from the middle game stops early"
        );
    }

    #[test]
    fn the_win_value_is_a_chance_that_narrows_as_the_tiles_run_out() {
        // Worked example: 10 points ahead with 64 tiles to come and risk 3: the spread is
        // 3 x 8 = 24 points, 100 tanh(0.85 x 10 / 24) = 34.01, plus 10 / 100.
        let v = win_value(10.0, 3.0, 64);
        assert!(
            (v - (100.0 * (8.5f64 / 24.0).tanh() + 0.1)).abs() < 1e-9,
            "{v}"
        );
        assert!((v - 34.11).abs() < 0.01, "{v}");
        // Symmetric around an even position, which is worth nothing.
        assert!((win_value(-10.0, 3.0, 64) + v).abs() < 1e-9);
        assert_eq!(win_value(0.0, 3.0, 64), 0.0);
        // The same lead is worth more the fewer tiles are left, and all of it at the end.
        assert!(win_value(10.0, 3.0, 16) > v);
        assert!((win_value(10.0, 3.0, 0) - 100.1).abs() < 1e-9);
        assert!((win_value(-1.0, 3.0, 0) + 100.01).abs() < 1e-9);
        assert_eq!(win_value(0.0, 3.0, 0), 0.0);
        // Increasing in the margin, far ahead too (the margin breaks the tanh's near-ties).
        let mut last = f64::NEG_INFINITY;
        for x in -200..=200 {
            let w = win_value(f64::from(x), 3.0, 40);
            assert!(w > last, "{x}: {w} <= {last}");
            last = w;
        }
        // A gamble of 30 points either way around the same mean margin, which the margin
        // alone values as the sure margin: 10 behind it is better than the sure -10, 10
        // ahead worse than the sure +10.
        let gamble =
            |base: f64| (win_value(base + 30.0, 3.0, 36) + win_value(base - 30.0, 3.0, 36)) / 2.0;
        assert!(gamble(-10.0) > win_value(-10.0, 3.0, 36));
        assert!(gamble(10.0) < win_value(10.0, 3.0, 36));
    }

    /// A line of tiles obeys the rules, checked tile by tile (not with `Line`'s masks): at
    /// most six, pairwise distinct, one colour for all or one shape for all.
    fn valid_by_hand(tiles: &[Tile]) -> bool {
        let distinct = tiles
            .iter()
            .enumerate()
            .all(|(i, a)| tiles[i + 1..].iter().all(|b| a != b));
        let one_color = tiles.iter().all(|x| x.color() == tiles[0].color());
        let one_shape = tiles.iter().all(|x| x.shape() == tiles[0].shape());
        tiles.len() <= 6 && distinct && (tiles.len() <= 1 || one_color || one_shape)
    }

    /// The tiles next to `(x, y)` going `(dx, dy)` away from it, walked cell by cell.
    fn walk(b: &Board, x: i32, y: i32, dx: i32, dy: i32) -> Vec<Tile> {
        let mut out = Vec::new();
        let (mut cx, mut cy) = (x + dx, y + dy);
        while let Some(t) = b.get(cx, cy) {
            out.push(t);
            cx += dx;
            cy += dy;
        }
        out
    }

    /// `threats` computed another way: every empty cell next to the board, every tile
    /// kind tried there, a line of five on one side of the cell that the tile makes a
    /// legal line of six with a legal crossing line, each line counted once (by its first
    /// cell); the unseen copies counted in the bag and the other hands, and the chance of
    /// holding one from binomial coefficients. Also the number of open lines.
    fn threats_by_hand(s: &Qwirkle, me: PlayerId) -> (f64, usize) {
        let Phase::Play { player: mover } = s.phase() else {
            return (0.0, 0);
        };
        let b = s.board();
        let Some((x0, y0, x1, y1)) = b.bounds() else {
            return (0.0, 0);
        };
        let mut lines: Vec<((i32, i32, i32), Tile)> = Vec::new();
        for y in y0 - 1..=y1 + 1 {
            for x in x0 - 1..=x1 + 1 {
                if b.occupied(x, y) {
                    continue;
                }
                for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                    let mut main = walk(b, x, y, dx, dy);
                    if main.len() != 5 || b.occupied(x - dx, y - dy) {
                        continue;
                    }
                    // The run's first cell, left or top.
                    let key = if dx + dy > 0 {
                        (x + dx, y + dy, dx.abs())
                    } else {
                        (x + 5 * dx, y + 5 * dy, dx.abs())
                    };
                    for t in Tile::all() {
                        let mut cross = walk(b, x, y, dy, dx);
                        cross.extend(walk(b, x, y, -dy, -dx));
                        cross.push(t);
                        main.push(t);
                        let ok = valid_by_hand(&main) && valid_by_hand(&cross);
                        main.pop();
                        if ok && !lines.iter().any(|(k, _)| *k == key) {
                            lines.push((key, t));
                        }
                    }
                }
            }
        }
        let choose = |n: usize, k: usize| -> f64 {
            if k > n {
                return 0.0;
            }
            (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
        };
        let others: Vec<PlayerId> = PlayerId::all(s.num_players())
            .filter(|&p| p != me)
            .collect();
        let n = s.bag().total() + others.iter().map(|&p| s.hand(p).len()).sum::<usize>();
        let mut value = 0.0;
        for &(_, t) in &lines {
            let u = usize::from(s.bag().get(t))
                + others
                    .iter()
                    .map(|&p| s.hand(p).iter().filter(|&&h| h == t).count())
                    .sum::<usize>();
            let held = |p: PlayerId| -> f64 {
                if p == me {
                    if s.hand(me).contains(&t) { 1.0 } else { 0.0 }
                } else {
                    let h = s.hand(p).len();
                    1.0 - choose(n - u, h) / choose(n, h)
                }
            };
            let next = PlayerId::all(s.num_players())
                .cycle()
                .nth(mover.index() + 1)
                .unwrap_or(mover);
            value += if mover == me {
                if held(me) == 1.0 {
                    12.0
                } else {
                    -12.0 * held(next)
                }
            } else {
                let p = held(mover);
                -12.0 * p + 12.0 * (1.0 - p) * held(me)
            };
        }
        (value, lines.len())
    }

    #[test]
    fn the_threats_are_the_open_lines_of_five_valued_by_the_unseen_tiles() {
        let mut open = 0;
        let mut positions = 0;
        for seed in 0..40 {
            for moves in [8, 14, 20, 26, 32] {
                let g = middle_game(seed, moves);
                if g.is_terminal() {
                    continue;
                }
                positions += 1;
                for me in PlayerId::all(2) {
                    let (expected, lines) = threats_by_hand(&g, me);
                    let got = threats(&g, me);
                    assert!(
                        (got - expected).abs() < 1e-9,
                        "seed {seed} after {moves}: {got} against {expected} ({lines} lines)"
                    );
                    open += usize::from(lines > 0);
                }
            }
        }
        assert!(positions >= 150, "{positions} positions");
        // Greedy play leaves lines of five open often enough for the comparison to mean
        // something.
        assert!(
            open >= 10,
            "only {open} positions with an open line of five"
        );
    }

    #[test]
    fn a_threat_weight_changes_the_value_and_none_keeps_it() {
        let plain = SeerConfig::default();
        let weighted = SeerConfig {
            threat: 0.5,
            ..plain
        };
        let mut changed = 0;
        for seed in 0..40 {
            let g = middle_game(seed, 24);
            let me = match g.phase() {
                Phase::Play { player } => player,
                _ => continue,
            };
            let t = threats(&g, me);
            assert_eq!(value(&g, me, &weighted), value(&g, me, &plain) + 0.5 * t);
            changed += usize::from(t != 0.0);
        }
        assert!(changed > 0, "no position with a threat");
    }

    #[test]
    fn without_risk_the_value_is_the_points_and_with_it_the_chance() {
        let g = middle_game(7, 20);
        let me = PlayerId(0);
        let plain = SeerConfig::default();
        let points = value(&g, me, &plain);
        assert_eq!(points, crate::mc::margin(&g, me));
        let risky = SeerConfig { risk: 3.0, ..plain };
        let left = g.bag().total()
            + PlayerId::all(g.num_players())
                .map(|p| g.hand(p).len())
                .sum::<usize>();
        assert!(left > 0);
        assert_eq!(value(&g, me, &risky), win_value(points, 3.0, left));
    }

    /// Every way of keeping part of `hand` (1 to all but one tile), by recursion over the
    /// tiles: the learned leave of each kept part with the traded rest.
    fn keeps(
        hand: &[Tile],
        kept: &mut Vec<Tile>,
        traded: &mut Vec<Tile>,
        out: &mut Vec<(f64, Vec<Tile>)>,
    ) {
        let Some((&t, rest)) = hand.split_first() else {
            if !kept.is_empty() && !traded.is_empty() {
                let v = crate::leave::value(&crate::leave::WEIGHTS, kept);
                let mut tr = traded.clone();
                tr.sort_unstable();
                out.push((v, tr));
            }
            return;
        };
        kept.push(t);
        keeps(rest, kept, traded, out);
        kept.pop();
        traded.push(t);
        keeps(rest, kept, traded, out);
        traded.pop();
    }

    #[test]
    fn the_learned_trade_keeps_the_part_with_the_largest_learned_leave() {
        let (mut checked, mut unlike) = (0, 0);
        for seed in 0..60u64 {
            let g = crate::test_positions::middle_game(seed, seed as usize % 20);
            let Phase::Play { player } = g.phase() else {
                continue;
            };
            let hand = g.hand(player);
            let Some(tr) = learned_trade(hand) else {
                assert!(hand.len() < 2, "seed {seed}");
                continue;
            };
            let mut all = Vec::new();
            keeps(hand, &mut Vec::new(), &mut Vec::new(), &mut all);
            let best = all
                .iter()
                .map(|(v, _)| *v)
                .fold(f64::NEG_INFINITY, f64::max);
            // The traded tiles are a part of the hand, leaving at least one.
            let (v, _) = all
                .iter()
                .find(|(_, traded)| traded.as_slice() == tr.tiles())
                .unwrap_or_else(|| panic!("seed {seed}: {tr} is no proper part of the hand"));
            assert!((v - best).abs() < 1e-12, "seed {seed}: {v} against {best}");
            // It is not always the group rule's trade (it never trades the whole hand).
            unlike += usize::from(tr.tiles().len() != hand.len() - largest_group(hand));
            checked += 1;
        }
        assert!(checked >= 50, "only {checked} hands");
        assert!(
            unlike >= 5,
            "the learned trade was the group rule's {unlike}"
        );
        assert!(learned_trade(&[t("R1")]).is_none());
    }

    /// A bot without trades holding the candidates it weighs at `g` (placements ranked by
    /// points with ties shuffled from `rank`, or left in the generator's order).
    fn weighing(g: &Qwirkle, candidates: usize, lcand: usize, rank: Option<u64>) -> SeerBot {
        let Phase::Play { player } = g.phase() else {
            panic!("a player's turn");
        };
        let mut bot = SeerBot::with_config(SeerConfig {
            candidates,
            lcand,
            trades: false,
            ..SeerConfig::default()
        });
        g.scored_placements(&mut bot.placements);
        if let Some(seed) = rank {
            movegen::rank_by_points(&mut bot.placements, &mut seeded(seed));
        }
        bot.candidates(g, player);
        bot
    }

    #[test]
    fn the_leave_candidates_are_the_best_of_the_rest_by_points_plus_learned_leave() {
        let (mut checked, mut below) = (0, 0);
        for seed in 0..60u64 {
            let g = crate::test_positions::middle_game(100 + seed, seed as usize % 25);
            let Phase::Play { player } = g.phase() else {
                continue;
            };
            let bot = weighing(&g, 4, 3, Some(seed));
            if bot.placements.len() < 8 {
                continue;
            }
            let placed: Vec<Scored> = bot
                .cands
                .iter()
                .map(|c| match c {
                    Cand::Place(s) => *s,
                    Cand::Trade(t) => panic!("seed {seed}: a trade {t} without trades"),
                })
                .collect();
            assert_eq!(placed.len(), 7, "seed {seed}");
            let top: Vec<_> = bot.placements[..4].iter().map(|s| s.placement).collect();
            assert_eq!(
                placed[..4].iter().map(|s| s.placement).collect::<Vec<_>>(),
                top,
                "seed {seed}: the first four are the best by points"
            );
            // Independently: every other placement applied to a copy, its points read from
            // the score and its kept tiles from the hand it leaves before the draw.
            let value = |m: Placement| {
                let mut t = g.clone();
                let before = t.scores()[player];
                t.apply(Move::Place(m));
                f64::from(t.scores()[player] - before)
                    + crate::leave::value(&crate::leave::WEIGHTS, t.hand(player))
            };
            let mut rest: Vec<f64> = bot.placements[4..]
                .iter()
                .map(|s| value(s.placement))
                .collect();
            rest.sort_by(|a, b| b.total_cmp(a));
            let added: Vec<f64> = placed[4..].iter().map(|s| value(s.placement)).collect();
            for (a, r) in added.iter().zip(&rest) {
                assert!(
                    (a - r).abs() < 1e-9,
                    "seed {seed}: {added:?} against {rest:?}"
                );
            }
            for s in &placed[4..] {
                assert!(!top.contains(&s.placement), "seed {seed}: added twice");
            }
            // Some added placement scores fewer points than the best of the rest by points.
            below += usize::from(
                placed[4..]
                    .iter()
                    .any(|s| s.score < bot.placements[4].score),
            );
            checked += 1;
        }
        assert!(checked >= 30, "only {checked} positions");
        assert!(below >= 5, "by points alone in all but {below}");
        // Without lcand the candidates are the best by points only (a position with more
        // placements than candidates).
        let bot = (0..20)
            .map(|seed| weighing(&crate::test_positions::middle_game(seed, 12), 4, 0, None))
            .find(|b| b.placements.len() > 4)
            .unwrap_or_else(|| panic!("no middle game with more than 4 placements"));
        assert_eq!(bot.cands.len(), 4);
        // With the bag empty nothing is added either.
        let bot = (0..40)
            .filter_map(|seed| crate::test_positions::endgame(seed, 0))
            .map(|e| weighing(&e, 1, 5, None))
            .find(|b| b.placements.len() > 1)
            .unwrap_or_else(|| panic!("no endgame with more than 1 placement"));
        assert_eq!(bot.cands.len(), 1);
    }

    /// The size of the largest group of distinct tiles sharing a colour or a shape.
    fn largest_group(hand: &[Tile]) -> usize {
        (0..12u8)
            .map(|a| {
                let mut g: Vec<Tile> = hand
                    .iter()
                    .copied()
                    .filter(|t| {
                        if a < 6 {
                            t.color() == a
                        } else {
                            t.shape() == a - 6
                        }
                    })
                    .collect();
                g.sort_unstable();
                g.dedup();
                g.len()
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn the_deficit_is_what_a_better_placement_would_have_scored_more() {
        // R1 R2 on the board; the player added R3 for 3 points.
        let mut b = Board::new();
        b.place(0, 0, t("R1"));
        b.place(1, 0, t("R2"));
        let placed = Placement::new(&[Placed::new(2, 0, t("R3")).unwrap_or_default()])
            .unwrap_or_else(|| panic!("one tile"));
        let mut buf = BestScratch::new();
        // Holding R4 too, R4 R3 under R1 R2 would have scored 6 (the row of two and two
        // columns of two): 3 points given up.
        assert_eq!(deficit(&b, &placed, &[t("R4")], &mut buf), 3);
        // Holding R4 R5 R6, the Qwirkle R1-R6 would have scored 12 at least.
        assert!(deficit(&b, &placed, &[t("R4"), t("R5"), t("R6")], &mut buf) >= 9);
        // A blue 5 and a green 6 give nothing better: no points given up.
        assert_eq!(deficit(&b, &placed, &[t("B5"), t("G6")], &mut buf), 0);
    }

    /// What `p` keeps after move `m` of `g`: `None` for a trade (it must hold a placement's
    /// tiles).
    fn kept_after(g: &Qwirkle, p: PlayerId, m: Move) -> Option<Hand> {
        let Move::Place(pl) = m else {
            return None;
        };
        Some(
            g.kept_after(p, &pl)
                .unwrap_or_else(|| panic!("{p} does not hold {pl:?}")),
        )
    }

    /// Plays `seer` against `points` from `g` (as [`seer_against_points`]) and calls `read`
    /// at each of seer's turns that follows a placement it has read, once its move is
    /// chosen: with seer's view, its seat, the tiles `points` truly kept, seer itself and
    /// the generator.
    fn read_after_placements(
        seer: &mut SeerBot,
        g: Qwirkle,
        rng: &mut GameRng,
        mut read: impl FnMut(&Qwirkle, PlayerId, Hand, &mut SeerBot, &mut GameRng),
    ) {
        let mut kept_by_points: Option<Hand> = None;
        let watch =
            |g: &Qwirkle, view: Option<&Qwirkle>, p, m, seer: &mut SeerBot, rng: &mut GameRng| {
                let Some(view) = view else {
                    // points' move: what it keeps is its hand minus the tiles it places.
                    kept_by_points = kept_after(g, p, m);
                    return true;
                };
                if let Some(kept) = kept_by_points.take()
                    && seer.seen.is_some()
                {
                    read(view, p, kept, seer, rng);
                }
                true
            };
        seer_against_points(seer, g, rng, watch);
    }

    /// Plays `seer` (seat 0, 2 worlds a move, handed a determinized state) against `points`
    /// from `g`, chance and both bots from `rng`. `watch` sees every move before it is
    /// applied: the true state, the state seer was handed (`None` at points' moves), the
    /// mover, its move, seer and the generator; the game stops early when it returns false.
    fn seer_against_points(
        seer: &mut SeerBot,
        mut g: Qwirkle,
        rng: &mut GameRng,
        mut watch: impl FnMut(
            &Qwirkle,
            Option<&Qwirkle>,
            PlayerId,
            Move,
            &mut SeerBot,
            &mut GameRng,
        ) -> bool,
    ) {
        let mut points = PointsBot::new();
        loop {
            match g.turn() {
                Turn::Terminal => return,
                Turn::Chance => {
                    let d = g.sample_chance(rng);
                    g.apply_chance(&d).unwrap_or_else(|e| panic!("{e}"));
                }
                Turn::Player(p) => {
                    let view = g.determinize(p, rng);
                    let (m, seers) = if p == PlayerId(0) {
                        (seer.choose(&view, &Budget::nodes(2), rng), Some(&view))
                    } else {
                        (points.choose(&view, &Budget::default(), rng), None)
                    };
                    if !watch(&g, seers, p, m, seer, rng) {
                        return;
                    }
                    g.apply(m);
                }
            }
        }
    }

    #[test]
    fn the_previous_players_placement_and_points_are_read_from_the_board() {
        // seer against points: at seer's second turn it has seen the points bot's move.
        let mut seer = SeerBot::new();
        let mut checked = 0;
        let mut last_points_move: Option<(Placement, i32, PlayerId)> = None;
        let watch =
            |g: &Qwirkle, view: Option<&Qwirkle>, p, m, seer: &mut SeerBot, _: &mut GameRng| {
                if view.is_some() {
                    if let Some((pl, score, who)) = last_points_move.take() {
                        let seen = seer.seen.as_ref().unwrap_or_else(|| panic!("seen"));
                        assert_eq!(seen.placement, pl);
                        assert_eq!(movegen::score_placement(&seen.before, &pl), score);
                        assert_eq!(seen.player, who);
                        checked += 1;
                    }
                } else if let Move::Place(pl) = m {
                    last_points_move = Some((pl, g.placement_score(&pl), p));
                }
                checked < 6
            };
        seer_against_points(&mut seer, dealt(21, 2), &mut seeded(4), watch);
        assert_eq!(checked, 6, "six of the points bot's moves read");
        let (accepted, sampled) = seer.inference_counts();
        assert!(sampled > 0 && accepted <= sampled);
    }

    #[test]
    fn a_greedy_players_kept_tiles_are_never_excluded_and_worlds_keep_allowed_kinds() {
        // seer with exclusion sampling against points, on the true state: at seer's turns
        // the points bot's real kept tiles must be allowed, and sampled worlds must keep
        // only allowed kinds and the same unseen tiles.
        let config = SeerConfig {
            exclude: true,
            ..SeerConfig::default()
        };
        let mut seer = SeerBot::with_config(config);
        let mut rng = seeded(8);
        let (mut checked, mut excluded_kinds) = (0, 0);
        for seed in 0..4 {
            seer.reset();
            let read = |view: &Qwirkle, p, kept: Hand, seer: &mut SeerBot, rng: &mut GameRng| {
                let Some(other) = seer.seen.as_ref().map(|seen| seen.player) else {
                    return;
                };
                for t in &kept {
                    assert_eq!(seer.excluded >> t.index() & 1, 0, "{t} was kept");
                }
                excluded_kinds += seer.excluded.count_ones();
                let mut pool = *view.bag();
                view.hand(other).iter().for_each(|&t| pool.add(t));
                for _ in 0..4 {
                    let Some((w, kept)) = seer.sample_excluding(view, p, other, rng) else {
                        continue;
                    };
                    for t in &kept {
                        assert_eq!(seer.excluded >> t.index() & 1, 0, "{t}");
                        assert!(w.hand(other).contains(t));
                    }
                    let mut unseen = *w.bag();
                    w.hand(other).iter().for_each(|&t| unseen.add(t));
                    assert_eq!(unseen, pool);
                    assert_eq!(w.hand(other).len(), view.hand(other).len());
                    assert_eq!(w.hand(p), view.hand(p));
                }
                checked += 1;
            };
            read_after_placements(&mut seer, dealt(40 + seed, 2), &mut rng, read);
        }
        assert!(checked >= 40, "only {checked} moves read");
        // The inference has something to say: on average several kinds a move are ruled out.
        assert!(
            excluded_kinds >= 2 * checked,
            "{excluded_kinds} over {checked}"
        );
    }

    #[test]
    fn tracked_particles_are_greedy_hands_and_hold_the_true_kept_tiles() {
        // seer tracking points' kept tiles, on the true state: after every seen placement
        // each particle is tiles points may have kept (unseen now, as many as it kept, and,
        // but for the rare move no proposal explains, a greedy player holding them with the
        // placed tiles could not have scored more), and the true kept tiles are among the
        // particles far more often than a uniform guess.
        let config = SeerConfig {
            track: 256,
            infer: 100.0,
            floor: 0.0,
            ..SeerConfig::default()
        };
        let mut seer = SeerBot::with_config(config);
        let mut rng = seeded(9);
        let (mut checked, mut found, mut unsure) = (0, 0, 0);
        for seed in 0..6 {
            seer.reset();
            let read = |view: &Qwirkle, _, kept: Hand, seer: &mut SeerBot, _: &mut GameRng| {
                let Some(seen) = &seer.seen else {
                    return;
                };
                let other = seen.player;
                let mut unseen = *view.bag();
                view.hand(other).iter().for_each(|&t| unseen.add(t));
                assert!(!seer.particles.is_empty(), "the truth has weight");
                assert_eq!(seer.particles.len(), 256);
                let mut given_up = 0;
                for k in &seer.particles {
                    assert_eq!(k.len(), view.hand(other).len() - seen.drawn);
                    let mut u = unseen;
                    assert!(k.iter().all(|&t| u.remove(t)), "{k:?} not unseen");
                    given_up += deficit(&seen.before, &seen.placement, k, &mut seer.scratch);
                }
                unsure += usize::from(given_up > 0);
                found += usize::from(seer.particles.contains(&kept));
                checked += 1;
            };
            read_after_placements(&mut seer, dealt(60 + seed, 2), &mut rng, read);
        }
        assert!(checked >= 60, "only {checked} moves read");
        // A uniform guess of three to five tiles among some eighty unseen ones almost never
        // holds exactly the kept tiles.
        assert!(found * 10 >= checked, "found in {found} of {checked}");
        // Rarely does no proposal explain the move (then the least unlikely ones are kept).
        assert!(
            unsure * 20 <= checked,
            "{unsure} of {checked} with hands giving points up"
        );
    }

    #[test]
    fn a_completed_hand_holds_the_kept_and_placed_tiles_with_the_chance_of_drawing_them() {
        // A pool of eight tiles, one of each: the chance that three random draws hold two
        // given tiles, counted over all 56 draws, is 6/56.
        let tiles = ["R1", "R2", "R3", "R4", "B1", "B2", "B3", "B4"].map(t);
        let mut pool = TileCounts::default();
        tiles.iter().for_each(|&u| pool.add(u));
        let at = |x, u| Placed::new(x, 0, u).unwrap_or_default();
        let placed = [at(0, t("R1")), at(1, t("R2"))];
        let holding = (0..8)
            .flat_map(|a| (a + 1..8).flat_map(move |b| (b + 1..8).map(move |c| [a, b, c])))
            .filter(|d| d.contains(&0) && d.contains(&1))
            .count();
        let mut rng = seeded(3);
        let (hand, chance) = complete_hand(&pool, &[], &placed, 3, &mut rng)
            .unwrap_or_else(|| panic!("the draws can hold the placed tiles"));
        assert_eq!(hand.len(), 3);
        assert!(hand.contains(&t("R1")) && hand.contains(&t("R2")));
        assert!((chance - holding as f64 / 56.0).abs() < 1e-12, "{chance}");
        // Kept tiles cover a placed tile: one needed tile, in two draws from the seven left.
        let (hand, chance) = complete_hand(&pool, &[t("R1")], &placed, 3, &mut rng)
            .unwrap_or_else(|| panic!("R2 can be drawn"));
        assert_eq!(hand.len(), 3);
        assert!(hand.contains(&t("R1")) && hand.contains(&t("R2")));
        assert!((chance - 2.0 / 7.0).abs() < 1e-12, "{chance}");
        // Kept tiles not in the pool, or more needed tiles than draws: impossible.
        assert!(complete_hand(&pool, &[t("G1")], &placed, 3, &mut rng).is_none());
        assert!(complete_hand(&pool, &[t("B1"), t("B2")], &placed, 3, &mut rng).is_none());
    }

    #[test]
    fn an_oracles_worlds_hold_what_it_knows() {
        let g = middle_game(6, 8);
        let Phase::Play { player: me } = g.phase() else {
            panic!("a player to move");
        };
        let other = PlayerId::all(2).find(|&p| p != me).unwrap_or(me);
        let mut unseen = *g.bag();
        g.hand(other).iter().for_each(|&t| unseen.add(t));
        let kept: Hand = g.hand(other).iter().take(3).copied().collect();
        let mut bot = SeerBot::new();
        bot.set_oracle(Oracle::Kept(kept.clone()));
        let mut rng = seeded(5);
        let mut differs = false;
        for _ in 0..20 {
            let w = bot.sample_world(&g, me, &mut rng);
            let mut rest: Vec<Tile> = w.hand(other).to_vec();
            for t in &kept {
                let i = rest.iter().position(|u| u == t);
                rest.remove(i.unwrap_or_else(|| panic!("{t} kept")));
            }
            let mut pool = *w.bag();
            w.hand(other).iter().for_each(|&t| pool.add(t));
            assert_eq!(pool, unseen);
            assert_eq!(w.hand(other).len(), g.hand(other).len());
            assert_eq!(w.hand(me), g.hand(me));
            differs |= w.hand(other) != g.hand(other);
        }
        // The fresh draws are sampled, not read from the state.
        assert!(differs);
        bot.set_oracle(Oracle::Hands);
        let w = bot.sample_world(&g, me, &mut rng);
        assert_eq!(w.hand(other), g.hand(other));
        assert_eq!(w.bag(), g.bag());
    }

    #[test]
    fn a_node_budget_replays_the_same_game() {
        crate::test_positions::assert_replays_against_points(SeerBot::new, 17);
    }

    #[test]
    fn the_node_budget_is_the_number_of_worlds() {
        let g = middle_game(3, 8);
        let mut bot = SeerBot::new();
        bot.choose(&g, &Budget::nodes(5), &mut seeded(1));
        let info = bot.last_info().unwrap_or_default();
        let k = bot.cands.len() as u64;
        assert!(k >= 2);
        // 5 worlds' worth of play-outs for every candidate, spread by sequential halving
        // (what is left over when the last round's split is uneven is not played).
        assert!(
            info.leaves <= 5 * k && info.leaves > 5 * k - k,
            "{} play-outs for 5 worlds x {k} candidates",
            info.leaves
        );
        // The chosen move was played out in more worlds than any candidate dropped first.
        let most = bot.values.iter().map(Vec::len).max().unwrap_or(0);
        let least = bot.values[..k as usize]
            .iter()
            .map(Vec::len)
            .min()
            .unwrap_or(0);
        assert!(most > 5 && least < 5, "{most} / {least}");
        // Without halving every candidate gets the same 5 worlds.
        let mut flat = SeerBot::with_config(SeerConfig {
            halving: false,
            ..SeerConfig::default()
        });
        flat.choose(&g, &Budget::nodes(5), &mut seeded(1));
        assert_eq!(flat.last_info().unwrap_or_default().leaves, 5 * k);
    }

    #[test]
    fn a_time_limit_binds_a_huge_node_budget() {
        // A capped seat: 100,000 worlds asked for, 50 ms allowed. The worlds are sampled as
        // they are played, so the move still comes back within the limit and a tolerance.
        let g = middle_game(5, 10);
        let budget = Budget {
            time: Some(Duration::from_millis(50)),
            nodes: Some(MAX_WORLDS),
            ..Budget::default()
        };
        let mut bot = SeerBot::new();
        let start = Instant::now();
        bot.choose(&g, &budget, &mut seeded(2));
        let took = start.elapsed();
        assert!(took < Duration::from_millis(250), "took {took:?}");
        assert!(
            bot.worlds.len() < 10_000,
            "{} worlds sampled",
            bot.worlds.len()
        );
    }

    #[test]
    fn a_time_budget_binds() {
        // 50 ms a move, whatever the machine: the move comes back well within 50 + 200 ms
        // (the check runs after every candidate's play-out, a few milliseconds each), and
        // far more worlds than the default 32 would take longer than that.
        let g = middle_game(5, 10);
        let mut bot = SeerBot::new();
        let budget = Budget::time(Duration::from_millis(50));
        for seed in 0..3 {
            let start = Instant::now();
            bot.choose(&g, &budget, &mut seeded(seed));
            let took = start.elapsed();
            assert!(took < Duration::from_millis(250), "took {took:?}");
            assert!(bot.last_info().is_some_and(|i| i.leaves > 0));
        }
    }

    #[test]
    fn moves_are_legal_at_three_and_four_seats_and_trades_are_legal() {
        for players in [3, 4] {
            let mut a = SeerBot::new();
            let mut b = PointsBot::new();
            let mut c = PointsBot::new();
            let mut d = PointsBot::new();
            let mut seats: Vec<&mut dyn Agent<Qwirkle>> = vec![&mut a, &mut b, &mut c];
            if players == 4 {
                seats.push(&mut d);
            }
            let (end, _) = play_game(
                Qwirkle::new(players).unwrap_or_else(|e| panic!("{e}")),
                &mut seats,
                &Budget::nodes(2),
                40 + players as u64,
                None,
                &mut (),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            assert!(end.is_terminal());
        }
        // The trade candidates: the whole hand, and all but the largest group.
        let g = middle_game(8, 6);
        let Phase::Play { player } = g.phase() else {
            panic!("a player's turn");
        };
        let mut bot = SeerBot::new();
        g.scored_placements(&mut bot.placements);
        bot.candidates(&g, player);
        let trades: Vec<Trade> = bot
            .cands
            .iter()
            .filter_map(|c| match c {
                Cand::Trade(t) => Some(*t),
                Cand::Place(_) => None,
            })
            .collect();
        assert!(!trades.is_empty());
        assert_eq!(trades[0].tiles().len(), g.hand(player).len());
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        for t in trades {
            assert!(legal.contains(&Move::Trade(t)), "{t}");
        }
    }
}
