//! A determinized Monte Carlo player for Qwirkle (`montecarlo`): every candidate placement is
//! played out for a few turns in sampled worlds and valued by the score margin it leads to.
//!
//! A *world* fixes everything the mover cannot see (the other hands and the bag's order,
//! resampled with [`Game::determinize`]) and the chance stream of the play-out. Every
//! candidate is played out in the same worlds (common random numbers), so candidates are
//! compared on equal luck. After the candidate, every player (the mover too) plays the
//! highest-scoring placement (the `points` policy, ties to the first in generation order)
//! for `plies` turns, drawing from the world's bag; the value is the mover's score minus the
//! best other score at the end of the play-out (final scores, with the +6, if the game ends
//! inside it). Worlds are added until the seat's budget runs out: `nodes=N` plays exactly `N`
//! worlds (reproducible), a time budget plays worlds until the time is spent (both may be
//! given: the first reached stops), and a budget with neither is
//! [`Budget::or_default_for_sampling`]'s default time. The bot holds no limits; the registry
//! seats `montecarlo` with `nodes=worlds` (32) when its name gives neither.

use std::time::Instant;

use rand::Rng;
use tessera_core::rng::seeded;
use tessera_core::{Agent, Budget, Game, GameRng, PlayerId, SearchInfo, Turn};

use crate::action::Move;
use crate::board::Board;
use crate::bots::{differs, fallback_move};
use crate::movegen::{self, BestScratch, Scored};
use crate::state::{Phase, Qwirkle};

/// Settings of the [`MonteCarloBot`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MonteCarloConfig {
    /// Placements examined (the best by immediate points).
    pub candidates: usize,
    /// Turns played out after the candidate (all players, the mover included).
    pub plies: usize,
    /// Worlds per decision a seat gets when its specification gives neither `nodes=` nor
    /// `time=` (the registry makes it the seat's node budget; part of the name, unused by
    /// [`Agent::choose`], which reads only the budget it is handed).
    pub worlds: usize,
}

impl Default for MonteCarloConfig {
    fn default() -> Self {
        MonteCarloConfig {
            candidates: 10,
            plies: 4,
            worlds: 32,
        }
    }
}

/// The determinized Monte Carlo player (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct MonteCarloBot {
    /// Settings.
    pub config: MonteCarloConfig,
    cands: Vec<Scored>,
    scratch: BestScratch,
    totals: Vec<f64>,
    info: Option<SearchInfo>,
}

impl MonteCarloBot {
    /// A bot with the default settings.
    pub fn new() -> Self {
        MonteCarloBot::default()
    }

    /// A bot with the given settings.
    pub fn with_config(config: MonteCarloConfig) -> Self {
        MonteCarloBot {
            config,
            ..MonteCarloBot::default()
        }
    }
}

/// A play-out policy for one seat that looks one reply ahead: on its turns it takes, among
/// its `k` best placements by points (ties in generation order, so the greedy choice comes
/// first), the one whose points minus the next player's best reply (that player's
/// highest-scoring placement with the hand it holds in the world, on the board after it) is
/// largest; a placement that ends the game scores its +6 and meets no reply. The other seats
/// keep the `points` policy. Scratch space included, so the play-outs do not allocate once
/// warm.
#[derive(Clone, Debug)]
pub(crate) struct Guard {
    /// The seat it plays for.
    pub me: PlayerId,
    /// Placements weighed on its turns (0 or 1: the `points` policy).
    pub k: usize,
    /// Weight of the learned leave ([`crate::leave`]) of the tiles a placement keeps, added
    /// to its points while the bag holds tiles (0: none). With `k` at most 1 every
    /// placement is weighed.
    pub leave: f64,
    /// The weighted leave of the placement it chose last (0 before its first choice in a
    /// play-out, without `leave`, and once the bag is empty).
    pub last: f64,
    list: Vec<Scored>,
    board: Board,
}

impl Guard {
    /// A guard for `me` weighing `k` placements.
    pub(crate) fn new(me: PlayerId, k: usize) -> Self {
        Guard {
            me,
            k,
            leave: 0.0,
            last: 0.0,
            list: Vec::new(),
            board: Board::new(),
        }
    }

