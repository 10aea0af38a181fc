//! Many independent games stepped in one call, for learning throughput (`tessera.batch`):
//! one engine, [`Batch`], for every game with fixed action ids ([`BatchGame`]); the Azul
//! batch is [`AzulBatch`] (here), the Qwirkle batch [`crate::qwirkle_batch::QwirkleBatch`].
//!
//! A [`Batch`] holds `n` games, each moving through the package's one step function.
//! [`Batch::step`] takes one action id per game, checks them all (nothing moves if one is
//! refused), steps every game, starts a new game where one ended (auto-reset), and writes the
//! outputs into caller-owned buffers (the Python side's preallocated numpy arrays): the
//! observation and action mask of the player to move, per-seat rewards, the done flags and the
//! seat to move. The games are split into contiguous chunks, one per thread, run on rayon's
//! pool (each chunk writes its own rows).
//!
//! Seeds: game `i`'s episode `e` (from 0) is started from seed `s_i + e * n`, exactly as
//! the lone handle of that seed (`AzulGame(players, s_i + e * n)`), so any game of a batch
//! can be replayed alone; `s_i` is `seed + i` ([`Batch::new`]) or the `i`-th of the seeds
//! given ([`Batch::with_seeds`]).
//!
//! Auto-reset ([`Autoreset`]): by default a game that ends is restarted in the same step (its
//! row holds the new game). With [`Autoreset::NextStep`] (Gymnasium's default for vector
//! environments) the step that ends a game writes the final position instead (seen by the
//! seat that made the last move, mask all zeros, `to_move` -1), and the game's next step
//! ignores its action and starts the new game (rewards 0, not done).

use rayon::prelude::*;
use tessera_azul::{AzulAction, AzulState};
use tessera_core::record::GameSeeds;
use tessera_core::{Game, GameRng, Outcome, PlayerId};
use thiserror::Error;

use crate::azul;
use crate::driver::{GameInPlay, StepError};

/// Why a batch step was refused. Nothing was stepped.
#[derive(Debug, Error)]
pub enum BatchError {
    /// An output or input buffer has the wrong length.
    #[error("{what}: expected {expected} values, got {got}")]
    Shape {
        /// Which buffer.
        what: &'static str,
        /// Its length for this batch.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// An id outside the action table.
    #[error("game {game}: {source}")]
    OutOfRange {
        /// The game's index in the batch.
        game: usize,
        /// The id's error.
        #[source]
        source: azul::IdError,
    },
    /// An action that is not legal in its game.
    #[error("game {game}: action {id} ({action}) is not legal: {reason}")]
    Illegal {
        /// The game's index.
        game: usize,
        /// The id.
        id: i64,
        /// The action in notation.
        action: AzulAction,
        /// The rules' reason.
        reason: String,
    },
    /// A Qwirkle step id out of range or not legal in its game.
    #[error("game {game}: {reason}")]
    Refused {
        /// The game's index.
        game: usize,
        /// Why, with the id.
        reason: String,
    },
    /// A game refused a chance outcome it drew itself (a bug).
    #[error("game {game}: internal error: {reason}")]
    Internal {
        /// The game's index.
        game: usize,
        /// What happened.
        reason: String,
    },
}

/// The output buffers of one step, each with one row per game.
pub struct Outputs<'a> {
    /// `n * observation_len`: the observation of the player to move (after a reset: the new
    /// game's first player).
    pub obs: &'a mut [f32],
    /// `n * num_actions`: the action mask of the player to move.
    pub mask: &'a mut [i8],
    /// `n * players`: the returns of the game that ended at this step (1, 1/k or 0 per
    /// seat), zeros otherwise.
    pub rewards: &'a mut [f32],
    /// `n`: 1 where the game ended at this step (and a new one began).
    pub dones: &'a mut [bool],
    /// `n`: the seat to move.
    pub to_move: &'a mut [i64],
}

/// When a batch restarts a game that ended. See the [module](self) documentation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Autoreset {
    /// In the step that ended it: the row shows the new game at once.
    #[default]
    SameStep,
    /// In the game's next step, whose action is ignored: the row first shows the final
    /// position.
    NextStep,
}

