"""``tessera.tournament(..., executor="ray")``: a run's deals fanned out as Ray tasks.

Each task plays one slice of whole deals (``tessera tournament --shard k/n``, every seat
rotation of its deals) with the arena's Rust runner into a SQLite file of its own, and
returns the file's bytes; the driver merges each finished slice into the one store ``db``
(``tessera merge``) as soon as it arrives, so a slice that finished is stored even if a
later one fails, then reports the whole run from that store. The games and the statistics
are those of the same run played locally (the schedule, seeds and pairing do not depend on
where a deal is played).
"""

from __future__ import annotations

import os
import tempfile

from ._tessera import _merge, _tournament


def _play_shard(agents, game, players, games, series, seed, paired, k, n):
    """One Ray task: slice ``k`` of ``n`` into a temporary store, returned as bytes."""
    with tempfile.TemporaryDirectory(prefix="tessera-shard-") as d:
        path = os.path.join(d, "shard.sqlite")
        _, played, _, _, _ = _tournament(
            agents, game, players, games, series, seed, path, 1, paired, False, (k, n)
        )
        # The store is closed when _tournament returns: the file holds every game.
        with open(path, "rb") as f:
            return k, played, f.read()


def run(agents, game, players, games, series, seed, db, paired, shards, max_retries):
    """Plays the run on the Ray cluster ``ray.init()`` connects to (the one already
    initialised, else ``RAY_ADDRESS``, else a local one) and returns what ``_tournament``
    returns, ``played`` being the games the tasks played, and the number of slices."""
    try:
        import ray
    except ImportError as e:
        raise ImportError(
            "executor='ray' needs Ray: pip install 'tessera[ray]' (or pip install ray)"
        ) from e
    if not ray.is_initialized():
        ray.init()
    deals = max(1, games // players) if paired else max(1, games)
    if shards is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        shards = 2 * max(1, cpus)
    shards = max(1, min(int(shards), deals))
    task = ray.remote(max_retries=max_retries)(_play_shard)
    pending = [
        task.remote(agents, game, players, games, series, seed, paired, k, shards)
        for k in range(1, shards + 1)
    ]
    played = 0
    with tempfile.TemporaryDirectory(prefix="tessera-ray-") as d:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            k, n, data = ray.get(done[0])
            path = os.path.join(d, f"shard-{k}-of-{shards}.sqlite")
            with open(path, "wb") as f:
                f.write(data)
            _merge(db, [path])
            os.remove(path)
            played += n
    # Every slice is merged: the store holds the complete run, which the runner reports
    # without playing anything.
    report = _tournament(agents, game, players, games, series, seed, db, 1, paired, False)
    run_id, again, summary, faults, command = report
    if again:
        raise RuntimeError(f"the merged run was incomplete: {again} games were played locally")
    return run_id, played, summary, faults, command, shards
