//! The one place the Python package advances a game.
//!
//! A [`GameInPlay`] is a game with its seeded chance stream. [`GameInPlay::step`] applies a player's
//! action with the game's `try_apply` (as [`tessera_core::table::Table::play`] does) and then
//! resolves chance (deals, draws) with the match driver's own chance loop,
//! [`tessera_core::table::resolve_chance`], until a player must act or the game is over. Every
//! handle, environment and batch of the package goes through [`GameInPlay`] and nothing else
//! moves a game forward.
//!
//! Why not a whole [`Table`](tessera_core::table::Table): a table keeps every step with the
//! state after it (for its record and undo); learning code steps millions of games and reads
//! neither, so a session keeps only the state and the generator and shares the table's chance
//! loop. The chance draws are the same: the table's chance stream ([`GameSeeds::chance_rng`])
//! and its loop, so a session replays the table's game for the same seed and actions (tests
//! below).

use rand::SeedableRng;
use tessera_core::record::GameSeeds;
use tessera_core::table::resolve_chance;
use tessera_core::{Game, GameRng, Turn};
use thiserror::Error;

/// Where a chance generator is in its stream, portably: ChaCha8's 32-byte key, its stream
/// number and its word position. Restoring it gives a generator that draws exactly what the
/// original would have drawn next (pickling a game keeps its future deals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChanceState {
    /// The key (`ChaCha8Rng::get_seed`).
    pub key: [u8; 32],
    /// The stream (`get_stream`).
    pub stream: u64,
    /// The position in the stream, in 32-bit words (`get_word_pos`).
    pub word_pos: u128,
}

impl ChanceState {
    /// The position of `rng`.
    pub fn of(rng: &GameRng) -> Self {
        ChanceState {
            key: rng.get_seed(),
            stream: rng.get_stream(),
            word_pos: rng.get_word_pos(),
        }
    }

    /// A generator at this position.
    pub fn rng(&self) -> GameRng {
        let mut rng = GameRng::from_seed(self.key);
        rng.set_stream(self.stream);
        rng.set_word_pos(self.word_pos);
        rng
    }

    /// As text: the key in hex, the stream and the word position, separated by `:`.
    pub fn to_text(&self) -> String {
        let key: String = self.key.iter().map(|b| format!("{b:02x}")).collect();
        format!("{key}:{}:{}", self.stream, self.word_pos)
    }

