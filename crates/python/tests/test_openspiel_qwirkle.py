"""Qwirkle as an OpenSpiel game: OpenSpiel's API test, hidden hands in observations and
information states, resampling, reproducibility, and bots (OpenSpiel's uniform random and
Python IS-MCTS against our agents)."""

import numpy as np
import pytest

# A plain import: the suite fails, not skips, when open-spiel is missing (the test
# command installs it).
import pyspiel  # noqa: E402

import tessera  # noqa: E402
import tessera.openspiel  # noqa: E402,F401  (registers python_tessera_qwirkle)
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

NAME = "python_tessera_qwirkle"


def play_random(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_simulation_test_passes(players):
    game = pyspiel.load_game(NAME, {"players": players, "seed": 5})
    assert game.num_players() == players
    assert game.num_distinct_actions() == 5831 == tessera.QwirkleGame(players).num_actions
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    # Chance is part of the state (its chance stream), so OpenSpiel sees a deterministic
    # game (tessera/openspiel.py says why it is not SAMPLED_STOCHASTIC any more).
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert t.provides_information_state_string and t.provides_observation_tensor
    assert game.max_game_length() == tessera.openspiel.QWIRKLE_MAX_GAME_LENGTH
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_wrong_player_count_is_refused():
    with pytest.raises(Exception, match="2 to 4 players, not 5"):
        pyspiel.load_game(NAME, {"players": 5})
    with pytest.raises(Exception, match="2 to 4 players, not 1"):
        pyspiel.load_game(NAME, {"players": 1})


def test_the_step_ids_are_the_environment_ids():
    game = pyspiel.load_game(NAME, {"players": 2, "seed": 3})
    state = game.new_initial_state()
    handle = state.game_handle
    assert state.legal_actions() == handle.legal_actions()
    a = state.legal_actions()[0]
    assert state.action_to_string(state.current_player(), a) == handle.describe(a)
    assert a < tessera._tessera.QWIRKLE_TRADE_BASE  # a tile step: the first move places
    state.apply_action(a)
    assert handle.pending() or handle.last_move()
    # An id that is not legal is refused with the reason (and the state is unchanged).
    before = str(state)
    illegal = next(i for i in range(5831) if i not in state.legal_actions())
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)
    assert str(state) == before


def hands(state):
    """The hands field of the full state (every hand: the referee's view)."""
    return next(kv for kv in str(state).split() if kv.startswith("hands="))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_string_or_tensor_of_a_seat_holds_another_seats_hand(players):
    # For every seat, a state of its information set with every hidden tile redealt
    # (resample_from_infostate) gives the same information state, observation string and
    # observation tensor, although the other hands differ: so none of them depends on the
    # other hands. The mover's strings do show its pending tiles; another seat's do not.
    game = pyspiel.load_game(NAME, {"players": players, "seed": 7})
    rng = np.random.default_rng(players)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    obs = make_observation(game)
    redealt = 0
    state = game.new_initial_state()
    for _ in range(8):
        play_random(state, rng, 7)
        if state.is_terminal():
            break
        for seat in range(players):
            info = state.information_state_string(seat)
            seen = state.observation_string(seat)
            obs.set_from(state, seat)
            tensor = obs.tensor.copy()
            np.testing.assert_array_equal(tensor, state.game_handle.observation(seat))
            for _ in range(3):
                other = state.resample_from_infostate(seat, sampler)
                assert other.information_state_string(seat) == info
                assert other.observation_string(seat) == seen
                obs.set_from(other, seat)
                np.testing.assert_array_equal(obs.tensor, tensor)
                # Nor does a resampled state carry what only the other seats know: their
                # deals and own-move records are unknown (?) there.
                for q in range(players):
                    if q != seat:
                        lines = other.information_state_string(q).splitlines()
                        assert lines[1] == "dealt ?"
                        assert all(" -> " not in x or x.endswith(" -> ?") for x in lines[2:])
                redealt += hands(other) != hands(state)
        mover = state.current_player()
        if state.game_handle.pending():
            assert "pending" in state.observation_string(mover)
            assert all("pending" not in state.observation_string(s) for s in range(players) if s != mover)
    assert redealt > 0, "resampling never changed another hand"


