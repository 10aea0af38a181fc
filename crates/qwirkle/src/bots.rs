//! Qwirkle bots: the seed's points bot and smarter bot, and a stronger lookahead bot.
//!
//! All three see only a determinized state (their own hand is real; the other hands and the
//! bag are resampled by the game loop), break exact ties uniformly at random with their own
//! generator, and fall back the same way when no tile can be placed: trade the whole hand
//! (as many tiles as the bag holds, chosen at random), or pass when the bag is empty.
//! Every interpretation of the seed is written in `docs/players.md`.

use std::fmt::Write as _;

use rand::Rng;
use rand::seq::SliceRandom;
use tessera_core::{Agent, Budget, Game, GameRng, SearchInfo};

use crate::action::{HAND_SIZE, Move, Placement, Trade};
use crate::board::Board;
use crate::movegen::{self, Scored};
use crate::state::{END_BONUS, Phase, Qwirkle};
use crate::tile::{Line, Tile};

/// The move when no tile can be placed: trade as many tiles as possible (the whole hand if
/// the bag holds enough, else a random subset of the bag's size), or pass.
pub fn fallback_move(state: &Qwirkle, rng: &mut GameRng) -> Move {
    let Some(p) = state.current_player() else {
        return Move::Pass;
    };
    let mut hand: Vec<Tile> = state.hand(p).to_vec();
    let k = hand.len().min(state.bag().total());
    if k == 0 || state.first_move_size().is_some() {
        return Move::Pass;
    }
    hand.shuffle(rng);
    Trade::new(&hand[..k]).map_or(Move::Pass, Move::Trade)
}

/// Picks uniformly among the indices whose key equals the best (largest) key.
fn pick_best<K: PartialOrd + Copy>(
    keys: impl Iterator<Item = K>,
    rng: &mut GameRng,
) -> Option<usize> {
    let mut best: Option<K> = None;
    let mut ties = 0u32;
    let mut chosen = None;
    for (i, k) in keys.enumerate() {
        match best {
            Some(b) if k < b => {}
            Some(b) if k == b => {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    chosen = Some(i);
                }
            }
            _ => {
                best = Some(k);
                ties = 1;
                chosen = Some(i);
            }
        }
    }
    chosen
}

/// The seed's points bot: the placement scoring the most points now.
///
/// ```
/// use tessera_core::{Agent, Budget, Game, rng::seeded};
/// use tessera_qwirkle::{Move, Qwirkle, bots::PointsBot};
/// let mut g = Qwirkle::new(2).unwrap();
/// let deal = g.sample_chance(&mut seeded(3));
/// g.apply_chance(&deal).unwrap();
/// let m = PointsBot::new().choose(&g, &Budget::default(), &mut seeded(1));
/// let mut all = Vec::new();
/// g.scored_placements(&mut all);
/// let best = all.iter().map(|s| s.score).max().unwrap();
/// let Move::Place(p) = m else { panic!() };
/// assert_eq!(g.placement_score(&p), best);
/// ```
#[derive(Clone, Debug, Default)]
pub struct PointsBot {
    buf: Vec<Scored>,
}

impl PointsBot {
    /// A new points bot.
    pub fn new() -> Self {
        PointsBot::default()
    }
}

impl Agent<Qwirkle> for PointsBot {
    fn name(&self) -> String {
        "points".into()
    }

    fn choose(&mut self, state: &Qwirkle, _budget: &Budget, rng: &mut GameRng) -> Move {
        state.scored_placements(&mut self.buf);
        match pick_best(self.buf.iter().map(|s| s.score), rng) {
            Some(i) => Move::Place(self.buf[i].placement),
            None => fallback_move(state, rng),
        }
    }
}

/// A board with a placement laid on top, without copying the board.
struct Overlay<'a> {
    board: &'a Board,
    placement: &'a Placement,
}