    /// The guarded choice for the player to move in `s` (`me`), or `None` when it has no
    /// placement. Counts its placement searches in `nodes`.
    fn choose(&mut self, s: &Qwirkle, buf: &mut BestScratch, nodes: &mut u64) -> Option<Move> {
        s.scored_placements(&mut self.list);
        *nodes += 1;
        if self.list.is_empty() {
            return None;
        }
        // Stable: equal scores keep the generator's order, the `points` policy's first.
        self.list.sort_by_key(|c| std::cmp::Reverse(c.score));
        let me = self.me;
        let next = me.next(s.num_players());
        let ends = s.bag().total() == 0;
        let learned = self.leave > 0.0 && !ends;
        let weighed = if self.k > 1 {
            self.k
        } else if learned {
            self.list.len()
        } else {
            1
        };
        let mut best = (f64::NEG_INFINITY, 0, 0.0);
        for (i, c) in self.list.iter().take(weighed).enumerate() {
            let leave = if learned {
                s.kept_after(me, &c.placement).map_or(0.0, |kept| {
                    self.leave * crate::leave::value(&crate::leave::WEIGHTS, &kept)
                })
            } else {
                0.0
            };
            let value = if ends && c.placement.len() == s.hand(me).len() {
                f64::from(c.score + 6)
            } else if self.k > 1 {
                self.board.clone_from(s.board());
                for cell in c.placement.cells() {
                    self.board
                        .place(i32::from(cell.x), i32::from(cell.y), cell.tile);
                }
                *nodes += 1;
                let reply = movegen::best_placement(&self.board, s.hand(next), None, buf)
                    .map_or(0, |b| b.score);
                f64::from(c.score - reply) + leave
            } else {
                f64::from(c.score) + leave
            };
            if value > best.0 {
                best = (value, i, leave);
            }
        }
        self.last = best.2;
        Some(Move::Place(self.list[best.1].placement))
    }
}

/// Plays the `points` policy (every player its highest-scoring placement, ties to the first
/// generated) from `s` for `plies` turns, or, with `to_end_once_bag_empty`, on to the end of
/// the game once the bag is empty; chance from `rng`. Returns the number of placement
/// searches. Shared by `montecarlo`, `seer` and `sage`. The best placement is found by
/// [`crate::movegen::best_placement`], which chooses exactly what generating every
/// placement and keeping the first best would.
pub(crate) fn play_out_until(
    s: &mut Qwirkle,
    plies: usize,
    to_end_once_bag_empty: bool,
    rng: &mut GameRng,
    buf: &mut BestScratch,
) -> u64 {
    play_out_guarded(s, plies, to_end_once_bag_empty, rng, buf, None)
}

/// [`play_out_until`], with the turns of `guard`'s seat chosen by the [`Guard`] when it
/// weighs more than one placement.
pub(crate) fn play_out_guarded(
    s: &mut Qwirkle,
    plies: usize,
    to_end_once_bag_empty: bool,
    rng: &mut GameRng,
    buf: &mut BestScratch,
    guard: Option<&mut Guard>,
) -> u64 {
    play_turns(s, plies, to_end_once_bag_empty, rng, buf, guard, None).0
}

/// Whether a play-out that has played `turns` turns stops at the player turn of `s`: after
/// `plies` turns, unless the bag is empty and it runs on to the end.
fn at_horizon(s: &Qwirkle, turns: usize, plies: usize, to_end_once_bag_empty: bool) -> bool {
    turns >= plies && !(to_end_once_bag_empty && s.bag().total() == 0)
}

/// The play-outs' loop ([`play_out_guarded`]), which also stops before a turn of `stop`'s
/// seat when given. Returns the placement searches and the turns played.
fn play_turns(
    s: &mut Qwirkle,
    plies: usize,
    to_end_once_bag_empty: bool,
    rng: &mut GameRng,
    buf: &mut BestScratch,
    mut guard: Option<&mut Guard>,
    stop: Option<PlayerId>,
) -> (u64, usize) {
    let mut turns = 0;
    let mut nodes = 0;
    loop {
        match s.turn() {
            Turn::Terminal => return (nodes, turns),
            Turn::Chance => {
                // The same tiles as `sample_chance` + `apply_chance`, without allocating.
                if !s.apply_random_draw(rng) {
                    return (nodes, turns);
                }
            }
            Turn::Player(p) => {
                if at_horizon(s, turns, plies, to_end_once_bag_empty) || stop == Some(p) {
                    return (nodes, turns);
                }
                turns += 1;
                let chosen = match guard.as_deref_mut() {
                    Some(g) if (g.k > 1 || g.leave > 0.0) && g.me == p => {
                        g.choose(s, buf, &mut nodes)
                    }
                    _ => {
                        nodes += 1;
                        s.best_placement(buf).map(|b| Move::Place(b.placement))
                    }
                };
                let m = match chosen {
                    Some(m) => m,
                    None => fallback_move(s, rng),
                };
                s.apply(m);
            }
        }
    }
}

