//! An exact solver for Azul's last round at two players (`oracle:endgame=F`).
//!
//! Once a pattern line that completes a wall row is full, the game ends with this round
//! whatever anyone plays: a full line is only emptied by the tiling, and the tiling then
//! completes the row. From there nothing is hidden or random (no refill follows), so the
//! rest of the game is a finite two-player game with perfect information. [`LastRound`]
//! wraps a player: at such a position it first runs alpha-beta to the game's end
//! ([`ExactEnd`]: won games above drawn ones above lost ones, then the final margin) with a
//! share `F` of the move's budget, and plays its move if that search reaches the end of the
//! game on every line (an exact solution); otherwise it hands the rest of the budget to the
//! player it wraps. At three and four players it is never used (the paranoid value is not
//! what each player maximises there).

use tessera_azul::eval::{StrongEval, state_key};
use tessera_azul::{AzulAction, AzulState};
use tessera_core::{Agent, Budget, Game, GameRng, PerPlayer, PlayerId, SearchInfo};
use tessera_search::adversarial::{
    Algorithm, Evaluator, SearchConfig, SearchResult, Searcher, Value,
};

use tessera_azul::scoring::complete_rows;

/// What a won game is worth above a lost one, in [`ExactEnd`]'s hundredths of a point (more
/// than any margin: a score is below 300 points).
pub const WIN: Value = 10_000_000;

/// Exact values at the game's end for the solver: a hundred times the final score, plus
/// [`WIN`] for each winner (the rules' tie-break by complete rows included; both players
/// win a shared game, so a draw is worth nothing). Before the end (the shallow iterations
/// of iterative deepening, which only order the moves) [`StrongEval`], which in the last
/// round is the score if the round ended now plus the exact end-of-game bonuses.
#[derive(Clone, Debug, Default)]
pub struct ExactEnd(StrongEval);

impl Evaluator<AzulState> for ExactEnd {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        match s.winners_mask() {
            Some(won) => PerPlayer::from_fn(s.num_players(), |p| {
                let win = if won & (1 << p.index()) != 0 { WIN } else { 0 };
                100 * s.board(p).score() + win
            }),
            None => self.0.values(s),
        }
    }

    fn key(&self, s: &AzulState) -> Option<u64> {
        Some(state_key(s))
    }
}

/// True if `s` is a two-player draft whose round is certainly the game's last: some
/// player's full pattern line completes a wall row at the tiling.
pub fn last_round_certain(s: &AzulState) -> bool {
    s.num_players() == 2
        && s.phase() == tessera_azul::Phase::Draft
        && s.boards()
            .iter()
            .any(|b| complete_rows(b.projected_wall()) > 0)
}

/// The alpha-beta solver of the last round: exact (no forward pruning, no reductions), with
/// presorting and a transposition table.
pub fn solver() -> Searcher<AzulState, ExactEnd> {
    let mut config = SearchConfig::new(Algorithm::Presort);
    config.tt_log2 = 18;
    config.killers = true;
    config.history = true;
    Searcher::new(ExactEnd::default(), config)
}

/// The exact solution of `s` within `limits`: the move and its value for the mover, or
/// `None` if the search did not reach the game's end on every line in time.
pub fn solve(
    searcher: &mut Searcher<AzulState, ExactEnd>,
    s: &AzulState,
    limits: &Budget,
) -> (Option<(AzulAction, Value)>, SearchResult<AzulAction>) {
    let r = searcher.search(s, limits);
    let solved = if r.full_depth {
        r.best.zip(r.value)
    } else {
        None
    };
    (solved, r)
}

/// The exact value of `s` for `me` (either player, whoever moves; a finished game's own
/// value), or `None` if the search within `limits` did not reach the game's end on every
/// line.
pub fn value_for(
    searcher: &mut Searcher<AzulState, ExactEnd>,
    s: &AzulState,
    me: PlayerId,
    limits: &Budget,
) -> Option<Value> {
    let other = PlayerId(1 - me.0);
    if s.outcome().is_some() {
        let v = searcher.eval.evaluate(s);
        return Some(v[me] - v[other]);
    }
    let v = solve(searcher, s, limits).0?.1;
    Some(if s.current_player() == Some(me) {
        v
    } else {
        -v
    })
}