impl Overlay<'_> {
    #[inline]
    fn get(&self, x: i32, y: i32) -> Option<Tile> {
        self.placement
            .cells()
            .iter()
            .find(|c| (c.x as i32, c.y as i32) == (x, y))
            .map(|c| c.tile)
            .or_else(|| self.board.get(x, y))
    }

    /// The full line through an occupied cell along `(dx, dy)`.
    fn line_through(&self, x: i32, y: i32, dx: i32, dy: i32) -> Line {
        let (mut sx, mut sy) = (x, y);
        while self.get(sx - dx, sy - dy).is_some() {
            sx -= dx;
            sy -= dy;
        }
        let mut l = Line::EMPTY;
        while let Some(t) = self.get(sx, sy) {
            l = l.with(t);
            sx += dx;
            sy += dy;
        }
        l
    }
}

/// The smarter bot's measures of one placement.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SmarterMeasures {
    /// Lines of exactly 5 tiles the placement creates or extends (each line counted once).
    pub chances: u32,
    /// Points scored.
    pub points: i32,
    /// Lines killed: for each placed tile and each of the 4 directions, the first tile
    /// found after 1 to 5 empty cells, if it cannot share a line with the placed tile.
    pub kills: u32,
}

/// Computes the smarter bot's measures of a legal placement (seed, section II.C).
pub fn smarter_measures(board: &Board, s: &Scored) -> SmarterMeasures {
    let p = &s.placement;
    let ov = Overlay {
        board,
        placement: p,
    };
    let cells = p.cells();
    let horizontal = cells.len() < 2 || cells[0].y == cells[1].y;
    let (dx, dy) = if horizontal { (1, 0) } else { (0, 1) };
    let mut chances = 0;
    let c0 = cells[0];
    if ov.line_through(c0.x as i32, c0.y as i32, dx, dy).len == 5 {
        chances += 1;
    }
    for c in cells {
        if ov.line_through(c.x as i32, c.y as i32, dy, dx).len == 5 {
            chances += 1;
        }
    }
    let mut kills = 0;
    for c in cells {
        for (ddx, ddy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (mut x, mut y) = (c.x as i32 + ddx, c.y as i32 + ddy);
            if ov.get(x, y).is_some() {
                continue;
            }
            for _ in 0..5 {
                x += ddx;
                y += ddy;
                if let Some(u) = ov.get(x, y) {
                    if !c.tile.compatible(u) {
                        kills += 1;
                    }
                    break;
                }
            }
        }
    }
    SmarterMeasures {
        chances,
        points: s.score,
        kills,
    }
}

/// The seed's smarter bot: fewest Qwirkle chances left to the opponent (lines of 5), then
/// most points, then fewest killed lines.
#[derive(Clone, Debug, Default)]
pub struct SmarterBot {
    buf: Vec<Scored>,
    keys: Vec<(i64, i64, i64)>,
}

impl SmarterBot {
    /// A new smarter bot.
    pub fn new() -> Self {
        SmarterBot::default()
    }
}

impl Agent<Qwirkle> for SmarterBot {
    fn name(&self) -> String {
        "smarter".into()
    }

    fn choose(&mut self, state: &Qwirkle, _budget: &Budget, rng: &mut GameRng) -> Move {
        state.scored_placements(&mut self.buf);
        self.keys.clear();
        for s in &self.buf {
            let m = smarter_measures(state.board(), s);
            self.keys
                .push((-(m.chances as i64), m.points as i64, -(m.kills as i64)));
        }
        match pick_best(self.keys.iter().copied(), rng) {
            Some(i) => Move::Place(self.buf[i].placement),
            None => fallback_move(state, rng),
        }
    }
}

/// Settings of the [`LookaheadBot`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LookaheadConfig {
    /// Placements examined (the best by immediate score).
    pub candidates: usize,
    /// Sampled hands of the next player per decision.
    pub samples: usize,
    /// Weight of the next player's expected best reply.
    pub reply_weight: f64,
    /// Weight of the value of the tiles kept in hand.
    pub leave_weight: f64,
    /// Weight of the mover's own best next placement (after the opponent's greedy reply,
    /// with the kept tiles plus sampled draws); 0 skips that ply.
    pub next_weight: f64,
}

