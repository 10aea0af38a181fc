//! `sage`: `seer`'s determinized search with three additions for strength at every table
//! size.
//!
//! - **Play-outs long enough to reach the bot's own next turn at every table size**: `plies`
//!   turns at two players and two more for every further seat (4, 6, 8), so at four seats
//!   the play-out sees the reply of every opponent and the bot's own follow-up.
//! - **A leave value at the end of every play-out** that does not end the game: the margin
//!   plus `leave x (leave_value(own hand) - the best other hand's leave_value)`
//!   ([`crate::bots::leave_value`]: pairs of tiles that can share a line count 1, duplicate
//!   pairs cost 1), so a play-out that ends on a hand of tiles that combine is worth more.
//! - **An exact endgame at two players**: once the bag is empty the opponent's hand is
//!   known by elimination, so the position has no hidden information left. The bot then
//!   searches it with alpha-beta (minimax on the score margin, both players' placements in
//!   order of points, every own placement at the root, the best `width` of its own below
//!   and the other player's best `replies`), `endgame` turns deep, and values the leaves by
//!   playing the `points` policy to the end of the game (the +6 for going out and a blocked
//!   end included). By default (`replies=1`, since 2026-11-28) the other player is
//!   modelled as the play-outs model it, playing its highest-scoring placement, which
//!   leaves room for six turns (`endgame=6`) within 1024 nodes a world (`endnodes`). At
//!   three and four seats the unseen tiles' split between the opponents stays unknown, so
//!   `seer`'s sampled worlds (played out to the end) are used there.
//!
//! - **Optionally, a win bonus** (`win`, default 0): a play-out or an exact-endgame leaf that
//!   ends the game is valued at its margin plus `win` when won and minus `win` when lost
//!   (`mc::outcome`), so the search prefers a likelier win to a larger margin.
//!
//! Budgets come only from `choose`'s budget: `nodes=N` plays N worlds for every candidate
//! (as `seer`) and allows `N x endnodes` search nodes in the exact endgame
//! (`ENDGAME_NODES_PER_WORLD` by default; both reproducible), `time=T` bounds both by the
//! clock; without either `worlds` worlds.

use std::time::Instant;

use tessera_core::rng::seeded;
use tessera_core::{Agent, Budget, Game, GameRng, PlayerId, SearchInfo, Turn};

use crate::action::Move;
use crate::bots::{differs, fallback_move};
use crate::mc::{outcome, play_out_until};
use crate::movegen::{BestScratch, Scored};
use crate::seer::{SeerBot, SeerConfig, settings_suffix};
use crate::state::{Phase, Qwirkle};

/// Exact-endgame search nodes allowed per world of a `nodes` budget, by default.
pub const ENDGAME_NODES_PER_WORLD: u64 = 1024;

/// Settings of the [`SageBot`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SageConfig {
    /// The search's settings (`plies` is the count at two players).
    pub seer: SeerConfig,
    /// Turns of the exact endgame search before the play-out (0: no exact endgame; `seer`'s
    /// sampled worlds then).
    pub depth: usize,
    /// Own placements searched at every node below the root of the exact endgame (the
    /// best by points).
    pub width: usize,
    /// The other player's placements searched at its nodes of the exact endgame (the best
    /// by points; 0: `width`).
    pub replies: usize,
    /// Exact-endgame search nodes allowed per world of a `nodes` budget.
    pub endnodes: u64,
}

impl Default for SageConfig {
    fn default() -> Self {
        SageConfig {
            seer: SeerConfig {
                candidates: 12,
                leave: 1.0,
                ..SeerConfig::default()
            },
            depth: 6,
            width: 8,
            replies: 1,
            endnodes: ENDGAME_NODES_PER_WORLD,
        }
    }
}

impl SageConfig {
    /// The other player's placements searched at its nodes of the exact endgame.
    pub fn replies(&self) -> usize {
        if self.replies == 0 {
            self.width
        } else {
            self.replies
        }
    }

    /// The play-out length at a table of `players`: `plies` plus two a seat beyond two.
    pub fn plies_at(&self, players: usize) -> usize {
        self.seer.plies + 2 * players.saturating_sub(2)
    }
}