/// Plays candidate `m` in a sampled world: `s` becomes `world` after `m`, then the `points`
/// policy plays `plies` turns (on to the end once the bag is empty with `to_end`) drawing
/// from the world's own chance stream, derived from `world_seed` and so the same for every
/// candidate (common random numbers); `guard`, if given, chooses its seat's turns. Returns
/// the number of placement searches.
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_candidate(
    s: &mut Qwirkle,
    world: &Qwirkle,
    world_seed: u64,
    m: Move,
    plies: usize,
    to_end: bool,
    buf: &mut BestScratch,
    mut guard: Option<&mut Guard>,
) -> u64 {
    let mut chance = start_candidate(s, world, world_seed, m, guard.as_deref_mut(), buf);
    let nodes = play_out_guarded(s, plies, to_end, &mut chance, buf, guard);
    buf.break_ties(None);
    nodes
}

/// Scratch space of [`play_candidate_own`]: the bot's placements at its searched turn and
/// the states of the continuations, kept between calls so the play-outs do not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct OwnScratch {
    list: Vec<Scored>,
    best: Option<Qwirkle>,
    tmp: Option<Qwirkle>,
}

/// [`play_candidate`] (no guard) with one own turn searched: the play-out runs greedily
/// until `me` is to move again, then each of `me`'s `k` best placements by points (the
/// greedy choice first, ties in the generator's order) is played out greedily for the rest
/// of the `plies` turns (on the same chance stream, so every continuation draws the same
/// tiles), and `s` becomes the continuation whose `value` is largest (the first on ties).
/// With `k` at most 1, or when the bot has at most one placement there, it is
/// [`play_candidate`]. With `ties` the continuations draw their tie-breaks one after the
/// other from the world's tie stream. Returns the number of placement searches.
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_candidate_own(
    s: &mut Qwirkle,
    world: &Qwirkle,
    world_seed: u64,
    m: Move,
    plies: usize,
    to_end: bool,
    buf: &mut BestScratch,
    (me, k): (PlayerId, usize),
    own: &mut OwnScratch,
    value: &dyn Fn(&Qwirkle) -> f64,
) -> u64 {
    let mut chance = start_candidate(s, world, world_seed, m, None, buf);
    // Greedy turns of the other seats until the bot is to move (or the play-out ends).
    let (mut nodes, turns) = play_turns(s, plies, to_end, &mut chance, buf, None, Some(me));
    if s.turn() != Turn::Player(me) || at_horizon(s, turns, plies, to_end) {
        buf.break_ties(None);
        return nodes;
    }
    s.scored_placements(&mut own.list);
    nodes += 1;
    if k <= 1 || own.list.len() <= 1 {
        let rest = plies.saturating_sub(turns);
        nodes += play_out_guarded(s, rest, to_end, &mut chance, buf, None);
        buf.break_ties(None);
        return nodes;
    }
    // Stable: equal scores keep the generator's order, the greedy choice first.
    own.list.sort_by_key(|c| std::cmp::Reverse(c.score));
    let rest = plies.saturating_sub(turns + 1);
    let best = own.best.get_or_insert_with(|| s.clone());
    let tmp = own.tmp.get_or_insert_with(|| s.clone());
    let mut best_value = f64::NEG_INFINITY;
    for c in own.list.iter().take(k) {
        tmp.clone_from(s);
        let mut r = chance.clone();
        tmp.apply(Move::Place(c.placement));
        nodes += play_out_guarded(tmp, rest, to_end, &mut r, buf, None);
        let v = value(tmp);
        if v > best_value {
            best_value = v;
            std::mem::swap(best, tmp);
        }
    }
    s.clone_from(best);
    buf.break_ties(None);
    nodes
}

