#!/usr/bin/env python3
"""Does the whole board hold what augur's 17 features miss? A network on the observation.

Reads, from one two-player self-play run, the training rows of `tessera train azul-augur
--data ROWS` (per position `GAME PLY PAIR STAGE LABEL` and the feature differences, player 0
minus player 1) and the observations the same command writes with `--observations OBS` (per
position and seat `GAME PLY SEAT STAGE SHARE` and the seat's observation vector, its own
board first; layout in docs/python.md). Holds out the games with `GAME mod 10 = 9`, as the
fit does, and prints per stage the held-out log loss of

(a) the logistic regression on the 17 differences (Newton's method, L2 1e-4, as `tessera
    train`'s fit, fitted here on the training games only; and, for scale, on the 14 base
    features alone, the step the table features added), and
(b) the same logistic term plus a network's value of each seat's observation:
    `P(player 0 wins) = sigmoid(w . diff + V(obs_0) - V(obs_1))`, where `V` is one hidden
    ReLU layer on the standardised observation (the same `V` for both seats, so the two
    players' chances always add to 1, as in augur's conditional logit). It starts with `V =
    0` (its output weights 0), i.e. at the logistic fit, and is trained by Adam on the log
    loss (mini-batches of 512, seeded), so what it adds is what the board holds beyond the
    features. The network is trained without the games with `GAME mod 10 = 8`, on which
    the epoch is chosen (the lowest log loss there); the held-out loss printed is the one
    at that epoch, so nothing is chosen on the held-out games.

    python3 scripts/fit-mlp-obs.py rows-1.txt,rows-2.txt obs-1.txt,obs-2.txt [--hidden 64] [--epochs 10] [--save NET.json]

With `--save`, writes each stage's network at its chosen epoch (and its logistic weights)
in the format of augur's board network (`tessera_azul::board_net`: the standardisation
folded into the first layer, so the raw observation goes in, and three held-out
observations with their values, which the engine checks when it loads the file). The
shipped `crates/azul/weights/augur-net1.json` (`augur:weights=v7`) was made so; its
`training` record names the self-play runs and this command.

Row files and observation files are paired in the order given (slice K's rows with slice
K's observations). Needs numpy.
"""

import argparse
import json
import sys

import numpy as np
from logistic_fit import fit_logistic, log_loss, sigmoid


def load(rows_file, obs_file):
    """The rows (n x 22) and the two seats' observations (n x 2 x L) of one slice, checked
    to describe the same positions."""
    rows = np.fromfile(rows_file, dtype=np.float64, sep=" ")
    rows = rows.reshape(-1, 22)
    obs = np.fromfile(obs_file, dtype=np.float32, sep=" ")
    width = len(obs) // (2 * len(rows))
    if width * 2 * len(rows) != len(obs):
        raise SystemExit(f"{obs_file}: not two observation lines of equal length per row of {rows_file}")
    obs = obs.reshape(len(rows), 2, width)
    for seat in (0, 1):
        same = (obs[:, seat, 0] == rows[:, 0]) & (obs[:, seat, 1] == rows[:, 1])
        if not (same.all() and (obs[:, seat, 2] == seat).all()):
            raise SystemExit(f"{obs_file} and {rows_file} describe different positions")
    if not np.allclose(obs[:, 0, 4], rows[:, 4]):
        raise SystemExit(f"{obs_file}: seat 0's share differs from the rows' label")
    return rows, obs[:, :, 5:]


def fit_network(x, o, y, checks, w, hidden, epochs, seed, decay, lr):
    """Log loss on each of `checks` (a list of `(x, o, y)`) after each epoch, for
    `sigmoid(x . w + V(o0) - V(o1))` with the logistic weights `w` trained on too."""
    rng = np.random.default_rng(seed)
    flat = o.reshape(-1, o.shape[2])
    mu, sd = flat.mean(0), flat.std(0) + 1e-3
    o = (o - mu) / sd
    checks = [(cx, (co - mu) / sd, cy) for cx, co, cy in checks]
    d = o.shape[2]
    params = [
        (rng.normal(0, 1 / np.sqrt(d), (d, hidden))).astype(np.float32),  # w1
        np.zeros(hidden, np.float32),  # b1
        np.zeros(hidden, np.float32),  # w2: V starts at 0
        w.copy(),  # the logistic weights
    ]
    m = [np.zeros_like(q) for q in params]
    v = [np.zeros_like(q) for q in params]
    t, losses, best = 0, [], (np.inf, None)

    def value(ob):
        pre = ob @ params[0] + params[1]
        return pre, np.maximum(pre, 0)

    def predict(xx, oo):
        _, h0 = value(oo[:, 0])
        _, h1 = value(oo[:, 1])
        return sigmoid(xx @ params[3] + (h0 - h1) @ params[2])

    for _ in range(epochs):
        order = rng.permutation(len(y))
        for s in range(0, len(y), 512):
            j = order[s : s + 512]
            xb, ob, yb = x[j], o[j], y[j]
            pre0, h0 = value(ob[:, 0])
            pre1, h1 = value(ob[:, 1])
            dz = (sigmoid(xb @ params[3] + (h0 - h1) @ params[2]) - yb) / len(j)
            dh0 = np.outer(dz, params[2]) * (pre0 > 0)
            dh1 = -np.outer(dz, params[2]) * (pre1 > 0)
            grads = [
                ob[:, 0].T @ dh0 + ob[:, 1].T @ dh1 + decay * params[0],
                dh0.sum(0) + dh1.sum(0),
                (h0 - h1).T @ dz,
                xb.T @ dz + 1e-4 * params[3],
            ]
            t += 1
            for i, (q, g) in enumerate(zip(params, grads)):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                q -= (lr * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)).astype(q.dtype)
        losses.append([log_loss(predict(cx, co), cy) for cx, co, cy in checks])
        if losses[-1][0] < best[0]:
            best = (losses[-1][0], [q.copy() for q in params])
    return losses, export(best[1], mu, sd, checks[-1][1])


