"""``tessera.train``: ``tessera train azul-augur`` driven from Python, its self-play fanned
out as Ray tasks with ``executor="ray"``.

The training itself is the command line's (crates/cli/src/cmd/train.rs): self-play slices
(``--shard k/n --data rows-k.txt``: game ``i`` belongs to slice ``i mod n + 1`` and depends
only on the seed and ``i``) and one fit of every slice's rows (``--fit``: rows sorted by
game and position first). So the weights of a run split into slices are those of the same
run in one piece, byte for byte. Each Ray task runs one slice with the ``tessera`` command
on its node and returns the rows; the driver writes them and runs the fit.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile


def _cli(path: str | os.PathLike | None) -> str:
    """The ``tessera`` command: ``path``, else ``$TESSERA_CLI``, else ``tessera`` on PATH."""
    found = os.fspath(path) if path is not None else os.environ.get("TESSERA_CLI")
    if found is None:
        found = shutil.which("tessera")
    if not found or not os.path.exists(found):
        raise FileNotFoundError(
            f"the tessera command line ({found or 'tessera on PATH'}) was not found: "
            "install it on every node (cargo install --path crates/cli) or pass tessera_cli="
        )
    return found


def _run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(cmd)} failed (exit {done.returncode}):\n{done.stderr.strip()}"
        )
    return done.stdout


def _self_play(cli, common, k, n, observations=False):
    """One Ray task: slice ``k`` of ``n`` of the self-play; returns its rows file's text (and
    its observations file's, or None)."""
    with tempfile.TemporaryDirectory(prefix="tessera-train-") as d:
        rows = os.path.join(d, f"rows-{k}.txt")
        cmd = [_cli(cli), "train", *common, "--shard", f"{k}/{n}", "--data", rows]
        obs = os.path.join(d, f"obs-{k}.txt")
        if observations:
            cmd += ["--observations", obs]
        out = _run(cmd)
        with open(rows) as f:
            text = f.read()
        if not observations:
            return k, text, out, None
        with open(obs) as f:
            return k, text, out, f.read()


def train(
    model: str = "azul-augur",
    *,
    out: str | os.PathLike,
    seed: int = 1,
    games: int = 2000,
    players: int = 2,
    player: str = "strong:nodes=1500",
    epsilon: float = 0.05,
    l2: float | None = None,
    features: int | None = None,
    executor: str = "local",
    shards: int | None = None,
    max_retries: int = 3,
    data: str | os.PathLike | None = None,
    observations: bool = False,
    tessera_cli: str | os.PathLike | None = None,
) -> dict:
    """Trains ``model`` (``azul-augur``: augur's win-chance weights) as ``tessera train``
    does, writing the weights file ``out``.

    ``executor="local"`` runs ``tessera train MODEL ... --data DATA/rows.txt --out OUT``;
    ``executor="ray"`` plays the self-play as ``shards`` Ray tasks (default twice the
    cluster's CPUs, at most ``games``), each ``tessera train MODEL ... --shard k/n`` on
    its node, retried up to ``max_retries`` times, writes their rows to ``DATA/rows-k.txt``
    and fits them here (``--fit``): the same weights as the local run, byte for byte.
    ``data`` keeps the rows files (default: a temporary folder). The ``tessera`` command
    must be installed on every node (``tessera_cli``, else ``$TESSERA_CLI``, else PATH):
    the wheel does not ship it. ``observations=True`` (needs ``data``) also writes each
    position's observation vector from every seat beside the rows (``--observations``:
    ``DATA/obs.txt``, or ``DATA/obs-k.txt`` per Ray task; format in docs/python.md), for
    learning a value of the whole board. Returns ``{"out", "rows": the rows files (None when
    not kept), "observations": the observations files (None when not written), "shards",
    "report": the fit's table of held-out figures, "command"}``.
    """
    for name, value in (("seed", seed), ("games", games), ("players", players)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} {value!r}: expected a non-negative integer")
    if executor not in ("local", "ray"):
        raise ValueError(f"executor {executor!r}: expected 'local' or 'ray'")
    if shards is not None and (not isinstance(shards, int) or isinstance(shards, bool) or shards < 1):
        raise ValueError(f"shards {shards!r}: expected a positive integer or None")
    if observations and data is None:
        raise ValueError("observations=True writes files beside the rows: give data= to keep them")
    cli = _cli(tessera_cli)
    common = [model, "--seed", str(seed), "--games", str(games), "--players", str(players),
              "--player", player, "--epsilon", repr(float(epsilon))]
    if l2 is not None:
        common += ["--l2", repr(float(l2))]
    if features is not None:
        common += ["--features", str(int(features))]
    out = os.fspath(out)
    keep = data is not None
    folder = tempfile.mkdtemp(prefix="tessera-train-") if data is None else os.fspath(data)
    os.makedirs(folder, exist_ok=True)
    try:
        if executor == "local":
            rows = [os.path.join(folder, "rows.txt")]
            obs = [os.path.join(folder, "obs.txt")]
            extra = ["--observations", obs[0]] if observations else []
            report = _run([cli, "train", *common, "--data", rows[0], *extra, "--out", out])
            n = 1
        else:
            from ._ray import _ray

            ray = _ray()
            if shards is None:
                shards = 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))
            n = max(1, min(shards, games))
            task = ray.remote(max_retries=max_retries, scheduling_strategy="SPREAD")(_self_play)
            # Each node finds its own command (tessera_cli, else its $TESSERA_CLI or PATH).
            node_cli = None if tessera_cli is None else os.fspath(tessera_cli)
            pending = [
                task.remote(node_cli, common, k, n, observations) for k in range(1, n + 1)
            ]
            rows = [os.path.join(folder, f"rows-{k}.txt") for k in range(1, n + 1)]
            obs = [os.path.join(folder, f"obs-{k}.txt") for k in range(1, n + 1)]
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                k, text, _, obs_text = ray.get(done[0])
                with open(rows[k - 1], "w") as f:
                    f.write(text)
                if obs_text is not None:
                    with open(obs[k - 1], "w") as f:
                        f.write(obs_text)
            report = _run([cli, "train", *common, "--fit", ",".join(rows), "--out", out])
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
    return {
        "out": out,
        "rows": rows if keep else None,
        "observations": obs if observations else None,
        "shards": n,
        "report": report,
        "command": " ".join(["tessera", "train", *common, "--out", out]),
    }


