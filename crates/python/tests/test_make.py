"""Every registered game from Python (issue 28 point 1): ``tessera.make(name)``,
``tessera.games()``, ``tessera.agents(name)`` and ``tessera.Agent(spec, game=name)`` come from
the game's one registration. The test game ``nim`` works with no code of its own in the
package (checked below on the package's sources)."""

import ast
import copy
import pathlib
import pickle
import re

import numpy as np
import pytest

import tessera


def play_out(game, agents):
    """Plays `game` to its end, seat i's move chosen by agents[i]; returns the moves."""
    moves = []
    while not game.is_terminal:
        seat = game.current_player
        action = agents[seat].act(game)
        moves.append(game.action_to_string(action))
        game.step(action)
    return moves


def test_games_lists_the_registrations_with_test_games_flagged():
    games = {g["name"]: g for g in tessera.games()}
    assert {"azul", "qwirkle", "nim"} <= set(games)
    assert games["nim"]["test"] and not games["azul"]["test"] and not games["qwirkle"]["test"]
    assert "nim" not in {g["name"] for g in tessera.games(test=False)}
    azul = games["azul"]
    assert (azul["title"], azul["min_players"], azul["max_players"]) == ("Azul", 2, 4)
    assert azul["chance"] and not azul["hidden_info"]
    assert games["qwirkle"]["hidden_info"]
    # Azul's levels, weakest first, each an agent spec.
    levels = azul["levels"]
    assert [lv["number"] for lv in levels] == list(range(1, len(levels) + 1))
    for lv in levels:
        tessera.Agent(lv["spec"], game="azul")


def test_agents_lists_each_games_registered_agents():
    nim = {a["name"]: a for a in tessera.agents("nim")}
    assert {"random", "first"} <= set(nim)
    assert all(isinstance(a["summary"], str) and a["summary"] for a in nim.values())
    azul = {a["name"]: a for a in tessera.agents("azul")}
    assert "depth=VALUE" in [p["syntax"] for p in azul["alphabeta"]["params"]]
    with pytest.raises(ValueError, match="game 'chess': unknown game 'chess'; known games: azul"):
        tessera.agents("chess")


@pytest.mark.parametrize("players", [2, 3])
def test_nim_plays_from_python_through_its_registration(players):
    game = tessera.make("nim", players=players, seed=4)
    assert (game.name, game.players, game.seed) == ("nim", players, 4)
    agents = [tessera.Agent("random", game="nim", seed=s) for s in range(players)]
    moves = play_out(game, agents)
    assert game.is_terminal and game.current_player is None
    assert len(game.winners()) == 1 and sum(game.returns()) == 1.0
    assert game.history() == moves
    record = game.record()
    assert record["game"] == "nim" and record["result"] is not None
    # The same seed and choices give the same game.
    again = tessera.make("nim", players=players, seed=4)
    for m in moves:
        again.step(m)
    assert again.notation() == game.notation()


def test_the_package_has_no_nim_specific_code():
    """No identifier or string (docstrings and comments aside) names nim in crates/python's
    Rust and Python sources: nim works above from its registration only."""
    root = pathlib.Path(__file__).resolve().parents[1]
    word = re.compile(r"\bnim\b", re.IGNORECASE)
    found = []
    for path in (root / "src").glob("*.rs"):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//")[0]
            if word.search(code):
                found.append(f"{path.name}:{n}: {line.strip()}")
    for path in (root / "python" / "tessera").rglob("*.py"):
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            text = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = None if id(node) in docstrings else node.value
            elif isinstance(node, ast.Name):
                text = node.id
            if text and word.search(text):
                found.append(f"{path.name}:{node.lineno}: {text!r}")
    assert not found, found
    assert (root / "src").is_dir(), "the test reads the package's sources"


def test_make_azul_is_the_same_game_as_azul_game_and_a_tournament_deal():
    """One registration: tessera.make("azul") and AzulGame set up and deal alike for a seed,
    so the same moves give the same states to the end (later deals included)."""
    generic = tessera.make("azul", players=3, seed=5)
    rich = tessera.AzulGame(3, 5)
    assert generic.notation() == rich.notation()
    rng = np.random.default_rng(1)
    while not rich.is_terminal:
        assert sorted(generic.legal_moves()) == sorted(
            rich.action_to_string(a) for a in rich.legal_actions()
        )
        move = rich.action_to_string(int(rng.choice(rich.legal_actions())))
        assert generic.step(move) == rich.step(rich.string_to_action(move))
        assert generic.notation() == rich.notation()
    assert generic.scores() == rich.scores() and generic.winners() == rich.winners()
    assert generic.returns() == rich.returns()


def test_make_qwirkle_plays_with_registry_agents_and_hides_the_other_hands():
    game = tessera.make("qwirkle", seed=2)
    assert (game.players, game.title) == (2, "Qwirkle")
    view = game.view(0)
    assert isinstance(view, dict)
    text0, text1 = game.view_text(0), game.view_text(1)
    assert text0.startswith("seat=1 ") and text1.startswith("seat=2 ")
    assert "?6" in text0 and "?6" in text1, (text0, text1)
    assert game.view_text(0) != game.notation()
    agents = [tessera.Agent("points", game="qwirkle", seed=1), tessera.Agent("random", game="qwirkle")]
    for _ in range(6):
        game.step(agents[game.current_player].act(game))
    assert len(game.history()) == 6 and sum(game.scores()) > 0


