"""Azul games as a Gymnasium vector environment over the batch engine (``AzulVectorEnv``),
checked against Gymnasium's own ``SyncVectorEnv`` (next-step autoreset) over lone games."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import tessera
from tessera.envs.azul_vector import AzulVectorEnv


class LoneGame(gym.Env):
    """The reference: one game on a handle, the seat to move acting, game ``i``'s episode
    ``e`` seeded ``seed + i + e * n`` (as documented for the vector env). At the end the
    observation is the last mover's view with an empty mask; reward +1/0/-1 to the mover."""

    def __init__(self, i, n, seed, players):
        self.i, self.n, self.base, self.episode = i, n, seed, -1
        self.game = tessera.AzulGame(players, 0)
        self.observation_space = spaces.Box(0.0, np.inf, (self.game.observation_len,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)

    def reset(self, *, seed=None, options=None):
        self.episode += 1
        self.game.reset(self.base + self.i + self.episode * self.n)
        p = self.game.current_player
        return self.game.observation(p), {"action_mask": self.game.action_mask(), "to_move": p}

    def step(self, action):
        p = self.game.current_player
        nxt = self.game.step(int(action))
        if nxt is None:
            w = self.game.winners()
            r = (1.0 if len(w) == 1 else 0.0) if p in w else -1.0
            info = {"action_mask": np.zeros(self.game.num_actions, np.int8), "to_move": -1}
            return self.game.observation(p), r, True, False, info
        info = {"action_mask": self.game.action_mask(), "to_move": nxt}
        return self.game.observation(nxt), 0.0, False, False, info


def masked_random(masks, rng):
    """One legal id per row (0 where a row has none: the vector env ignores it there)."""
    u = rng.random(masks.shape) * masks
    return u.argmax(axis=1).astype(np.int64)


@pytest.mark.parametrize("players", [2, 3])
def test_matches_gymnasiums_sync_vector_env_over_lone_games(players):
    n, seed = 6, 50
    vec = AzulVectorEnv(n, players=players, threads=2)
    ref = SyncVectorEnv(
        [lambda i=i: LoneGame(i, n, seed, players) for i in range(n)],
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    assert vec.metadata["autoreset_mode"] == ref.metadata["autoreset_mode"]
    assert vec.observation_space == ref.observation_space
    assert vec.action_space == ref.action_space
    assert vec.single_observation_space == ref.single_observation_space
    obs, info = vec.reset(seed=seed)
    robs, rinfo = ref.reset()
    assert data_equivalence(obs, robs, exact=True)
    assert np.array_equal(info["action_mask"], rinfo["action_mask"])
    rng = np.random.default_rng(1)
    ends = resets = 0
    done_before = np.zeros(n, bool)
    for _ in range(350):
        actions = masked_random(info["action_mask"], rng)
        obs, rew, term, trunc, info = vec.step(actions)
        robs, rrew, rterm, rtrunc, rinfo = ref.step(actions)
        assert obs.dtype == np.float32 and obs.shape == vec.observation_space.shape
        assert rew.shape == (n,) and term.dtype == bool and trunc.dtype == bool
        assert vec.observation_space.contains(obs)
        assert data_equivalence(obs, robs, exact=True)
        assert np.array_equal(rew, rrew) and np.array_equal(term, rterm)
        assert np.array_equal(trunc, rtrunc)
        assert np.array_equal(info["action_mask"], rinfo["action_mask"])
        assert np.array_equal(info["to_move"], rinfo["to_move"])
        # On a game's last step the returns of every seat are there; a row that ended is
        # reset at its next step with reward 0.
        assert np.array_equal(info["returns"].sum(axis=1) > 0, term)
        assert not rew[done_before].any() and not term[done_before].any()
        ends += term.sum()
        resets += done_before.sum()
        done_before = term.copy()
    assert ends >= n and resets >= n


def test_a_seed_per_game_starts_each_game_from_its_own_seed():
    """``reset(seed=[s_0, ..., s_{n-1}])`` as Gymnasium's vector envs take it: game ``i``
    is the lone game of ``s_i``, its ``e``-th next game of ``s_i + e * n``."""
    seeds, players = [500, 3, 77, 2**63], 2
    n = len(seeds)
    vec = AzulVectorEnv(n, players=players, threads=2)
    ref = SyncVectorEnv(
        [lambda s=s: LoneGame(0, n, s, players) for s in seeds],
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    obs, info = vec.reset(seed=np.array(seeds, dtype=np.uint64))
    robs, rinfo = ref.reset()
    assert data_equivalence(obs, robs, exact=True)
    rng = np.random.default_rng(2)
    ends = 0
    for _ in range(250):
        actions = masked_random(info["action_mask"], rng)
        obs, rew, term, trunc, info = vec.step(actions)
        robs, rrew, rterm, rtrunc, rinfo = ref.step(actions)
        assert data_equivalence(obs, robs, exact=True)
        assert np.array_equal(rew, rrew) and np.array_equal(term, rterm)
        assert np.array_equal(info["action_mask"], rinfo["action_mask"])
        ends += term.sum()
    assert ends >= n
    # One integer is the same as the list seed + i.
    a, _ = AzulVectorEnv(3).reset(seed=40)
    b, _ = AzulVectorEnv(3).reset(seed=[40, 41, 42])
    c, _ = AzulVectorEnv(3).reset(seed=[40, 41, 43])
    assert data_equivalence(a, b, exact=True) and not data_equivalence(a, c, exact=True)


def test_the_same_seed_gives_the_same_steps_and_another_seed_differs():
    def run(seed):
        env = AzulVectorEnv(8, threads=2)
        obs, info = env.reset(seed=seed)
        out = [obs]
        for _ in range(120):
            obs, rew, term, _, info = env.step(env.sample_actions())
            out += [obs, rew, term]
        return out

    a, b, c = run(3), run(3), run(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_returned_arrays_are_copies_unless_asked_otherwise():
    env = AzulVectorEnv(4)
    obs, info = env.reset(seed=0)
    obs2, *_ = env.step(env.sample_actions())
    assert not np.shares_memory(obs, obs2)
    raw = AzulVectorEnv(4, copy=False)
    obs, info = raw.reset(seed=0)
    obs2, *_ = raw.step(raw.sample_actions())
    assert obs is obs2


def test_gymnasium_vector_wrappers_work_on_it():
    env = gym.wrappers.vector.RecordEpisodeStatistics(AzulVectorEnv(4))
    obs, info = env.reset(seed=9)
    episodes = 0
    for _ in range(200):
        obs, rew, term, trunc, info = env.step(env.unwrapped.sample_actions())
        if "episode" in info:
            episodes += info["_episode"].sum()
            lengths = info["episode"]["l"][info["_episode"]]
            assert (lengths > 20).all()
    assert episodes >= 4


def test_bad_input_is_a_clear_error_and_nothing_moves():
    env = AzulVectorEnv(3)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(3, np.int64))
    obs, info = env.reset(seed=1)
    with pytest.raises(TypeError, match=r"shape \(3,\)"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(TypeError, match="integer action ids"):
        env.step(np.zeros(3))
    bad = masked_random(info["action_mask"], np.random.default_rng(0))
    bad[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match="game 1: action"):
        env.step(bad)
    with pytest.raises(ValueError, match="expected one integer .* or 3 integers .one per game., got 2"):
        env.reset(seed=[1, 2])
    with pytest.raises(TypeError, match="seed True"):
        env.reset(seed=[1, True, 3])
    with pytest.raises(ValueError, match="seed -1"):
        env.reset(seed=[1, -1, 3])
    with pytest.raises(TypeError, match="one integer"):
        env.reset(seed="1")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="num_envs 0"):
        AzulVectorEnv(0)
    with pytest.raises(ValueError, match="Azul is for 2 to 4 players"):
        AzulVectorEnv(2, players=1)
    # The refused step moved nothing: the same seed's first step still matches.
    again = AzulVectorEnv(3)
    again.reset(seed=1)
    good = masked_random(info["action_mask"], np.random.default_rng(0))
    assert data_equivalence(env.step(good)[0], again.step(good)[0], exact=True)


def test_the_batch_names_its_autoreset_mode_and_refuses_others():
    from tessera.batch import AzulBatch

    assert AzulBatch(2).autoreset == "same_step"
    assert AzulBatch(2, autoreset="next_step").autoreset == "next_step"
    with pytest.raises(ValueError, match='autoreset "next": expected "same_step" or "next_step"'):
        AzulBatch(2, autoreset="next")
