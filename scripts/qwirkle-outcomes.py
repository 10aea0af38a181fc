"""How a two-seat Qwirkle player's games were decided: for its wins, losses and draws, the
mean final margin and scores, and the mean number of big moves (12 points or more: every
Qwirkle, and a few other large plays) of each side, from the records of a tournament
database; then the final margin's mean and standard deviation over all the games.

Usage: python3 scripts/qwirkle-outcomes.py PREFIX RUN.sqlite [RUN.sqlite ...]
PREFIX picks the player by the start of its seat name (e.g. sage); the other seat is its
opponent.
"""

import json
import sqlite3
import sys
from collections import defaultdict

BIG = 12


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: qwirkle-outcomes.py PREFIX RUN.sqlite [RUN.sqlite ...]")
    prefix, dbs = sys.argv[1], sys.argv[2:]
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    margins: list[int] = []
    for db in dbs:
        for (text,) in sqlite3.connect(db).execute("SELECT record FROM games"):
            record = json.loads(text)
            seats = record["seats"]
            if len(seats) != 2:
                sys.exit(f"{db}: a game with {len(seats)} seats; two are needed")
            mine = [i for i, name in enumerate(seats) if name.startswith(prefix)]
            if len(mine) != 1:
                sys.exit(f"{db}: {len(mine)} seats named {prefix}*; one is needed")
            me, op = mine[0], 1 - mine[0]
            big = [0, 0]
            history = record["scores"]
            for before, after in zip(history, history[1:]):
                for p in (0, 1):
                    if after[p] - before[p] >= BIG:
                        big[p] += 1
            final = record["result"]["scores"]
            winners = record["result"]["winners"]
            kind = (
                "draw" if len(winners) == 2 else ("win" if winners[0] == me else "loss")
            )
            s = sums[kind]
            s["games"] += 1
            s["margin"] += final[me] - final[op]
            margins.append(final[me] - final[op])
            s["score"] += final[me]
            s["op_score"] += final[op]
            s["big"] += big[me]
            s["op_big"] += big[op]
    for kind in ("win", "loss", "draw"):
        s = sums.get(kind)
        if not s:
            continue
        n = s["games"]
        print(
            f"{kind:5} {int(n):5} games  margin {s['margin'] / n:+6.1f}  "
            f"score {s['score'] / n:6.1f} / {s['op_score'] / n:6.1f}  "
            f"moves of {BIG}+ points {s['big'] / n:.2f} / {s['op_big'] / n:.2f}"
        )
    if margins:
        mean = sum(margins) / len(margins)
        sd = (sum((m - mean) ** 2 for m in margins) / len(margins)) ** 0.5
        print(f"all   {len(margins):5} games  margin {mean:+6.1f}  (standard deviation {sd:.1f})")


if __name__ == "__main__":
    main()