/// `s` becomes `world` after `m`, the guard's last leave is reset, and the world's chance
/// stream (the same for every candidate) is returned.
fn start_candidate(
    s: &mut Qwirkle,
    world: &Qwirkle,
    world_seed: u64,
    m: Move,
    guard: Option<&mut Guard>,
    buf: &mut BestScratch,
) -> GameRng {
    s.clone_from(world);
    s.apply(m);
    if let Some(g) = guard {
        g.last = 0.0;
    }
    // Ties broken at random draw from a stream of their own, the same for every candidate
    // in the world, so the chance stream stays common to the candidates.
    buf.break_ties(
        buf.play_out_ties
            .then(|| seeded(world_seed ^ 0x5851_f42d_4c95_7f2d)),
    );
    seeded(world_seed ^ 0x9e37_79b9_7f4a_7c15)
}

/// [`play_candidate`] in two legs on the same chance stream: `first` turns, then `mid` sees
/// the state, then `then` turns more. The state it ends in is the one [`play_candidate`]
/// with `first + then` turns reaches (a leg that meets an empty bag with `to_end` runs to
/// the end of the game, and the next then has nothing to play). Returns the number of
/// placement searches.
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_candidate_split(
    s: &mut Qwirkle,
    world: &Qwirkle,
    world_seed: u64,
    m: Move,
    (first, then): (usize, usize),
    to_end: bool,
    buf: &mut BestScratch,
    mut guard: Option<&mut Guard>,
    mid: &mut dyn FnMut(&Qwirkle),
) -> u64 {
    let mut chance = start_candidate(s, world, world_seed, m, guard.as_deref_mut(), buf);
    let mut nodes = play_out_guarded(s, first, to_end, &mut chance, buf, guard.as_deref_mut());
    mid(s);
    nodes += play_out_guarded(s, then, to_end, &mut chance, buf, guard);
    buf.break_ties(None);
    nodes
}

/// The mover's score minus the best other score (shared by `montecarlo` and `seer`).
pub(crate) fn margin(s: &Qwirkle, me: PlayerId) -> f64 {
    let scores = s.scores();
    let mine = scores[me];
    let best_other = PlayerId::all(s.num_players())
        .filter(|&p| p != me)
        .map(|p| scores[p])
        .max()
        .unwrap_or(0);
    f64::from(mine - best_other)
}

/// [`margin`], plus `win` points when the game is over and `me` has won (minus `win` when it
/// has lost; nothing for a tie): a search that wants the win, not only the points, values a
/// finished play-out with it (`win = 0`: the margin alone, bit for bit).
pub(crate) fn outcome(s: &Qwirkle, me: PlayerId, win: f64) -> f64 {
    let m = margin(s, me);
    if win == 0.0 || !s.is_terminal() {
        return m;
    }
    if m > 0.0 {
        m + win
    } else if m < 0.0 {
        m - win
    } else {
        m
    }
}

impl Agent<Qwirkle> for MonteCarloBot {
    fn name(&self) -> String {
        let d = MonteCarloConfig::default();
        let c = self.config;
        let mut name = String::from("montecarlo");
        differs(&mut name, "candidates", c.candidates, d.candidates);
        differs(&mut name, "plies", c.plies, d.plies);
        differs(&mut name, "worlds", c.worlds, d.worlds);
        name
    }

