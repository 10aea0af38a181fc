"""Counts the moves of the seats whose agent is NAME (or whose name starts with PREFIX, given
as `PREFIX*`) in a tournament database, and, for games played on a clock (records with `time_used_ms`), the time those
seats used: a game, a move, and what was left of the clock (base + increment x moves).

The docs' "time a move" of a node-budget match is the process's CPU time (`time`) over the
move count printed here.

Usage: python3 scripts/seat-moves.py RUN.sqlite NAME|PREFIX*
"""

import json
import re
import sqlite3
import sys


def millis(text: str) -> float:
    """A duration of the clock notation (`1500ms`, `1.5s`, `2m`) in milliseconds."""
    m = re.fullmatch(r"([0-9.]+)(ms|s|m)", text)
    if m is None:
        sys.exit(f"unknown duration '{text}': expected e.g. 1500ms, 1.5s or 2m")
    scale = {"ms": 1.0, "s": 1000.0, "m": 60000.0}[m.group(2)]
    return float(m.group(1)) * scale


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: seat-moves.py RUN.sqlite NAME|PREFIX*")
    db, who = sys.argv[1], sys.argv[2]

    def chosen(name: str) -> bool:
        return name.startswith(who[:-1]) if who.endswith("*") else name == who

    seats = moves = 0
    used = 0.0
    left: list[float] = []
    for (text,) in sqlite3.connect(db).execute("SELECT record FROM games"):
        rec = json.loads(text)
        for i, name in enumerate(rec["seats"]):
            if not chosen(name):
                continue
            n = sum(
                1
                for e in rec["events"]
                if e.get("type") == "action" and e.get("player") == i
            )
            seats += 1
            moves += n
            if "time_used_ms" in rec and "clock" in rec:
                base, _, inc = rec["clock"].partition("+")
                spent = rec["time_used_ms"][i]
                used += spent
                budget = millis(base) + (millis(inc) if inc else 0.0) * n
                left.append(budget - spent)
    print(f"{seats} seats of {who}, {moves} moves")
    if left and moves:
        print(
            f"clock: {used / seats / 1000:.2f} s a game, {used / moves:.1f} ms a move, "
            f"left {sum(left) / len(left) / 1000:.2f} s on average "
            f"(min {min(left) / 1000:.2f}, max {max(left) / 1000:.2f})"
        )


if __name__ == "__main__":
    main()
