"""Pools the paired games of two-seat tournament databases (each deal played twice with the
seats swapped) and prints the first-listed agent's score over the pairs: mean and 95%
interval from the pair scores (normal approximation, the pentanomial interval that
`tessera report` prints for one run, so one database alone reproduces its figure).

Usage: python3 scripts/pool-pairs.py RUN1.sqlite [RUN2.sqlite ...]
"""

import json
import math
import sqlite3
import sys
from collections import defaultdict


def pair_scores(db: str) -> list[float]:
    """The first-listed agent's mean score over each complete pair of `db`."""
    games = defaultdict(list)
    rows = sqlite3.connect(db).execute(
        "SELECT run, series, deal, seats, winners FROM games"
    )
    for run, series, deal, seats, winners in rows:
        seats, winners = json.loads(seats), json.loads(winners)
        score = sum(1 / len(winners) for w in winners if seats[w] == 0)
        games[(run, series, deal)].append(score)
    return [sum(v) / 2 for v in games.values() if len(v) == 2]


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: pool-pairs.py RUN.sqlite [RUN.sqlite ...]")
    pairs = [p for db in sys.argv[1:] for p in pair_scores(db)]
    n = len(pairs)
    if n < 2:
        sys.exit(f"{n} complete pairs: at least 2 are needed for an interval")
    mean = sum(pairs) / n
    sd = math.sqrt(sum((p - mean) ** 2 for p in pairs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    lo, hi = 100 * (mean - half), 100 * (mean + half)
    print(f"{n} pairs ({2 * n} games): {100 * mean:.1f}% [{lo:.1f}, {hi:.1f}]")


if __name__ == "__main__":
    main()