impl Default for LookaheadConfig {
    fn default() -> Self {
        LookaheadConfig {
            candidates: 6,
            samples: 6,
            reply_weight: 0.5,
            leave_weight: 0.3,
            next_weight: 0.5,
        }
    }
}

/// Value of the tiles kept in hand: how well they combine for the next turn. Each pair of
/// kept tiles that could share a line counts 1; each duplicate pair costs 1.
pub fn leave_value(kept: &[Tile]) -> f64 {
    let mut v = 0.0;
    for (i, &a) in kept.iter().enumerate() {
        for &b in &kept[i + 1..] {
            if a == b {
                v -= 1.0;
            } else if a.compatible(b) {
                v += 1.0;
            }
        }
    }
    v
}

/// A lookahead bot: for the best placements by immediate score, it estimates the next
/// player's best reply over sampled hands of that player (hidden tiles resampled from what
/// it cannot see, the same samples for every candidate) and picks the placement maximizing
/// `points - reply_weight * E[best reply] + leave_weight * leave_value(kept tiles)`
/// (+6 and no reply when the placement ends the game).
#[derive(Clone, Debug, Default)]
pub struct LookaheadBot {
    /// Settings.
    pub config: LookaheadConfig,
    buf: Vec<Scored>,
    reply: Vec<Scored>,
    info: Option<SearchInfo>,
}

impl LookaheadBot {
    /// A bot with the default settings.
    pub fn new() -> Self {
        LookaheadBot::default()
    }

    /// A bot with the given settings.
    pub fn with_config(config: LookaheadConfig) -> Self {
        LookaheadBot {
            config,
            ..LookaheadBot::default()
        }
    }
}

impl Agent<Qwirkle> for LookaheadBot {
    fn name(&self) -> String {
        let d = LookaheadConfig::default();
        let c = self.config;
        if c == d {
            "lookahead".into()
        } else {
            format!(
                "lookahead:candidates={}:samples={}:reply={}:leave={}:next={}",
                c.candidates, c.samples, c.reply_weight, c.leave_weight, c.next_weight
            )
        }
    }