    /// Parses [`ChanceState::to_text`]'s form.
    pub fn from_text(text: &str) -> Option<Self> {
        let mut it = text.split(':');
        let (key, stream, word_pos) = (it.next()?, it.next()?, it.next()?);
        if it.next().is_some() || key.len() != 64 || !key.is_ascii() {
            return None;
        }
        let mut k = [0u8; 32];
        for (i, b) in k.iter_mut().enumerate() {
            *b = u8::from_str_radix(&key[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(ChanceState {
            key: k,
            stream: stream.parse().ok()?,
            word_pos: word_pos.parse().ok()?,
        })
    }
}

/// A pickled handle's text that cannot be read back.
#[derive(Debug, Error)]
#[error("not a pickled {kind} game: {why}")]
pub struct SnapshotError {
    /// The game expected.
    pub kind: &'static str,
    /// What is wrong.
    pub why: String,
}

/// A session as a JSON object (its state in notation, the seed, the chance position), the
/// part of a pickled handle that [`restore`] reads back.
pub fn snapshot_fields<G: Game + std::fmt::Display>(
    s: &GameInPlay<G>,
    kind: &str,
) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert("game".into(), kind.into());
    m.insert("state".into(), s.state().to_string().into());
    m.insert("seed".into(), s.seed().to_string().into());
    m.insert("chance".into(), s.chance().to_text().into());
    m
}

/// [`snapshot_fields`] as text.
pub fn snapshot<G: Game + std::fmt::Display>(s: &GameInPlay<G>, kind: &str) -> String {
    serde_json::Value::Object(snapshot_fields(s, kind)).to_string()
}

/// The session of a JSON object written by [`snapshot_fields`].
pub fn restore_fields<G: Game + std::str::FromStr>(
    v: &serde_json::Value,
    kind: &'static str,
) -> Result<GameInPlay<G>, SnapshotError>
where
    G::Err: std::fmt::Display,
{
    let bad = |why: String| SnapshotError { kind, why };
    let field = |name: &str| {
        v.get(name)
            .and_then(|x| x.as_str())
            .ok_or_else(|| bad(format!("no text field '{name}'")))
    };
    if field("game")? != kind {
        return Err(bad(format!("it is a pickled {} game", field("game")?)));
    }
    let state: G = field("state")?
        .parse()
        .map_err(|e| bad(format!("state: {e}")))?;
    let seed: u64 = field("seed")?
        .parse()
        .map_err(|e| bad(format!("seed: {e}")))?;
    let chance = ChanceState::from_text(field("chance")?)
        .ok_or_else(|| bad("chance: expected key:stream:word position".into()))?;
    Ok(GameInPlay::resume(state, &chance, seed))
}

/// The session of a text written by [`snapshot`].
pub fn restore<G: Game + std::str::FromStr>(
    text: &str,
    kind: &'static str,
) -> Result<GameInPlay<G>, SnapshotError>
where
    G::Err: std::fmt::Display,
{
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| SnapshotError {
        kind,
        why: e.to_string(),
    })?;
    restore_fields(&v, kind)
}

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
pub struct GameInPlay<G: Game> {
    state: G,
    chance: GameRng,
    seed: u64,
}

impl<G: Game> GameInPlay<G> {
    /// Starts a game from `initial` with chance drawn from seed `seed`'s chance stream
    /// ([`GameSeeds::chance_rng`], the same stream `tessera play --seed` uses), and resolves
    /// the opening chance events.
    pub fn new(initial: G, seed: u64) -> Result<Self, StepError<G>> {
        let mut s = GameInPlay {
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

    /// A session resumed exactly: `state` (no chance pending), its chance generator at
    /// `chance`, and the seed it was started with (the inverse of [`GameInPlay::state`],
    /// [`GameInPlay::chance`] and [`GameInPlay::seed`]). Nothing is resolved.
    pub fn resume(state: G, chance: &ChanceState, seed: u64) -> Self {
        GameInPlay {
            state,
            chance: chance.rng(),
            seed,
        }
    }

    /// Where the chance generator is.
    pub fn chance(&self) -> ChanceState {
        ChanceState::of(&self.chance)
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
    use tessera_core::play_game;
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
        let mut s = GameInPlay::new(initial, seed).expect("the opening deal");
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
    fn a_resumed_session_draws_the_same_future() {
        let initial = AzulState::new_random(3, &mut GameSeeds { seed: 9 }.setup_rng());
        let mut a = GameInPlay::new(initial, 9).expect("the opening deal");
        let mut rng = tessera_core::rng::seeded(1);
        // Into the second round, so the generator has moved.
        while a.state().round() < 2 {
            let m = a.state().random_action(&mut rng).expect("a legal action");
            a.step(m).expect("legal");
        }
        let text = a.chance().to_text();
        let back = ChanceState::from_text(&text).expect("parses");
        assert_eq!(back, a.chance());
        assert_ne!(
            back,
            GameInPlay::new(a.state().clone(), 9)
                .expect("deal")
                .chance()
        );
        let mut b = GameInPlay::resume(a.state().clone(), &back, a.seed());
        // The whole session through its text form.
        let mut c: GameInPlay<AzulState> =
            restore(&snapshot(&a, "azul"), "azul").expect("restores");
        assert_eq!(c.state(), a.state());
        assert_eq!((c.seed(), c.chance()), (a.seed(), a.chance()));
        while !a.state().is_terminal() {
            let m = a.state().random_action(&mut rng).expect("a legal action");
            a.step(m).expect("legal");
            b.step(m).expect("the same action is legal in the copy");
            c.step(m)
                .expect("the same action is legal in the restored one");
            assert_eq!(a.state(), b.state());
            assert_eq!(a.state(), c.state());
        }
        assert!(ChanceState::from_text("00:1:2").is_none());
        assert!(ChanceState::from_text(&format!("{}:x:0", "0".repeat(64))).is_none());
        let err = restore::<AzulState>(&snapshot(&a, "azul"), "qwirkle").unwrap_err();
        assert!(
            err.to_string().contains("it is a pickled azul game"),
            "{err}"
        );
        assert!(restore::<AzulState>("{}", "azul").is_err());
        assert!(restore::<AzulState>("not json", "azul").is_err());
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
