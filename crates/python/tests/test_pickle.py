"""Pickling (issue 31): handles, environments and OpenSpiel states pickle and unpickle to
equal states that continue identically: the same future deals and draws, since the chance
generator's position travels with the state, not only its seed."""

import copy
import multiprocessing
import pickle

import gymnasium
import numpy as np
import pyspiel
import pytest

import tessera
import tessera.openspiel  # noqa: F401  (registers the OpenSpiel games)
from tessera import AzulGame, MatchTiles, QwirkleGame
from tessera.envs import azul_v0, qwirkle_v0


def random_steps(game, rng, n):
    """Plays up to ``n`` random legal ids; returns the ids played."""
    played = []
    for _ in range(n):
        if game.is_terminal:
            break
        legal = game.legal_actions()
        a = int(legal[rng.integers(len(legal))])
        game.step(a)
        played.append(a)
    return played


def play_both_to_the_end(a, b, seed):
    """Plays the same random ids in ``a`` and ``b`` to the end, comparing everything each
    seat sees after every step; returns the number of steps."""
    rng = np.random.default_rng(seed)
    steps = 0
    while not a.is_terminal:
        assert a.notation() == b.notation()
        assert a.legal_actions() == b.legal_actions()
        for seat in range(a.players):
            np.testing.assert_array_equal(a.observation(seat), b.observation(seat))
        legal = a.legal_actions()
        x = int(legal[rng.integers(len(legal))])
        assert a.step(x) == b.step(x)
        steps += 1
    assert b.is_terminal
    assert a.notation() == b.notation()
    assert a.returns() == b.returns() and a.scores() == b.scores()
    return steps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_azul_game_pickled_mid_game_has_the_same_future(players):
    g = AzulGame(players, 11)
    rng = np.random.default_rng(players)
    while g.round < 2:
        random_steps(g, rng, 1)
    random_steps(g, rng, 3)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(g, protocol=protocol))
        assert type(back) is AzulGame
        assert back.notation() == g.notation() and back.seed == g.seed
    back = pickle.loads(pickle.dumps(g))
    # A copy made from the notation and the seed alone restarts the chance stream: its next
    # deal differs, which the pickled one's must not.
    naive = AzulGame.from_notation(g.notation(), g.seed)
    assert play_both_to_the_end(g.copy(), back, seed=5) > 0
    a, b = g.copy(), naive
    rng = np.random.default_rng(5)
    r = a.round
    while a.round == r:
        x = a.legal_actions()[rng.integers(len(a.legal_actions()))]
        a.step(x)
        b.step(x)
    assert a.notation() != b.notation(), "the seed alone does not give the same next deal"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_qwirkle_game_pickled_with_tiles_pending_has_the_same_future(players):
    g = QwirkleGame(players, 3)
    rng = np.random.default_rng(players)
    random_steps(g, rng, 25)
    # Put one tile down so that a placement is pending, if a tile step leaves one.
    for a in g.legal_actions():
        if a < tessera._tessera.QWIRKLE_TRADE_BASE:
            c = g.copy()
            c.step(a)
            if c.pending():
                g = c
                break
    assert g.pending(), "a placement is pending"
    back = pickle.loads(pickle.dumps(g))
    assert back.pending() == g.pending() and back.frame == g.frame
    assert back.last_move() == g.last_move()
    assert play_both_to_the_end(g, back, seed=players) > 0


def test_a_match_tiles_level_pickled_half_way_is_solved_by_the_rest():
    t = MatchTiles.builtin(3)
    t.step(0)
    t.step(2)
    back = pickle.loads(pickle.dumps(t))
    assert back.render() == t.render() and back.moves == t.moves == 2
    for a in [1, 3, 0, 2, 1]:
        assert t.step(a) == back.step(a)
        assert back.render() == t.render()
    assert back.is_solved == t.is_solved and back.moves == t.moves
    with pytest.raises(ValueError, match="pickled handle kind 'chess'"):
        tessera._tessera._restore("chess", "{}")
    with pytest.raises(ValueError, match="not a pickled azul game"):
        tessera._tessera._restore("azul", '{"game": "azul"}')


def env_views(env):
    return (
        env.agent_selection,
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
        [env.observe(a) for a in env.agents],
    )


def assert_same_views(x, y):
    assert x[:5] == y[:5]
    for oa, ob in zip(x[5], y[5]):
        np.testing.assert_array_equal(oa["observation"], ob["observation"])
        np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"])


