"""tessera.tournament: Python callables in the arena's runner and store."""

import sqlite3

import pytest

import tessera


def first_legal(game):
    return game.legal_actions()[0]


def test_a_callable_plays_a_stored_tournament(tmp_path):
    db = tmp_path / "runs.sqlite"
    seen = []

    def my_fn(game):
        assert isinstance(game, tessera.AzulGame) and not game.is_terminal
        seen.append(game.current_player)
        return first_legal(game)

    r = tessera.tournament(agents=[my_fn, "greedy"], games=6, seed=3, db=db, jobs=2)
    assert r["played"] == 6 and r["run"] >= 1
    assert r["command"].startswith("tessera tournament azul --agents python:my_fn,greedy")
    agents = {a["agent"]: a for a in r["summary"]["agents"]}
    assert set(agents) == {"python:my_fn", "greedy"}
    assert agents["python:my_fn"]["games"] == 6 == agents["greedy"]["games"]
    # Every game has a winner (or a shared win): points add up to the games.
    assert sum(a["points"] for a in agents.values()) == pytest.approx(6)
    assert seen and set(seen) <= {0, 1}
    # The same store the CLI reads: six games of one run.
    with sqlite3.connect(db) as c:
        assert c.execute("select count(*) from games").fetchone()[0] == 6
    # Reported again (complete), and the same tournament in another file gives the same
    # results: the games depend on the seed only.
    again = tessera.tournament(agents=[my_fn, "greedy"], games=6, seed=3, db=db, resume=True)
    assert again["played"] == 0 and again["summary"] == r["summary"]
    other = tessera.tournament(agents=[my_fn, "greedy"], games=6, seed=3, db=tmp_path / "b.sqlite")
    assert other["summary"] == r["summary"]


def test_two_callables_of_the_same_name_get_distinct_labels(tmp_path):
    def f(game):
        return first_legal(game)

    g = f
    r = tessera.tournament(agents=[f, g, "random"], games=2, db=tmp_path / "r.sqlite")
    labels = [a["agent"] for a in r["summary"]["agents"]]
    assert labels == ["python:f", "python:f-2", "random"]


def test_a_callable_that_fails_stops_the_run_with_its_error(tmp_path):
    def broken(game):
        raise RuntimeError("my policy broke")

    with pytest.raises(RuntimeError, match="my policy broke"):
        tessera.tournament(agents=[broken, "random"], games=4, db=tmp_path / "x.sqlite")

    def illegal(game):
        mask = game.action_mask()
        return int(list(mask).index(0))

    with pytest.raises(ValueError, match="which is not legal"):
        tessera.tournament(agents=[illegal, "random"], games=2, db=tmp_path / "y.sqlite")

    with pytest.raises(TypeError, match="expected an action id"):
        tessera.tournament(agents=[lambda g: "3Y2", "random"], games=2, db=tmp_path / "z.sqlite")


def test_bad_tournaments_are_refused(tmp_path):
    db = tmp_path / "bad.sqlite"
    with pytest.raises(ValueError, match="nosuch"):
        tessera.tournament(agents=["nosuch", "random"], games=2, db=db)
    with pytest.raises(ValueError, match="azul tournaments only"):
        tessera.tournament(agents=[first_legal, "random"], game="qwirkle", games=2, db=db)
    with pytest.raises(ValueError, match="chess"):
        tessera.tournament(agents=["random", "random"], game="chess", games=2, db=db)
    with pytest.raises(TypeError, match=r"agents\[1\]"):
        tessera.tournament(agents=["random", 3], games=2, db=db)
    with pytest.raises(ValueError, match="games -1"):
        tessera.tournament(agents=["random", "greedy"], games=-1, db=db)
    with pytest.raises(ValueError):
        tessera.tournament(agents=["random", "greedy"], players=5, games=2, db=db)


def test_registry_agents_play_qwirkle_tournaments(tmp_path):
    r = tessera.tournament(agents=["random", "points"], game="qwirkle", games=2, db=tmp_path / "q.sqlite")
    assert r["played"] == 2
    assert {a["agent"] for a in r["summary"]["agents"]} == {"random", "points"}
