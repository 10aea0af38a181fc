"""tessera.tournament(executor="ray") on a local Ray cluster started here: the same seed
gives the same stored games as a local run, and an SPRT decided across the cluster reaches
the local run's decision. Ray comes with the ``test`` extra; this file never skips.
(tests/test_ray_cluster.py runs a cluster of two node processes started with ``ray start``.)"""

import json
import os
import shutil
import sqlite3

import pytest
import ray

import tessera

GAME_COLUMNS = "idx, tbl, series, deal, rotation, seed, seats, scores, winners, actions, record"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    # A local cluster of two worker CPUs; a small object store (the slices are a few KB).
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        object_store_memory=100 * 1024 * 1024,
        _temp_dir=str(tmp_path_factory.mktemp("ray")),
    )
    yield
    ray.shutdown()


def stored(db):
    with sqlite3.connect(db) as c:
        runs = c.execute("select shard_index, shard_count, total, params from runs").fetchall()
        games = c.execute(f"select {GAME_COLUMNS} from games order by idx").fetchall()
    return runs, games


def test_a_ray_run_stores_the_games_of_a_local_run(cluster, tmp_path):
    # Three pairings of 8 games each (4 deals, both seatings): 24 games, 12 deals.
    agents = ["greedy", "random", "level:2"]
    local = tessera.tournament(agents, games=8, seed=5, db=tmp_path / "local.sqlite")
    dist = tessera.tournament(
        agents, games=8, seed=5, db=tmp_path / "ray.sqlite", executor="ray", shards=4
    )
    assert dist["played"] == 24 == local["played"]
    assert dist["shards"] == 4 and "shards" not in local
    runs, games = stored(tmp_path / "ray.sqlite")
    assert stored(tmp_path / "local.sqlite") == (runs, games)
    # One whole run (not four shards), every game once.
    assert [r[:3] for r in runs] == [(1, 1, 24)]
    assert [g[0] for g in games] == list(range(24))
    assert dist["summary"] == local["summary"]
    assert dist["command"] == local["command"]
    # Another seed stores other games.
    other = tessera.tournament(
        agents, games=8, seed=6, db=tmp_path / "other.sqlite", executor="ray"
    )
    # By default twice the cluster's 2 CPUs.
    assert other["shards"] == 4
    assert stored(tmp_path / "other.sqlite")[1] != games


def test_a_python_callable_travels_to_the_workers(cluster, tmp_path):
    def first_legal(game):
        return game.legal_actions()[0]

    local = tessera.tournament([first_legal, "greedy"], games=6, seed=2, db=tmp_path / "a.sqlite")
    dist = tessera.tournament(
        [first_legal, "greedy"], games=6, seed=2, db=tmp_path / "b.sqlite", executor="ray"
    )
    assert stored(tmp_path / "a.sqlite") == stored(tmp_path / "b.sqlite")
    assert dist["summary"] == local["summary"]


def test_a_worker_killed_mid_slice_loses_no_game(cluster, tmp_path):
    """The first move on the cluster kills its worker process (os._exit) in the middle of a
    slice; Ray runs the task again and the store still holds every game of the local run."""
    marker = tmp_path / "killed-once"

    def first_legal(game):
        if not marker.exists():
            marker.touch()
            os._exit(1)
        return game.legal_actions()[0]

    marker.touch()  # the local run must not kill the test's own process
    local = tessera.tournament([first_legal, "greedy"], games=8, seed=4, db=tmp_path / "a.sqlite")
    marker.unlink()
    dist = tessera.tournament(
        [first_legal, "greedy"], games=8, seed=4, db=tmp_path / "b.sqlite", executor="ray",
        shards=2,
    )
    assert marker.exists(), "no worker was killed"
    assert dist["played"] == 8 == local["played"]
    assert stored(tmp_path / "a.sqlite") == stored(tmp_path / "b.sqlite")


def deals_stored(db):
    with sqlite3.connect(db) as c:
        return [d for (d,) in c.execute("select distinct deal from games order by deal")]


