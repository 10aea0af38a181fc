"""tessera.tournament: Python callables in the arena's runner and store."""

import json
import sqlite3

import numpy as np
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
    with pytest.raises(ValueError, match="callables play in azul and qwirkle tournaments"):
        tessera.tournament(agents=[first_legal, "random"], game="nim", games=2, db=db)
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


def notation_fields(game):
    return dict(kv.split("=", 1) for kv in game.notation().split())


def tiles(hand):
    return sorted(hand[i : i + 2] for i in range(0, len(hand), 2)) if hand != "-" else []


def test_a_callable_plays_a_stored_qwirkle_tournament_step_by_step(tmp_path):
    db = tmp_path / "q.sqlite"
    steps_per_move = []
    rng = np.random.default_rng(0)

    def my_fn(game):
        # One call per step id, as in the environment: a QwirkleGame of the seat's view,
        # with the tiles put down so far this turn pending.
        assert isinstance(game, tessera.QwirkleGame) and not game.is_terminal
        if not game.pending():
            steps_per_move.append(0)
        steps_per_move[-1] += 1
        legal = game.legal_actions()
        return int(legal[rng.integers(len(legal))])

    r = tessera.tournament(agents=[my_fn, "points"], game="qwirkle", games=4, seed=2, db=db)
    assert r["played"] == 4 and r["faults"] == []
    assert r["command"].startswith("tessera tournament qwirkle --agents python:my_fn,points")
    agents = {a["agent"]: a for a in r["summary"]["agents"]}
    assert agents["python:my_fn"]["games"] == 4 == agents["points"]["games"]
    assert sum(a["points"] for a in agents.values()) == pytest.approx(4)
    # Some moves took several steps (placements of more than one tile), none more than six.
    assert max(steps_per_move) > 1 and max(steps_per_move) <= 6
    with sqlite3.connect(db) as c:
        records = [json.loads(x) for (x,) in c.execute("select record from games")]
    assert len(records) == 4
    # The stored games hold the callable's whole moves: as many action events by its seat
    # as it completed moves.
    moves = sum(
        sum(1 for e in rec["events"] if e["type"] == "action" and rec["seats"][e["player"]] == "python:my_fn")
        for rec in records
    )
    assert moves == len(steps_per_move)


def test_a_qwirkle_callable_sees_its_own_hand_and_never_the_others(tmp_path):
    # At the callable's first move of a game, when it moves first, the real hands are the
    # stored deal; its handle must hold its own hand and a redrawn hand for the other seat.
    firsts = []

    def peek(game):
        f = notation_fields(game)
        if f["board"] == "-" and not game.pending():
            firsts.append((game.current_player, [tiles(h) for h in f["hands"].split("/")]))
        return game.legal_actions()[0]

    db = tmp_path / "v.sqlite"
    tessera.tournament(agents=[peek, "points"], game="qwirkle", games=8, seed=9, db=db)
    deals = []
    with sqlite3.connect(db) as c:
        for (text,) in c.execute("select record from games"):
            rec = json.loads(text)
            deal = rec["events"][0]
            assert deal["type"] == "chance"
            n = len(rec["seats"])
            real = [sorted(deal["outcome"][6 * k : 6 * k + 6]) for k in range(n)]
            mover = next(e["player"] for e in rec["events"] if e["type"] == "action")
            if rec["seats"][mover] == "python:peek":
                deals.append((mover, real))
    assert firsts and len(firsts) == len(deals)
    for seat, hands in firsts:
        same = [real for s, real in deals if s == seat and real[seat] == hands[seat]]
        assert len(same) == 1, "the callable's own hand is its real hand"
        real = same[0]
        for other in range(len(hands)):
            if other != seat:
                assert len(hands[other]) == 6
                assert hands[other] != real[other], "the callable was shown a real hidden hand"


def test_a_qwirkle_callable_that_fails_stops_the_run_with_its_error(tmp_path):
    def broken(game):
        raise RuntimeError("my qwirkle policy broke")

    def text(game):
        return "R1@0,0"

    def out_of_range(game):
        return 5831

    def illegal(game):
        return int(list(game.action_mask()).index(0))

    def second_step_illegal(game):
        # A legal first tile, then a step the pending placement does not allow.
        return game.legal_actions()[0] if not game.pending() else tessera._tessera.QWIRKLE_PASS

    cases = [
        (broken, RuntimeError, "my qwirkle policy broke"),
        (text, TypeError, "python:text: returned 'R1@0,0', expected a step id"),
        (out_of_range, ValueError, "returned 5831, which is not legal: action id 5831 is out of range"),
        (illegal, ValueError, "python:illegal: returned 0, which is not legal"),
    ]
    for fn, exc, message in cases:
        db = tmp_path / f"{fn.__name__}.sqlite"
        with pytest.raises(exc, match=message):
            tessera.tournament(agents=[fn, "random"], game="qwirkle", games=4, db=db)
        # The run stopped after the game under way; that game is stored with the faults.
        with sqlite3.connect(db) as c:
            assert c.execute("select count(*) from games").fetchone()[0] < 4
            kinds = {k for (k,) in c.execute("select kind from faults")}
        assert kinds == {"python"}

    # A step that is illegal only because of the pending tiles: found when a placement of
    # more than one tile is possible, which happens in these games.
    try:
        tessera.tournament(agents=[second_step_illegal, "random"], game="qwirkle", games=2, db=tmp_path / "p.sqlite")
    except ValueError as e:
        assert "which is not legal" in str(e) and "pending" in str(e)
    else:
        raise AssertionError("a pass after a pending tile was accepted")