def fit_board_net(
    rows: list[str | os.PathLike],
    observations: list[str | os.PathLike],
    *,
    out: str | os.PathLike,
    players: int = 2,
    hidden: int = 32,
    epochs: int = 3,
    seed: int = 1,
    decay: float = 1e-3,
    lr: float = 5e-4,
    l2: float = 1e-4,
    tessera_cli: str | os.PathLike | None = None,
) -> dict:
    """Fits augur's board network as ``tessera train azul-board-net`` does (docs/players.md,
    "v9"): a network on each seat's whole observation beside the 17 features' weights.

    ``rows`` and ``observations`` are the files of a self-play run, file ``k`` of one with
    file ``k`` of the other: the ``"rows"`` and ``"observations"`` that ``train(...,
    data=..., features=17, observations=True)`` returns, locally or on Ray. Writes the
    network file ``out`` (it loads as augur's board network: the command checks that the
    engine reproduces the file's check values) and returns ``{"out", "report": the held-out
    log loss per stage, "command"}``. The same files in the same order with the same
    settings give the same file, byte for byte."""
    rows, observations = list(rows), list(observations)
    if not rows or len(rows) != len(observations):
        raise ValueError(
            f"{len(rows)} rows files and {len(observations)} observations files: "
            "expected one observations file per rows file, at least one"
        )
    for name, value, least in (("players", players, 2), ("hidden", hidden, 1),
                               ("epochs", epochs, 1), ("seed", seed, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"{name} {value!r}: expected an integer >= {least}")
    cli = _cli(tessera_cli)
    out = os.fspath(out)
    args = ["azul-board-net", "--players", str(players),
            "--fit", ",".join(os.fspath(r) for r in rows),
            "--observations", ",".join(os.fspath(o) for o in observations),
            "--hidden", str(hidden), "--epochs", str(epochs), "--seed", str(seed),
            "--decay", repr(float(decay)), "--lr", repr(float(lr)), "--l2", repr(float(l2))]
    report = _run([cli, "train", *args, "--out", out])
    return {"out": out, "report": report, "command": " ".join(["tessera", "train", *args, "--out", out])}