/// One game of a [`Batch`]: a game with fixed action ids, its observation and its mask.
pub trait BatchGame: Sized + Send + Sync {
    /// The fewest games a thread takes (below it, fewer threads are used).
    const MIN_CHUNK: usize;
    /// True when a restarted game's random sampler is seeded anew from the new episode's
    /// seed; false when one sampler serves all of a game's episodes.
    const SAMPLER_PER_EPISODE: bool;

    /// A new game of `players` from `seed`, as the lone handle of that seed starts it.
    fn start(players: usize, seed: u64) -> Result<Self, String>;
    /// Checks `players` against the game's seat range.
    fn check_players(players: usize) -> Result<(), String>;
    /// Observation length for `players`.
    fn observation_len(players: usize) -> usize;
    /// Action ids for `players`.
    fn num_actions(players: usize) -> usize;
    /// Whether id `id` may be played now (game `game` of the batch, for the error).
    fn check(&self, game: usize, id: i64) -> Result<(), BatchError>;
    /// Plays id `id` (already checked) and resolves chance.
    fn step(&mut self, game: usize, id: i64) -> Result<(), BatchError>;
    /// The seat to move, `None` once the game is over.
    fn mover(&self) -> Option<PlayerId>;
    /// The result once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// `seat`'s observation.
    fn write_observation(&self, seat: PlayerId, obs: &mut [f32]);
    /// The action mask (all zeros once the game is over).
    fn write_mask(&self, mask: &mut [i8]);
    /// A uniformly random legal id from `rng`, -1 if none.
    fn sample(&self, rng: &mut GameRng) -> i64;
    /// The state in notation.
    fn notation(&self) -> String;
}

/// Mixed into a game's seed for its random sampler.
const SAMPLER_SALT: u64 = 0x5eed_ba7c;

struct Slot<E> {
    game: E,
    /// The seed of the game's first episode.
    base: u64,
    episode: u64,
    rng: GameRng,
    /// Under [`Autoreset::NextStep`]: the game ended at the last step and waits for its reset.
    over: bool,
}

/// `n` games of the same player count. See the [module](self) documentation.
pub struct Batch<E: BatchGame> {
    games: Vec<Slot<E>>,
    players: usize,
    threads: usize,
    autoreset: Autoreset,
}

/// Writes a game's row: the observation of the seat to move (or of `seat` once the game is
/// over), the mask; returns the seat to move (-1 once over).
fn write_row<E: BatchGame>(g: &E, seat: PlayerId, obs: &mut [f32], mask: &mut [i8]) -> i64 {
    let p = g.mover();
    g.write_observation(p.unwrap_or(seat), obs);
    g.write_mask(mask);
    p.map_or(-1, |p| p.index() as i64)
}

impl<E: BatchGame> Batch<E> {
    /// `n` games of `players` from `seed` (game `i` from `seed + i`), stepped by up to
    /// `threads` threads.
    pub fn new(n: usize, players: usize, seed: u64, threads: usize) -> Result<Self, String> {
        let seeds: Vec<u64> = (0..n as u64).map(|i| seed.wrapping_add(i)).collect();
        Self::with_seeds(&seeds, players, threads)
    }

