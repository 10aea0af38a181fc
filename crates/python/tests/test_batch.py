"""The batch API: many games per call, numpy in and out, the same games as lone handles."""

import numpy as np
import pytest

from tessera import AzulGame
from tessera.batch import AzulBatch


def test_arrays_are_preallocated_and_written_in_place():
    b = AzulBatch(5, players=3, seed=9, threads=2)
    obs, masks, rewards, dones, to_move = b.arrays()
    assert obs.shape == (5, b.observation_len) and obs.dtype == np.float32
    assert masks.shape == (5, 240) and masks.dtype == np.int8
    assert rewards.shape == (5, 3) and rewards.dtype == np.float32
    assert dones.shape == (5,) and dones.dtype == np.bool_
    assert to_move.shape == (5,) and to_move.dtype == np.int64
    out = b.step(b.sample_actions())
    assert all(x is y for x, y in zip(out, (obs, masks, rewards, dones, to_move)))


def test_every_game_is_the_lone_game_of_its_seed():
    n, players, seed = 6, 2, 100
    b = AzulBatch(n, players=players, seed=seed, threads=2)
    lone = [AzulGame(players, seed + i) for i in range(n)]
    episodes = [0] * n
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        obs, masks, _, _, _ = b.arrays()
        acts = np.array([rng.choice(np.flatnonzero(masks[i])) for i in range(n)], np.int64)
        obs, masks, rewards, dones, to_move = b.step(acts)
        for i in range(n):
            lone[i].step(int(acts[i]))
            if lone[i].is_terminal:
                assert dones[i]
                np.testing.assert_array_equal(rewards[i], np.array(lone[i].returns(), np.float32))
                ended += 1
                episodes[i] += 1
                lone[i] = AzulGame(players, seed + i + episodes[i] * n)
            else:
                assert not dones[i] and not rewards[i].any()
            assert b.notation(i) == lone[i].notation()
            assert b.game_seed(i) == lone[i].seed
            assert to_move[i] == lone[i].current_player
            np.testing.assert_array_equal(obs[i], lone[i].observation(lone[i].current_player))
            np.testing.assert_array_equal(masks[i], lone[i].action_mask())
    assert ended >= n


def test_bad_input_is_refused_and_nothing_moves():
    b = AzulBatch(3, players=2, seed=1)
    before = [b.notation(i) for i in range(3)]
    legal = b.sample_actions().copy()
    with pytest.raises(TypeError, match="1-D numpy int64 array of length 3, got a ndarray of dtype float64"):
        b.step(legal.astype(np.float64))
    with pytest.raises(TypeError, match="got a list"):
        b.step([0, 0, 0])
    with pytest.raises(TypeError, match=r"shape \(3, 1\)"):
        b.step(legal.reshape(3, 1))
    with pytest.raises(ValueError, match="actions: expected 3 values, got 2"):
        b.step(legal[:2].copy())
    bad = legal.copy()
    bad[1] = 180
    with pytest.raises(ValueError, match="game 1: action id 180 is out of range"):
        b.step(bad)
    masks = b.arrays()[1]
    bad = legal.copy()
    bad[2] = int(np.flatnonzero(masks[2] == 0)[0])
    with pytest.raises(ValueError, match="game 2: action .* is not legal"):
        b.step(bad)
    assert [b.notation(i) for i in range(3)] == before
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        AzulBatch(2, players=5)
    with pytest.raises(ValueError, match="n 0: a batch holds 1 to"):
        AzulBatch(0)
    with pytest.raises(ValueError, match="game 3 does not exist"):
        b.notation(3)
