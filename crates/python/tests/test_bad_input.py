"""Bad input to the newer entry points (in-place writers, copies, reseeding) raises clear
Python exceptions and changes nothing. The handles', environments', batch's, tournament's
and OpenSpiel game's bad input is fed in their own test files."""

import numpy as np
import pytest

from tessera import AzulGame, MatchTiles, QwirkleGame


def test_in_place_writers_check_length_and_dtype():
    g = AzulGame(3, 1)
    out = np.zeros(g.observation_len, np.float32)
    g.observation_into(1, out)
    np.testing.assert_array_equal(out, g.observation(1))
    with pytest.raises(ValueError, match=f"expected length {g.observation_len}"):
        g.observation_into(0, np.zeros(3, np.float32))
    with pytest.raises(TypeError):
        g.observation_into(0, np.zeros(g.observation_len, np.float64))
    with pytest.raises(ValueError, match="seat 3 does not exist"):
        g.observation_into(3, out)
    mask = np.zeros(g.num_actions, np.int8)
    g.action_mask_into(mask)
    np.testing.assert_array_equal(mask, g.action_mask())
    with pytest.raises(ValueError, match=f"expected length {g.num_actions}"):
        g.action_mask_into(np.zeros(5, np.int8))
    with pytest.raises(TypeError):
        g.action_mask_into(np.zeros(g.num_actions, np.uint16))


def test_copies_are_independent_and_reseeding_changes_only_the_future():
    g = AzulGame(2, 4)
    c = g.copy()
    legal = g.legal_actions()
    c.step(legal[0])
    assert c.notation() != g.notation()
    # Same state, same seed: the same deals; reseeded: the state is unchanged now.
    a, b = g.copy(), g.copy()
    b.reseed_chance(99)
    assert a.notation() == b.notation()
    while a.round == g.round and not a.is_terminal:
        x = a.legal_actions()[0]
        a.step(x)
        b.step(x)
    assert a.notation() != b.notation(), "the next deal comes from the new seed"
    # One error type for every seed out of range (issue 31), not OverflowError.
    with pytest.raises(ValueError, match="seed -1: expected an integer from 0 to"):
        g.reseed_chance(-1)



@pytest.mark.parametrize("make", [lambda: AzulGame(3, 1), lambda: QwirkleGame(3, 1)], ids=["azul", "qwirkle"])
@pytest.mark.parametrize("seat", [-1, 3, 2**40])
def test_observe_refuses_a_seat_that_does_not_exist(make, seat):
    game = make()
    before = game.notation()
    with pytest.raises(ValueError, match=f"seat {seat} does not exist: this game has seats 0 to 2"):
        game.observe(seat)
    assert game.notation() == before
    with pytest.raises(TypeError):
        game.observe("0")


# Issue 31, point 6: batch sizes, action types, seeds and the render text.

SEED_RANGE = r"expected an integer from 0 to 2\*\*64 - 1"


def test_a_batch_past_its_limit_is_refused_before_allocating():
    from tessera.batch import MAX_GAMES, AzulBatch

    assert MAX_GAMES == 2**20
    for n in (10**8, MAX_GAMES + 1, 2**63 - 1):
        with pytest.raises(ValueError, match=f"n {n}: a batch holds 1 to {MAX_GAMES} games"):
            AzulBatch(n)
    with pytest.raises(ValueError, match="n 0: a batch holds 1 to"):
        AzulBatch(0)
    # Past any integer type too: the same ValueError, not OverflowError (issue 31).
    with pytest.raises(ValueError, match=f"n {2**64}: a batch holds 1 to {MAX_GAMES} games"):
        AzulBatch(2**64)


@pytest.mark.parametrize("big", [2**64, 2**70, -(2**70)])
def test_integers_past_every_range_are_value_errors_not_overflow_errors(big):
    """One error type for out-of-range (issue 31): every integer argument, however large,
    is a ValueError naming the value, as a seed or an action id out of range is."""
    import tessera
    from tessera.batch import AzulBatch, QwirkleBatch

    g, q = AzulGame(2, 1), QwirkleGame(2, 1)
    calls = {
        "AzulGame players": lambda: AzulGame(big),
        "QwirkleGame players": lambda: QwirkleGame(big),
        "AzulBatch n": lambda: AzulBatch(big),
        "QwirkleBatch n": lambda: QwirkleBatch(big),
        "AzulBatch players": lambda: AzulBatch(2, players=big),
        "QwirkleBatch threads": lambda: QwirkleBatch(2, threads=big),
        "AzulGame.observe seat": lambda: g.observe(big),
        "AzulGame.observation seat": lambda: g.observation(big),
        "QwirkleGame.view_json seat": lambda: q.view_json(big),
        "QwirkleGame.determinize seat": lambda: q.determinize(big, 0),
        "MatchTiles.builtin": lambda: MatchTiles.builtin(big),
        "MatchTiles.generate side": lambda: MatchTiles.generate(big, 2, 3),
        "make players": lambda: tessera.make("azul", players=big),
        "Game.view seat": lambda: tessera.make("azul").view(big),
        "AzulGame.step": lambda: g.step(big),
        "Game.step": lambda: tessera.make("azul").step(big),
        "seed": lambda: AzulGame(2, big),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError, match=str(big)) as e:
            call()
        assert e.type is ValueError, name
    assert g.notation() == AzulGame(2, 1).notation()


NON_INTEGERS = [30.7, 1.0, True, False, np.float64(30.0), np.float32(2.0), np.bool_(True), "3", None]