    fn choose(&mut self, state: &Qwirkle, budget: &Budget, rng: &mut GameRng) -> Move {
        let start = Instant::now();
        let Phase::Play { player: me } = state.phase() else {
            return Move::Pass;
        };
        state.scored_placements(&mut self.cands);
        if self.cands.is_empty() {
            return fallback_move(state, rng);
        }
        // Best candidates by immediate score; exact ties in random order.
        movegen::rank_by_points(&mut self.cands, rng);
        if state.first_move_size().is_some() || self.cands.len() == 1 {
            return Move::Place(self.cands[0].placement);
        }
        let k = self.config.candidates.max(1).min(self.cands.len());
        // The seat's budget alone decides (a server's cap must hold).
        let budget = budget.or_default_for_sampling();
        let deadline = budget.deadline_from(start);
        let world_limit = budget.nodes.map_or(u64::MAX, |n| n.max(1));
        self.totals.clear();
        self.totals.resize(k, 0.0);
        let mut worlds = 0u64;
        let mut nodes = 0u64;
        let mut s = state.clone();
        while worlds < world_limit {
            let world_seed: u64 = rng.random();
            let base = state.determinize(me, &mut seeded(world_seed));
            for i in 0..k {
                let m = Move::Place(self.cands[i].placement);
                let plies = self.config.plies;
                nodes += play_candidate(
                    &mut s,
                    &base,
                    world_seed,
                    m,
                    plies,
                    false,
                    &mut self.scratch,
                    None,
                );
                self.totals[i] += margin(&s, me);
            }
            worlds += 1;
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        // The best mean; ties go to the higher immediate score (earlier candidate).
        let mut best = 0;
        for i in 1..k {
            if self.totals[i] > self.totals[best] {
                best = i;
            }
        }
        self.info = Some(SearchInfo {
            depth: self.config.plies as u32,
            nodes,
            leaves: worlds * k as u64,
            value: Some(self.totals[best] / worlds.max(1) as f64),
            elapsed: start.elapsed(),
        });
        Move::Place(self.cands[best].placement)
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.info.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_positions::{dealt, middle_game};

    #[test]
    fn the_outcome_adds_the_win_bonus_only_to_a_finished_game() {
        let mut buf = BestScratch::new();
        let mut decided = 0;
        for seed in 0..6 {
            let mut g = dealt(seed, 2);
            // Unfinished: the margin alone, whatever the bonus.
            play_out_until(&mut g, 6, false, &mut seeded(seed), &mut buf);
            assert!(!g.is_terminal());
            for p in PlayerId::all(2) {
                assert_eq!(outcome(&g, p, 25.0), margin(&g, p));
            }
            play_out_until(&mut g, usize::MAX, true, &mut seeded(seed), &mut buf);
            assert!(g.is_terminal(), "seed {seed}");
            let (a, b) = (margin(&g, PlayerId(0)), margin(&g, PlayerId(1)));
            assert_eq!(a, -b);
            assert_eq!(outcome(&g, PlayerId(0), 0.0), a);
            if a == 0.0 {
                assert_eq!(outcome(&g, PlayerId(0), 25.0), 0.0);
                continue;
            }
            // The winner gains the bonus, the loser loses it.
            let (w, l) = if a > 0.0 {
                (PlayerId(0), PlayerId(1))
            } else {
                (PlayerId(1), PlayerId(0))
            };
            assert_eq!(outcome(&g, w, 25.0), margin(&g, w) + 25.0);
            assert_eq!(outcome(&g, l, 25.0), margin(&g, l) - 25.0);
            let end = g
                .outcome()
                .unwrap_or_else(|| panic!("seed {seed}: no outcome"));
            assert!(end.is_sole_winner(w), "seed {seed}");
            decided += 1;
        }
        assert!(decided >= 4, "only {decided} decided games");
    }

    /// The guard's choice, computed independently: every placement applied to the whole
    /// state (the score change includes the +6 of going out), the reply found by the state's
    /// own greedy search after a draw.
    fn guarded_by_hand(g: &Qwirkle, me: PlayerId, k: usize) -> Move {
        let mut all = Vec::new();
        g.scored_placements(&mut all);
        all.sort_by_key(|c| std::cmp::Reverse(c.score));
        let mut buf = BestScratch::new();
        let mut best: Option<(i32, Move)> = None;
        for c in all.iter().take(k) {
            let mut t = g.clone();
            let before = t.scores()[me];
            t.apply(Move::Place(c.placement));
            while t.turn() == Turn::Chance {
                assert!(t.apply_random_draw(&mut seeded(1)));
            }
            let gained = t.scores()[me] - before;
            let reply = match t.turn() {
                Turn::Player(p) => {
                    assert_ne!(p, me);
                    t.best_placement(&mut buf).map_or(0, |b| b.score)
                }
                _ => 0,
            };
            if best.is_none_or(|(v, _)| gained - reply > v) {
                best = Some((gained - reply, Move::Place(c.placement)));
            }
        }
        best.map(|(_, m)| m).unwrap_or(Move::Pass)
    }

    #[test]
    fn a_learned_leave_turn_takes_the_best_points_plus_the_weighted_leave() {
        let mut buf = BestScratch::new();
        let (mut checked, mut differ) = (0, 0);
        for seed in 0..40u64 {
            let g = middle_game(seed, 4 + (seed as usize % 9));
            let Turn::Player(me) = g.turn() else { continue };
            if g.bag().total() == 0 {
                continue;
            }
            let greedy = g.best_placement(&mut buf).map(|b| Move::Place(b.placement));
            let Some(greedy) = greedy else { continue };
            // Independently: every placement applied to a copy, the kept tiles read from
            // the hand it leaves before the draw.
            let mut all = Vec::new();
            g.scored_placements(&mut all);
            let mut best: Option<(f64, Move)> = None;
            for c in &all {
                let mut t = g.clone();
                let before = t.scores()[me];
                t.apply(Move::Place(c.placement));
                let points = f64::from(t.scores()[me] - before);
                let kept: Vec<_> = t.hand(me).to_vec();
                let v = points + 2.0 * crate::leave::value(&crate::leave::WEIGHTS, &kept);
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, Move::Place(c.placement)));
                }
            }
            let mut guard = Guard::new(me, 0);
            guard.leave = 2.0;
            let mut nodes = 0;
            let chosen = guard.choose(&g, &mut buf, &mut nodes);
            let (value, by_hand) = best.expect("placements");
            // Equal values may break ties differently: compare the values.
            let c = all
                .iter()
                .find(|c| chosen == Some(Move::Place(c.placement)))
                .expect("a placement of the list");
            let kept = g.kept_after(me, &c.placement).expect("the hand holds it");
            let leave = 2.0 * crate::leave::value(&crate::leave::WEIGHTS, &kept);
            let chosen_value = f64::from(c.score) + leave;
            assert!(
                (chosen_value - value).abs() < 1e-9,
                "seed {seed}: {chosen:?} against {by_hand:?}"
            );
            assert!(
                (guard.last - leave).abs() < 1e-9,
                "seed {seed}: the leave kept"
            );
            differ += usize::from(chosen != Some(greedy));
            checked += 1;
        }
        assert!(checked >= 25, "only {checked} positions");
        assert!(
            differ >= 3,
            "the learned leave never changed the greedy choice ({differ})"
        );
    }

    #[test]
    fn a_guarded_turn_takes_the_best_points_less_the_next_players_best_reply() {
        let mut buf = BestScratch::new();
        let (mut checked, mut differ, mut endings) = (0, 0, 0);
        for seed in 0..60u64 {
            let g = match seed % 3 {
                0 => middle_game(seed, 4 + (seed as usize % 9)),
                _ => match crate::test_positions::endgame(seed, seed as usize % 3) {
                    Some(g) => g,
                    None => continue,
                },
            };
            let Turn::Player(me) = g.turn() else { continue };
            let greedy = g.best_placement(&mut buf).map(|b| Move::Place(b.placement));
            let Some(greedy) = greedy else { continue };
            for k in [1, 4, 12] {
                let mut nodes = 0;
                let chosen = Guard::new(me, k).choose(&g, &mut buf, &mut nodes);
                assert_eq!(
                    chosen,
                    Some(guarded_by_hand(&g, me, k)),
                    "seed {seed}, k {k}"
                );
                if k == 1 {
                    // One placement weighed: the greedy policy's own choice.
                    assert_eq!(chosen, Some(greedy), "seed {seed}");
                } else if chosen != Some(greedy) {
                    differ += 1;
                }
            }
            endings += usize::from(g.bag().total() == 0);
            checked += 1;
        }
        assert!(checked >= 40, "only {checked} positions");
        assert!(endings >= 10, "only {endings} positions with the bag empty");
        assert!(
            differ >= 5,
            "the guard never changed the greedy choice ({differ})"
        );
    }

    /// One turn of the `points` policy by the public interface: the first highest-scoring
    /// placement in the generator's order (or the rules' fallback), then its draw.
    fn greedy_turn_by_hand(t: &mut Qwirkle, chance: &mut GameRng) {
        let mut all = Vec::new();
        t.scored_placements(&mut all);
        let best = all.iter().fold(None::<&Scored>, |b, c| match b {
            Some(b) if b.score >= c.score => Some(b),
            _ => Some(c),
        });
        let m = best.map_or_else(|| fallback_move(t, chance), |c| Move::Place(c.placement));
        t.apply(m);
        draws_by_hand(t, chance);
    }

    fn draws_by_hand(t: &mut Qwirkle, chance: &mut GameRng) {
        while t.turn() == Turn::Chance {
            let d = t.sample_chance(chance);
            t.apply_chance(&d).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    /// Greedy turns by hand until `plies` turns are played (on to the end once the bag is
    /// empty), counting from `turns`.
    fn rest_by_hand(t: &mut Qwirkle, chance: &mut GameRng, mut turns: usize, plies: usize) {
        while let Turn::Player(_) = t.turn() {
            if turns >= plies && t.bag().total() > 0 {
                return;
            }
            turns += 1;
            greedy_turn_by_hand(t, chance);
        }
    }

    /// [`play_candidate_own`]'s margin for `me`, computed independently: the candidate, the
    /// other player's greedy turn, then each of `me`'s `k` best placements (stable order by
    /// points) played out greedily to the horizon by the public interface, the best margin.
    fn own_by_hand(
        world: &Qwirkle,
        seed: u64,
        m: Move,
        plies: usize,
        me: PlayerId,
        k: usize,
    ) -> f64 {
        let mut chance = seeded(seed ^ 0x9e37_79b9_7f4a_7c15);
        let mut t = world.clone();
        t.apply(m);
        draws_by_hand(&mut t, &mut chance);
        let mut turns = 0;
        while let Turn::Player(p) = t.turn() {
            if p == me || (turns >= plies && t.bag().total() > 0) {
                break;
            }
            turns += 1;
            greedy_turn_by_hand(&mut t, &mut chance);
        }
        if t.turn() != Turn::Player(me) || (turns >= plies && t.bag().total() > 0) {
            return margin(&t, me);
        }
        let mut all = Vec::new();
        t.scored_placements(&mut all);
        if all.is_empty() {
            rest_by_hand(&mut t, &mut chance, turns, plies);
            return margin(&t, me);
        }
        all.sort_by_key(|c| std::cmp::Reverse(c.score));
        all.iter()
            .take(k.max(1))
            .map(|c| {
                let mut u = t.clone();
                let mut r = chance.clone();
                u.apply(Move::Place(c.placement));
                draws_by_hand(&mut u, &mut r);
                rest_by_hand(&mut u, &mut r, turns + 1, plies);
                margin(&u, me)
            })
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn a_searched_own_turn_keeps_the_best_of_its_continuations() {
        let mut buf = BestScratch::new();
        let mut own = OwnScratch::default();
        let (mut checked, mut better, mut late) = (0, 0, 0);
        for seed in 0..48u64 {
            let world = match seed % 4 {
                3 => match crate::test_positions::endgame(seed, 0) {
                    Some(g) => g,
                    None => continue,
                },
                // Late in the game too: the bag nearly empty, play-outs run on to the end.
                2 => middle_game(seed, 28 + (seed as usize % 8)),
                _ => middle_game(seed, 3 + (seed as usize % 12)),
            };
            let Turn::Player(me) = world.turn() else {
                continue;
            };
            let mut all = Vec::new();
            world.scored_placements(&mut all);
            all.sort_by_key(|c| std::cmp::Reverse(c.score));
            for (i, c) in all.iter().take(3).enumerate() {
                let m = Move::Place(c.placement);
                let wseed = seed * 7 + i as u64;
                let value = |t: &Qwirkle| margin(t, me);
                let mut greedy = Qwirkle::new(2).unwrap_or_else(|e| panic!("{e}"));
                play_candidate(&mut greedy, &world, wseed, m, 4, true, &mut buf, None);
                for k in [1, 4] {
                    let mut s = Qwirkle::new(2).unwrap_or_else(|e| panic!("{e}"));
                    play_candidate_own(
                        &mut s,
                        &world,
                        wseed,
                        m,
                        4,
                        true,
                        &mut buf,
                        (me, k),
                        &mut own,
                        &value,
                    );
                    assert_eq!(
                        margin(&s, me),
                        own_by_hand(&world, wseed, m, 4, me, k),
                        "seed {seed}, candidate {i}, k {k}"
                    );
                    if k == 1 {
                        // One placement weighed: the greedy play-out, state for state.
                        assert_eq!(s, greedy, "seed {seed}, candidate {i}");
                    } else {
                        assert!(margin(&s, me) >= margin(&greedy, me), "seed {seed}");
                        better += usize::from(margin(&s, me) > margin(&greedy, me));
                    }
                }
                late += usize::from(world.bag().total() < 12);
                checked += 1;
            }
        }
        assert!(checked >= 90, "only {checked} play-outs");
        assert!(late >= 20, "only {late} play-outs late in the game");
        assert!(
            better >= 20,
            "the searched turn bettered the greedy one {better} times"
        );
    }

    #[test]
    fn a_node_budget_gives_the_same_move_for_the_same_seed() {
        let g = middle_game(11, 6);
        assert!(matches!(g.turn(), Turn::Player(_)));
        let budget = Budget::nodes(8);
        let a = MonteCarloBot::new().choose(&g, &budget, &mut seeded(5));
        let b = MonteCarloBot::new().choose(&g, &budget, &mut seeded(5));
        assert_eq!(a, b);
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        assert!(legal.contains(&a));
    }

    #[test]
    fn the_node_budget_is_the_number_of_worlds() {
        let g = middle_game(3, 8);
        let mut bot = MonteCarloBot::new();
        bot.choose(&g, &Budget::nodes(5), &mut seeded(1));
        let info = bot.last_info().unwrap_or_default();
        let mut all = Vec::new();
        g.scored_placements(&mut all);
        let k = bot.config.candidates.min(all.len()) as u64;
        assert_eq!(info.leaves, 5 * k, "5 worlds x {k} candidates");
        assert!(
            info.nodes >= info.leaves,
            "every play-out generates placements"
        );
    }

    #[test]
    fn a_time_budget_binds_and_an_empty_or_depth_budget_gets_the_default_time() {
        let g = middle_game(3, 8);
        let mut bot = MonteCarloBot::new();
        for budget in [
            Budget::time(std::time::Duration::from_millis(30)),
            Budget::default(),
            Budget::depth(3),
        ] {
            let allowed = budget.or_default_for_sampling().time.unwrap_or_default();
            let t = Instant::now();
            bot.choose(&g, &budget, &mut seeded(1));
            let took = t.elapsed();
            // One world past the deadline at most: far under 200 ms more on any machine.
            assert!(took >= allowed, "{budget:?}: stopped early, {took:?}");
            assert!(
                took < allowed + std::time::Duration::from_millis(200),
                "{budget:?}: {took:?}"
            );
            assert!(bot.last_info().unwrap_or_default().leaves > 0);
        }
    }

    #[test]
    fn a_placement_that_ends_the_game_with_the_last_tiles_is_taken() {
        // Play points-vs-points games until the bag is empty and the mover can go out with
        // clearly the best score; going out scores +6 and ends the game, which every
        // play-out sees.
        for seed in 0..40 {
            let mut g = dealt(seed, 2);
            let mut rng = seeded(seed + 100);
            let mut buf = Vec::new();
            let mut best = BestScratch::new();
            while g.turn() != Turn::Terminal {
                if let Turn::Player(p) = g.turn()
                    && g.bag().total() == 0
                {
                    g.scored_placements(&mut buf);
                    let hand = g.hand(p).len();
                    let outs: Vec<i32> = buf
                        .iter()
                        .filter(|s| s.placement.len() == hand)
                        .map(|s| s.score)
                        .collect();
                    let best_other = buf
                        .iter()
                        .filter(|s| s.placement.len() < hand)
                        .map(|s| s.score)
                        .max()
                        .unwrap_or(0);
                    // Going out scores more than any other placement (its points plus 6)
                    // and leaves the opponent no turn.
                    if let Some(&out) = outs.iter().max()
                        && out + 6 > best_other + 2
                    {
                        let m = MonteCarloBot::new().choose(&g, &Budget::nodes(4), &mut rng);
                        let Move::Place(pl) = m else {
                            panic!("expected a placement, got {m}");
                        };
                        assert_eq!(pl.len(), hand, "seed {seed}: going out is clearly best");
                        return;
                    }
                }
                play_out_until(&mut g, 1, false, &mut rng, &mut best);
            }
        }
        panic!("no position where going out is clearly best in 40 games");
    }
}