/// The `sage` player (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct SageBot {
    /// Settings.
    pub config: SageConfig,
    seer: SeerBot,
    end: Endgame,
    root: Vec<Scored>,
    info: Option<SearchInfo>,
}

impl SageBot {
    /// A bot with the default settings.
    pub fn new() -> Self {
        SageBot::with_config(SageConfig::default())
    }

    /// A bot with the given settings.
    pub fn with_config(config: SageConfig) -> Self {
        SageBot {
            config,
            seer: SeerBot::with_config(config.seer),
            end: Endgame::default(),
            root: Vec::new(),
            info: None,
        }
    }

    /// Tells the search what an analysis harness knows of the other player's hand (see
    /// [`crate::seer::Oracle`]).
    pub fn set_oracle(&mut self, oracle: crate::seer::Oracle) {
        self.seer.set_oracle(oracle);
    }
}

/// The exact endgame search's scratch space and counters.
#[derive(Clone, Debug, Default)]
struct Endgame {
    /// Placements generated at each ply of the search.
    plies: Vec<Vec<Scored>>,
    scratch: BestScratch,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    width: usize,
    replies: usize,
    /// The win bonus of `mc::outcome`.
    win: f64,
}

impl Endgame {
    /// Leaves and nodes past the limit are valued by the points policy played to the end.
    fn play_to_end(&mut self, s: &Qwirkle, me: PlayerId) -> f64 {
        let mut t = s.clone();
        // The bag is empty: nothing is drawn, the chance stream is never read.
        play_out_until(&mut t, 0, true, &mut seeded(0), &mut self.scratch);
        outcome(&t, me, self.win)
    }

    /// Alpha-beta on `me`'s score margin (with the win bonus at finished games,
    /// `mc::outcome`), `depth` turns, from `s` (`ply`: the distance from the root, which
    /// picks the placement buffer).
    fn search(
        &mut self,
        s: &Qwirkle,
        me: PlayerId,
        depth: usize,
        ply: usize,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        let Turn::Player(p) = s.turn() else {
            return outcome(s, me, self.win);
        };
        self.nodes += 1;
        if !self.stopped
            && (self.nodes >= self.limit || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        if depth == 0 || self.stopped {
            return self.play_to_end(s, me);
        }
        if self.plies.len() <= ply {
            self.plies.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.plies[ply]);
        s.scored_placements(&mut moves);
        let value = if moves.is_empty() {
            // No placement with the bag empty: a pass.
            let mut t = s.clone();
            t.apply(Move::Pass);
            self.search(&t, me, depth - 1, ply + 1, alpha, beta)
        } else {
            moves.sort_by_key(|m| std::cmp::Reverse(m.score));
            let maximize = p == me;
            moves.truncate(if maximize { self.width } else { self.replies }.max(1));
            let mut best = if maximize {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            for m in &moves {
                let mut t = s.clone();
                t.apply(Move::Place(m.placement));
                let v = self.search(&t, me, depth - 1, ply + 1, alpha, beta);
                if maximize {
                    best = best.max(v);
                    alpha = alpha.max(v);
                } else {
                    best = best.min(v);
                    beta = beta.min(v);
                }
                if alpha >= beta {
                    break;
                }
            }
            best
        };
        self.plies[ply] = moves;
        value
    }

    /// The best own placement of the exact position `s` (two players, bag empty) with its
    /// value; every own placement is tried at the root, in order of points.
    fn root(
        &mut self,
        s: &Qwirkle,
        me: PlayerId,
        placements: &[Scored],
        depth: usize,
    ) -> (usize, f64) {
        let mut best = (0, f64::NEG_INFINITY);
        for (i, m) in placements.iter().enumerate() {
            if i > 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
                // Out of time: the rest (fewer points) stay untried. Past a node limit
                // they are still valued, each by one play-out to the end.
                break;
            }
            let mut t = s.clone();
            t.apply(Move::Place(m.placement));
            // Only moves better than the best so far matter: a null window from below.
            let v = self.search(&t, me, depth.saturating_sub(1), 1, best.1, f64::INFINITY);
            if v > best.1 {
                best = (i, v);
            }
        }
        best
    }
}

impl Agent<Qwirkle> for SageBot {
    fn name(&self) -> String {
        let d = SageConfig::default();
        let c = &self.config;
        let mut name = format!("sage{}", settings_suffix(&c.seer, &d.seer));
        differs(&mut name, "endgame", c.depth, d.depth);
        differs(&mut name, "width", c.width, d.width);
        differs(&mut name, "replies", c.replies, d.replies);
        differs(&mut name, "endnodes", c.endnodes, d.endnodes);
        name
    }

