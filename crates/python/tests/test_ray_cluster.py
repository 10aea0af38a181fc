"""tessera.tournament(executor="ray") on a cluster of two Ray nodes in separate processes,
started here with Ray's own CLI as on real machines: a head (`ray start --head --block
--num-cpus=1`) and a worker node (`ray start --address=HEAD --block --num-cpus=1`), the
test connecting as a client with `ray.init(address=HEAD)`. The same seed stores the same
games as a local run; a task's worker process killed with SIGKILL in the middle of its
slice, and then the whole worker node killed, lose no game (Ray retries the tasks). Ray comes with the `test` extra: this file
never skips. The nodes are stopped by the process ids this file started (their process
group), never with `ray stop`, which would stop every Ray cluster on the machine."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import pytest
import ray

import tessera

# Every node and the driver on a loopback address. Not 127.0.0.1: Ray replaces that one (and
# "localhost") with the machine's network address.
NODE_IP = "127.0.0.2"

GAME_COLUMNS = "idx, tbl, series, deal, rotation, seed, seats, scores, winners, actions, record"


def stored(db):
    with sqlite3.connect(db) as c:
        runs = c.execute("select shard_index, shard_count, total, params from runs").fetchall()
        games = c.execute(f"select {GAME_COLUMNS} from games order by idx").fetchall()
    return runs, games


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_cli() -> str:
    """The `ray` command of this interpreter's environment (the one pip installed)."""
    here = os.path.join(os.path.dirname(sys.executable), "ray")
    found = here if os.path.exists(here) else shutil.which("ray")
    assert found, f"Ray's CLI is not installed beside {sys.executable} nor on PATH"
    return found


def own_ports() -> list[str]:
    # Every fixed port a node opens, chosen free, so that this cluster cannot collide with
    # another one on the machine (Ray's defaults are fixed numbers: 10001, 52365, ...).
    names = ["node-manager-port", "object-manager-port", "metrics-export-port",
             "dashboard-agent-listen-port", "dashboard-agent-grpc-port", "runtime-env-agent-port",
             "dashboard-port"]
    return [f"--{n}={free_port()}" for n in names]


def start_node(args: list[str], log_path: str) -> subprocess.Popen:
    """`ray start ARGS --block` in a session of its own; returns once the node is up."""
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [ray_cli(), "start", "--block", "--disable-usage-stats", "--num-cpus=1",
         f"--node-ip-address={NODE_IP}", "--object-store-memory=80000000", *own_ports(), *args],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=dict(os.environ),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with open(log_path) as f:
            text = f.read()
        if "Ray runtime started" in text:
            return proc
        if proc.poll() is not None:
            break
        time.sleep(0.5)
    stop_node(proc)
    with open(log_path) as f:
        raise RuntimeError(f"`ray start {' '.join(args)}` did not start:\n{f.read()[-3000:]}")