def export(params, mu, sd, held_obs):
    """The network at the chosen epoch as augur's board network reads it: the
    standardisation folded into the first layer (`pre = x . w1 + b1` on the raw
    observation), and the values `V` of a few held-out observations as checks of the
    engine's forward pass."""
    w1, b1, w2, w = params
    w1 = w1.astype(np.float64)
    w1f = w1 / sd[:, None].astype(np.float64)
    b1f = b1.astype(np.float64) - (mu.astype(np.float64) / sd.astype(np.float64)) @ w1
    checks = []
    for i in range(0, len(held_obs), max(1, len(held_obs) // 3))[:3]:
        z = held_obs[i, 0].astype(np.float64)  # standardised
        value = float(np.maximum(z @ w1 + b1, 0) @ w2)
        raw = z * sd.astype(np.float64) + mu.astype(np.float64)
        checks.append({"input": [round(float(v)) for v in raw], "value": value})
    return {
        "linear": [float(v) for v in w],
        "w1": [float(f"{v:.7g}") for v in w1f.reshape(-1)],
        "b1": [float(f"{v:.7g}") for v in b1f],
        "w2": [float(f"{v:.7g}") for v in w2],
        "checks": checks,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows", help="comma-separated row files (two players, 17 features)")
    ap.add_argument("obs", help="comma-separated observation files, one per row file")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--decay", type=float, default=1e-4, help="L2 on the hidden layer's weights")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's step size")
    ap.add_argument(
        "--save",
        help="write the networks (one per stage, at the chosen epoch) to this file, for augur's board network",
    )
    ap.add_argument(
        "--boards-only",
        action="store_true",
        help="the network sees the boards, the turn and the round, not the factories, centre, bag and lid",
    )
    args = ap.parse_args()
    pairs = list(zip(args.rows.split(","), args.obs.split(","), strict=True))
    parts = [load(r, o) for r, o in pairs]
    rows = np.concatenate([p[0] for p in parts])
    obs = np.concatenate([p[1] for p in parts])
    if obs.shape[2] != 158:
        raise SystemExit(f"{obs.shape[2]} numbers an observation: two-player observations (158) expected")
    if args.boards_only:
        obs = np.ascontiguousarray(obs[:, :, 41:])  # two players: 5 factories x 5, centre 6, bag and lid 10
    game, stage, label, x = rows[:, 0].astype(np.int64), rows[:, 3].astype(int), rows[:, 4], rows[:, 5:]
    held, check = game % 10 == 9, game % 10 == 8
    nets = []
    print(
        f"{len(rows)} positions, {obs.shape[2]} numbers an observation, hidden {args.hidden}, "
        f"{args.epochs} epochs, decay {args.decay}, lr {args.lr}"
    )
    for s in sorted(set(stage.tolist())):
        fit, test = (~held) & (stage == s), held & (stage == s)
        train, val = fit & ~check, fit & check
        w = fit_logistic(x[fit], label[fit])
        lin = log_loss(sigmoid(x[test] @ w), label[test])
        w14 = fit_logistic(x[fit][:, :14], label[fit])
        lin14 = log_loss(sigmoid(x[test][:, :14] @ w14), label[test])
        losses, net = fit_network(
            x[train], obs[train], label[train],
            [(x[val], obs[val], label[val]), (x[test], obs[test], label[test])],
            fit_logistic(x[train], label[train]), args.hidden, args.epochs, args.seed,
            args.decay, args.lr,
        )
        pick = min(range(len(losses)), key=lambda e: losses[e][0])
        print(
            f"stage {s}: {fit.sum()} rows, {test.sum()} held out: logistic on the 14 base "
            f"features {lin14:.4f}, on the 17 {lin:.4f}, "
            f"with the network {losses[pick][1]:.4f} (epoch {pick + 1}; held-out loss by epoch "
            + " ".join(f"{v[1]:.4f}" for v in losses)
            + ")",
            flush=True,
        )
        net["heldout"] = {"linear14": lin14, "linear17": lin, "network": losses[pick][1]}
        nets.append(net)
    if args.save:
        if args.boards_only:
            raise SystemExit("--save writes networks on the whole observation: leave out --boards-only")
        doc = {
            "format": 1,
            "players": 2,
            "inputs": obs.shape[2],
            "hidden": args.hidden,
            "stages": nets,
            "training": {
                "rows": args.rows,
                "observations": args.obs,
                "command": "python3 scripts/fit-mlp-obs.py " + " ".join(sys.argv[1:]),
            },
        }
        with open(args.save, "w") as f:
            json.dump(doc, f)

if __name__ == "__main__":
    main()