@pytest.mark.parametrize("module", [azul_v0, qwirkle_v0], ids=["azul", "qwirkle"])
@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
def test_an_aec_env_pickled_mid_game_plays_on_identically(module, wrapped):
    env = module.env(players=3, reward="score") if wrapped else module.raw_env(players=3, reward="score")
    env.reset(seed=7)
    rng = np.random.default_rng(1)

    def play(e, n, rng):
        for _ in range(n):
            a = e.agent_selection
            if e.terminations[a] or e.truncations[a]:
                e.step(None)
                continue
            mask = e.observe(a)["action_mask"]
            e.step(int(rng.choice(np.flatnonzero(mask))))

    play(env, 30, rng)
    back = pickle.loads(pickle.dumps(env))
    assert type(back) is type(env)
    assert_same_views(env_views(env), env_views(back))
    if wrapped:
        # The wrappers see the restored bookkeeping, not a stale copy of it.
        assert back.unwrapped.agents is back.agents
    r1, r2 = np.random.default_rng(9), np.random.default_rng(9)
    while env.agents:
        play(env, 1, r1)
        play(back, 1, r2)
        if env.agents:
            assert_same_views(env_views(env), env_views(back))
    assert not back.agents


def test_a_parallel_env_pickled_mid_game_plays_on_identically():
    env = azul_v0.parallel_env(players=2)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)

    def actions(e, obs, rng):
        out = {}
        for a in e.agents:
            legal = np.flatnonzero(obs[a]["action_mask"])
            out[a] = int(rng.choice(legal)) if len(legal) else 0
        return out

    for _ in range(20):
        obs, *_ = env.step(actions(env, obs, rng))
    back = pickle.loads(pickle.dumps(env))
    obs_b = {a: back.aec.observe(a) for a in back.agents}
    r1, r2 = np.random.default_rng(4), np.random.default_rng(4)
    while env.agents:
        step_a = env.step(actions(env, obs, r1))
        step_b = back.step(actions(back, obs_b, r2))
        obs, obs_b = step_a[0], step_b[0]
        assert step_a[1:4] == step_b[1:4]
        for a in obs:
            np.testing.assert_array_equal(obs[a]["observation"], obs_b[a]["observation"])
    assert not back.agents


def test_the_gymnasium_env_pickles_mid_episode():
    env = gymnasium.make("tessera/MatchTiles-v0", level=4)
    env.reset(seed=0)
    env.step(1)
    back = pickle.loads(pickle.dumps(env))
    for a in [0, 2, 3, 1, 0, 2]:
        x, y = env.step(a), back.step(a)
        np.testing.assert_array_equal(x[0], y[0])
        assert x[1:4] == y[1:4]


def spiel_play_on(a, b, seed):
    rng = np.random.default_rng(seed)
    while not a.is_terminal():
        assert str(a) == str(b)
        legal = a.legal_actions()
        assert legal == b.legal_actions()
        x = int(legal[rng.integers(len(legal))])
        a.apply_action(x)
        b.apply_action(x)
    assert b.is_terminal() and a.returns() == b.returns() and str(a) == str(b)


@pytest.mark.parametrize("name", ["python_tessera_azul", "python_tessera_qwirkle"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_states_serialize_and_pass_random_sim_test_with_serialization(name, players):
    game = pyspiel.load_game(name, {"players": players, "seed": 4})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = np.random.default_rng(players)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))
    text = state.serialize()
    back = game.deserialize_state(text)
    assert str(back) == str(state) and back.history() == state.history()
    spiel_play_on(state.clone(), back, seed=1)
    # The game and state together, as OpenSpiel's tools store them.
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(s2) == str(state)
    spiel_play_on(state.clone(), s2, seed=2)


def test_handles_and_envs_cross_a_spawned_process():
    g = AzulGame(3, 21)
    random_steps(g, np.random.default_rng(0), 12)
    q = QwirkleGame(2, 5)
    random_steps(q, np.random.default_rng(0), 9)
    env = azul_v0.env(players=2)
    env.reset(seed=8)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        # Each object is pickled to the child, copied there, and pickled back.
        g2, q2, env2 = pool.map(copy.copy, [g, q, env])
    play_both_to_the_end(g, g2, seed=3)
    play_both_to_the_end(q, q2, seed=3)
    assert_same_views(env_views(env), env_views(env2))
