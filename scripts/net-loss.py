"""Held-out log loss per stage of a board network file, computed independently of
`tessera train azul-board-net --compare` (numpy, from the text files alone): for every row of
a self-play run's rows file whose game index is 9 mod 10 (the held-out games),
`z = linear . diff + V(obs of seat 0) - V(obs of seat 1)` with `V(x) = w2 . max(0, x W1 + b1)`
(the file's folded first layer, raw observation counts in), and the mean of
`y log(1 + e^-z) + (1 - y) log(1 + e^z)` per stage. Two-player runs only.

    python3 scripts/net-loss.py NET.json ROWS.txt[,ROWS2.txt] OBS.txt[,OBS2.txt]

(files joined in the given order; the K-th rows file goes with the K-th observations file).
"""

import json
import sys

import numpy as np


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit("usage: net-loss.py NET.json ROWS[,ROWS...] OBS[,OBS...]")
    net = json.load(open(sys.argv[1]))
    if net["players"] != 2:
        sys.exit(f"{sys.argv[1]}: a network for {net['players']} players; this script reads two")
    hidden, inputs = net["hidden"], net["inputs"]
    stages = [
        (
            np.array(st["linear"]),
            np.array(st["w1"]).reshape(inputs, hidden),
            np.array(st["b1"]),
            np.array(st["w2"]),
        )
        for st in net["stages"]
    ]
    rows_files, obs_files = sys.argv[2].split(","), sys.argv[3].split(",")
    if len(rows_files) != len(obs_files):
        sys.exit("give one observations file per rows file")
    total: dict[int, float] = {}
    count: dict[int, int] = {}
    for rows_path, obs_path in zip(rows_files, obs_files):
        obs = {}
        with open(obs_path) as f:
            for line in f:
                t = line.split()
                if int(t[0]) % 10 == 9:
                    obs[(int(t[0]), int(t[1]), int(t[2]))] = np.array(t[5:], dtype=np.float64)
        with open(rows_path) as f:
            for line in f:
                t = line.split()
                game, ply, stage, y = int(t[0]), int(t[1]), int(t[3]), float(t[4])
                if game % 10 != 9:
                    continue
                linear, w1, b1, w2 = stages[stage]

                def value(x: np.ndarray) -> float:
                    return float(np.maximum(0.0, x @ w1 + b1) @ w2)

                diff = np.array(t[5:], dtype=np.float64)
                z = diff @ linear + value(obs[(game, ply, 0)]) - value(obs[(game, ply, 1)])
                loss = y * np.logaddexp(0.0, -z) + (1.0 - y) * np.logaddexp(0.0, z)
                total[stage] = total.get(stage, 0.0) + float(loss)
                count[stage] = count.get(stage, 0) + 1
    print("stage | held-out rows | log loss")
    for stage in sorted(total):
        print(f"{stage} | {count[stage]} | {total[stage] / count[stage]:.4f}")


if __name__ == "__main__":
    main()