def stop_node(proc: subprocess.Popen) -> None:
    """Ends the node's processes: its process group (the session `ray start` began)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            continue
    # `ray start` may be gone while its daemons live on in the group.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.fixture(scope="module")
def two_nodes():
    # A short temporary directory: Ray's Unix sockets live under it (paths of at most 107
    # characters).
    temp = tempfile.mkdtemp(prefix="tray-", dir="/tmp")
    port = free_port()
    # Without Ray's token authentication (a real cluster keeps it: `ray get-auth-token
    # --generate`, the token on every node): this cluster listens on loopback only.
    # A dead node is noticed within about 2 s (Ray's defaults take tens of seconds).
    settings = {"RAY_AUTH_MODE": "disabled", "RAY_health_check_period_ms": "500",
                "RAY_health_check_timeout_ms": "500", "RAY_health_check_failure_threshold": "3"}
    saved = {k: os.environ.get(k) for k in settings}
    os.environ.update(settings)
    address = f"{NODE_IP}:{port}"
    nodes = []
    try:
        nodes.append(start_node(
            ["--head", f"--port={port}", f"--temp-dir={temp}", "--include-dashboard=false"],
            os.path.join(temp, "head.log"),
        ))
        nodes.append(start_node([f"--address={address}"], os.path.join(temp, "worker.log")))
        ray.init(address=address, _node_ip_address=NODE_IP, log_to_driver=False)
        deadline = time.monotonic() + 60
        while sum(n["Alive"] for n in ray.nodes()) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert sum(n["Alive"] for n in ray.nodes()) == 2, ray.nodes()
        assert ray.cluster_resources().get("CPU") == 2
        head_id = ray.get_runtime_context().get_node_id()
        (worker_id,) = [n["NodeID"] for n in ray.nodes() if n["NodeID"] != head_id]
        yield {"address": address, "worker": nodes[1], "worker_id": worker_id}
    finally:
        ray.shutdown()
        for proc in reversed(nodes):
            stop_node(proc)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(temp, ignore_errors=True)


def test_two_node_processes_store_the_games_of_a_local_run(two_nodes, tmp_path):
    where = tmp_path / "where"
    where.mkdir()

    def first_legal(game):
        # Notes the node and process of every worker that plays a move; a slow move, so
        # that the slices overlap (Ray gives quick tasks one after another to one worker).
        import ray as r

        (where / f"{r.get_runtime_context().get_node_id()}-{os.getpid()}").touch()
        time.sleep(0.01)
        return game.legal_actions()[0]

    agents = [first_legal, "greedy", "random"]
    local = tessera.tournament(agents, games=8, seed=5, db=tmp_path / "local.sqlite")
    for f in where.iterdir():
        f.unlink()
    dist = tessera.tournament(
        agents, games=8, seed=5, db=tmp_path / "ray.sqlite", executor="ray", shards=4
    )
    assert dist["played"] == 24 == local["played"] and dist["shards"] == 4
    assert stored(tmp_path / "ray.sqlite") == stored(tmp_path / "local.sqlite")
    assert dist["summary"] == local["summary"]
    # The slices were played by worker processes on both nodes, not by this process.
    nodes = {f.name.split("-")[0] for f in where.iterdir()}
    pids = {int(f.name.split("-")[1]) for f in where.iterdir()}
    assert len(nodes) == 2, nodes
    assert os.getpid() not in pids


def test_a_worker_process_killed_with_sigkill_loses_no_game(two_nodes, tmp_path):
    """The first move on the cluster writes its worker's pid and waits; the test kills that
    process with SIGKILL (kill -9) mid-slice. Ray runs the task again (max_retries) and the
    store equals the local run's."""
    victim = tmp_path / "victim.pid"

    def first_legal(game):
        try:
            fd = os.open(victim, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return game.legal_actions()[0]
        os.write(fd, f"{os.getpid()}\n".encode())
        os.close(fd)
        time.sleep(300)  # killed here
        raise RuntimeError("the worker was not killed")

    victim.write_text("local\n")  # the local run must not wait
    local = tessera.tournament([first_legal, "greedy"], games=12, seed=4,
                               db=tmp_path / "a.sqlite")
    victim.unlink()

    killed = []

    def kill_when_ready():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            text = victim.read_text() if victim.exists() else ""
            if text.endswith("\n"):
                pid = int(text)
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_when_ready)
    killer.start()
    try:
        dist = tessera.tournament(
            [first_legal, "greedy"], games=12, seed=4, db=tmp_path / "b.sqlite",
            executor="ray", shards=3, max_retries=2,
        )
    finally:
        killer.join()
    assert len(killed) == 1 and killed[0] != os.getpid()
    assert not os.path.exists(f"/proc/{killed[0]}") or "Z" in open(f"/proc/{killed[0]}/stat").read().split()[2]
    assert dist["played"] == 12 == local["played"]
    assert stored(tmp_path / "a.sqlite") == stored(tmp_path / "b.sqlite")
    assert dist["summary"] == local["summary"]


def test_the_worker_node_killed_mid_run_loses_no_game(two_nodes, tmp_path):
    """Last in this file (it ends the worker node): the first move played on the worker node
    waits; the test kills that whole node (its `ray start`, raylet and worker processes:
    its process group) with SIGKILL. Ray notices the dead node, runs its tasks again on the
    head, and the store equals the local run's."""
    victim = tmp_path / "victim"
    worker_id = two_nodes["worker_id"]

    def first_legal(game):
        import ray as r

        if r.get_runtime_context().get_node_id() == worker_id:
            try:
                fd = os.open(victim, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.close(fd)
                time.sleep(300)  # the node dies here
        time.sleep(0.01)  # slices overlap, so that both nodes get some
        return game.legal_actions()[0]

    local = tessera.tournament([first_legal, "greedy"], games=12, seed=8,
                               db=tmp_path / "a.sqlite")
    assert not victim.exists()
    node = two_nodes["worker"]
    killed = []

    def kill_node_when_ready():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if victim.exists():
                os.killpg(node.pid, signal.SIGKILL)
                killed.append(node.pid)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_node_when_ready)
    killer.start()
    try:
        dist = tessera.tournament(
            [first_legal, "greedy"], games=12, seed=8, db=tmp_path / "b.sqlite",
            executor="ray", shards=3, max_retries=3,
        )
    finally:
        killer.join()
    assert killed, "no task reached the worker node"
    node.wait(timeout=20)
    assert [n["Alive"] for n in ray.nodes() if n["NodeID"] == worker_id] == [False]
    assert dist["played"] == 12 == local["played"]
    assert stored(tmp_path / "a.sqlite") == stored(tmp_path / "b.sqlite")
    assert dist["summary"] == local["summary"]
