//! Agents: anything that picks an action for the player to move.

use std::time::{Duration, Instant};

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::rng::GameRng;

/// Limits on one decision: the one budget type of the workspace (search limits, the engine
/// protocol's `go` limits and the web API's `budget` are all this type). Fields left `None`
/// mean "no limit of this kind"; an agent given no limit at all thinks for
/// [`Budget::DEFAULT`] (the one default per-move budget, written once here).
///
/// Agents hold no limits of their own: the seat owns the budget. Each agent documents which
/// kinds it uses (a search: all three; a sampling player: time and nodes as samples); a time
/// limit binds every agent that thinks.
///
/// Its JSON form is the web API's: `{"time_ms": 500, "nodes": 10000, "depth": 3}`, every
/// field optional.
///
/// Whoever seats an agent decides its budget: an agent specification's limits
/// (`presort:time=100ms`) become the seat's budget, and the caller [`Budget::clamp`]s it to
/// its policy (a server's cap), so a specification never overrides the cap.
///
/// ```
/// use std::time::Duration;
/// use tessera_core::Budget;
/// let asked = Budget::time(Duration::from_secs(100_000));
/// let cap = Budget::time(Duration::from_secs(60));
/// assert_eq!(asked.clamp(&cap), cap);
/// let depth = Budget::depth(20).clamp(&cap);
/// assert_eq!((depth.depth, depth.time), (Some(20), Some(Duration::from_secs(60))));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// Wall-clock time for this move (JSON: `time_ms`, whole milliseconds).
    #[serde(
        rename = "time_ms",
        default,
        skip_serializing_if = "Option::is_none",
        with = "millis"
    )]
    pub time: Option<Duration>,
    /// Nodes (or iterations, for sampling agents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Search depth in plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The time limit is the seat's game clock, or the time manager's share of it: what the
    /// agent leaves unspent stays on the clock (and the manager gives it back on later
    /// moves), so a search may stop once its choice is clear instead of running to the
    /// limit. Set by a table or the engine protocol when a clock runs the seat, never by a
    /// request: it is not part of the JSON form.
    #[serde(skip)]
    pub from_clock: bool,
}

mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        Ok(Option::<u64>::deserialize(d)?.map(Duration::from_millis))
    }
}

impl Budget {
    /// The default per-move budget: what a seat gets when its specification names no limit,
    /// and what an agent handed an empty budget uses (100 ms).
    pub const DEFAULT: Budget = Budget {
        time: Some(Duration::from_millis(100)),
        nodes: None,
        depth: None,
        from_clock: false,
    };

    /// A time-only budget.
    pub fn time(d: Duration) -> Self {
        Budget {
            time: Some(d),
            ..Budget::default()
        }
    }

    /// A depth-only budget.
    pub fn depth(d: u32) -> Self {
        Budget {
            depth: Some(d),
            ..Budget::default()
        }
    }

    /// A node/iteration-only budget.
    pub fn nodes(n: u64) -> Self {
        Budget {
            nodes: Some(n),
            ..Budget::default()
        }
    }

    /// True when no limit of any kind is set (the agent's own default applies).
    pub fn is_unlimited(&self) -> bool {
        self.time.is_none() && self.nodes.is_none() && self.depth.is_none()
    }

    /// This budget, or `fallback` when this one sets no limit at all.
    pub fn or(self, fallback: Budget) -> Budget {
        if self.is_unlimited() { fallback } else { self }
    }

    /// This budget, or [`Budget::DEFAULT`] when it sets no limit at all: how an agent reads
    /// the budget it is handed.
    pub fn or_default(self) -> Budget {
        self.or(Budget::DEFAULT)
    }

    /// This budget with every limit `other` sets replaced by `other`'s.
    pub fn overridden_by(self, other: &Budget) -> Budget {
        Budget {
            time: other.time.or(self.time),
            nodes: other.nodes.or(self.nodes),
            depth: other.depth.or(self.depth),
            from_clock: self.from_clock || other.from_clock,
        }
    }