    /// One game of `players` per seed (game `i` from `seeds[i]`), stepped by up to `threads`
    /// threads.
    pub fn with_seeds(seeds: &[u64], players: usize, threads: usize) -> Result<Self, String> {
        if seeds.is_empty() {
            return Err("a batch needs at least one game".into());
        }
        E::check_players(players)?;
        let games = seeds
            .iter()
            .map(|&s| {
                Ok(Slot {
                    game: E::start(players, s)?,
                    base: s,
                    episode: 0,
                    rng: tessera_core::rng::seeded(s ^ SAMPLER_SALT),
                    over: false,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Batch {
            games,
            players,
            threads: threads.max(1),
            autoreset: Autoreset::SameStep,
        })
    }

    /// The same batch restarting finished games as `mode` says.
    pub fn with_autoreset(mut self, mode: Autoreset) -> Self {
        self.autoreset = mode;
        self
    }

    /// When finished games restart.
    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }

    /// Games in the batch.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Always false (a batch has at least one game).
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Players per game.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Observation length per game.
    pub fn observation_len(&self) -> usize {
        E::observation_len(self.players)
    }

    /// Action ids per game.
    pub fn num_actions(&self) -> usize {
        E::num_actions(self.players)
    }

    /// Game `i`.
    pub fn game(&self, i: usize) -> Option<&E> {
        self.games.get(i).map(|g| &g.game)
    }

    /// The seed game `i`'s current episode started from.
    pub fn game_seed(&self, i: usize) -> Option<u64> {
        let n = self.games.len() as u64;
        self.games
            .get(i)
            .map(|g| g.base.wrapping_add(g.episode.wrapping_mul(n)))
    }

    fn check_shapes(&self, actions: Option<usize>, out: &Outputs<'_>) -> Result<(), BatchError> {
        let n = self.games.len();
        let shapes = [
            ("actions", n, actions.unwrap_or(n)),
            ("observations", n * self.observation_len(), out.obs.len()),
            ("masks", n * self.num_actions(), out.mask.len()),
            ("rewards", n * self.players, out.rewards.len()),
            ("dones", n, out.dones.len()),
            ("to_move", n, out.to_move.len()),
        ];
        for (what, expected, got) in shapes {
            if expected != got {
                return Err(BatchError::Shape {
                    what,
                    expected,
                    got,
                });
            }
        }
        Ok(())
    }

    /// Threads for this batch's size, and the games per thread.
    fn split(&self) -> (usize, usize) {
        let n = self.games.len();
        let threads = self.threads.min(n.div_ceil(E::MIN_CHUNK)).max(1);
        (threads, n.div_ceil(threads))
    }

    /// Writes every game's outputs without stepping (after construction).
    pub fn observe(&mut self, out: Outputs<'_>) -> Result<(), BatchError> {
        self.check_shapes(None, &out)?;
        out.rewards.fill(0.0);
        out.dones.fill(false);
        let (olen, na) = (self.observation_len(), self.num_actions());
        for (i, g) in self.games.iter().enumerate() {
            out.to_move[i] = write_row(
                &g.game,
                PlayerId(0),
                &mut out.obs[i * olen..(i + 1) * olen],
                &mut out.mask[i * na..(i + 1) * na],
            );
        }
        Ok(())
    }

    /// Checks every action, then steps every game (in parallel), resetting finished games, and
    /// writes the outputs. On an error nothing is stepped.
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<(), BatchError> {
        self.check_shapes(Some(actions.len()), &out)?;
        let players = self.players;
        let n = self.games.len();
        let (threads, chunk) = self.split();
        // Every action is checked first (in parallel; the lowest game's error is reported),
        // so that nothing moves when one is refused.
        let check = |(c, (games, acts)): (usize, (&[Slot<E>], &[i64]))| -> Result<(), BatchError> {
            for (k, (g, &id)) in games.iter().zip(acts).enumerate() {
                if !g.over {
                    // (A game waiting for its reset ignores its action.)
                    g.game.check(c * chunk + k, id)?;
                }
            }
            Ok(())
        };
        let checked: Vec<Result<(), BatchError>> = if threads == 1 {
            vec![check((0, (&self.games[..], actions)))]
        } else {
            self.games
                .par_chunks(chunk)
                .zip(actions.par_chunks(chunk))
                .enumerate()
                .map(check)
                .collect()
        };
        checked.into_iter().collect::<Result<(), _>>()?;
        let (olen, na) = (self.observation_len(), self.num_actions());
        let Outputs {
            obs,
            mask,
            rewards,
            dones,
            to_move,
        } = out;
        let ctx = Ctx {
            players,
            olen,
            na,
            total: n as u64,
            autoreset: self.autoreset,
        };
        let work = self
            .games
            .chunks_mut(chunk)
            .zip(actions.chunks(chunk))
            .zip(obs.chunks_mut(chunk * olen))
            .zip(mask.chunks_mut(chunk * na))
            .zip(rewards.chunks_mut(chunk * players))
            .zip(dones.chunks_mut(chunk))
            .zip(to_move.chunks_mut(chunk))
            .enumerate()
            .map(
                |(c, ((((((games, acts), obs), mask), rewards), dones), to_move))| Chunk {
                    first: c * chunk,
                    games,
                    acts,
                    out: Outputs {
                        obs,
                        mask,
                        rewards,
                        dones,
                        to_move,
                    },
                },
            );
        if threads == 1 {
            work.into_iter().try_for_each(|w| w.run(&ctx))
        } else {
            let chunks: Vec<Chunk<'_, E>> = work.collect();
            chunks.into_par_iter().try_for_each(|w| w.run(&ctx))
        }
    }

    /// A uniformly random legal action id per game, from each game's own seeded generator
    /// (a random policy without a round trip through numpy); -1 for a game that waits for
    /// its reset.
    pub fn sample_legal(&mut self, out: &mut [i64]) -> Result<(), BatchError> {
        if out.len() != self.games.len() {
            return Err(BatchError::Shape {
                what: "actions",
                expected: self.games.len(),
                got: out.len(),
            });
        }
        let (_, chunk) = self.split();
        self.games
            .par_chunks_mut(chunk)
            .zip(out.par_chunks_mut(chunk))
            .for_each(|(games, out)| {
                for (g, o) in games.iter_mut().zip(out.iter_mut()) {
                    *o = g.game.sample(&mut g.rng);
                }
            });
        Ok(())
    }
}

/// What every chunk of a step shares.
struct Ctx {
    players: usize,
    olen: usize,
    na: usize,
    total: u64,
    autoreset: Autoreset,
}

/// One thread's share of a step: contiguous games and their output rows.
struct Chunk<'a, E> {
    first: usize,
    games: &'a mut [Slot<E>],
    acts: &'a [i64],
    out: Outputs<'a>,
}

impl<E: BatchGame> Chunk<'_, E> {
    fn run(self, ctx: &Ctx) -> Result<(), BatchError> {
        let Ctx {
            players,
            olen,
            na,
            total,
            autoreset,
        } = *ctx;
        let Outputs {
            obs,
            mask,
            rewards,
            dones,
            to_move,
        } = self.out;
        for (k, (g, &id)) in self.games.iter_mut().zip(self.acts).enumerate() {
            let i = self.first + k;
            let r = &mut rewards[k * players..(k + 1) * players];
            let (o, m) = (
                &mut obs[k * olen..(k + 1) * olen],
                &mut mask[k * na..(k + 1) * na],
            );
            let restart = |g: &mut Slot<E>| -> Result<(), BatchError> {
                g.episode += 1;
                let s = g.base.wrapping_add(g.episode.wrapping_mul(total));
                g.game = E::start(players, s)
                    .map_err(|reason| BatchError::Internal { game: i, reason })?;
                if E::SAMPLER_PER_EPISODE {
                    g.rng = tessera_core::rng::seeded(s ^ SAMPLER_SALT);
                }
                g.over = false;
                Ok(())
            };
            if g.over {
                restart(g)?;
                r.fill(0.0);
                dones[k] = false;
                to_move[k] = write_row(&g.game, PlayerId(0), o, m);
                continue;
            }
            let last = g.game.mover().unwrap_or(PlayerId(0));
            g.game.step(i, id)?;
            if let Some(outcome) = g.game.outcome() {
                for (x, v) in r.iter_mut().zip(outcome.rewards().as_slice()) {
                    *x = *v as f32;
                }
                dones[k] = true;
                match autoreset {
                    Autoreset::SameStep => restart(g)?,
                    // The final position, as the seat that ended the game sees it.
                    Autoreset::NextStep => g.over = true,
                }
            } else {
                r.fill(0.0);
                dones[k] = false;
            }
            to_move[k] = write_row(&g.game, last, o, m);
        }
        Ok(())
    }
}

