"""Tessera from Python: exact Azul and Qwirkle engines with fixed action ids and numpy
observations (``AzulGame``, ``QwirkleGame``), Match the Tiles (``MatchTiles``), our agents
(``Agent``), tournaments through the arena (``tournament``), the batch API
(``tessera.batch``), PettingZoo environments in ``tessera.envs`` (``azul_v0``,
``qwirkle_v0``, ``azul_vector``), the Gymnasium environments ``tessera/MatchTiles-v0`` and
``tessera/AzulVsAgent-v0`` (Azul against one of our agents) and the OpenSpiel games
``python_tessera_azul`` and ``python_tessera_qwirkle`` (``import tessera.openspiel``). See docs/python.md."""

from __future__ import annotations

import json
import os

from ._tessera import Agent, AzulGame, MatchTiles, QwirkleGame, __version__
from ._tessera import _check_seed, _tournament

__all__ = ["Agent", "AzulGame", "MatchTiles", "QwirkleGame", "tournament", "__version__"]


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
    if executor == "ray":
        if resume:
            raise ValueError("resume=True is for local runs: a Ray run merges its slices into db")
        if shards is not None and (not isinstance(shards, int) or isinstance(shards, bool) or shards < 1):
            raise ValueError(f"shards {shards!r}: expected a positive integer or None")
        from . import _ray

        run, played, summary, faults, command, shards = _ray.run(
            list(agents), game, players, games, series, seed, os.fspath(db), bool(paired),
            shards, max_retries,
        )
    elif executor == "local":
        run, played, summary, faults, command = _tournament(
            list(agents), game, players, games, series, seed, os.fspath(db), jobs, bool(paired),
            bool(resume),
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