    /// This budget within `cap`: every limit `cap` sets is the most this budget keeps (a
    /// limit this budget leaves open becomes the cap's). Limits `cap` leaves open stay as
    /// they are.
    pub fn clamp(self, cap: &Budget) -> Budget {
        fn min<T: Ord>(a: Option<T>, cap: Option<T>) -> Option<T> {
            match (a, cap) {
                (Some(a), Some(c)) => Some(a.min(c)),
                (a, None) => a,
                (None, c) => c,
            }
        }
        Budget {
            time: min(self.time, cap.time),
            nodes: min(self.nodes, cap.nodes),
            depth: min(self.depth, cap.depth),
            from_clock: self.from_clock,
        }
    }

    /// The budget an agent with no use for a depth reads (a sampler: time, and nodes as
    /// samples): as given when it sets a time or a node limit, else [`Budget::DEFAULT`]'s
    /// time (so an empty or depth-only budget binds too, the same rule as
    /// [`Budget::or_default`]).
    pub fn or_default_for_sampling(self) -> Budget {
        if self.time.is_some() || self.nodes.is_some() {
            self
        } else {
            Budget {
                time: Budget::DEFAULT.time,
                ..self
            }
        }
    }

    /// The deadline of a time budget started now.
    pub fn deadline_from(&self, start: Instant) -> Option<Instant> {
        self.time.map(|t| start + t)
    }
}

/// What a search reported about its last decision (for the engine protocol and analysis).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchInfo {
    /// Deepest fully completed depth.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Leaf nodes evaluated.
    pub leaves: u64,
    /// Value of the chosen action from the mover's point of view, if the agent computes one.
    pub value: Option<f64>,
    /// Time used.
    pub elapsed: Duration,
}

/// A player: picks an action for the player to move.
///
/// Agents receive the state from the mover's point of view: for games with hidden
/// information the arena passes a [`Game::determinize`]d state, so hidden tiles are
/// resampled and cannot be peeked at.
pub trait Agent<G: Game>: Send {
    /// The agent's name with its parameters, as the registry spells it (`random`,
    /// `alphabeta:depth=3`).
    fn name(&self) -> String;

    /// Picks a legal action. Called only when `state.turn()` is a player's turn.
    fn choose(&mut self, state: &G, budget: &Budget, rng: &mut GameRng) -> G::Action;

    /// Called before a new game starts; agents with per-game memory reset it here.
    fn reset(&mut self) {}

    /// Statistics of the last decision, if the agent keeps any.
    fn last_info(&self) -> Option<SearchInfo> {
        None
    }

    /// What went wrong since the last call without stopping the game (an external engine's
    /// timeout and the fallback move played instead); the table stores them with the game.
    fn take_faults(&mut self) -> Vec<crate::fault::Fault> {
        Vec::new()
    }

    /// Called before each decision under a game clock with every seat's time left. An agent
    /// that manages its own time (an external engine, told its clock) returns `true`: the
    /// table then hands it its whole time left as the budget instead of the time manager's
    /// share. The default (`false`): the table's time manager decides.
    fn observe_clock(&mut self, clock: &crate::clock::ClockView) -> bool {
        let _ = clock;
        false
    }
}