@pytest.mark.parametrize("bad", NON_INTEGERS, ids=repr)
def test_non_integer_actions_are_type_errors_and_change_nothing(bad):
    g = AzulGame(2, 1)
    q = QwirkleGame(2, 1)
    t = MatchTiles.builtin(2)
    for handle in (g, q, t):
        before = handle.notation() if hasattr(handle, "notation") else handle.render()
        with pytest.raises(TypeError, match="expected an integer action id"):
            handle.step(bad)
        after = handle.notation() if hasattr(handle, "notation") else handle.render()
        assert after == before
    with pytest.raises(TypeError, match="expected an integer action id"):
        g.action_to_string(bad)
    with pytest.raises(TypeError, match="expected an integer action id"):
        q.describe(bad)


@pytest.mark.parametrize("bad", [30.7, True, np.float64(30.0), np.float32(2.0)], ids=repr)
def test_environments_refuse_non_integer_actions(bad):
    import gymnasium

    from tessera.envs import azul_v0

    for env in (azul_v0.env(), azul_v0.raw_env()):
        env.reset(seed=1)
        agent = env.agent_selection
        with pytest.raises(TypeError, match="expected an integer action id"):
            env.step(bad)
        assert env.agent_selection == agent and not env.terminations[agent]
    par = azul_v0.parallel_env()
    par.reset(seed=1)
    with pytest.raises(TypeError, match="expected an integer action id"):
        par.step({a: bad for a in par.agents})
    gym_env = gymnasium.make("tessera/MatchTiles-v0").unwrapped
    gym_env.reset(seed=0)
    with pytest.raises(TypeError, match="expected an integer action id"):
        gym_env.step(bad)


def test_numpy_integer_actions_still_work():
    g = AzulGame(2, 1)
    legal = g.legal_actions()
    for kind in (np.int64, np.int32, np.uint16, np.int8):
        c = g.copy()
        c.step(kind(legal[0]))
        ref = g.copy()
        ref.step(legal[0])
        assert c.notation() == ref.notation()
    t = MatchTiles.builtin(2)
    t.step(np.int64(1))
    assert t.moves == 1
    with pytest.raises(ValueError, match="is out of range"):
        g.step(2**70)


def seed_entry_points():
    """Every place a seed enters, as callables of the seed."""
    import gymnasium

    from tessera import Agent
    from tessera.batch import AzulBatch
    from tessera.envs import azul_v0, qwirkle_v0

    g, q = AzulGame(2, 1), QwirkleGame(2, 1)
    env, qenv, par = azul_v0.env(), qwirkle_v0.env(), azul_v0.parallel_env()
    gym_env = gymnasium.make("tessera/MatchTiles-v0")
    return {
        "AzulGame": lambda s: AzulGame(2, s),
        "AzulGame.from_notation": lambda s: AzulGame.from_notation(g.notation(), s),
        "AzulGame.reset": lambda s: g.copy().reset(s),
        "AzulGame.reseed_chance": lambda s: g.copy().reseed_chance(s),
        "QwirkleGame": lambda s: QwirkleGame(2, s),
        "QwirkleGame.reset": lambda s: q.copy().reset(s),
        "QwirkleGame.reseed_chance": lambda s: q.copy().reseed_chance(s),
        "QwirkleGame.determinize": lambda s: q.determinize(0, s),
        "Agent": lambda s: Agent("random", seed=s),
        "MatchTiles.generate": lambda s: MatchTiles.generate(4, 2, 3, seed=s),
        "AzulBatch": lambda s: AzulBatch(2, seed=s),
        "azul_v0.env.reset": lambda s: env.reset(seed=s),
        "qwirkle_v0.env.reset": lambda s: qenv.reset(seed=s),
        "azul_v0.parallel_env.reset": lambda s: par.reset(seed=s),
        "MatchTiles-v0.reset": lambda s: gym_env.reset(seed=s),
        "tessera.tournament": lambda s: tessera_tournament_seed(s),
    }


def tessera_tournament_seed(seed):
    import tessera

    # One game of two random players, in a store in memory.
    return tessera.tournament(["random", "random"], games=1, seed=seed, db=":memory:")


@pytest.mark.parametrize("name", list(seed_entry_points()))
def test_seeds_are_checked_the_same_way_everywhere(name):
    call = seed_entry_points()[name]
    call(0)
    call(np.uint64(2**64 - 1)) if name != "tessera.tournament" else call(2**64 - 1)
    with pytest.raises(TypeError, match=f"seed True: {SEED_RANGE}, not a bool"):
        call(True)
    for bad in (-1, 2**64, -(2**70)):
        with pytest.raises(ValueError, match=f"seed {bad}: {SEED_RANGE}"):
            call(bad)
    with pytest.raises(TypeError, match=f"seed 1.5: {SEED_RANGE}, not a float"):
        call(1.5)


def test_openspiel_seed_parameters_are_checked_too():
    import pyspiel

    import tessera.openspiel  # noqa: F401

    for name in ("python_tessera_azul", "python_tessera_qwirkle"):
        with pytest.raises(Exception, match=f"seed -1: {SEED_RANGE}"):
            pyspiel.load_game(name, {"seed": -1})
        # OpenSpiel's own parameter check refuses a bool before the game sees it.
        with pytest.raises(Exception, match="parameter seed. Expected type: kInt, got kBool"):
            pyspiel.load_game(name, {"seed": True})


def test_render_names_the_agent_to_move():
    from tessera.envs import azul_v0, qwirkle_v0

    env = azul_v0.env(players=3, render_mode="ansi")
    env.reset(seed=2)
    for _ in range(4):
        agent = env.agent_selection
        first = env.render().splitlines()[0]
        assert first.endswith(f"{agent} to move"), first
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert "player_0 score" in env.render() and "player_2 score" in env.render()
    env = qwirkle_v0.env(players=2, render_mode="ansi")
    env.reset(seed=2)
    assert env.render().splitlines()[0].endswith(f"{env.agent_selection} to move")
