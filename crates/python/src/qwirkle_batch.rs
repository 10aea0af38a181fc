//! Many independent Qwirkle games stepped in one call (`tessera.batch.QwirkleBatch`), the
//! Qwirkle counterpart of [`crate::batch::AzulBatch`]: one step id per game (a placement is
//! built tile by tile, as in [`QwirkleTable`]), every game stepped on rayon's pool, finished
//! games restarted as [`Autoreset`] says, the outputs written into caller-owned buffers.
//!
//! Seeds: game `i`'s episode `e` (from 0) is `QwirkleTable::new(players, seed + i + e * n)`,
//! exactly `QwirkleGame(players, seed + i + e * n)`.
//!
//! Each game keeps its own copy of its current action mask: the step checks every id against
//! it before anything moves (the caller's mask array may have been written to).

use rand::Rng;
use rayon::prelude::*;
use tessera_core::{Game, GameRng};

use crate::batch::{Autoreset, BatchError, Outputs};
use crate::qwirkle::{NUM_ACTIONS, QwirkleStepError, QwirkleTable};

struct Slot {
    table: QwirkleTable,
    episode: u64,
    rng: GameRng,
    /// The current action mask (all zeros once the game is over).
    mask: Vec<u8>,
    /// Under [`Autoreset::NextStep`]: the game ended and waits for its reset.
    over: bool,
}

/// `n` Qwirkle games of the same player count. See the [module](self) documentation.
pub struct QwirkleBatch {
    games: Vec<Slot>,
    players: usize,
    seed: u64,
    threads: usize,
    autoreset: Autoreset,
}

fn internal(game: usize, e: QwirkleStepError) -> BatchError {
    BatchError::Internal {
        game,
        reason: e.to_string(),
    }
}

impl Slot {
    fn start(players: usize, seed: u64, game: usize) -> Result<Self, BatchError> {
        let table = QwirkleTable::new(players, seed).map_err(|e| internal(game, e))?;
        let mut mask = vec![0u8; NUM_ACTIONS];
        table.write_mask(&mut mask);
        Ok(Slot {
            table,
            episode: 0,
            rng: tessera_core::rng::seeded(seed ^ 0x5eed_ba7c),
            mask,
            over: false,
        })
    }

    /// Writes this game's row: the observation of the seat to move (or of `seat` once the
    /// game is over), the mask, the seat to move (-1 once over).
    fn write_row(&self, seat: tessera_core::PlayerId, obs: &mut [f32], mask: &mut [i8]) -> i64 {
        let p = self.table.mover();
        self.table.write_observation(p.unwrap_or(seat), obs);
        for (m, &x) in mask.iter_mut().zip(&self.mask) {
            *m = x as i8;
        }
        p.map_or(-1, |p| p.index() as i64)
    }
}

