//! A search player: a [`Searcher`] behind the [`Agent`] interface.

use rand::Rng;
use tessera_core::{Agent, Budget, Game, GameRng, SearchInfo};

use super::{Evaluator, Limits, SearchConfig, SearchResult, Searcher};

/// An [`Agent`] that plays the best move of a search.
///
/// It holds no limits: the [`Budget`] it is handed is the search's limits (time, nodes and
/// depth all bind), and an empty one means [`Budget::DEFAULT`]. With a single legal move it
/// plays it without searching.
pub struct SearchAgent<G: Game, E: Evaluator<G>> {
    name: String,
    searcher: Searcher<G, E>,
    last: Option<SearchResult<G::Action>>,
}

impl<G: Game, E: Evaluator<G>> SearchAgent<G, E> {
    /// A player called `name` with an evaluator and settings.
    pub fn new(name: impl Into<String>, eval: E, config: SearchConfig) -> Self {
        SearchAgent {
            name: name.into(),
            searcher: Searcher::new(eval, config),
            last: None,
        }
    }

    /// The full result of the last search (per-iteration statistics included).
    pub fn last_result(&self) -> Option<&SearchResult<G::Action>> {
        self.last.as_ref()
    }

    /// The underlying searcher.
    pub fn searcher_mut(&mut self) -> &mut Searcher<G, E> {
        &mut self.searcher
    }

    /// The limits one decision uses given `budget`.
    pub fn effective_limits(budget: &Budget) -> Limits {
        budget.or_default()
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for SearchAgent<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G, budget: &Budget, rng: &mut GameRng) -> G::Action {
        self.searcher.seed(rng.random::<u64>());
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        assert!(
            !actions.is_empty(),
            "SearchAgent asked to move with no legal action"
        );
        if actions.len() == 1 {
            self.last = None;
            return actions[0];
        }
        let limits = Self::effective_limits(budget);
        let r = self.searcher.search(state, &limits);
        let best = r.best.unwrap_or(actions[0]);
        self.last = Some(r);
        best
    }

    /// A new game: the last search's result is forgotten. The transposition table is kept
    /// (allocated once per agent): its entries carry a search generation, so a new search
    /// never reads an old one.
    fn reset(&mut self) {
        self.last = None;
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last.as_ref().map(|r| SearchInfo {
            depth: r.depth,
            nodes: r.nodes,
            leaves: r.leaves,
            value: r.value.map(f64::from),
            elapsed: r.elapsed,
        })
    }
}