def test_a_qwirkle_tournament_with_a_callable_depends_on_the_seed_only(tmp_path):
    def last_legal(game):
        return game.legal_actions()[-1]

    runs = [
        tessera.tournament(agents=[last_legal, "random"], game="qwirkle", games=4, seed=6, jobs=jobs, db=tmp_path / f"{jobs}.sqlite")
        for jobs in (1, 2)
    ]
    assert runs[0]["summary"] == runs[1]["summary"] and runs[0]["played"] == 4
    other = tessera.tournament(agents=[last_legal, "random"], game="qwirkle", games=4, seed=7, db=tmp_path / "s7.sqlite")
    assert other["summary"] != runs[0]["summary"]


def test_sprt_is_the_arenas_test_of_pair_counts():
    # crates/arena/src/sprt.rs's reference: fishtest's LLR_logistic of these counts.
    r = tessera.sprt("elo0=0,elo1=5", [400, 2000, 5000, 2100, 500])
    assert r["llr"] == pytest.approx(5.841598213996522, abs=1e-7)
    assert r["bounds"] == pytest.approx((-2.944438979166440, 2.944438979166440), abs=1e-12)
    assert r["decision"] == "H1 accepted" and r["pairs"] == 10000
    assert r["test"] == "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=logistic"
    small = tessera.sprt({"elo0": 0, "elo1": 2}, (1, 2, 3, 2, 2))
    assert small["llr"] == pytest.approx(0.01415537510397602, abs=1e-9)
    assert small["decision"] == "undecided"
    # The mirror image of the counts is evidence the other way.
    assert tessera.sprt("elo0=0,elo1=5", [500, 2100, 5000, 2000, 400])["decision"] == "H0 accepted"
    assert tessera.sprt("elo0=0,elo1=5", [0] * 5)["llr"] == 0.0
    for bad in ([1, 2, 3], [1, 2, 3, 4, -5], [1.5, 0, 0, 0, 0], "12345", [True, 0, 0, 0, 0]):
        with pytest.raises(ValueError, match="five non-negative integers"):
            tessera.sprt("elo0=0,elo1=5", bad)
    with pytest.raises(ValueError, match="elo0=E0,elo1=E1"):
        tessera.sprt("elo0=0", [0] * 5)
    with pytest.raises(ValueError, match="unknown parameter"):
        tessera.sprt({"elo0": 0, "elo1": 5, "gamma": 1}, [0] * 5)
    with pytest.raises(TypeError, match="expected a test such as"):
        tessera.sprt(5, [0] * 5)


def test_a_local_sprt_stops_when_decided_and_stores_its_decision(tmp_path):
    db = tmp_path / "s.sqlite"
    r = tessera.tournament(["greedy", "random"], games=400, seed=3, db=db, sprt="elo0=0,elo1=100")
    s = r["sprt"]
    assert s["decision"] == "H1 accepted" and s["llr"] >= s["bounds"][1]
    # Far fewer than the 400 games allowed; the counts are the pairs' pentanomial.
    assert r["played"] < 60 and sum(s["counts"]) == s["pairs"] >= 1
    assert r["command"].endswith("--sprt elo0=0,elo1=100,alpha=0.05,beta=0.05,model=logistic")
    # The counts give the stored LLR through the pure function.
    assert tessera.sprt(s["test"], s["counts"])["llr"] == pytest.approx(s["llr"], abs=1e-12)
    with sqlite3.connect(db) as c:
        assert c.execute("select decision, pairs from sprt").fetchall() == [("H1 accepted", s["pairs"])]
    with pytest.raises(ValueError, match="two agents on paired deals"):
        tessera.tournament(["greedy", "random", "level:1"], games=4, db=tmp_path / "x.sqlite",
                           sprt="elo0=0,elo1=10")


def test_a_tournament_under_a_game_clock(tmp_path):
    db = tmp_path / "clock.sqlite"
    r = tessera.tournament(agents=[first_legal, "greedy"], games=2, seed=4, db=db, clock="20s+100ms")
    assert r["played"] == 2
    assert r["command"].endswith(" --clock 20s+100ms")
    assert r["faults"] == []
    with sqlite3.connect(db) as con:
        records = [json.loads(row[0]) for row in con.execute("SELECT record FROM games")]
    assert [rec["clock"] for rec in records] == ["20s+100ms"] * 2
    assert all("flag" not in rec for rec in records)
    with pytest.raises(ValueError, match=r"clock '60x': .* expected BASE\[\+INCREMENT\]"):
        tessera.tournament(agents=["greedy", "random"], games=2, db=db, clock="60x")
    with pytest.raises(TypeError, match="clock 60"):
        tessera.tournament(agents=["greedy", "random"], games=2, db=db, clock=60)