@pytest.mark.parametrize(
    "agents, verdict", [(["greedy", "random"], "H1 accepted"), (["random", "greedy"], "H0 accepted")]
)
def test_an_sprt_on_ray_decides_as_the_local_run(cluster, tmp_path, agents, verdict):
    """greedy beats random nearly every game: the test accepts H1 (greedy first) or H0
    (random first) within a few pairs of the 200 allowed. The Ray run counts the same pairs
    in schedule order, so the decision, LLR and counts are the local run's exactly; it stops
    submitting once decided, and every pair it submitted is stored."""
    test = {"elo0": 0, "elo1": 100, "alpha": 0.05, "beta": 0.05}
    local = tessera.tournament(agents, games=400, seed=3, db=tmp_path / "a.sqlite", sprt=test)
    dist = tessera.tournament(
        agents, games=400, seed=3, db=tmp_path / "b.sqlite", sprt=test, executor="ray", shards=3
    )
    assert local["sprt"]["decision"] == verdict
    assert dist["sprt"] == local["sprt"]
    assert dist["sprt"]["test"] == "elo0=0,elo1=100,alpha=0.05,beta=0.05,model=logistic"
    pairs = dist["sprt"]["pairs"]
    assert 1 <= pairs < 20 and sum(dist["sprt"]["counts"]) == pairs
    lower, upper = dist["sprt"]["bounds"]
    assert (dist["sprt"]["llr"] >= upper) if verdict == "H1 accepted" else (dist["sprt"]["llr"] <= lower)
    # At most 3 pairs in flight: submission stopped within 3 pairs of the decision, and the
    # pairs in flight then were stored too (nothing that finished is lost).
    assert pairs <= dist["shards"] < pairs + 3
    assert deals_stored(tmp_path / "b.sqlite") == list(range(dist["shards"]))
    assert dist["played"] == 2 * dist["shards"]
    # The games of the counted pairs are the local run's, row for row.
    a_runs, a_games = stored(tmp_path / "a.sqlite")
    b_runs, b_games = stored(tmp_path / "b.sqlite")
    assert a_runs == b_runs
    assert [g for g in a_games if g[3] < pairs] == [g for g in b_games if g[3] < pairs]
    # The test's state is stored with the run, as `tessera tournament --sprt` stores it.
    with sqlite3.connect(tmp_path / "b.sqlite") as c:
        assert c.execute("select decision, pairs from sprt").fetchall() == [(verdict, pairs)]
    # Asked again, the decided run is reported from the store, nothing played.
    again = tessera.tournament(
        agents, games=400, seed=3, db=tmp_path / "b.sqlite", sprt=test, executor="ray"
    )
    assert again["played"] == 0 and again["sprt"] == dist["sprt"]


def test_an_sprt_that_does_not_fit_the_run_is_refused_before_any_task(cluster, tmp_path):
    db = tmp_path / "x.sqlite"
    with pytest.raises(ValueError, match="two agents on paired deals"):
        tessera.tournament(["greedy", "random", "level:1"], games=4, db=db, executor="ray",
                           sprt="elo0=0,elo1=10")
    with pytest.raises(ValueError, match="elo0 < elo1"):
        tessera.tournament(["greedy", "random"], games=4, db=db, executor="ray",
                           sprt="elo0=10,elo1=0")
    assert not db.exists()


def test_bad_executor_arguments_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="executor 'dask': expected 'local' or 'ray'"):
        tessera.tournament(["random", "greedy"], games=2, db=tmp_path / "x.sqlite", executor="dask")
    with pytest.raises(ValueError, match="resume=True is for local runs"):
        tessera.tournament(
            ["random", "greedy"], games=2, db=tmp_path / "x.sqlite", executor="ray", resume=True
        )
    with pytest.raises(ValueError, match="shards 0"):
        tessera.tournament(
            ["random", "greedy"], games=2, db=tmp_path / "x.sqlite", executor="ray", shards=0
        )


def tessera_cli():
    """The `tessera` command line: scripts/test.sh sets TESSERA_CLI to the one it built."""
    cli = os.environ.get("TESSERA_CLI") or shutil.which("tessera")
    assert cli and os.path.exists(cli), (
        "set TESSERA_CLI to the tessera command (cargo build -p tessera; scripts/test.sh does)"
    )
    return cli


