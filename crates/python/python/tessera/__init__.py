"""Tessera from Python: every registered game by name (``make``, ``games``, ``agents``:
a generic ``Game`` with moves in notation or as ids), exact Azul and Qwirkle engines with fixed action ids and numpy
observations (``AzulGame``, ``QwirkleGame``), Match the Tiles (``MatchTiles``), our agents
(``Agent``), tournaments through the arena (``tournament``, locally or on Ray, with an
SPRT: ``sprt``), ``tessera train`` with its self-play on Ray (``train``) and augur's board network
(``fit_board_net``), the batch API
(``tessera.batch``), PettingZoo environments in ``tessera.envs`` (``azul_v0``,
``qwirkle_v0``, ``azul_vector``), the Gymnasium environments ``tessera/MatchTiles-v0`` and
``tessera/AzulVsAgent-v0`` (Azul against one of our agents) and the OpenSpiel games
``python_tessera_azul`` and ``python_tessera_qwirkle`` (``import tessera.openspiel``). See docs/python.md."""

from __future__ import annotations

import json
import os
import sqlite3

from ._tessera import Agent, AzulGame, Game, MatchTiles, QwirkleGame, __version__, make
from ._tessera import _agents, _check_seed, _games, _sprt, _tournament
from ._train import fit_board_net, train

__all__ = [
    "Agent", "AzulGame", "Game", "MatchTiles", "QwirkleGame", "agents", "fit_board_net", "games",
    "make", "sprt", "tournament", "train", "__version__",
]


def games(test: bool = True) -> list[dict]:
    """The registered games (the list ``tessera games`` prints), each a dict: ``name``,
    ``title``, ``min_players``, ``max_players``, ``chance``, ``hidden_info``, ``test`` (True
    for games that exist to test the house, such as ``nim``) and ``levels`` (``number``,
    ``name``, ``summary``, ``spec``). ``test=False`` leaves the test games out.
    ``make(g["name"])`` starts any of them."""
    return [g for g in json.loads(_games()) if test or not g["test"]]


def agents(game: str) -> list[dict]:
    """Game ``game``'s registered agents (the list ``tessera agents GAME`` prints), each a
    dict: ``name``, ``summary`` and ``params`` (``syntax``, ``default``, ``doc``). A spec
    built from them (``"alphabeta:depth=3"``) makes an ``Agent(spec, game=game)``.
    ValueError for a game that is not registered."""
    return json.loads(_agents(game))

SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")


def _sprt_text(test) -> str:
    """``--sprt``'s text of ``test``: the text itself, or a dict of its parameters."""
    if isinstance(test, dict):
        unknown = sorted(set(test) - set(SPRT_KEYS))
        if unknown:
            raise ValueError(f"sprt: unknown parameter(s) {unknown}: expected some of {list(SPRT_KEYS)}")
        return ",".join(f"{k}={test[k]}" for k in SPRT_KEYS if k in test)
    if isinstance(test, str):
        return test
    raise TypeError(
        f"sprt {test!r}: expected a test such as 'elo0=0,elo1=10' or {{'elo0': 0, 'elo1': 10}}"
    )


def _sprt_dict(t) -> dict:
    test, decision, llr, lower, upper, pairs, counts = t
    return {
        "test": test,
        "decision": decision,
        "llr": llr,
        "bounds": (lower, upper),
        "pairs": pairs,
        "counts": list(counts),
    }


def sprt(test, counts) -> dict:
    """The arena's sequential probability ratio test (``tessera tournament --sprt``) of
    pentanomial pair counts ``[LL, LD+DL, DD+WL+LW, WD+DW, WW]`` (pairs of games on one deal
    with the seats swapped, scoring 0, 1/2, 1, 3/2 or 2 points for the first agent).

    ``test`` is ``--sprt``'s text (``"elo0=0,elo1=10,alpha=0.05,beta=0.05,model=logistic"``;
    alpha and beta default to 0.05, the model to logistic) or a dict of those keys. Returns
    ``{"test": the test as --sprt takes it, "decision": "H0 accepted" | "H1 accepted" |
    "undecided", "llr": the generalized log-likelihood ratio, "bounds": Wald's (lower,
    upper), "pairs", "counts"}``. A pure function of the counts, computed by the same Rust
    code as the runner's test (crates/arena/src/sprt.rs).
    """
    if not isinstance(counts, (list, tuple)) or len(counts) != 5 or not all(
        isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts
    ):
        raise ValueError(
            f"counts {counts!r}: expected five non-negative integers [LL, LD+DL, DD+WL+LW, WD+DW, WW]"
        )
    return _sprt_dict(_sprt(_sprt_text(test), list(counts)))


def _stored_sprt(db, run: int) -> dict | None:
    """The state of run ``run``'s test as the runner stored it (table ``sprt``)."""
    with sqlite3.connect(os.fspath(db)) as c:
        row = c.execute(
            "select test, decision, llr, lower, upper, pairs, counts from sprt where run = ?",
            (run,),
        ).fetchone()
    if row is None:
        return None
    return _sprt_dict((*row[:6], json.loads(row[6])))


