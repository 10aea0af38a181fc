#!/usr/bin/env python3
"""Does a hidden layer on augur's features predict results better than its logistic fit?

Reads training rows written by `tessera train azul-augur --data ROWS` (two players:
`GAME PLY PAIR STAGE LABEL` and the feature differences, player 0 minus player 1), holds out
the games with `GAME mod 10 = 9` as the fit does, and prints per stage the held-out log loss
of (a) a logistic regression on the differences (Newton's method, L2 1e-4, as `tessera
train`'s fit; fitted here on the training games only, since the file `tessera train
--out` writes is refitted on every row, held-out games included; it reproduces the held-out
log loss `tessera train --fit` prints, to four decimals) and (b) a small network on the same differences: standardised inputs, one
hidden ReLU layer plus a linear skip, a sigmoid output, started at the logistic fit and
trained by Adam on the log loss (mini-batches of 512, seeded). The network sees exactly what the logistic fit sees; it can
only add non-linear maps and interactions of the differences.

    python3 scripts/fit-mlp-diffs.py rows-1.txt,rows-2.txt [--hidden 32] [--epochs 15]

Needs numpy. A research check, not part of the engine: augur's evaluator stays the
logistic fit of `tessera_search::learn`.
"""

import argparse

import numpy as np
from logistic_fit import fit_logistic, log_loss, sigmoid


def fit_network(x, y, xv, yv, w_logistic, hidden, epochs, seed):
    """Returns the held-out log loss after the last epoch and the best one seen.

    The network starts as the logistic fit (its linear skip holds the logistic weights, the
    hidden layer's output weights are 0), so it begins at the logistic fit's loss and
    training can only add what the hidden layer finds."""
    rng = np.random.default_rng(seed)
    mu, sd = x.mean(0), x.std(0) + 1e-6
    x, xv = (x - mu) / sd, (xv - mu) / sd
    d = x.shape[1]
    params = [
        rng.normal(0, 1 / np.sqrt(d), (d, hidden)),  # w1
        np.zeros(hidden),  # b1
        np.zeros(hidden),  # w2
        np.array([float(w_logistic @ mu)]),  # b2
        w_logistic * sd,  # linear skip: the logistic fit on the standardised inputs
    ]
    m = [np.zeros_like(q) for q in params]
    v = [np.zeros_like(q) for q in params]
    t, lr, best, last = 0, 1e-3, float("inf"), float("inf")

    def predict(inp):
        h = np.maximum(inp @ params[0] + params[1], 0)
        return sigmoid(h @ params[2] + params[3][0] + inp @ params[4])

    for _ in range(epochs):
        order = rng.permutation(len(y))
        for s in range(0, len(y), 512):
            j = order[s : s + 512]
            xb, yb = x[j], y[j]
            pre = xb @ params[0] + params[1]
            h = np.maximum(pre, 0)
            dz = (sigmoid(h @ params[2] + params[3][0] + xb @ params[4]) - yb) / len(j)
            dh = np.outer(dz, params[2]) * (pre > 0)
            grads = [
                xb.T @ dh + 1e-5 * params[0],
                dh.sum(0),
                h.T @ dz,
                np.array([dz.sum()]),
                xb.T @ dz,
            ]
            t += 1
            for i, (q, g) in enumerate(zip(params, grads)):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                q -= lr * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
        last = log_loss(predict(xv), yv)
        best = min(best, last)
    return last, best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows", help="comma-separated row files")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    a = np.concatenate([np.loadtxt(f, dtype=np.float64, ndmin=2) for f in args.rows.split(",")])
    if a.shape[1] < 6:
        raise SystemExit(f"{args.rows}: expected 'GAME PLY PAIR STAGE LABEL' and the features")
    game, stage, label, x = a[:, 0].astype(np.int64), a[:, 3].astype(int), a[:, 4], a[:, 5:]
    held = game % 10 == 9
    print(f"{len(a)} rows, {x.shape[1]} features, hidden {args.hidden}, {args.epochs} epochs")
    for s in sorted(set(stage.tolist())):
        train, test = (~held) & (stage == s), held & (stage == s)
        w = fit_logistic(x[train], label[train])
        lin = log_loss(sigmoid(x[test] @ w), label[test])
        last, best = fit_network(
            x[train], label[train], x[test], label[test], w, args.hidden, args.epochs, args.seed
        )
        print(
            f"stage {s}: {train.sum()} rows, {test.sum()} held out: logistic {lin:.4f}, "
            f"network {last:.4f} (best epoch {best:.4f})"
        )


if __name__ == "__main__":
    main()
