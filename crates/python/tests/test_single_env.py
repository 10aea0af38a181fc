"""Azul for one learner against a fixed opponent (``tessera/AzulVsAgent-v0``)."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tessera
from tessera.envs.azul_single_v0 import AzulVsAgentEnv


def play(env, seed, policy_seed=0):
    """A masked random learner; returns the trace of (obs bytes, reward, notation)."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trace = [(obs.tobytes(), 0.0, env.unwrapped.game.notation())]
    while True:
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        assert env.unwrapped.game.current_player == env.unwrapped.seat
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        trace.append((obs.tobytes(), reward, env.unwrapped.game.notation()))
        if terminated:
            return trace


def test_passes_gymnasiums_env_checker():
    # check_env steps with unmasked samples of the action space, so it runs with the "lose"
    # policy (an illegal id ends the episode with a penalty) rather than the default "raise".
    check_env(
        gym.make("tessera/AzulVsAgent-v0", illegal_action="lose").unwrapped,
        skip_render_check=True,
    )
    check_env(
        AzulVsAgentEnv(opponent="level:3", players=3, seat=None, illegal_action="lose"),
        skip_render_check=True,
    )
    with pytest.raises(ValueError, match="is not legal"):
        check_env(gym.make("tessera/AzulVsAgent-v0").unwrapped, skip_render_check=True)


def test_the_opponent_moves_inside_step_and_the_reward_is_the_learners_result():
    env = AzulVsAgentEnv(opponent="level:5", seat=1)
    trace = play(env, seed=3)
    game = env.game
    assert game.current_player is None
    reward = trace[-1][1]
    winners = game.winners()
    expected = (1.0 if len(winners) == 1 else 0.0) if 1 in winners else -1.0
    assert reward == expected
    assert all(r == 0.0 for _, r, _ in trace[:-1])


def test_level_5_beats_a_random_learner_most_of_the_time():
    env = AzulVsAgentEnv(opponent="level:5")
    rewards = [play(env, seed=s, policy_seed=s)[-1][1] for s in range(12)]
    assert sum(r == -1.0 for r in rewards) >= 10, rewards


def test_the_opponent_plays_exactly_its_agents_moves():
    """An independent replay: the same deal, and tessera.Agent with the seed the env drew,
    give the same opponent moves."""
    env = AzulVsAgentEnv(opponent="level:4", seat=0)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(0)
    # The env draws (deal, agent seed) from its np_random, as documented.
    deal, agent_seed = (
        int(x) for x in np.random.Generator(np.random.PCG64(11)).integers(0, 2**63, size=2)
    )
    game = tessera.AzulGame(2, deal)
    agent = tessera.Agent("level:4", game="azul", seed=agent_seed)
    while game.current_player == 1:
        game.step(agent.act(game))
    assert game.notation() == env.game.notation()
    terminated = False
    while not terminated:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, _, info = env.step(a)
        game.step(a)
        while game.current_player == 1:
            game.step(agent.act(game))
        assert game.notation() == env.game.notation()
        assert np.array_equal(obs, game.observation(0))


def test_a_seed_reproduces_the_episode_and_another_differs():
    a = play(AzulVsAgentEnv(seat=None), seed=21)
    b = play(AzulVsAgentEnv(seat=None), seed=21)
    c = play(AzulVsAgentEnv(seat=None), seed=22)
    assert a == b
    assert a != c


def test_the_random_seat_takes_every_seat():
    env = AzulVsAgentEnv(players=3, seat=None, opponent="random")
    seats = set()
    for s in range(30):
        env.reset(seed=s)
        seats.add(env.seat)
        assert env.game.current_player == env.seat
    assert seats == {0, 1, 2}


def test_illegal_actions_raise_or_lose_as_chosen():
    env = AzulVsAgentEnv()
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.notation()
    with pytest.raises(ValueError, match=r"the learner \(seat 0\): action .* is not legal"):
        env.step(illegal)
    assert env.game.notation() == before
    with pytest.raises(TypeError, match="expected an integer action id"):
        env.step(30.0)
    lose = AzulVsAgentEnv(illegal_action="lose", illegal_reward=-5.0)
    obs, info = lose.reset(seed=1)
    obs, reward, terminated, truncated, info = lose.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, illegal)
    with pytest.raises(RuntimeError, match="call reset"):
        lose.step(0)


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="not-an-agent"):
        AzulVsAgentEnv(opponent="not-an-agent")
    with pytest.raises(ValueError, match="seat 2: expected a seat from 0 to 1"):
        AzulVsAgentEnv(seat=2)
    with pytest.raises(ValueError, match="Azul is for 2 to 4 players"):
        AzulVsAgentEnv(players=5)
    with pytest.raises(ValueError, match="illegal_action"):
        AzulVsAgentEnv(illegal_action="ignore")
    with pytest.raises(TypeError, match="seed True"):
        AzulVsAgentEnv().reset(seed=True)


def test_render_modes():
    env = AzulVsAgentEnv(render_mode="ansi")
    env.reset(seed=2)
    assert "player_0 to move" in env.render()
    img = AzulVsAgentEnv(render_mode="rgb_array")
    img.reset(seed=2)
    frame = img.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
