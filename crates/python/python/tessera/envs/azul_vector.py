"""Many Azul games as one Gymnasium vector environment, stepped by the batch engine.

    from tessera.envs.azul_vector import AzulVectorEnv
    envs = AzulVectorEnv(1024, players=2)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(100):
        actions = masked_sample(info["action_mask"], rng)   # any policy that reads the mask
        obs, rewards, terminated, truncated, info = envs.step(actions)

Self-play: each sub-environment is a whole game, and the action of row ``i`` is played by
the seat to move in game ``i`` (``info["to_move"]``); the observation is that seat's float32
vector, ``info["action_mask"]`` (int8, ``(num_envs, num_actions)``) its legal ids. The
reward of row ``i`` goes to the seat that made row ``i``'s move: 0 until the game ends, then
+1 if that seat won alone, 0 if it shared the win, -1 otherwise; ``info["returns"]`` holds
every seat's return at that step (1 for a sole winner, 1/k for k shared winners, 0
otherwise, as the PettingZoo environments' ``reward="outcome"``), for a learner that
credits the other seats too. Nothing is truncated (a game of Azul always ends).

Autoreset: Gymnasium's default, next-step (``metadata["autoreset_mode"]`` is
``AutoresetMode.NEXT_STEP``): the step that ends a game returns its final position (seen by
the seat that made the last move; mask all zeros; ``to_move`` -1) with ``terminated`` true;
that row's next step ignores its action and returns the first position of a new game
(reward 0, not terminated). All of it happens inside ``AzulBatch.step`` (Rust, the GIL
released, the games over threads): there is no Python loop over the games.

Seeding, as Gymnasium's vector environments take it: ``reset(seed=s)`` (one integer) starts
game ``i`` from seed ``s + i``; ``reset(seed=[s_0, ..., s_{n-1}])`` (one integer per game)
starts game ``i`` from ``s_i``. Game ``i``'s ``e``-th next game then starts from its first
seed ``+ e * num_envs`` (``AzulGame(players, seed)`` replays any of them); ``reset()``
without a seed draws ``s`` from the OS.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._tessera import _check_seed
from ..batch import MAX_GAMES, AzulBatch
from ._base import _entropy_seed
from .azul_v0 import _check_players


class AzulVectorEnv(VectorEnv):
    """See the module documentation.

    Args:
        num_envs: games (1 to ``tessera.batch.MAX_GAMES``).
        players: 2 to 4.
        threads: threads stepping the games (None: one per core).
        copy: return copies of the observations, masks and seats (True, Gymnasium's
            default) or the batch's own arrays, overwritten by the next step (False: no copy,
            for a learner that consumes each step at once).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        threads: int | None = None,
        copy: bool = True,
    ):
        if (
            not isinstance(num_envs, (int, np.integer))
            or isinstance(num_envs, bool)
            or not 1 <= num_envs <= MAX_GAMES
        ):
            raise ValueError(f"num_envs {num_envs!r}: expected an integer from 1 to {MAX_GAMES}")
        self.num_envs = int(num_envs)
        self.players = _check_players(players)
        self.threads = threads
        self.copy = bool(copy)
        # A one-game batch gives the sizes (and checks ``threads``).
        probe = AzulBatch(1, self.players, 0, threads)
        self.num_actions = probe.num_actions
        self.single_observation_space = spaces.Box(
            low=0.0, high=np.inf, shape=(probe.observation_len,), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(probe.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._batch: AzulBatch | None = None
        self._rows = np.arange(self.num_envs)
        self._to_move = np.zeros(self.num_envs, dtype=np.int64)

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def reset(
        self,
        *,
        seed: int | list[int] | tuple[int, ...] | np.ndarray | None = None,
        options: dict | None = None,
    ):
        seeds = None
        if seed is None:
            base = _entropy_seed()
        elif isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != self.num_envs:
                raise ValueError(
                    f"seed: expected one integer (game i starts from seed + i) or "
                    f"{self.num_envs} integers (one per game), got {len(seed)}"
                )
            seeds = [_check_seed(s) for s in seed]
            base = seeds[0]
        elif isinstance(seed, (int, np.integer)):
            base = _check_seed(seed)
        else:
            raise TypeError(
                f"seed {seed!r}: expected one integer (game i starts from seed + i) or a "
                f"list of {self.num_envs} integers (one per game), not {type(seed).__name__}"
            )
        super().reset(seed=base)
        self._batch = AzulBatch(
            self.num_envs, self.players, base, self.threads, autoreset="next_step", seeds=seeds
        )
        obs, masks, _, _, to_move = self._batch.arrays()
        self._to_move = to_move.copy()
        info = {"action_mask": self._out(masks), "to_move": self._to_move.copy()}
        return self._out(obs), info

    def step(self, actions):
        batch = self._batch
        if batch is None:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise TypeError(
                f"actions: expected integer action ids of shape ({self.num_envs},), got "
                f"dtype {acts.dtype} and shape {acts.shape}"
            )
        acts = np.ascontiguousarray(acts, dtype=np.int64)
        movers = self._to_move
        obs, masks, returns, dones, to_move = batch.step(acts)
        # The reward of the seat that moved in each game (0 where the row was being reset:
        # the batch writes zero returns there, and its mover is -1).
        own = returns[self._rows, np.maximum(movers, 0)]
        rewards = np.where(dones, np.where(own == 1.0, 1.0, np.where(own > 0.0, 0.0, -1.0)), 0.0)
        self._to_move = to_move.copy()
        info = {
            "action_mask": self._out(masks),
            "to_move": self._to_move.copy(),
            "returns": returns.copy(),
        }
        return (
            self._out(obs),
            rewards,
            dones.copy(),
            np.zeros(self.num_envs, dtype=bool),
            info,
        )

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal id per game (-1 where a game waits for its reset; any
        id is ignored there), from each game's own seeded generator."""
        if self._batch is None:
            raise RuntimeError("call reset() before sample_actions()")
        return self._batch.sample_actions().copy()

    def close_extras(self, **kwargs) -> None:
        self._batch = None