/// `n` Azul games of the same player count.
pub type AzulBatch = Batch<GameInPlay<AzulState>>;

fn start(players: usize, seed: u64) -> Result<GameInPlay<AzulState>, String> {
    let initial = AzulState::new_random(players, &mut GameSeeds { seed }.setup_rng());
    GameInPlay::new(initial, seed).map_err(|e| e.to_string())
}

impl BatchGame for GameInPlay<AzulState> {
    const MIN_CHUNK: usize = 64;
    const SAMPLER_PER_EPISODE: bool = false;

    fn start(players: usize, seed: u64) -> Result<Self, String> {
        start(players, seed)
    }

    fn check_players(players: usize) -> Result<(), String> {
        if (2..=4).contains(&players) {
            Ok(())
        } else {
            Err(format!("Azul is for 2 to 4 players, not {players}"))
        }
    }

    fn observation_len(players: usize) -> usize {
        azul::observation_len(players)
    }

    fn num_actions(players: usize) -> usize {
        azul::num_actions(players)
    }

    fn check(&self, game: usize, id: i64) -> Result<(), BatchError> {
        let a = azul::decode(id, self.state().num_players())
            .map_err(|source| BatchError::OutOfRange { game, source })?;
        self.state()
            .check_action(a)
            .map_err(|e| BatchError::Illegal {
                game,
                id,
                action: a,
                reason: e.to_string(),
            })
    }