/// A borrowed agent plays like the agent itself (so a [`crate::table::Table`] can seat agents
/// it does not own).
impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for &mut A {
    fn name(&self) -> String {
        (**self).name()
    }
    fn choose(&mut self, state: &G, budget: &Budget, rng: &mut GameRng) -> G::Action {
        (**self).choose(state, budget, rng)
    }
    fn reset(&mut self) {
        (**self).reset()
    }
    fn last_info(&self) -> Option<SearchInfo> {
        (**self).last_info()
    }
    fn take_faults(&mut self) -> Vec<crate::fault::Fault> {
        (**self).take_faults()
    }
    fn observe_clock(&mut self, clock: &crate::clock::ClockView) -> bool {
        (**self).observe_clock(clock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_clamp_override_and_speak_the_api_json() {
        let cap = Budget::time(Duration::from_secs(60));
        let spec = Budget {
            time: Some(Duration::from_secs(100_000)),
            depth: Some(4),
            ..Budget::default()
        };
        let c = spec.clamp(&cap);
        assert_eq!(c.time, Some(Duration::from_secs(60)));
        assert_eq!(c.depth, Some(4));
        assert_eq!(Budget::depth(3).clamp(&Budget::default()), Budget::depth(3));
        assert_eq!(
            Budget::time(Duration::from_millis(5)).clamp(&cap).time,
            Some(Duration::from_millis(5))
        );
        let o = spec.overridden_by(&Budget::time(Duration::from_millis(20)));
        assert_eq!(o.time, Some(Duration::from_millis(20)));
        assert_eq!(o.depth, Some(4));
        assert_eq!(Budget::default().or(Budget::depth(2)), Budget::depth(2));
        assert_eq!(Budget::nodes(7).or(Budget::depth(2)), Budget::nodes(7));
        assert_eq!(Budget::default().or_default(), Budget::DEFAULT);
        assert_eq!(Budget::DEFAULT.time, Some(Duration::from_millis(100)));
        assert_eq!(Budget::depth(4).or_default(), Budget::depth(4));
        let sampling = Budget::depth(4).or_default_for_sampling();
        assert_eq!(
            (sampling.time, sampling.depth),
            (Budget::DEFAULT.time, Some(4))
        );
        assert_eq!(Budget::nodes(9).or_default_for_sampling(), Budget::nodes(9));
        assert_eq!(Budget::default().or_default_for_sampling(), Budget::DEFAULT);
        let b: Budget = serde_json::from_str(r#"{"time_ms": 500, "depth": 3}"#).unwrap();
        assert_eq!(b.time, Some(Duration::from_millis(500)));
        assert_eq!(b.depth, Some(3));
        assert_eq!(
            serde_json::to_string(&b).unwrap(),
            r#"{"time_ms":500,"depth":3}"#
        );
        assert!(serde_json::from_str::<Budget>(r#"{"time": 5}"#).is_err());
        assert_eq!(serde_json::to_string(&Budget::default()).unwrap(), "{}");
    }

    #[test]
    fn only_a_clock_marks_a_budget_as_the_clocks_and_the_mark_survives_a_cap() {
        // A request cannot claim a clock: the mark is not part of the JSON form.
        assert!(serde_json::from_str::<Budget>(r#"{"time_ms": 5, "from_clock": true}"#).is_err());
        let clocked = Budget {
            from_clock: true,
            ..Budget::time(Duration::from_secs(3))
        };
        assert_eq!(
            serde_json::to_string(&clocked).unwrap(),
            r#"{"time_ms":3000}"#
        );
        assert!(!Budget::default().from_clock && !Budget::DEFAULT.from_clock);
        // An operator's cap shortens the time; what is left unspent still stays on the clock.
        let capped = clocked.clamp(&Budget::time(Duration::from_secs(1)));
        assert_eq!(capped.time, Some(Duration::from_secs(1)));
        assert!(capped.from_clock);
        assert!(clocked.overridden_by(&Budget::nodes(5)).from_clock);
        assert!(Budget::nodes(5).overridden_by(&clocked).from_clock);
        assert!(
            !Budget::time(Duration::from_secs(1))
                .clamp(&clocked)
                .from_clock
        );
        assert!(clocked.or_default_for_sampling().from_clock);
    }
}

/// Picks uniformly among the legal actions.
///
/// ```
/// use tessera_core::{Agent, Budget, Game, RandomAgent, rng::seeded, testgame::Nim};
/// let mut agent = RandomAgent::<Nim>::new();
/// let state: Nim = "2 1 3,4 0,0".parse().unwrap();
/// let action = agent.choose(&state, &Budget::default(), &mut seeded(1));
/// let mut legal = Vec::new();
/// state.legal_actions(&mut legal);
/// assert!(legal.contains(&action));
/// ```
#[derive(Clone, Debug)]
pub struct RandomAgent<G: Game> {
    buf: Vec<G::Action>,
}

impl<G: Game> RandomAgent<G> {
    /// A new random player.
    pub fn new() -> Self {
        RandomAgent { buf: Vec::new() }
    }
}

impl<G: Game> Default for RandomAgent<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &G, _budget: &Budget, rng: &mut GameRng) -> G::Action {
        state.legal_actions(&mut self.buf);
        assert!(
            !self.buf.is_empty(),
            "RandomAgent asked to move with no legal action"
        );
        self.buf[rng.random_range(0..self.buf.len())]
    }
}

/// An agent that blunders: with probability `p` it plays a uniformly random legal move, else
/// the inner agent's. Strength then falls smoothly from the inner agent's (`p = 0`) to
/// `random`'s (`p = 1`), which spaces difficulty levels between fixed players. The coin and
/// the random move come from the seat's generator, so games stay reproducible; the inner
/// agent is not consulted on a blunder (and so spends no time).
///
/// ```
/// use tessera_core::{Agent, Blundering, Budget, Game, RandomAgent, rng::seeded, testgame::Nim};
/// let mut always = Blundering::new(Box::new(RandomAgent::<Nim>::new()), 1.0);
/// let state: Nim = "2 1 3,4 0,0".parse().unwrap();
/// let action = always.choose(&state, &Budget::default(), &mut seeded(1));
/// let mut legal = Vec::new();
/// state.legal_actions(&mut legal);
/// assert!(legal.contains(&action));
/// assert_eq!(always.name(), "random:blunder=1");
/// ```
pub struct Blundering<G: Game> {
    inner: Box<dyn Agent<G>>,
    p: f64,
    random: RandomAgent<G>,
}

impl<G: Game> Blundering<G> {
    /// `inner`, blundering with probability `p` (clamped to 0..=1).
    pub fn new(inner: Box<dyn Agent<G>>, p: f64) -> Self {
        Blundering {
            inner,
            p: if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) },
            random: RandomAgent::new(),
        }
    }
}

impl<G: Game> Agent<G> for Blundering<G> {
    fn name(&self) -> String {
        format!("{}:blunder={}", self.inner.name(), self.p)
    }

    fn choose(&mut self, state: &G, budget: &Budget, rng: &mut GameRng) -> G::Action {
        if rng.random::<f64>() < self.p {
            self.random.choose(state, budget, rng)
        } else {
            self.inner.choose(state, budget, rng)
        }
    }

    fn reset(&mut self) {
        self.inner.reset()
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.inner.last_info()
    }

    fn take_faults(&mut self) -> Vec<crate::fault::Fault> {
        self.inner.take_faults()
    }

    fn observe_clock(&mut self, clock: &crate::clock::ClockView) -> bool {
        self.inner.observe_clock(clock)
    }
}

#[cfg(test)]
mod blunder_tests {
    use super::*;
    use crate::rng::seeded;
    use crate::testgame::Nim;

    /// Always takes the first legal move.
    struct First;
    impl Agent<Nim> for First {
        fn name(&self) -> String {
            "first".into()
        }
        fn choose(&mut self, state: &Nim, _: &Budget, _: &mut GameRng) -> <Nim as Game>::Action {
            let mut v = Vec::new();
            state.legal_actions(&mut v);
            v[0]
        }
    }

    #[test]
    fn blunders_at_the_given_rate_and_reproducibly() {
        let state: Nim = "2 1 5,5,5 0,0".parse().unwrap();
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        assert_eq!(legal.len(), 9);
        let first = legal[0];
        for (p, lo, hi) in [(0.0, 0, 0), (0.3, 2400, 2950), (1.0, 8650, 9150)] {
            let mut a = Blundering::new(Box::new(First), p);
            let mut rng = seeded(9);
            let off = (0..10_000)
                .filter(|_| a.choose(&state, &Budget::default(), &mut rng) != first)
                .count();
            // A blunder picks the first move 1 time in 9, so 8/9 of the blunders show:
            // 2,667 expected at p = 0.3, 8,889 at p = 1 (bounds about 5 sigma wide).
            assert!(
                (lo..=hi).contains(&off),
                "p={p}: {off} moves off the inner agent's"
            );
        }
        let play = |seed| {
            let mut a = Blundering::new(Box::new(First), 0.5);
            let mut rng = seeded(seed);
            (0..50)
                .map(|_| a.choose(&state, &Budget::default(), &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(play(3), play(3));
        assert_ne!(play(3), play(4));
        assert_eq!(Blundering::new(Box::new(First), f64::NAN).p, 0.0);
        assert_eq!(Blundering::new(Box::new(First), 7.0).p, 1.0);
    }
}
