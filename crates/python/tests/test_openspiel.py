"""Azul as an OpenSpiel game: OpenSpiel's own API test, observations, and its MCTS bot
playing our random agents."""

import numpy as np
import pytest

# A plain import: the suite fails, not skips, when open-spiel is missing (the test
# command installs it).
import pyspiel  # noqa: E402

import tessera  # noqa: E402
import tessera.openspiel  # noqa: E402,F401  (registers python_tessera_azul)
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_simulation_test_passes(players):
    game = pyspiel.load_game("python_tessera_azul", {"players": players, "seed": 5})
    assert game.num_players() == players
    assert game.num_distinct_actions() == (2 * players + 2) * 30
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_wrong_player_count_is_refused():
    with pytest.raises(Exception, match="2 to 4 players, not 5"):
        pyspiel.load_game("python_tessera_azul", {"players": 5})


def test_observation_tensor_is_the_package_observation():
    game = pyspiel.load_game("python_tessera_azul", {"players": 3, "seed": 1})
    state = game.new_initial_state()
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    obs = make_observation(game)
    for seat in range(3):
        obs.set_from(state, seat)
        np.testing.assert_array_equal(obs.tensor, state.game_handle.observation(seat))
        assert obs.string_from(state, seat) == state.game_handle.notation()
    # The C++ side sees the same tensor.
    np.testing.assert_array_equal(
        np.array(state.observation_tensor(1), np.float32), state.game_handle.observation(1)
    )


def test_runs_reproduce_from_the_game_seed():
    def run(seed):
        game = pyspiel.load_game("python_tessera_azul", {"seed": seed})
        out = []
        for g in range(2):
            state = game.new_initial_state()
            rng = np.random.default_rng(g)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.integers(len(legal))]))
            out.append(str(state))
        return out

    assert run(3) == run(3)
    assert run(3) != run(4)


class TesseraBot(pyspiel.Bot):
    """One of our agents as an OpenSpiel bot."""

    def __init__(self, spec, seed):
        pyspiel.Bot.__init__(self)
        self.agent = tessera.Agent(spec, seed=seed)

    def step(self, state):
        return self.agent.act(state.game_handle)

    def restart_at(self, state):
        pass


@pytest.mark.parametrize("opponent", ["openspiel_random", "tessera_random"])
def test_mcts_plays_legal_games_against_random(opponent):
    game = pyspiel.load_game("python_tessera_azul", {"players": 2, "seed": 11})
    rng = np.random.RandomState(7)
    for g in range(2):
        bot = mcts.MCTSBot(game, 2, 40, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        other = (
            uniform_random.UniformRandomBot(1, rng)
            if opponent == "openspiel_random"
            else TesseraBot("random", seed=g)
        )
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, [bot, other], rng)
        # evaluate_bots applies every bot action with apply_action, which refuses an illegal
        # id (ValueError), so reaching here means a legal game played to its end.
        assert len(returns) == 2 and sum(returns) == pytest.approx(1.0)
        assert all(r in (0.0, 0.5, 1.0) for r in returns)
        assert state.is_terminal() and state.game_handle.winners()