def test_moves_by_id_or_notation_and_bad_moves_change_nothing():
    game = tessera.make("azul", seed=3)
    legal = game.legal_moves()
    assert game.legal_actions() == list(range(len(legal)))
    assert game.action_to_string(4) == legal[4]
    assert game.string_to_action(legal[4]) == 4
    before = game.notation()
    with pytest.raises(ValueError, match=r"action id 999 is out of range: \d+ moves are legal now"):
        game.step(999)
    with pytest.raises(ValueError, match="action id -1 is out of range"):
        game.step(-1)
    with pytest.raises(TypeError, match="expected an id .int. or a move in notation .str., not a float"):
        game.step(2.0)
    with pytest.raises(TypeError, match="not a bool"):
        game.step(True)
    with pytest.raises(ValueError, match="move 'xyz'"):
        game.step("xyz")
    illegal = next(m for m in ("1R1", "1B1", "1Y1", "1K1", "1W1") if m not in legal)
    with pytest.raises(ValueError, match="legal now: 0 "):
        game.step(illegal)
    with pytest.raises(ValueError, match="seat 2 does not exist"):
        game.view(2)
    assert game.notation() == before and game.history() == []
    assert game.step(legal[0]) == game.current_player
    game.undo()
    assert game.notation() == before
    game.step(np.int64(0))
    assert game.history() == [legal[0]]


def test_bad_games_and_seat_counts_are_value_errors():
    with pytest.raises(ValueError, match="game 'chess': unknown game 'chess'"):
        tessera.make("chess")
    with pytest.raises(ValueError, match="Azul is played by 2 to 4 players, not 5"):
        tessera.make("azul", players=5)
    with pytest.raises(ValueError, match="Azul is played by 2 to 4 players, not -1"):
        tessera.make("azul", players=-1)
    with pytest.raises(TypeError, match="seed True"):
        tessera.make("azul", seed=True)
    with pytest.raises(ValueError, match="azul state"):
        tessera.Game.from_notation("azul", "not a state")
    finished = tessera.make("nim", seed=1)
    play_out(finished, [tessera.Agent("first", game="nim")] * 2)
    with pytest.raises(ValueError, match="the game is over"):
        finished.step(0)
    with pytest.raises(ValueError, match="the game is over"):
        tessera.Agent("random", game="nim").act(finished)


def test_an_agent_refuses_a_handle_of_another_game():
    with pytest.raises(TypeError, match="agent random plays nim: expected a tessera.Game of nim, got a Game of azul"):
        tessera.Agent("random", game="nim").act(tessera.make("azul"))
    with pytest.raises(TypeError, match="expected a tessera.Game of nim, got a AzulGame"):
        tessera.Agent("random", game="nim").act(tessera.AzulGame(2))


def test_a_game_pickled_mid_game_has_the_same_future():
    game = tessera.make("azul", players=2, seed=8)
    for _ in range(25):  # into round 2 at least: chance has been drawn since the start
        game.step(0)
    for back in (pickle.loads(pickle.dumps(game)), game.copy(), copy.deepcopy(game)):
        assert isinstance(back, tessera.Game)
        assert back.notation() == game.notation() and back.history() == game.history()
        a, b = game.copy(), back
        rng = np.random.default_rng(3)
        while not a.is_terminal:
            m = a.legal_moves()[int(rng.integers(len(a.legal_moves())))]
            a.step(m)
            b.step(m)
            assert a.notation() == b.notation()


def test_a_pickled_agent_makes_the_same_future_choices():
    game = tessera.make("azul", players=2, seed=6)
    agent = tessera.Agent("random", game="azul", seed=12)
    for _ in range(3):
        game.step(agent.act(game))
    back = pickle.loads(pickle.dumps(agent))
    assert (back.name, back.game) == (agent.name, agent.game)
    a, b = game.copy(), game.copy()
    for _ in range(15):
        x, y = agent.act(a), back.act(b)
        assert x == y
        a.step(x)
        b.step(y)
    # Pickled again after moves: still in step with the original.
    again = pickle.loads(pickle.dumps(agent))
    assert [agent.act(a) for _ in range(3)] == [again.act(a) for _ in range(3)]
    # On the rich handles too.
    rich = tessera.AzulGame(2, 6)
    c = tessera.Agent("random", seed=3)
    d = pickle.loads(pickle.dumps(c))
    assert [c.act(rich) for _ in range(5)] == [d.act(rich) for _ in range(5)]
    with pytest.raises(ValueError, match="not a pickled agent"):
        tessera._tessera._restore("agent", "{}")


def test_the_agent_reports_its_specifications_budget():
    assert tessera.Agent("alphabeta:depth=2").budget() == {"depth": 2}
    assert tessera.Agent("montecarlo:nodes=30", game="qwirkle").budget() == {"nodes": 30}
    assert tessera.Agent("strong:time=250ms").budget() == {"time_ms": 250}