    fn step(&mut self, game: usize, id: i64) -> Result<(), BatchError> {
        let a = azul::decode(id, self.state().num_players())
            .map_err(|source| BatchError::OutOfRange { game, source })?;
        GameInPlay::step(self, a).map_err(|e| match e {
            StepError::Chance(e) => BatchError::Internal {
                game,
                reason: e.to_string(),
            },
            e => BatchError::Illegal {
                game,
                id,
                action: a,
                reason: e.to_string(),
            },
        })
    }

    fn mover(&self) -> Option<PlayerId> {
        self.state().current_player()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state().outcome()
    }

    fn write_observation(&self, seat: PlayerId, obs: &mut [f32]) {
        azul::write_observation(self.state(), seat, obs);
    }

    fn write_mask(&self, mask: &mut [i8]) {
        azul::write_mask_direct(self.state(), mask, 0, 1);
    }

    fn sample(&self, rng: &mut GameRng) -> i64 {
        self.state()
            .random_action(rng)
            .map_or(-1, |a| azul::encode(a) as i64)
    }

    fn notation(&self) -> String {
        self.state().to_string()
    }
}

impl AzulBatch {
    /// Game `i`'s current state.
    pub fn state(&self, i: usize) -> Option<&AzulState> {
        self.game(i).map(|g| g.state())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::Turn;

    fn mover(s: &AzulState) -> PlayerId {
        match s.turn() {
            Turn::Player(p) => p,
            _ => PlayerId(0),
        }
    }

    struct Bufs {
        obs: Vec<f32>,
        mask: Vec<i8>,
        rew: Vec<f32>,
        done: Vec<bool>,
        tm: Vec<i64>,
    }

    impl Bufs {
        fn new(b: &AzulBatch) -> Self {
            let n = b.len();
            Bufs {
                obs: vec![0.0; n * b.observation_len()],
                mask: vec![0; n * b.num_actions()],
                rew: vec![0.0; n * b.players()],
                done: vec![false; n],
                tm: vec![0; n],
            }
        }
        fn out(&mut self) -> Outputs<'_> {
            Outputs {
                obs: &mut self.obs,
                mask: &mut self.mask,
                rewards: &mut self.rew,
                dones: &mut self.done,
                to_move: &mut self.tm,
            }
        }
    }