    fn choose(&mut self, state: &Qwirkle, budget: &Budget, rng: &mut GameRng) -> Move {
        let start = std::time::Instant::now();
        let Phase::Play { player: me } = state.phase() else {
            return Move::Pass;
        };
        state.scored_placements(&mut self.buf);
        if self.buf.is_empty() {
            return fallback_move(state, rng);
        }
        if state.first_move_size().is_some() || self.buf.len() == 1 {
            let i = pick_best(self.buf.iter().map(|s| s.score), rng).unwrap_or(0);
            return Move::Place(self.buf[i].placement);
        }
        // Best candidates by immediate score (ties in generation order, shuffled first).
        crate::movegen::rank_by_points(&mut self.buf, rng);
        let k = self.config.candidates.max(1).min(self.buf.len());
        // The seat's budget: `nodes` is the number of sampled worlds (else the configured
        // `samples`), `time` stops sampling once spent (after at least one world).
        let samples = budget
            .nodes
            .map_or(self.config.samples as u64, |n| n)
            .max(1);
        let deadline = budget.deadline_from(start);
        let next = me.next(state.num_players());
        let bag_empty = state.bag().total() == 0;
        let n_samples = if bag_empty && state.num_players() == 2 {
            // With an empty bag the opponent's hand is exactly the unseen tiles.
            1
        } else {
            samples
        };
        // Each candidate once: the board after it and the tiles it keeps (`None` when it
        // ends the game, worth its points + 6 with no reply).
        let my_hand = state.hand(me);
        let mut after: Vec<Option<(Board, Vec<Tile>)>> = Vec::with_capacity(k);
        for s in &self.buf[..k] {
            let cells = s.placement.cells();
            let mut kept: Vec<Tile> = my_hand.to_vec();
            for c in cells {
                if let Some(i) = kept.iter().position(|&t| t == c.tile) {
                    kept.remove(i);
                }
            }
            if kept.is_empty() && bag_empty {
                after.push(None);
                continue;
            }
            let mut board = state.board().clone();
            for c in cells {
                board.place(c.x as i32, c.y as i32, c.tile);
            }
            after.push(Some((board, kept)));
        }
        // Worlds (the next player's hand and the mover's next draws) are sampled one at a
        // time and shared by every candidate, so a deadline cuts all candidates alike.
        let mut sums = vec![(0.0f64, 0.0f64); k];
        let mut worlds = 0u64;
        let mut nodes = 0u64;
        let mut mine = Vec::new();
        let mut h = Vec::new();
        let mut draws = Vec::new();
        while worlds < n_samples {
            let d = state.determinize(me, rng);
            let mut bag = *d.bag();
            draws.clear();
            for _ in 0..HAND_SIZE {
                let total = bag.total();
                if total == 0 {
                    break;
                }
                if let Some(t) = bag.nth(rng.random_range(0..total)) {
                    bag.remove(t);
                    draws.push(t);
                }
            }
            h.clear();
            h.extend_from_slice(d.hand(next));
            for (i, a) in after.iter().enumerate() {
                let Some((board, kept)) = a else { continue };
                movegen::placements(board, &h, None, &mut self.reply);
                nodes += 1;
                let best_i = (0..self.reply.len())
                    .max_by_key(|&i| (self.reply[i].score, std::cmp::Reverse(i)));
                let best = best_i.map_or(0, |i| self.reply[i].score);
                // A reply that empties the opponent's hand with the bag empty ends the game.
                let out =
                    bag_empty && best_i.is_some_and(|i| self.reply[i].placement.len() == h.len());
                sums[i].0 += (best + if out { END_BONUS } else { 0 }) as f64;
                if self.config.next_weight != 0.0 && !out {
                    // The mover's next turn after the opponent's greedy reply.
                    let mut b2 = board.clone();
                    if let Some(i) = best_i {
                        for c in self.reply[i].placement.cells() {
                            b2.place(c.x as i32, c.y as i32, c.tile);
                        }
                    }
                    let mut hand2 = kept.clone();
                    hand2.extend(draws.iter().take(HAND_SIZE - kept.len()));
                    movegen::placements(&b2, &hand2, None, &mut mine);
                    nodes += 1;
                    sums[i].1 += mine.iter().map(|r| r.score).max().unwrap_or(0) as f64;
                }
            }
            worlds += 1;
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                break;
            }
        }
        let w = worlds as f64;
        let values: Vec<f64> = self.buf[..k]
            .iter()
            .zip(&after)
            .zip(&sums)
            .map(|((s, a), &(reply, next))| {
                let v = s.score as f64;
                match a {
                    None => v + END_BONUS as f64,
                    Some((_, kept)) => {
                        let mut v = v - self.config.reply_weight * reply / w
                            + self.config.next_weight * next / w;
                        if !bag_empty {
                            v += self.config.leave_weight * leave_value(kept);
                        }
                        v
                    }
                }
            })
            .collect();
        let i = pick_best(values.iter().copied(), rng).unwrap_or(0);
        self.info = Some(SearchInfo {
            depth: 2,
            nodes,
            leaves: nodes,
            value: Some(values[i]),
            elapsed: start.elapsed(),
        });
        Move::Place(self.buf[i].placement)
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.info.clone()
    }
}

/// Appends `:key=value` to `name` if `value` is not the default.
pub(crate) fn differs<T: PartialEq + std::fmt::Display>(
    name: &mut String,
    key: &str,
    value: T,
    default: T,
) {
    if value != default {
        // Writing to a String cannot fail.
        let _ = write!(name, ":{key}={value}");
    }
}
