"""Pools the paired games of tournament databases (each deal played once from every seat:
twice with the seats swapped at two seats, a rotation set of 3 or 4 games at more) and
prints the first-listed agent's score over the sets: mean and 95% interval from the set
scores (normal approximation; at two seats the pentanomial interval that `tessera report`
prints for one run, at more the rotation-set interval, so one database alone reproduces
its figure). At three and four seats the score is the agent's share of the wins (a shared
win split), so a fair share is 1/3 or 1/4.

With --diff A B, compares two single-run databases played on the same deals (same seed,
games and players, different first agents): the mean per-deal difference B - A of the first
agent's pair or set score, with its 95% interval over the deals both completed. More pairs
of databases (--diff A B A2 B2 ...), each pair on its own deals, pool their deals' differences
into one interval (each pair's own line is printed first).

With --margin before the databases, the measure is the first-listed agent's final score
minus the best other seat's, in points, instead of its share of the wins (a set's margin is
the mean over its games), with the same interval.

With --z Z first (before the databases or --diff), the pooled interval is mean +- Z
standard errors instead of 1.96 (for example 2.178, Pocock's bound for a match judged at
two equally spaced looks at an overall 5% level).

Usage: python3 scripts/pool-pairs.py [--z Z] RUN1.sqlite [RUN2.sqlite ...]
       python3 scripts/pool-pairs.py --margin RUN1.sqlite [RUN2.sqlite ...]
       python3 scripts/pool-pairs.py [--z Z] --diff A.sqlite B.sqlite [A2.sqlite B2.sqlite ...]
"""

import json
import math
import sqlite3
import sys
from collections import defaultdict


def sets_by_deal(
    db: str, margin: bool = False
) -> dict[tuple[int, int, int, str], tuple[float, int]]:
    """The first-listed agent's mean score over each complete pair or rotation set of `db`
    (as many games as seats) and the set's size, by (run, series, deal, the deal's game
    seed). With `margin` the score of a game is the agent's final score minus the best
    other seat's."""
    games = defaultdict(list)
    seat_count = {}
    rows = sqlite3.connect(db).execute(
        "SELECT run, series, deal, seed, seats, winners, scores FROM games"
    )
    for run, series, deal, seed, seats, winners, scores in rows:
        seats, winners = json.loads(seats), json.loads(winners)
        if margin:
            points = json.loads(scores)
            me = seats.index(0)
            score = points[me] - max(x for i, x in enumerate(points) if i != me)
        else:
            score = sum(1 / len(winners) for w in winners if seats[w] == 0)
        games[(run, series, deal, seed)].append(score)
        seat_count[(run, series, deal, seed)] = len(seats)
    return {
        k: (sum(v) / len(v), len(v))
        for k, v in games.items()
        if len(v) == seat_count[k]
    }


def interval(xs: list[float], z: float = 1.96) -> tuple[float, float]:
    """Mean and half-width of the normal interval of `xs` (at least two values), `z`
    standard errors either side (1.96: 95%)."""
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    return mean, z * sd / math.sqrt(n)


def pool(dbs: list[str], z: float = 1.96, margin: bool = False) -> None:
    sets = [p for db in dbs for p in sets_by_deal(db, margin).values()]
    n = len(sets)
    if n < 2:
        sys.exit(f"{n} complete sets: at least 2 are needed for an interval")
    mean, half = interval([score for score, _ in sets], z)
    games = sum(size for _, size in sets)
    if margin:
        print(
            f"{n} sets ({games} games): margin {mean:+.2f} points "
            f"[{mean - half:+.2f}, {mean + half:+.2f}]"
        )
        return
    lo, hi = 100 * (mean - half), 100 * (mean + half)
    level = "" if z == 1.96 else f" (mean +- {z} standard errors)"
    print(f"{n} sets ({games} games): {100 * mean:.1f}% [{lo:.1f}, {hi:.1f}]{level}")


def paired_differences(a_db: str, b_db: str) -> tuple[list[float], float, float]:
    """The per-deal differences B - A of the first agent's set score over the deals both
    single-run databases completed, and A's and B's mean scores over those deals."""
    by_deal = []
    for db in (a_db, b_db):
        sets = sets_by_deal(db)
        if len({run for run, *_ in sets}) > 1:
            sys.exit(f"{db} holds several runs: --diff compares one run with one run")
        by_deal.append({key[1:]: score for key, (score, _) in sets.items()})
    a, b = by_deal
    # A deal is the same deal only with the same game seed (same --seed and --games).
    shared = sorted(set(a) & set(b))
    if len(shared) < 2:
        sys.exit(
            f"{a_db} and {b_db}: {len(shared)} deals in both: at least 2 are needed for "
            "an interval (were both played with the same --seed and --games?)"
        )
    mean_a = sum(a[k] for k in shared) / len(shared)
    mean_b = sum(b[k] for k in shared) / len(shared)
    return [b[k] - a[k] for k in shared], mean_a, mean_b


def diff(dbs: list[str], z: float = 1.96) -> None:
    level = "" if z == 1.96 else f" (mean +- {z} standard errors)"
    pooled, sum_a, sum_b = [], 0.0, 0.0
    for a_db, b_db in zip(dbs[::2], dbs[1::2]):
        diffs, mean_a, mean_b = paired_differences(a_db, b_db)
        mean, half = interval(diffs, z)
        prefix = "" if len(dbs) == 2 else f"{a_db} / {b_db}: "
        print(
            f"{prefix}{len(diffs)} deals in both: A {100 * mean_a:.1f}%  "
            f"B {100 * mean_b:.1f}%  B - A {100 * mean:+.1f} "
            f"[{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}]{level}"
        )
        pooled += diffs
        sum_a += mean_a * len(diffs)
        sum_b += mean_b * len(diffs)
    if len(dbs) > 2:
        mean, half = interval(pooled, z)
        n = len(pooled)
        print(
            f"pooled, {n} deals: A {100 * sum_a / n:.1f}%  B {100 * sum_b / n:.1f}%  "
            f"B - A {100 * mean:+.1f} "
            f"[{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}]{level}"
        )


def main() -> None:
    args = sys.argv[1:]
    z_given = args[:1] == ["--z"]
    z = 1.96
    if z_given:
        try:
            z = float(args[1]) if len(args) > 2 else math.nan
        except ValueError:
            z = math.nan
        if not z > 0:
            sys.exit(
                "usage: pool-pairs.py --z Z [--diff] RUN.sqlite [...] (Z a positive number)"
            )
        args = args[2:]
    if args[:1] == ["--diff"]:
        if len(args) < 3 or len(args) % 2 == 0:
            sys.exit(
                "usage: pool-pairs.py [--z Z] --diff A.sqlite B.sqlite "
                "[A2.sqlite B2.sqlite ...] (databases in pairs)"
            )
        diff(args[1:], z)
    elif args[:1] == ["--margin"] and not z_given:
        if len(args) < 2:
            sys.exit("usage: pool-pairs.py --margin RUN.sqlite [...]")
        pool(args[1:], margin=True)
    elif args and not args[0].startswith("--"):
        pool(args, z)
    else:
        sys.exit(
            "usage: pool-pairs.py [--z Z | --margin] RUN.sqlite [RUN.sqlite ...] "
            "| [--z Z] --diff A.sqlite B.sqlite [A2.sqlite B2.sqlite ...]"
        )


if __name__ == "__main__":
    main()