    /// Independent check: game `i` of a batch (stepped on several threads, reset in place)
    /// plays exactly the games of lone sessions started from `seed + i + e * n`, with the
    /// same outputs as the lone game's own observation, mask and returns.
    #[test]
    fn a_batch_plays_the_lone_games_of_its_seeds() {
        let (n, players, seed) = (7, 3, 40);
        let mut b = AzulBatch::new(n, players, seed, 3).expect("batch");
        let mut bufs = Bufs::new(&b);
        b.observe(bufs.out()).expect("shapes");
        let mut lone: Vec<GameInPlay<AzulState>> = (0..n)
            .map(|i| start(players, seed + i as u64).expect("start"))
            .collect();
        let mut episodes = vec![0u64; n];
        let mut acts = vec![0i64; n];
        let (olen, na) = (b.observation_len(), b.num_actions());
        let mut finished = 0;
        let mut buf = Vec::new();
        for _ in 0..400 {
            b.sample_legal(&mut acts).expect("shape");
            b.step(&acts, bufs.out()).expect("legal actions");
            for i in 0..n {
                let a = azul::decode(acts[i], players).expect("in range");
                lone[i].step(a).expect("the same action is legal alone");
                let r = &bufs.rew[i * players..(i + 1) * players];
                if let Some(o) = lone[i].state().outcome() {
                    assert!(bufs.done[i]);
                    let want: Vec<f32> = o.rewards().as_slice().iter().map(|&x| x as f32).collect();
                    assert_eq!(r, want.as_slice());
                    finished += 1;
                    episodes[i] += 1;
                    lone[i] =
                        start(players, seed + i as u64 + episodes[i] * n as u64).expect("start");
                } else {
                    assert!(!bufs.done[i]);
                    assert!(r.iter().all(|&x| x == 0.0));
                }
                assert_eq!(b.state(i), Some(lone[i].state()));
                let s = lone[i].state();
                let p = mover(s);
                assert_eq!(bufs.tm[i], p.index() as i64);
                let mut o = vec![0f32; olen];
                azul::write_observation(s, p, &mut o);
                assert_eq!(&bufs.obs[i * olen..(i + 1) * olen], o.as_slice());
                let mut m = vec![0u8; na];
                azul::write_mask(s, &mut buf, &mut m);
                let got: Vec<u8> = bufs.mask[i * na..(i + 1) * na]
                    .iter()
                    .map(|&x| x as u8)
                    .collect();
                assert_eq!(got, m);
            }
        }
        assert!(finished >= n, "games finished and were reset: {finished}");
    }

    /// Next-step auto-reset against lone sessions: the step that ends a game shows its final
    /// position (the last mover's view, an empty mask, `to_move` -1, the returns, done); the
    /// game's next step ignores its action (here -1, out of range) and shows the new game
    /// from `seed + i + e * n` with no reward and not done.
    #[test]
    fn next_step_autoreset_shows_the_final_position_then_the_new_game() {
        let (n, players, seed) = (5, 2, 900);
        let mut b = AzulBatch::new(n, players, seed, 2)
            .expect("batch")
            .with_autoreset(Autoreset::NextStep);
        let mut bufs = Bufs::new(&b);
        b.observe(bufs.out()).expect("shapes");
        let mut lone: Vec<GameInPlay<AzulState>> = (0..n)
            .map(|i| start(players, seed + i as u64).expect("start"))
            .collect();
        let mut episodes = vec![0u64; n];
        let mut waiting = vec![false; n];
        let mut acts = vec![0i64; n];
        let olen = b.observation_len();
        let (mut ends, mut resets) = (0, 0);
        for _ in 0..300 {
            b.sample_legal(&mut acts).expect("shape");
            for i in 0..n {
                if waiting[i] {
                    assert_eq!(acts[i], -1, "a finished game has no legal action");
                }
            }
            b.step(&acts, bufs.out()).expect("legal actions");
            for i in 0..n {
                let r = &bufs.rew[i * players..(i + 1) * players];
                let row = &bufs.obs[i * olen..(i + 1) * olen];
                if waiting[i] {
                    episodes[i] += 1;
                    lone[i] =
                        start(players, seed + i as u64 + episodes[i] * n as u64).expect("start");
                    waiting[i] = false;
                    resets += 1;
                    assert!(!bufs.done[i] && r.iter().all(|&x| x == 0.0));
                } else {
                    let last = mover(lone[i].state());
                    let a = azul::decode(acts[i], players).expect("in range");
                    lone[i].step(a).expect("legal alone");
                    if let Some(o) = lone[i].state().outcome() {
                        ends += 1;
                        waiting[i] = true;
                        assert!(bufs.done[i]);
                        let want: Vec<f32> =
                            o.rewards().as_slice().iter().map(|&x| x as f32).collect();
                        assert_eq!(r, want.as_slice());
                        assert_eq!(bufs.tm[i], -1);
                        assert!(bufs.mask[i * 180..(i + 1) * 180].iter().all(|&m| m == 0));
                        let mut o = vec![0f32; olen];
                        azul::write_observation(lone[i].state(), last, &mut o);
                        assert_eq!(row, o.as_slice());
                        assert_eq!(b.state(i), Some(lone[i].state()));
                        continue;
                    }
                    assert!(!bufs.done[i] && r.iter().all(|&x| x == 0.0));
                }
                assert_eq!(b.state(i), Some(lone[i].state()));
                let p = mover(lone[i].state());
                assert_eq!(bufs.tm[i], p.index() as i64);
                let mut o = vec![0f32; olen];
                azul::write_observation(lone[i].state(), p, &mut o);
                assert_eq!(row, o.as_slice());
            }
        }
        assert!(ends >= n && resets >= n, "ends {ends}, resets {resets}");
    }

