//! Many independent Qwirkle games stepped in one call (`tessera.batch.QwirkleBatch`): the
//! batch engine of [`crate::batch`] over Qwirkle's step ids, one id per game (a placement is
//! built tile by tile, as in [`QwirkleTable`]).
//!
//! Seeds: game `i`'s episode `e` (from 0) is `QwirkleTable::new(players, seed + i + e * n)`,
//! exactly `QwirkleGame(players, seed + i + e * n)`.
//!
//! Each game keeps its own copy of its current action mask: the step checks every id against
//! it before anything moves (the caller's mask array may have been written to).

use rand::Rng;
use tessera_core::{Game, GameRng, Outcome, PlayerId};

use crate::batch::{Batch, BatchError, BatchGame};
use crate::qwirkle::{NUM_ACTIONS, QwirkleStepError, QwirkleTable};

/// One game of a [`QwirkleBatch`]: the table and its current action mask.
pub struct QwirkleSlot {
    table: QwirkleTable,
    /// The current action mask (all zeros once the game is over).
    mask: Vec<u8>,
}

/// `n` Qwirkle games of the same player count.
pub type QwirkleBatch = Batch<QwirkleSlot>;

fn internal(game: usize, e: QwirkleStepError) -> BatchError {
    BatchError::Internal {
        game,
        reason: e.to_string(),
    }
}

impl BatchGame for QwirkleSlot {
    const MIN_CHUNK: usize = 8;
    const SAMPLER_PER_EPISODE: bool = true;

    fn start(players: usize, seed: u64) -> Result<Self, String> {
        let table = QwirkleTable::new(players, seed).map_err(|e| e.to_string())?;
        let mut mask = vec![0u8; NUM_ACTIONS];
        table.write_mask(&mut mask);
        Ok(QwirkleSlot { table, mask })
    }

    fn check_players(players: usize) -> Result<(), String> {
        if (2..=4).contains(&players) {
            Ok(())
        } else {
            Err(format!("Qwirkle is for 2 to 4 players, not {players}"))
        }
    }

    fn observation_len(players: usize) -> usize {
        QwirkleTable::observation_len(players)
    }

    fn num_actions(_players: usize) -> usize {
        NUM_ACTIONS
    }

    fn check(&self, game: usize, id: i64) -> Result<(), BatchError> {
        let reason = match crate::qwirkle::decode(id) {
            Err(e) => e.to_string(),
            Ok(_) if self.mask[id as usize] == 0 => format!(
                "step id {id} ({}) is not legal now",
                self.table.describe(id as usize)
            ),
            Ok(_) => return Ok(()),
        };
        Err(BatchError::Refused { game, reason })
    }

    fn step(&mut self, game: usize, id: i64) -> Result<(), BatchError> {
        self.table.step(id).map_err(|e| internal(game, e))?;
        self.table.write_mask(&mut self.mask);
        Ok(())
    }

    fn mover(&self) -> Option<PlayerId> {
        self.table.mover()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.table.state().outcome()
    }

    fn write_observation(&self, seat: PlayerId, obs: &mut [f32]) {
        self.table.write_observation(seat, obs);
    }

    fn write_mask(&self, mask: &mut [i8]) {
        for (m, &x) in mask.iter_mut().zip(&self.mask) {
            *m = x as i8;
        }
    }

    fn sample(&self, rng: &mut GameRng) -> i64 {
        let legal = self.mask.iter().filter(|&&m| m == 1).count();
        if legal == 0 {
            return -1;
        }
        let pick = rng.random_range(0..legal);
        self.mask
            .iter()
            .enumerate()
            .filter(|(_, m)| **m == 1)
            .nth(pick)
            .map_or(-1, |(id, _)| id as i64)
    }

    fn notation(&self) -> String {
        self.table.state().to_string()
    }
}

impl QwirkleBatch {
    /// Game `i`'s current table.
    pub fn table(&self, i: usize) -> Option<&QwirkleTable> {
        self.game(i).map(|g| &g.table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{Autoreset, Outputs};

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