/// A player that solves the last round exactly when it can (see the module's
/// documentation) and otherwise plays as `inner`.
pub struct LastRound<A> {
    inner: A,
    share: f64,
    searcher: Searcher<AzulState, ExactEnd>,
    /// The last decision's solver statistics, if it solved the position.
    last: Option<SearchInfo>,
}

impl<A: Agent<AzulState>> LastRound<A> {
    /// `inner` with the solver given `share` (0 to 1) of each budget's time and nodes at
    /// the positions where the last round is certain.
    pub fn new(inner: A, share: f64) -> Self {
        LastRound {
            inner,
            share: share.clamp(0.0, 1.0),
            searcher: solver(),
            last: None,
        }
    }
}

impl<A: Agent<AzulState>> Agent<AzulState> for LastRound<A> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, s: &AzulState, budget: &Budget, rng: &mut GameRng) -> AzulAction {
        self.last = None;
        if self.share <= 0.0 || !last_round_certain(s) || s.num_legal_actions() < 2 {
            return self.inner.choose(s, budget, rng);
        }
        // The solver reads time and nodes only (a depth-only budget gives it the default
        // time); the wrapped player reads the budget as it always does.
        let mine = budget.or_default_for_sampling();
        let whole = budget.or_default();
        let limits = Budget {
            time: mine.time.map(|t| t.mul_f64(self.share)),
            nodes: mine.nodes.map(|n| ((n as f64 * self.share) as u64).max(1)),
            ..Budget::default()
        };
        let (solved, r) = solve(&mut self.searcher, s, &limits);
        if let Some((best, value)) = solved {
            self.last = Some(SearchInfo {
                depth: r.depth,
                nodes: r.nodes,
                leaves: r.leaves,
                value: Some(f64::from(value)),
                elapsed: r.elapsed,
            });
            return best;
        }
        // Not solved: the wrapped player gets what is left.
        let rest = Budget {
            time: whole.time.map(|t| t.saturating_sub(r.elapsed)),
            nodes: whole.nodes.map(|n| n.saturating_sub(r.nodes).max(1)),
            depth: whole.depth,
            // What the search leaves unspent still stays on a clock.
            from_clock: whole.from_clock,
        };
        self.inner.choose(s, &rest, rng)
    }

    fn reset(&mut self) {
        self.last = None;
        self.inner.reset();
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last.clone().or_else(|| self.inner.last_info())
    }

    fn take_faults(&mut self) -> Vec<tessera_core::fault::Fault> {
        self.inner.take_faults()
    }

    fn observe_clock(&mut self, clock: &tessera_core::clock::ClockView) -> bool {
        self.inner.observe_clock(clock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::{Turn, rng::seeded};

    /// Who moves in `s`.
    fn mover(s: &AzulState) -> PlayerId {
        s.current_player().unwrap_or(PlayerId(0))
    }

    /// The exact value for `me` of `s` by plain minimax over every move to the game's end
    /// (no pruning, no table, no order): +WIN per win, 100 a point of margin.
    fn minimax(s: &AzulState, me: PlayerId) -> Value {
        if let Some(o) = s.outcome() {
            let other = PlayerId(1 - me.0);
            let w = |p: PlayerId| if o.winners.contains(&p) { WIN } else { 0 };
            return 100 * (o.scores[me] - o.scores[other]) + w(me) - w(other);
        }
        assert_eq!(
            s.turn(),
            Turn::Player(mover(s)),
            "no chance in the last round"
        );
        let mut moves = Vec::new();
        s.legal_actions(&mut moves);
        let values = moves.iter().map(|&a| {
            let mut t = s.clone();
            t.apply(a);
            minimax(&t, me)
        });
        if mover(s) == me {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    /// Two-player positions of seeded random games where the last round is certain and at
    /// most `tiles` tiles are left on the table (so plain minimax can finish).
    fn last_rounds(games: u64, tiles: u32) -> Vec<AzulState> {
        let mut out = Vec::new();
        for seed in 0..games {
            let mut rng = seeded(seed);
            let mut s = AzulState::new(2, PlayerId(0));
            while s.turn() != Turn::Terminal {
                if s.turn() == Turn::Chance {
                    let d = s.sample_chance(&mut rng);
                    s.apply_chance(&d).unwrap();
                    continue;
                }
                if last_round_certain(&s) && s.tiles_on_table() <= tiles {
                    out.push(s.clone());
                }
                let a = s.random_action(&mut rng).unwrap();
                s.apply(a);
            }
        }
        out
    }

    #[test]
    fn the_solver_equals_plain_minimax_to_the_games_end() {
        let positions = last_rounds(60, 7);
        assert!(positions.len() >= 30, "{} positions", positions.len());
        let mut searcher = solver();
        let mut decided = 0;
        for s in &positions {
            let me = mover(s);
            let (solved, _) = solve(&mut searcher, s, &Budget::default());
            let (best, value) = solved.expect("a small last round is solved");
            let want = minimax(s, me);
            assert_eq!(value, want, "{s}");
            let mut after = s.clone();
            after.apply(best);
            assert_eq!(minimax(&after, me), want, "the move keeps the value: {s}");
            if want.abs() >= WIN {
                decided += 1;
            }
        }
        // Most of them are won or lost (a draw is rare), so the win term is exercised.
        assert!(decided * 2 > positions.len());
    }

    #[test]
    fn the_end_is_certain_only_once_a_full_line_completes_a_row() {
        use tessera_azul::scoring::row_mask;
        let positions = last_rounds(30, 100);
        assert!(positions.len() > 50, "{} positions", positions.len());
        for (i, s) in positions.iter().enumerate() {
            // A full pattern line whose tile completes its row: the row lacks that one
            // tile on the wall now and is full on the projected wall.
            assert!(s.boards().iter().any(|b| {
                (0..5).any(|r| {
                    let full = |w: u32| w & row_mask(r) == row_mask(r);
                    b.line_is_full(r) && !full(b.wall()) && full(b.projected_wall())
                })
            }));
            // Whatever is played, the game ends with this round: no refill comes.
            let mut rng = seeded(i as u64);
            let mut t = s.clone();
            while let Turn::Player(_) = t.turn() {
                let a = t.random_action(&mut rng).unwrap();
                t.apply(a);
            }
            assert_eq!(t.turn(), Turn::Terminal, "{s}");
        }
        // And a game's first round never is.
        let mut rng = seeded(5);
        let mut s = AzulState::new(2, PlayerId(0));
        let d = s.sample_chance(&mut rng);
        s.apply_chance(&d).unwrap();
        assert!(!last_round_certain(&s));
    }

    #[test]
    fn a_wrapped_player_plays_the_solution_and_stays_reproducible() {
        use tessera_core::RandomAgent;
        let positions = last_rounds(20, 7);
        let choices = positions.iter().filter(|s| s.num_legal_actions() > 1);
        let mut n = 0;
        for s in choices.take(20) {
            n += 1;
            let mut a = LastRound::new(RandomAgent::new(), 0.5);
            let budget = Budget {
                nodes: Some(200_000),
                ..Budget::default()
            };
            let m = a.choose(s, &budget, &mut seeded(1));
            let me = mover(s);
            let mut after = s.clone();
            after.apply(m);
            assert_eq!(minimax(&after, me), minimax(s, me), "{s}");
            assert!(a.last_info().is_some());
            assert_eq!(a.choose(s, &budget, &mut seeded(2)), m, "reproducible");
        }
        assert_eq!(n, 20);
        // A depth-only budget still bounds the solver (the default time's share): an
        // early last-round position, too large to solve, returns in time.
        let big = last_rounds(40, 100)
            .into_iter()
            .max_by_key(|s| s.tiles_on_table())
            .unwrap();
        assert!(big.tiles_on_table() >= 18, "{big}");
        let depth_only = Budget {
            depth: Some(1),
            ..Budget::default()
        };
        let start = std::time::Instant::now();
        LastRound::new(RandomAgent::new(), 1.0).choose(&big, &depth_only, &mut seeded(4));
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
        // With no share the wrapped player alone decides.
        let s = &positions[0];
        let mut a = LastRound::new(RandomAgent::new(), 0.0);
        let m1 = a.choose(s, &Budget::default(), &mut seeded(3));
        let m2 = RandomAgent::new().choose(s, &Budget::default(), &mut seeded(3));
        assert_eq!(m1, m2);
        assert!(a.last_info().is_none());
    }
}