def test_train_self_play_on_ray_gives_the_local_weights(cluster, tmp_path):
    """`tessera train azul-augur` once locally and with its self-play in 3 Ray tasks (slices
    of 4 games each) then one fit: the same weights file, byte for byte."""
    cli = tessera_cli()
    common = dict(seed=3, games=12, player="greedy", tessera_cli=cli)
    local = tessera.train(out=tmp_path / "local.json", data=tmp_path / "local",
                          observations=True, **common)
    dist = tessera.train(out=tmp_path / "ray.json", data=tmp_path / "ray", executor="ray",
                         shards=3, observations=True, **common)
    assert dist["shards"] == 3 and local["shards"] == 1
    assert [os.path.basename(r) for r in dist["rows"]] == ["rows-1.txt", "rows-2.txt", "rows-3.txt"]
    ray_rows = [open(r).read().splitlines() for r in dist["rows"]]
    assert all(ray_rows) and sorted(sum(ray_rows, [])) == sorted(
        open(local["rows"][0]).read().splitlines()
    )
    # The observations: one line per position and seat (two seats), the same lines on Ray.
    assert [os.path.basename(o) for o in dist["observations"]] == [
        "obs-1.txt", "obs-2.txt", "obs-3.txt"
    ]
    ray_obs = sorted(sum((open(o).read().splitlines() for o in dist["observations"]), []))
    local_obs = open(local["observations"][0]).read().splitlines()
    assert ray_obs == sorted(local_obs)
    assert len(local_obs) == 2 * len(ray_rows[0] + ray_rows[1] + ray_rows[2])
    assert all(len(line.split()) == 5 + 158 for line in local_obs)
    weights = (tmp_path / "local.json").read_bytes()
    assert b'"format": "tessera-azul-augur"' in weights
    assert (tmp_path / "ray.json").read_bytes() == weights
    assert "held-out log loss" in dist["report"] and "held-out log loss" in local["report"]
    # Another seed fits other weights.
    other = tessera.train(out=tmp_path / "other.json", executor="ray", **{**common, "seed": 4})
    assert other["rows"] is None and other["observations"] is None
    assert (tmp_path / "other.json").read_bytes() != weights


def test_train_reports_a_bad_call_clearly(tmp_path):
    with pytest.raises(FileNotFoundError, match="tessera command line"):
        tessera.train(out=tmp_path / "w.json", tessera_cli=tmp_path / "no-such-tessera")
    with pytest.raises(ValueError, match="give data= to keep them"):
        tessera.train(out=tmp_path / "w.json", observations=True, tessera_cli=tessera_cli())
    with pytest.raises(ValueError, match="executor 'dask'"):
        tessera.train(out=tmp_path / "w.json", executor="dask", tessera_cli=tessera_cli())
    with pytest.raises(RuntimeError, match="unrecognized subcommand 'azul-x'"):
        tessera.train("azul-x", out=tmp_path / "w.json", games=2, tessera_cli=tessera_cli())


def test_fit_board_net_fits_augurs_network_on_trained_self_play(tmp_path):
    """Self-play with observations, then the board network fitted on it from Python: a
    network file of the table's size, the same bytes on a second fit, clear errors."""
    cli = tessera_cli()
    run = tessera.train(out=tmp_path / "w.json", data=tmp_path / "d", observations=True,
                        seed=11, games=20, player="greedy", features=17, tessera_cli=cli)
    settings = dict(hidden=4, epochs=2, lr=0.01, tessera_cli=cli)
    fit = tessera.fit_board_net(run["rows"], run["observations"], out=tmp_path / "net.json",
                                **settings)
    net = json.loads((tmp_path / "net.json").read_text())
    assert (net["players"], net["inputs"], net["hidden"], len(net["stages"])) == (2, 158, 4, 5)
    assert all(len(st["w1"]) == 158 * 4 and len(st["checks"]) == 3 for st in net["stages"])
    assert "network written" in fit["report"] and "held-out log loss" in fit["report"]
    assert fit["command"].startswith("tessera train azul-board-net --players 2")
    tessera.fit_board_net(run["rows"], run["observations"], out=tmp_path / "again.json",
                          **settings)
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "net.json").read_bytes()
    with pytest.raises(ValueError, match="one observations file per rows file"):
        tessera.fit_board_net(run["rows"], [], out=tmp_path / "x.json", tessera_cli=cli)
    with pytest.raises(ValueError, match="hidden 0"):
        tessera.fit_board_net(run["rows"], run["observations"], out=tmp_path / "x.json",
                              hidden=0, tessera_cli=cli)
    # Two-player observations read as three players': the command's error, passed on.
    with pytest.raises(RuntimeError, match="expected 226"):
        tessera.fit_board_net(run["rows"], run["observations"], out=tmp_path / "x.json",
                              players=3, tessera_cli=cli)