def test_information_states_recall_the_game_without_others_tiles():
    game = pyspiel.load_game(NAME, {"players": 2, "seed": 11})
    state = game.new_initial_state()
    handle = state.game_handle
    first = state.current_player()
    while state.current_player() == first:  # the first move, tile by tile
        state.apply_action(state.legal_actions()[0])
    trader = state.current_player()
    trade_all = tessera._tessera.QWIRKLE_TRADE_BASE + 62
    assert trade_all in state.legal_actions()
    state.apply_action(trade_all)
    seat, public, full = handle.last_move()
    assert (seat, public) == (trader, "trade 6") and len(full.split()) == 7
    mine = state.information_state_string(trader).splitlines()
    theirs = state.information_state_string(first).splitlines()
    assert mine[-1].startswith(f"{trader}: {full} -> ")
    assert theirs[-1] == f"{trader}: trade 6"
    # Each seat's record starts with its own deal, then the first move (public).
    for s in (first, trader):
        lines = state.information_state_string(s).splitlines()
        assert lines[0].startswith(f"seat {s} hand ")
        assert lines[1].startswith("dealt ") and lines[2].startswith(f"{first}: ")


def test_clones_and_games_reproduce_from_the_game_seed():
    def run(seed, clone_a_lot):
        game = pyspiel.load_game(NAME, {"seed": seed})
        out = []
        for g in range(2):
            state = game.new_initial_state()
            if clone_a_lot:
                # Clones (as a search makes) of a fresh state and of later states play the
                # same game as the original and take no seed from the game.
                twin = state.clone()
            rng = np.random.default_rng(g)
            while not state.is_terminal():
                legal = state.legal_actions()
                a = int(legal[rng.integers(len(legal))])
                if clone_a_lot:
                    state.clone().apply_action(a)
                    twin.apply_action(a)
                state.apply_action(a)
            if clone_a_lot:
                assert str(twin) == str(state)
                assert twin.information_state_string(0) == state.information_state_string(0)
            out.append((str(state), state.returns()))
        return out

    assert run(3, False) == run(3, True)
    assert run(3, False) != run(4, False)


class TesseraBot(pyspiel.Bot):
    """One of our agents as an OpenSpiel bot (it determinizes the handle itself)."""

    def __init__(self, spec, seed):
        pyspiel.Bot.__init__(self)
        self.agent = tessera.Agent(spec, game="qwirkle", seed=seed)

    def step(self, state):
        return self.agent.act(state.game_handle)

    def restart_at(self, state):
        pass


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python IS-MCTS; evaluate_bots needs restart_at."""

    def restart_at(self, state):
        self.reset()


def check_finished(state, returns, players):
    # evaluate_bots applies every bot action with apply_action, which refuses an illegal
    # id (ValueError), so reaching here means a legal game played to its end.
    assert state.is_terminal() and state.game_handle.winners()
    assert len(returns) == players and sum(returns) == pytest.approx(1.0)
    assert returns == state.game_handle.returns()


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_random_bot_against_our_agents(players):
    game = pyspiel.load_game(NAME, {"players": players, "seed": 2})
    rng = np.random.RandomState(3)
    bots = [uniform_random.UniformRandomBot(0, rng)]
    bots += [TesseraBot(spec, seed=i) for i, spec in enumerate(["points", "smarter"][: players - 1])]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    check_finished(state, returns, players)


def test_python_ismcts_plays_against_our_random():
    # IS-MCTS searches states drawn by resample_from_infostate (it asserts that each has
    # the root's information state), never the true hands.
    game = pyspiel.load_game(NAME, {"players": 2, "seed": 4})
    rng = np.random.RandomState(5)
    bot = ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, [bot, TesseraBot("random", seed=1)], rng)
    check_finished(state, returns, 2)