def tournament(
    agents,
    game: str = "azul",
    games: int = 200,
    seed: int = 1,
    db: str | os.PathLike = "runs.sqlite",
    jobs: int = 1,
    players: int = 2,
    series: int = 1,
    paired: bool = True,
    resume: bool = False,
    executor: str = "local",
    shards: int | None = None,
    max_retries: int = 3,
    sprt: str | dict | None = None,
    clock: str | None = None,
) -> dict:
    """Runs a tournament with the arena's runner: the same schedule (every table of
    ``players`` agents, seats rotated, deals paired), statistics and SQLite store as
    ``tessera tournament``, so ``tessera report --db DB`` shows it.

    ``agents`` mixes registry specs (``"strong:time=100ms"``, see ``tessera agents``) and
    Python callables, named ``python:<its __name__>`` in the run. In Azul a callable takes an
    ``AzulGame`` (the position, its player to move) and returns an action id; in Qwirkle it
    is called once per step id with a ``QwirkleGame`` of its seat's view (other hands and the
    bag redrawn, this turn's tiles so far pending) and returns one step id. ``jobs`` worker
    threads (0: one per core) play games in parallel; callables take the GIL in turn.

    If a callable raises or returns an illegal id, a random legal move is played in its
    place (recorded as a fault of kind ``python``), the run stops and the exception is
    raised; the games stored so far stay in ``db`` (``resume=True`` completes the run).

    ``executor="ray"`` plays the run on a Ray cluster (the one ``ray.init()`` connects to,
    initialised here if it is not yet): ``shards`` tasks (default: twice the cluster's
    CPUs, at most one per deal) each play a slice of whole deals with the Rust runner, and
    the driver merges every finished slice into ``db``; a task that fails is retried up to
    ``max_retries`` times. Same seed, same stored games as a local run. ``jobs`` and
    ``resume`` are local only; callables must pickle (cloudpickle) to reach the workers.

    ``sprt`` (``"elo0=0,elo1=10"``, ``--sprt``'s syntax, or a dict with the keys elo0, elo1,
    alpha, beta, model) runs the sequential test of ``tessera tournament --sprt``: two
    agents, two players, paired deals; ``games`` is then the most games to play. The test
    counts pairs in schedule order and stops at the first pair that crosses a bound, so the
    decision depends on the seed only, not on where or in what order pairs were played. With
    ``executor="ray"`` every task plays one deal pair; at most ``shards`` tasks (default
    twice the cluster's CPUs) are in flight, the driver stores each finished pair in ``db``
    and feeds it to the test as it arrives, and submits no more once the test decides (the
    pairs still in flight are stored too). The result then has ``"sprt"``: the test's
    ``decision``, ``llr``, ``bounds``, ``pairs`` and ``counts`` (see :func:`sprt`).

    ``clock="60s+1s"`` plays every game under a game clock (``tessera tournament --clock``):
    base time plus increment per move for every seat; an agent's time per move comes from
    its time manager unless its spec names its own ``time=`` (a fixed per-move player, off
    the clock); a seat whose time runs out loses (a fault of kind ``flag``). Local runs only.

    Returns ``{"run": id, "db": path, "played": games played by this call, "command": the
    equivalent command line, "summary": per agent games/wins/draws/losses/points/win_rate
    with its 95% interval/score mean and sd, per table and series rows, Elo ratings,
    "faults": [(label, kind, count)]}`` (with ``executor="ray"`` also ``"shards"``: the number
    of tasks).
    """
    seed = _check_seed(seed)
    for name, value in (("games", games), ("jobs", jobs), ("players", players), ("series", series)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} {value!r}: expected a non-negative integer")
    if not isinstance(agents, (list, tuple)):
        raise TypeError(f"agents: expected a list of specs and callables, got {type(agents).__name__}")
    test = None if sprt is None else _sprt_text(sprt)
    if clock is not None and not isinstance(clock, str):
        raise TypeError(f"clock {clock!r}: expected a time control such as '60s+1s' or None")
    if executor == "ray":
        if clock is not None:
            raise ValueError("clock= is for local runs (executor='local')")
        if resume:
            raise ValueError("resume=True is for local runs: a Ray run merges its slices into db")
        if shards is not None and (not isinstance(shards, int) or isinstance(shards, bool) or shards < 1):
            raise ValueError(f"shards {shards!r}: expected a positive integer or None")
        from . import _ray

        run, played, summary, faults, command, shards = _ray.run(
            list(agents), game, players, games, series, seed, os.fspath(db), bool(paired),
            shards, max_retries, test,
        )
    elif executor == "local":
        run, played, summary, faults, command = _tournament(
            list(agents), game, players, games, series, seed, os.fspath(db), jobs, bool(paired),
            bool(resume), None, test, clock=clock,
        )
    else:
        raise ValueError(f"executor {executor!r}: expected 'local' or 'ray'")
    result = {
        "run": run,
        "db": os.fspath(db),
        "played": played,
        "command": command,
        "summary": json.loads(summary),
        "faults": [tuple(f) for f in json.loads(faults)],
    }
    if executor == "ray":
        result["shards"] = shards
    if test is not None:
        result["sprt"] = _stored_sprt(db, run)
    return result


try:
    import gymnasium as _gym
except ImportError:  # the environments are optional
    _gym = None  # type: ignore[assignment]

if _gym is not None:
    for _id, _entry in (
        ("tessera/MatchTiles-v0", "tessera.envs.match_tiles:MatchTilesEnv"),
        ("tessera/AzulVsAgent-v0", "tessera.envs.azul_single_v0:AzulVsAgentEnv"),
    ):
        if _id not in _gym.registry:
            _gym.register(id=_id, entry_point=_entry)
