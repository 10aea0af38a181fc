//! The one place the Python package advances a game.
//!
//! A [`Session`] is a game with its seeded chance stream. [`Session::step`] applies a player's
//! action with the game's `try_apply` (as [`tessera_core::table::Table::play`] does) and then
//! resolves chance (deals, draws) with the match driver's own chance loop,
//! [`tessera_core::table::resolve_chance`], until a player must act or the game is over. Every
//! handle, environment and batch of the package goes through [`Session`] and nothing else
//! moves a game forward.
//!
//! Why not a whole [`Table`](tessera_core::table::Table): a table keeps every step with the
//! state after it (for its record and undo); learning code steps millions of games and reads
//! neither, so a session keeps only the state and the generator and shares the table's chance
//! loop. The chance draws are the same: the table's chance stream ([`GameSeeds::chance_rng`])
//! and its loop, so a session replays the table's game for the same seed and actions (tests
//! below).

use tessera_core::record::GameSeeds;
use tessera_core::table::resolve_chance;
use tessera_core::{Game, GameRng, Turn};
use thiserror::Error;

/// Why a step was refused. The state is unchanged when this is returned.
#[derive(Debug, Error)]
pub enum StepError<G: Game> {
    /// No player is to move: the game is over.
    #[error("the game is over: no action can be played")]
    GameOver,
    /// The action is not legal here.
    #[error("{0}")]
    Illegal(#[source] G::ActionError),
    /// A chance outcome drawn from the game's own generator was refused (a bug in the game).
    #[error("internal error: a sampled chance outcome was refused: {0}")]
    Chance(#[source] G::ChanceError),
}

/// Resolves chance with `chance` until a player must act or the game is over (the match
/// driver's chance loop, without a record).
pub fn settle<G: Game>(state: &mut G, chance: &mut GameRng) -> Result<(), G::ChanceError> {
    resolve_chance(state, chance, |_, _, _| {})
}

/// A game being played from Python: the state and its chance generator.
#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    state: G,
    chance: GameRng,
    seed: u64,
}

impl<G: Game> Session<G> {
    /// Starts a game from `initial` with chance drawn from seed `seed`'s chance stream
    /// ([`GameSeeds::chance_rng`], the same stream `tessera play --seed` uses), and resolves
    /// the opening chance events.
    pub fn new(initial: G, seed: u64) -> Result<Self, StepError<G>> {
        let mut s = Session {
            state: initial,
            chance: GameSeeds { seed }.chance_rng(),
            seed,
        };
        settle(&mut s.state, &mut s.chance).map_err(StepError::Chance)?;
        Ok(s)
    }

    /// Applies `action` for the player to move, then resolves chance. On error the state is
    /// unchanged.
    pub fn step(&mut self, action: G::Action) -> Result<(), StepError<G>> {
        if !matches!(self.state.turn(), Turn::Player(_)) {
            return Err(StepError::GameOver);
        }
        self.state.try_apply(action).map_err(StepError::Illegal)?;
        settle(&mut self.state, &mut self.chance).map_err(StepError::Chance)
    }

    /// Draws the chance events from now on from seed `seed`'s chance stream instead: a copy
    /// reseeded this way has the same state but its own future (search over sampled deals).
    pub fn reseed_chance(&mut self, seed: u64) {
        self.chance = GameSeeds { seed }.chance_rng();
    }

    /// The current state.
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The seed the game was started with.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_azul::AzulState;
    use tessera_core::record::play_game;
    use tessera_core::{Budget, Event, RandomAgent};
    use tessera_qwirkle::Qwirkle;

    /// Replays the actions of a game played by core's own loop (`play_game`) through a
    /// session with the same seed: the session must draw the very same chance outcomes, so
    /// every action stays legal and the final states are equal.
    fn same_game_as_play_game<G: Game>(initial: G, seed: u64) {
        let n = initial.num_players();
        let mut agents: Vec<RandomAgent<G>> = (0..n).map(|_| RandomAgent::new()).collect();
        let mut seats: Vec<&mut dyn tessera_core::Agent<G>> = agents
            .iter_mut()
            .map(|a| a as &mut dyn tessera_core::Agent<G>)
            .collect();
        let (end, record) = play_game(
            initial.clone(),
            &mut seats,
            &Budget::default(),
            seed,
            None,
            &mut (),
        )
        .expect("random agents play legal moves");
        let mut s = Session::new(initial, seed).expect("the opening deal");
        let mut first = None;
        for ev in &record.events {
            if let Event::Action { action, .. } = ev {
                let Ok(a) = action.parse::<G::Action>() else {
                    panic!("recorded action {action} does not parse");
                };
                first.get_or_insert(a);
                s.step(a).expect("recorded action is legal in the session");
            }
        }
        assert_eq!(s.state(), &end);
        assert!(s.state().is_terminal());
        let before = s.state().clone();
        let any = first.expect("the game has actions");
        assert!(matches!(s.step(any), Err(StepError::GameOver)));
        assert_eq!(s.state(), &before);
    }

    #[test]
    fn azul_sessions_replay_core_games() {
        for players in 2..=4 {
            for seed in 0..5 {
                let initial = AzulState::new_random(players, &mut GameSeeds { seed }.setup_rng());
                same_game_as_play_game(initial, seed);
            }
        }
    }

    #[test]
    fn qwirkle_sessions_replay_core_games() {
        for players in 2..=4 {
            for seed in 0..3 {
                same_game_as_play_game(Qwirkle::new(players).expect("2-4 players"), seed);
            }
        }
    }
}
