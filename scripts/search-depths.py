#!/usr/bin/env python3
"""How deep an Azul search gets: replays stored two-player games through the engine protocol.

For each game of a tournament database (`tessera tournament azul ... --db RUN.sqlite`), the
positions are rebuilt with `position start players 2 first K moves ...` and the engine
(`tessera engine azul --player SPEC`) is asked:

- with `--times 100,1000`: every `--step`-th decision of each round, a move at each time (ms);
  prints the record position, the decision's index in its round, and per time the completed
  depth, nodes, time used and move;
- with `--depths N`: at each round's first decision, searches to depths 1..N from scratch
  (`go depth D`), stopping early once one takes over `--cap` ms; prints nodes, time, move.

Example (docs/players.md, "Where ten times the time goes"):

    python3 scripts/search-depths.py g9-7951.sqlite --tessera target/release/tessera \\
        --player augur:weights=v9 --games 1 --times 100,1000 --step 3
    python3 scripts/search-depths.py g9-7951.sqlite --player augur:weights=v9:killers --depths 7
"""

import argparse
import json
import sqlite3
import subprocess
import sys


class Engine:
    def __init__(self, exe, player):
        self.p = subprocess.Popen(
            [exe, "engine", "azul", "--player", player],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )

    def ask(self, history, first, go):
        """The last `info` line's fields and the move, for `go ...` at the position."""
        self.p.stdin.write(f"position start players 2 first {first} moves {' '.join(history)}\n")
        self.p.stdin.write(f"go {go}\n")
        self.p.stdin.flush()
        info = {}
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the engine stopped")
            words = line.split()
            if words and words[0] == "error":
                sys.exit(f"the engine answered: {line.strip()}")
            if words and words[0] == "info":
                info = dict(zip(words[1::2], words[2::2]))
            if words and words[0] == "bestmove":
                return info, words[-1]


def games(db, limit):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    for (record,) in con.execute("select record from games order by run, idx limit ?", (limit,)):
        r = json.loads(record)
        if r.get("game") != "azul" or len(r.get("seats", [])) != 2:
            sys.exit(f"{db}: expected two-player Azul games")
        # The initial state's fourth word is the first player, from 1.
        yield int(r["initial"].split()[3]), r["events"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("db")
    ap.add_argument("--tessera", default="target/release/tessera")
    ap.add_argument("--player", default="augur")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--times", help="comma-separated move times in ms")
    ap.add_argument("--step", type=int, default=3)
    ap.add_argument("--depths", type=int, help="search each round's start to depths 1..N")
    ap.add_argument("--cap", type=int, default=8000, help="stop deepening after a search this long (ms)")
    a = ap.parse_args()
    if (a.times is None) == (a.depths is None):
        sys.exit("give --times MS,MS,... or --depths N")
    times = [int(t) for t in a.times.split(",")] if a.times else []
    if any(t <= 0 for t in times) or a.step < 1 or (a.depths is not None and a.depths < 1):
        sys.exit("--times, --step and --depths must be positive")
    eng = Engine(a.tessera, a.player)
    for first, events in games(a.db, a.games):
        history, in_round = [], 0
        for e in events:
            if e["type"] == "chance":
                history.append("deal:" + "/".join(e["outcome"]))
                in_round = 0
                if a.depths:
                    row = []
                    for d in range(1, a.depths + 1):
                        info, move = eng.ask(history, first, f"depth {d} movetime {10 * a.cap}")
                        row.append(f"d{d}: {int(info.get('nodes', 0)) // 1000}k {info.get('time')}ms {move}")
                        if int(info.get("time", 0)) > a.cap:
                            break
                    print(len(history), " | ".join(row), flush=True)
                continue
            if times and in_round % a.step == 0:
                row = []
                for t in times:
                    info, move = eng.ask(history, first, f"movetime {t}")
                    row.append(f"{t}ms: depth {info.get('depth', '-')} nodes {info.get('nodes', '-')} "
                               f"time {info.get('time', '-')} {move}")
                print(len(history), in_round, " | ".join(row), flush=True)
            history.append(e["action"])
            in_round += 1


if __name__ == "__main__":
    main()
