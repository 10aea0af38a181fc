"""QwirkleBatch: many Qwirkle games per call, one step id each, the same games as lone
QwirkleGame handles."""

import numpy as np
import pytest

from tessera import QwirkleGame
from tessera.batch import MAX_QWIRKLE_GAMES, QwirkleBatch


@pytest.mark.parametrize("autoreset", ["same_step", "next_step"])
def test_every_game_is_the_lone_game_of_its_seed(autoreset):
    n, players, seed = 3, 3, 40
    b = QwirkleBatch(n, players=players, seed=seed, threads=2, autoreset=autoreset)
    assert b.num_actions == 5831 and b.autoreset == autoreset
    lone = [QwirkleGame(players, seed + i) for i in range(n)]
    episodes = [0] * n
    waiting = [False] * n
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(700):
        obs, masks, _, _, _ = b.arrays()
        acts = np.array(
            [rng.choice(np.flatnonzero(masks[i])) if masks[i].any() else -1 for i in range(n)],
            np.int64,
        )
        obs, masks, rewards, dones, to_move = b.step(acts)
        for i in range(n):
            if waiting[i]:
                waiting[i] = False
                episodes[i] += 1
                lone[i] = QwirkleGame(players, seed + i + episodes[i] * n)
                assert not dones[i] and not rewards[i].any()
            else:
                mover = lone[i].current_player
                lone[i].step(int(acts[i]))
                if lone[i].is_terminal:
                    assert dones[i]
                    np.testing.assert_array_equal(rewards[i], np.array(lone[i].returns(), np.float32))
                    ended += 1
                    if autoreset == "next_step":
                        waiting[i] = True
                        assert to_move[i] == -1 and not masks[i].any()
                        np.testing.assert_array_equal(obs[i], lone[i].observation(mover))
                        continue
                    episodes[i] += 1
                    lone[i] = QwirkleGame(players, seed + i + episodes[i] * n)
                else:
                    assert not dones[i] and not rewards[i].any()
            assert b.notation(i) == lone[i].notation()
            assert b.game_seed(i) == seed + i + episodes[i] * n
            assert to_move[i] == lone[i].current_player
            np.testing.assert_array_equal(obs[i], lone[i].observation(lone[i].current_player))
            np.testing.assert_array_equal(masks[i], lone[i].action_mask())
    assert ended >= n


def test_bad_input_is_refused_and_nothing_moves():
    b = QwirkleBatch(2, players=2, seed=1)
    before = [b.notation(i) for i in range(2)]
    acts = b.sample_actions().copy()
    bad = acts.copy()
    bad[1] = 5829  # a pass is not legal with tiles to play
    with pytest.raises(ValueError, match=r"game 1: step id 5829 \(pass\) is not legal now"):
        b.step(bad)
    bad[1] = 5831
    with pytest.raises(ValueError, match="game 1: action id 5831 is out of range"):
        b.step(bad)
    with pytest.raises(TypeError, match="1-D numpy int64 array of length 2"):
        b.step(acts.astype(np.float64))
    assert [b.notation(i) for i in range(2)] == before
    with pytest.raises(ValueError, match="Qwirkle is for 2 to 4 players"):
        QwirkleBatch(2, players=5)
    with pytest.raises(ValueError, match=f"a Qwirkle batch holds 1 to {MAX_QWIRKLE_GAMES} games"):
        QwirkleBatch(MAX_QWIRKLE_GAMES + 1)
    with pytest.raises(ValueError, match="autoreset"):
        QwirkleBatch(1, autoreset="later")