    fn reset(&mut self) {
        self.seer.reset();
        self.info = None;
    }

    fn choose(&mut self, state: &Qwirkle, budget: &Budget, rng: &mut GameRng) -> Move {
        let start = Instant::now();
        let Phase::Play { player: me } = state.phase() else {
            return Move::Pass;
        };
        let exact = self.config.depth > 0 && state.num_players() == 2 && state.bag().total() == 0;
        if !exact {
            self.seer.config = self.config.seer;
            self.seer.config.plies = self.config.plies_at(state.num_players());
            let m = self.seer.choose(state, budget, rng);
            self.info = self.seer.last_info();
            return m;
        }
        let mut placements = std::mem::take(&mut self.root);
        state.scored_placements(&mut placements);
        if placements.len() <= 1 {
            let m = placements
                .first()
                .map_or_else(|| fallback_move(state, rng), |p| Move::Place(p.placement));
            self.root = placements;
            self.info = None;
            return m;
        }
        placements.sort_by_key(|m| std::cmp::Reverse(m.score));
        let per_world = self.config.endnodes.max(1);
        let worlds = budget
            .nodes
            .unwrap_or(if budget.time.is_some() {
                u64::MAX / per_world
            } else {
                self.config.seer.worlds as u64
            })
            .max(1);
        self.end.nodes = 0;
        self.end.limit = worlds.saturating_mul(per_world);
        self.end.deadline = budget.deadline_from(start);
        self.end.stopped = false;
        self.end.width = self.config.width;
        self.end.replies = self.config.replies();
        self.end.win = self.config.seer.win;
        let (best, value) = self.end.root(state, me, &placements, self.config.depth);
        let m = Move::Place(placements[best].placement);
        self.info = Some(SearchInfo {
            depth: self.config.depth as u32,
            nodes: self.end.nodes,
            leaves: self.end.nodes,
            value: Some(value),
            elapsed: start.elapsed(),
        });
        self.root = placements;
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
    use crate::mc::margin;
    use crate::test_positions::{endgame, middle_game};
    use std::time::Duration;
    use tessera_core::play_game;

    /// Minimax without pruning, with the search's own move order, widths (own, other) and
    /// win bonus.
    fn brute(s: &Qwirkle, me: PlayerId, depth: usize, width: (usize, usize), win: f64) -> f64 {
        let Turn::Player(p) = s.turn() else {
            return outcome(s, me, win);
        };
        if depth == 0 {
            let mut t = s.clone();
            play_out_until(&mut t, 0, true, &mut seeded(9), &mut BestScratch::new());
            return outcome(&t, me, win);
        }
        let mut moves = Vec::new();
        s.scored_placements(&mut moves);
        if moves.is_empty() {
            let mut t = s.clone();
            t.apply(Move::Pass);
            return brute(&t, me, depth - 1, width, win);
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        moves.truncate(if p == me { width.0 } else { width.1 });
        let values = moves.iter().map(|m| {
            let mut t = s.clone();
            t.apply(Move::Place(m.placement));
            brute(&t, me, depth - 1, width, win)
        });
        if p == me {
            values.fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.fold(f64::INFINITY, f64::min)
        }
    }

    #[test]
    fn the_exact_endgame_equals_minimax_without_pruning() {
        let mut checked = 0;
        let (mut narrower_differs, mut narrower_valued_apart) = (0, 0);
        for seed in 0..30 {
            let Some(g) = endgame(seed, seed as usize % 3) else {
                continue;
            };
            let Phase::Play { player: me } = g.phase() else {
                continue;
            };
            let mut all = Vec::new();
            g.scored_placements(&mut all);
            if all.len() < 2 {
                continue;
            }
            // Every other endgame with a win bonus at the leaves; the other player's
            // replies as many as the bot's own placements, one (its highest-scoring), or
            // three, in turn.
            let d = SageConfig::default();
            let replies = [0, 1, 3][seed as usize % 3];
            let config = SageConfig {
                depth: 3,
                width: 5,
                replies,
                seer: SeerConfig {
                    win: if seed % 2 == 0 { 0.0 } else { 20.0 },
                    ..d.seer
                },
                ..d
            };
            let widths = (5, if replies == 0 { 5 } else { replies });
            let mut bot = SageBot::with_config(config);
            let m = bot.choose(&g, &Budget::nodes(100_000), &mut seeded(1));
            let info = bot.last_info().unwrap_or_default();
            // Every own placement at the root, then the other player's best replies and
            // the best 5 follow-ups.
            if widths.1 != widths.0 {
                let both_five = all
                    .iter()
                    .map(|p| {
                        let mut t = g.clone();
                        t.apply(Move::Place(p.placement));
                        brute(&t, me, 2, (5, 5), config.seer.win)
                    })
                    .fold(f64::NEG_INFINITY, f64::max);
                narrower_differs += 1;
                narrower_valued_apart += usize::from(both_five != info.value.unwrap_or(f64::NAN));
            }
            let exact = all
                .iter()
                .map(|p| {
                    let mut t = g.clone();
                    t.apply(Move::Place(p.placement));
                    brute(&t, me, 2, widths, config.seer.win)
                })
                .fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(info.value, Some(exact), "seed {seed}");
            let mut after = g.clone();
            after.apply(m);
            assert_eq!(
                brute(&after, me, 2, widths, config.seer.win),
                exact,
                "seed {seed}: {m}"
            );
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} endgames");
        // Fewer replies than own placements is a different tree somewhere (a search that
        // ignored `replies` would fail the equalities above there).
        assert!(
            narrower_differs >= 5,
            "only {narrower_differs} narrower searches"
        );
        assert!(
            narrower_valued_apart >= 1,
            "no narrower search valued apart"
        );
    }

    #[test]
    fn the_endgame_node_limit_is_endnodes_a_world() {
        let g = (0..30)
            .filter_map(|s| endgame(s, 0))
            .find(|g| {
                let mut all = Vec::new();
                g.scored_placements(&mut all);
                all.len() >= 4
            })
            .unwrap_or_else(|| panic!("no endgame with four placements"));
        let mut roots = Vec::new();
        g.scored_placements(&mut roots);
        let nodes = |endnodes: u64, worlds: u64| {
            // Every reply searched (as many as the own placements): a tree far larger
            // than any limit below.
            let mut bot = SageBot::with_config(SageConfig {
                depth: 6,
                replies: 8,
                endnodes,
                ..SageConfig::default()
            });
            bot.choose(&g, &Budget::nodes(worlds), &mut seeded(4));
            bot.last_info().unwrap_or_default().nodes
        };
        // Past the limit every root placement left is still valued once, and so is every
        // placement left at the nodes open when the limit was reached (at most `width` at
        // each of the 6 turns).
        let slack = roots.len() as u64 + 6 * SageConfig::default().width as u64;
        let limit = |n: u64| n..=n + slack;
        assert!(limit(10).contains(&nodes(10, 1)), "{}", nodes(10, 1));
        assert!(limit(30).contains(&nodes(10, 3)), "{}", nodes(10, 3));
        // Far from the default's 2048 nodes at 2 worlds, so a search that ignored
        // `endnodes` fails here.
        assert!(limit(600).contains(&nodes(300, 2)), "{}", nodes(300, 2));
        assert!(limit(2 * ENDGAME_NODES_PER_WORLD).contains(&nodes(ENDGAME_NODES_PER_WORLD, 2)));
    }

    #[test]
    fn a_winning_way_out_is_found_in_the_endgame() {
        // The bag is empty: wherever the bot can empty its hand for points plus the +6 and
        // win outright, its margin after going out is what it reports.
        let mut found = 0;
        for (seed, extra) in (0..40).flat_map(|s| (0..8).map(move |e| (s, e))) {
            let Some(g) = endgame(seed, extra) else {
                continue;
            };
            let Phase::Play { player: me } = g.phase() else {
                continue;
            };
            let mut all = Vec::new();
            g.scored_placements(&mut all);
            let hand = g.hand(me).len();
            let Some(out) = all
                .iter()
                .filter(|p| p.placement.len() == hand)
                .max_by_key(|p| p.score)
            else {
                continue;
            };
            let mut after = g.clone();
            after.apply(Move::Place(out.placement));
            if margin(&after, me) <= 0.0 {
                continue;
            }
            let mut bot = SageBot::new();
            let m = bot.choose(&g, &Budget::nodes(1000), &mut seeded(2));
            let mut played = g.clone();
            played.apply(m);
            // Going out wins; any other move is valued at least as well by the search.
            let v = bot.last_info().and_then(|i| i.value).unwrap_or(f64::NAN);
            assert!(v >= margin(&after, me), "seed {seed}: {m} valued {v}");
            found += 1;
        }
        assert!(found >= 3, "only {found} positions");
    }

    #[test]
    fn play_outs_reach_the_own_next_turn_at_every_table_size() {
        let c = SageConfig::default();
        assert_eq!(
            [2, 3, 4].map(|n| c.plies_at(n)),
            [c.seer.plies, c.seer.plies + 2, c.seer.plies + 4]
        );
        // At four seats the search reports the longer play-outs.
        let mut g = crate::test_positions::dealt(5, 4);
        play_out_until(&mut g, 8, false, &mut seeded(6), &mut BestScratch::new());
        while g.turn() == Turn::Chance {
            let d = g.sample_chance(&mut seeded(7));
            g.apply_chance(&d).unwrap_or_else(|e| panic!("{e}"));
        }
        let mut bot = SageBot::new();
        bot.choose(&g, &Budget::nodes(1), &mut seeded(1));
        assert_eq!(bot.last_info().unwrap_or_default().depth, 8);
        // Every seat keeps its own plies: at two seats again 4.
        bot.choose(&middle_game(3, 8), &Budget::nodes(1), &mut seeded(1));
        assert_eq!(bot.last_info().unwrap_or_default().depth, 4);
        let mut b = PointsBot::new();
        let (end, _) = play_game(
            Qwirkle::new(3).unwrap_or_else(|e| panic!("{e}")),
            &mut [&mut SageBot::new(), &mut b, &mut PointsBot::new()],
            &Budget::nodes(1),
            5,
            None,
            &mut (),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(end.is_terminal());
    }

    #[test]
    fn a_node_budget_replays_the_same_game() {
        crate::test_positions::assert_replays_against_points(SageBot::new, 23);
    }

    #[test]
    fn a_time_budget_binds_in_the_middle_game_and_the_endgame() {
        let mut positions = vec![middle_game(5, 10)];
        positions.extend((0..10).filter_map(|s| endgame(s, 0)).take(2));
        assert_eq!(positions.len(), 3);
        // The time alone, and the time beside a huge node budget (a capped seat).
        let capped = Budget {
            nodes: Some(100_000),
            ..Budget::time(Duration::from_millis(50))
        };
        for (g, budget) in positions
            .iter()
            .flat_map(|g| [(g, Budget::time(Duration::from_millis(50))), (g, capped)])
        {
            let mut bot = SageBot::with_config(SageConfig {
                depth: 8,
                width: 100,
                ..SageConfig::default()
            });
            let start = Instant::now();
            let m = bot.choose(g, &budget, &mut seeded(3));
            let took = start.elapsed();
            assert!(took < Duration::from_millis(250), "took {took:?}");
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            assert!(legal.contains(&m), "{m}");
        }
    }
}
