"""Match the Tiles as a Gymnasium environment."""

import itertools

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tessera  # noqa: F401 (importing it registers tessera/MatchTiles-v0)
from tessera import MatchTiles

LEVEL = """\
# a 3 x 3 level: slide right to put the red piece on its target
R.r
...
...
"""


@pytest.mark.parametrize(
    "kwargs",
    [dict(level=3), dict(generate=dict(side=5, colours=2, optimal=4))],
)
def test_check_env_passes(kwargs):
    env = gym.make("tessera/MatchTiles-v0", **kwargs)
    check_env(env.unwrapped)


def test_the_known_optimum_of_a_builtin_level_solves_it():
    env = gym.make("tessera/MatchTiles-v0", level=2, render_mode="ansi")
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    # Level 2's optimum is 4 moves: the shortest id sequence that solves it, found by trying
    # every sequence in order of length, has that length.
    start = env.unwrapped.puzzle

    def solves(path):
        g = MatchTiles.builtin(2)
        for m in path:
            g.step(m)
        return g.is_solved

    solution = next(
        list(p)
        for n in range(1, 6)
        for p in itertools.product(range(4), repeat=n)
        if solves(p)
    )
    assert len(solution) == start.known_optimal == 4
    total = 0.0
    for a in solution:
        obs, reward, terminated, truncated, info = env.step(a)
        total += reward
    assert terminated and not truncated and total == 1.0
    assert "#" in env.render() or "." in env.render()


def test_a_level_file_and_truncation(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text(LEVEL)
    env = gym.make("tessera/MatchTiles-v0", level_file=str(path), max_steps=2)
    env.reset(seed=1)
    _, r, term, trunc, info = env.step(0)  # left: nothing moves
    assert (r, term, trunc, info["moved"]) == (0.0, False, False, False)
    _, r, term, trunc, _ = env.step(0)
    assert (term, trunc) == (False, True)
    env.reset()
    _, r, term, _, _ = env.step(1)  # right: solved
    assert (r, term) == (1.0, True)


def test_generated_levels_follow_the_reset_seed():
    env = gym.make("tessera/MatchTiles-v0", generate=dict(side=5, colours=2, optimal=3))
    a, _ = env.reset(seed=7)
    b, _ = env.reset(seed=7)
    c, _ = env.reset(seed=8)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_bad_levels_and_actions_raise_value_errors(tmp_path):
    with pytest.raises(ValueError, match="built-in levels are 1 to 12"):
        MatchTiles.builtin(13)
    bad = tmp_path / "bad.txt"
    bad.write_text("R.r\n.r*\n")
    with pytest.raises(ValueError, match="level text"):
        gym.make("tessera/MatchTiles-v0", level_file=str(bad))
    with pytest.raises(ValueError, match="indices 0 to 0"):
        MatchTiles.from_text(LEVEL, 3)
    with pytest.raises(ValueError, match="one level source"):
        gym.make("tessera/MatchTiles-v0", level=1, generate=dict(side=5, colours=2, optimal=3))
    with pytest.raises(ValueError, match="side, colours and optimal"):
        gym.make("tessera/MatchTiles-v0", generate=dict(side=5))
    with pytest.raises(ValueError, match="bad generator settings"):
        MatchTiles.generate(40, 2, 3)
    g = MatchTiles.builtin(1)
    with pytest.raises(ValueError, match="actions 0 \\(L\\), 1 \\(R\\), 2 \\(U\\) and 3 \\(D\\)"):
        g.step(4)