impl QwirkleBatch {
    /// `n` games of `players` (2-4) from `seed`, stepped by up to `threads` threads.
    pub fn new(n: usize, players: usize, seed: u64, threads: usize) -> Result<Self, String> {
        if n == 0 {
            return Err("a batch needs at least one game".into());
        }
        if !(2..=4).contains(&players) {
            return Err(format!("Qwirkle is for 2 to 4 players, not {players}"));
        }
        let games = (0..n)
            .map(|i| Slot::start(players, seed.wrapping_add(i as u64), i))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        Ok(QwirkleBatch {
            games,
            players,
            seed,
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
        QwirkleTable::observation_len(self.players)
    }

    /// Step ids per game.
    pub fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    /// Game `i`'s current table.
    pub fn table(&self, i: usize) -> Option<&QwirkleTable> {
        self.games.get(i).map(|g| &g.table)
    }

    /// The seed game `i`'s current episode started from.
    pub fn game_seed(&self, i: usize) -> Option<u64> {
        self.games.get(i).map(|g| {
            self.seed
                .wrapping_add(i as u64)
                .wrapping_add(g.episode.wrapping_mul(self.games.len() as u64))
        })
    }

    fn check_shapes(&self, actions: Option<usize>, out: &Outputs<'_>) -> Result<(), BatchError> {
        let n = self.games.len();
        let shapes = [
            ("actions", n, actions.unwrap_or(n)),
            ("observations", n * self.observation_len(), out.obs.len()),
            ("masks", n * NUM_ACTIONS, out.mask.len()),
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

    fn chunk(&self) -> usize {
        let n = self.games.len();
        n.div_ceil(self.threads.min(n.div_ceil(8)).max(1))
    }

    /// Writes every game's outputs without stepping (after construction).
    pub fn observe(&mut self, out: Outputs<'_>) -> Result<(), BatchError> {
        self.check_shapes(None, &out)?;
        out.rewards.fill(0.0);
        out.dones.fill(false);
        let olen = self.observation_len();
        for (i, g) in self.games.iter().enumerate() {
            out.to_move[i] = g.write_row(
                tessera_core::PlayerId(0),
                &mut out.obs[i * olen..(i + 1) * olen],
                &mut out.mask[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS],
            );
        }
        Ok(())
    }

    /// Checks every id against its game's mask, then steps every game (in parallel),
    /// restarting finished games, and writes the outputs. On an error nothing is stepped.
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<(), BatchError> {
        self.check_shapes(Some(actions.len()), &out)?;
        for (i, (g, &id)) in self.games.iter().zip(actions).enumerate() {
            if g.over {
                continue;
            }
            let reason = match crate::qwirkle::decode(id) {
                Err(e) => e.to_string(),
                Ok(_) if g.mask[id as usize] == 0 => format!(
                    "step id {id} ({}) is not legal now",
                    g.table.describe(id as usize)
                ),
                Ok(_) => continue,
            };
            return Err(BatchError::Refused { game: i, reason });
        }
        let (players, olen, chunk) = (self.players, self.observation_len(), self.chunk());
        let (seed, total, autoreset) = (self.seed, self.games.len() as u64, self.autoreset);
        let Outputs {
            obs,
            mask,
            rewards,
            dones,
            to_move,
        } = out;
        self.games
            .par_chunks_mut(chunk)
            .zip(actions.par_chunks(chunk))
            .zip(obs.par_chunks_mut(chunk * olen))
            .zip(mask.par_chunks_mut(chunk * NUM_ACTIONS))
            .zip(rewards.par_chunks_mut(chunk * players))
            .zip(dones.par_chunks_mut(chunk))
            .zip(to_move.par_chunks_mut(chunk))
            .enumerate()
            .try_for_each(
                |(c, ((((((games, acts), obs), mask), rewards), dones), to_move))| {
                    for (k, (g, &id)) in games.iter_mut().zip(acts).enumerate() {
                        let i = c * chunk + k;
                        let r = &mut rewards[k * players..(k + 1) * players];
                        let o = &mut obs[k * olen..(k + 1) * olen];
                        let m = &mut mask[k * NUM_ACTIONS..(k + 1) * NUM_ACTIONS];
                        let restart = |g: &mut Slot| -> Result<(), BatchError> {
                            let episode = g.episode + 1;
                            let s = seed
                                .wrapping_add(i as u64)
                                .wrapping_add(episode.wrapping_mul(total));
                            *g = Slot::start(players, s, i)?;
                            g.episode = episode;
                            Ok(())
                        };
                        if g.over {
                            restart(g)?;
                            r.fill(0.0);
                            dones[k] = false;
                            to_move[k] = g.write_row(tessera_core::PlayerId(0), o, m);
                            continue;
                        }
                        let last = g.table.mover().unwrap_or(tessera_core::PlayerId(0));
                        g.table.step(id).map_err(|e| internal(i, e))?;
                        g.table.write_mask(&mut g.mask);
                        if let Some(outcome) = g.table.state().outcome() {
                            for (x, v) in r.iter_mut().zip(outcome.rewards().as_slice()) {
                                *x = *v as f32;
                            }
                            dones[k] = true;
                            match autoreset {
                                Autoreset::SameStep => restart(g)?,
                                Autoreset::NextStep => g.over = true,
                            }
                        } else {
                            r.fill(0.0);
                            dones[k] = false;
                        }
                        to_move[k] = g.write_row(last, o, m);
                    }
                    Ok(())
                },
            )
    }

    /// A uniformly random legal step id per game from each game's own seeded generator
    /// (-1 for a game that waits for its reset).
    pub fn sample_legal(&mut self, out: &mut [i64]) -> Result<(), BatchError> {
        if out.len() != self.games.len() {
            return Err(BatchError::Shape {
                what: "actions",
                expected: self.games.len(),
                got: out.len(),
            });
        }
        let chunk = self.chunk();
        self.games
            .par_chunks_mut(chunk)
            .zip(out.par_chunks_mut(chunk))
            .for_each(|(games, out)| {
                for (g, o) in games.iter_mut().zip(out.iter_mut()) {
                    let legal = g.mask.iter().filter(|&&m| m == 1).count();
                    *o = if legal == 0 {
                        -1
                    } else {
                        let pick = g.rng.random_range(0..legal);
                        g.mask
                            .iter()
                            .enumerate()
                            .filter(|(_, m)| **m == 1)
                            .nth(pick)
                            .map_or(-1, |(id, _)| id as i64)
                    };
                }
            });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `i` of a batch (several threads, next-step reset) plays exactly the lone tables
    /// of its seeds, with the lone table's observation, mask, seat and returns.
    #[test]
    fn a_batch_plays_the_lone_tables_of_its_seeds() {
        for mode in [Autoreset::SameStep, Autoreset::NextStep] {
            let (n, players, seed) = (3, 2, 70);
            let mut b = QwirkleBatch::new(n, players, seed, 2)
                .expect("batch")
                .with_autoreset(mode);
            let olen = b.observation_len();
            let mut obs = vec![0f32; n * olen];
            let mut mask = vec![0i8; n * NUM_ACTIONS];
            let mut rew = vec![0f32; n * players];
            let mut done = vec![false; n];
            let mut tm = vec![0i64; n];
            macro_rules! out {
                () => {
                    Outputs {
                        obs: &mut obs,
                        mask: &mut mask,
                        rewards: &mut rew,
                        dones: &mut done,
                        to_move: &mut tm,
                    }
                };
            }
            b.observe(out!()).expect("shapes");
            let mut lone: Vec<QwirkleTable> = (0..n)
                .map(|i| QwirkleTable::new(players, seed + i as u64).expect("new"))
                .collect();
            let mut episodes = vec![0u64; n];
            let mut waiting = vec![false; n];
            let mut acts = vec![0i64; n];
            let mut ends = 0;
            let mut want_mask = vec![0u8; NUM_ACTIONS];
            for _ in 0..700 {
                b.sample_legal(&mut acts).expect("shape");
                b.step(&acts, out!()).expect("legal ids");
                for i in 0..n {
                    let r = &rew[i * players..(i + 1) * players];
                    if waiting[i] {
                        episodes[i] += 1;
                        lone[i] =
                            QwirkleTable::new(players, seed + i as u64 + episodes[i] * n as u64)
                                .expect("new");
                        waiting[i] = false;
                        assert!(!done[i] && r.iter().all(|&x| x == 0.0));
                    } else {
                        let last = lone[i].mover().expect("a mover");
                        lone[i].step(acts[i]).expect("legal alone");
                        if let Some(o) = lone[i].state().outcome() {
                            ends += 1;
                            assert!(done[i]);
                            let want: Vec<f32> =
                                o.rewards().as_slice().iter().map(|&x| x as f32).collect();
                            assert_eq!(r, want.as_slice());
                            if mode == Autoreset::NextStep {
                                waiting[i] = true;
                                assert_eq!(tm[i], -1);
                                let mut want_obs = vec![0f32; olen];
                                lone[i].write_observation(last, &mut want_obs);
                                assert_eq!(&obs[i * olen..(i + 1) * olen], want_obs.as_slice());
                                assert!(
                                    mask[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS]
                                        .iter()
                                        .all(|&m| m == 0)
                                );
                                continue;
                            }
                            episodes[i] += 1;
                            lone[i] = QwirkleTable::new(
                                players,
                                seed + i as u64 + episodes[i] * n as u64,
                            )
                            .expect("new");
                        } else {
                            assert!(!done[i] && r.iter().all(|&x| x == 0.0));
                        }
                    }
                    assert_eq!(b.table(i).map(|t| t.snapshot()), Some(lone[i].snapshot()));
                    let p = lone[i].mover().expect("a mover");
                    assert_eq!(tm[i], p.index() as i64);
                    let mut want_obs = vec![0f32; olen];
                    lone[i].write_observation(p, &mut want_obs);
                    assert_eq!(&obs[i * olen..(i + 1) * olen], want_obs.as_slice());
                    lone[i].write_mask(&mut want_mask);
                    let got: Vec<u8> = mask[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS]
                        .iter()
                        .map(|&x| x as u8)
                        .collect();
                    assert_eq!(got, want_mask);
                    assert_eq!(
                        b.game_seed(i),
                        Some(seed + i as u64 + episodes[i] * n as u64)
                    );
                }
            }
            assert!(ends >= n, "{mode:?}: games ended {ends}");
        }
    }

    #[test]
    fn an_illegal_or_out_of_range_id_moves_nothing() {
        let mut b = QwirkleBatch::new(2, 2, 5, 2).expect("batch");
        let olen = b.observation_len();
        let (mut obs, mut mask) = (vec![0f32; 2 * olen], vec![0i8; 2 * NUM_ACTIONS]);
        let (mut rew, mut done, mut tm) = (vec![0f32; 4], vec![false; 2], vec![0i64; 2]);
        let before: Vec<String> = (0..2).map(|i| b.table(i).expect("t").snapshot()).collect();
        let mut acts = vec![0i64; 2];
        b.sample_legal(&mut acts).expect("shape");
        for bad in [NUM_ACTIONS as i64, -1, 5829] {
            acts[1] = bad; // 5829 is a pass: never legal at the start
            let e = b
                .step(
                    &acts,
                    Outputs {
                        obs: &mut obs,
                        mask: &mut mask,
                        rewards: &mut rew,
                        dones: &mut done,
                        to_move: &mut tm,
                    },
                )
                .unwrap_err();
            assert!(e.to_string().starts_with("game 1: "), "{e}");
            for (i, s) in before.iter().enumerate() {
                assert_eq!(&b.table(i).expect("t").snapshot(), s);
            }
        }
        assert!(QwirkleBatch::new(0, 2, 0, 1).is_err());
        assert!(QwirkleBatch::new(2, 5, 0, 1).is_err());
    }
}