    /// A batch of given seeds: game `i` is the lone game of `seeds[i]`, its next episodes
    /// `seeds[i] + e * n`.
    #[test]
    fn a_batch_of_given_seeds_plays_the_lone_games_of_those_seeds() {
        let seeds = [90, 3, u64::MAX];
        let mut b = AzulBatch::with_seeds(&seeds, 2, 2).expect("batch");
        let n = seeds.len() as u64;
        for (i, &s) in seeds.iter().enumerate() {
            assert_eq!(b.state(i), Some(start(2, s).expect("start").state()));
            assert_eq!(b.game_seed(i), Some(s));
        }
        let mut bufs = Bufs::new(&b);
        b.observe(bufs.out()).expect("shapes");
        let mut acts = vec![0i64; seeds.len()];
        let mut episodes = [0u64; 3];
        for _ in 0..400 {
            b.sample_legal(&mut acts).expect("shape");
            b.step(&acts, bufs.out()).expect("legal");
            for (i, &s) in seeds.iter().enumerate() {
                episodes[i] += bufs.done[i] as u64;
                let want = s.wrapping_add(episodes[i] * n);
                assert_eq!(b.game_seed(i), Some(want));
                if bufs.done[i] {
                    assert_eq!(b.state(i), Some(start(2, want).expect("start").state()));
                }
            }
        }
        assert!(episodes.iter().all(|&e| e >= 1), "{episodes:?}");
        assert!(AzulBatch::with_seeds(&[], 2, 1).is_err());
    }

    #[test]
    fn bad_actions_and_shapes_are_refused_and_nothing_moves() {
        let mut b = AzulBatch::new(4, 2, 1, 2).expect("batch");
        let mut bufs = Bufs::new(&b);
        b.observe(bufs.out()).expect("shapes");
        let before: Vec<AzulState> = (0..4).map(|i| b.state(i).cloned().expect("game")).collect();
        let mut acts = vec![0i64; 4];
        b.sample_legal(&mut acts).expect("shape");
        let legal = acts.clone();
        acts[2] = 180;
        let e = b.step(&acts, bufs.out()).unwrap_err();
        assert!(matches!(e, BatchError::OutOfRange { game: 2, .. }), "{e}");
        assert!(e.to_string().contains("ids 0 to 179"), "{e}");
        // An in-range id whose mask bit is 0.
        let illegal = bufs.mask[180..360]
            .iter()
            .position(|&m| m == 0)
            .expect("one") as i64;
        acts[2] = legal[2];
        acts[1] = illegal;
        let e = b.step(&acts, bufs.out()).unwrap_err();
        assert!(matches!(e, BatchError::Illegal { game: 1, .. }), "{e}");
        let e = b.step(&acts[..3], bufs.out()).unwrap_err();
        assert!(
            e.to_string().contains("actions: expected 4 values, got 3"),
            "{e}"
        );
        for (i, s) in before.iter().enumerate() {
            assert_eq!(b.state(i), Some(s));
        }
        assert!(AzulBatch::new(0, 2, 0, 1).is_err());
        assert!(AzulBatch::new(2, 5, 0, 1).is_err());
    }
}
