"""``tessera.tournament(..., executor="ray")``: a run's deals fanned out as Ray tasks.

Each task plays one slice of whole deals (``tessera tournament --shard k/n``, every seat
rotation of its deals) with the arena's Rust runner into a SQLite file of its own, and
returns the file's bytes; the driver merges each finished slice into the one store ``db``
(``tessera merge``) as soon as it arrives, so a slice that finished is stored even if a
later one fails, then reports the whole run from that store. The games and the statistics
are those of the same run played locally (the schedule, seeds and pairing do not depend on
where a deal is played).

With an SPRT every task is one deal (the pair of games with the seats swapped: the unit
the test counts), submitted in schedule order with at most ``shards`` in flight. The driver
stores each finished pair and feeds it to the runner's own test (``_SprtTracker``: pairs
counted in schedule order, stopping at the first crossing), never submits a deal ``shards``
or more past the earliest unfinished one, submits nothing more once the test decides, and
still stores the pairs in flight when they finish (at most ``shards - 1`` past the decision). A killed task is
retried whole (a pair is never half stored).
"""

from __future__ import annotations

import os
import tempfile

from ._tessera import _merge, _SprtTracker, _tournament


def _play_shard(agents, game, players, games, series, seed, paired, k, n, sprt=None):
    """One Ray task: slice ``k`` of ``n`` into a temporary store, returned as bytes."""
    with tempfile.TemporaryDirectory(prefix="tessera-shard-") as d:
        path = os.path.join(d, "shard.sqlite")
        _, played, _, _, _ = _tournament(
            agents, game, players, games, series, seed, path, 1, paired, False, (k, n), sprt
        )
        # The store is closed when _tournament returns: the file holds every game.
        with open(path, "rb") as f:
            return k, played, f.read()


def _ray():
    try:
        import ray
    except ImportError as e:
        raise ImportError(
            "executor='ray' needs Ray: pip install 'tessera[ray]' (or pip install ray)"
        ) from e
    if not ray.is_initialized():
        ray.init()
    return ray


def _store(db, tmp, result, shards):
    """Writes a task's slice to a file, merges it into ``db``; returns the file's path."""
    k, n, data = result
    path = os.path.join(tmp, f"shard-{k}-of-{shards}.sqlite")
    with open(path, "wb") as f:
        f.write(data)
    _merge(db, [path])
    return path, n


def run(agents, game, players, games, series, seed, db, paired, shards, max_retries, sprt=None):
    """Plays the run on the Ray cluster ``ray.init()`` connects to (the one already
    initialised, else ``RAY_ADDRESS``, else a local one) and returns what ``_tournament``
    returns, ``played`` being the games the tasks played, and the number of tasks."""
    ray = _ray()
    if shards is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        shards = 2 * max(1, cpus)
    # SPREAD: the tasks go round the nodes rather than filling the driver's node first.
    task = ray.remote(max_retries=max_retries, scheduling_strategy="SPREAD")(_play_shard)
    if sprt is None:
        played, tasks = _all_slices(ray, task, agents, game, players, games, series, seed, db,
                                    paired, shards)
    else:
        played, tasks = _sequential(ray, task, agents, game, players, games, series, seed, db,
                                    paired, shards, sprt)
    # Every slice is merged: the store holds the complete (or decided) run, which the runner
    # reports without playing anything.
    report = _tournament(agents, game, players, games, series, seed, db, 1, paired, False,
                         None, sprt)
    run_id, again, summary, faults, command = report
    if again:
        raise RuntimeError(f"the merged run was incomplete: {again} games were played locally")
    return run_id, played, summary, faults, command, tasks


def _all_slices(ray, task, agents, game, players, games, series, seed, db, paired, shards):
    deals = max(1, games // players) if paired else max(1, games)
    shards = max(1, min(int(shards), deals))
    pending = [
        task.remote(agents, game, players, games, series, seed, paired, k, shards)
        for k in range(1, shards + 1)
    ]
    played = 0
    with tempfile.TemporaryDirectory(prefix="tessera-ray-") as d:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            path, n = _store(db, d, ray.get(done[0]), shards)
            os.remove(path)
            played += n
    return played, shards


def _sequential(ray, task, agents, game, players, games, series, seed, db, paired, inflight,
                sprt):
    deals = series * -(-games // 2)
    tracker = _SprtTracker()
    with tempfile.TemporaryDirectory(prefix="tessera-ray-") as d:
        # A run of no games, here: the parameters are checked (two agents, two players,
        # paired deals, the test's text, every agent spec) before any task is sent, and its
        # file names the run for the test (slice deals+1 of deals+1 holds no deal).
        probe = os.path.join(d, "probe.sqlite")
        _tournament(agents, game, players, games, series, seed, probe, 1, paired, False,
                    (deals + 1, deals + 1), sprt)
        status = tracker.add(probe)
        os.remove(probe)
        if os.path.exists(db):
            # The same run stored before: its counted pairs are not played again, and a
            # decided test plays nothing.
            status = tracker.add(db, True)
    return _submit(ray, task, agents, game, players, games, series, seed, db, paired, inflight,
                   sprt, deals, tracker, status)


def _submit(ray, task, agents, game, players, games, series, seed, db, paired, inflight, sprt,
            deals, tracker, status):
    decided = status[1] != "undecided"
    next_deal = status[5]  # deals 0..next_deal-1 are submitted (or were counted before)
    submitted = 0
    pending: dict = {}  # task -> its deal
    played = 0

    def may_submit():
        # A window of `inflight` deals from the earliest unfinished one: the test is never
        # more than `inflight` pairs behind what was submitted.
        first = min(pending.values(), default=next_deal)
        return not decided and next_deal < deals and next_deal < first + inflight

    with tempfile.TemporaryDirectory(prefix="tessera-ray-") as d:
        while pending or may_submit():
            while may_submit():
                ref = task.remote(agents, game, players, games, series, seed, paired,
                                  next_deal + 1, deals, sprt)
                pending[ref] = next_deal
                next_deal += 1
                submitted += 1
            done, _ = ray.wait(list(pending), num_returns=1)
            del pending[done[0]]
            path, n = _store(db, d, ray.get(done[0]), deals)
            played += n
            status = tracker.add(path)
            os.remove(path)
            decided = status[1] != "undecided"
    return played, submitted
