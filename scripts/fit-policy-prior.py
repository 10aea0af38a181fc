#!/usr/bin/env python3
"""Does a policy learned from the tree search's own visits predict its choices better than
the priors it has? Reads the rows of `cargo run --release -p tessera-house --example
policy_data -- GAMES SEED NODES` (per position `P game decision round moves`, then per move
`visits logit f1 ... f12`), holds out the games with `game mod 10 = 9`, and fits two
softmax policies over each position's moves to the search's visit shares (each move's
visits beyond the one its expansion gave it, over the position's total):

(a) the priors as they are, `a * logit` (the static log-odds over a fitted temperature
    1 / a; the search uses a = 1);
(b) the same plus a linear term in the move's 12 features, standardised (what the search
    prefers beyond the static value: taking the token, overflowing to the floor, denying
    the colour, ...).

Prints for each, on the held-out games, the cross-entropy against the visit shares, how
often the policy's favourite is the search's most visited move, and the mean policy weight
of that move; and (b)'s weights in the features' units, to put into the search. Full-batch
Adam, deterministic.

    python3 scripts/fit-policy-prior.py rows-1.txt,rows-2.txt [--iters 400]
"""

import argparse
import sys

import numpy as np

NAMES = [
    "taken",
    "to_floor",
    "token",
    "completed",
    "floor_dest",
    "gained",
    "colour_left",
    "opp_lines",
    "to_centre",
    "row",
    "table_left",
    "centre_after",
]


def read(paths):
    games, seg, visits, logit, feats = [], [], [], [], []
    pos = -1
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("P "):
                    parts = line.split()
                    pos += 1
                    games.append(int(parts[1]) + 1_000_000 * paths.index(path))
                    continue
                if not line.strip() or pos < 0:
                    continue
                parts = line.split()
                seg.append(pos)
                visits.append(float(parts[0]))
                logit.append(float(parts[1]))
                feats.append([float(x) for x in parts[2:]])
    return (
        np.array(games),
        np.array(seg),
        np.array(visits),
        np.array(logit),
        np.array(feats),
    )


class Data:
    def __init__(self, seg, visits, logit, feats, best=False):
        # Positions renumbered 0..P-1 in order; starts of each segment for reduceat.
        _, self.seg = np.unique(seg, return_inverse=True)
        self.starts = np.flatnonzero(np.r_[True, self.seg[1:] != self.seg[:-1]])
        extra = np.maximum(visits - 1.0, 0.0)
        if best:
            # One-hot on the most visited move(s): the search's choice, not its spread.
            top = np.maximum.reduceat(visits, self.starts)
            extra = (visits == top[self.seg]).astype(float)
        tot = np.add.reduceat(extra, self.starts)
        keep_pos = tot > 0
        self.keep = keep_pos[self.seg]
        self.target = np.where(self.keep, extra / np.maximum(tot[self.seg], 1e-12), 0.0)
        self.visits = visits
        self.logit = logit
        self.feats = feats
        self.npos = int(keep_pos.sum())

    def softmax(self, z):
        mx = np.maximum.reduceat(z, self.starts)
        e = np.exp(z - mx[self.seg])
        s = np.add.reduceat(e, self.starts)
        return e / s[self.seg]

    def metrics(self, z):
        q = self.softmax(z)
        ce = -np.sum(self.target * np.log(np.maximum(q, 1e-300))) / self.npos
        hit, weight, n = 0, 0.0, 0
        ends = np.r_[self.starts[1:], len(z)]
        for s, e in zip(self.starts, ends):
            if not self.keep[s]:
                continue
            v = self.visits[s:e]
            best = np.flatnonzero(v == v.max())
            n += 1
            hit += int(np.argmax(z[s:e]) in best)
            weight += q[s + best[0]]
        return ce, hit / n, weight / n


def fit(d, x, iters, lr=0.05, first=1.0):
    """Full-batch Adam from `first` on the first column (the static log-odds), 0 elsewhere."""
    w = np.zeros(x.shape[1])
    w[0] = first
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, iters + 1):
        z = x @ w
        q = d.softmax(z)
        g = x.T @ (np.where(d.keep, q - d.target, 0.0)) / d.npos
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("--iters", type=int, default=400)
    ap.add_argument(
        "--best",
        action="store_true",
        help="fit the most visited move, not the visit shares",
    )
    ap.add_argument(
        "--features-only",
        action="store_true",
        help="also fit (c), the features without the static log-odds",
    )
    ap.add_argument(
        "--mod", type=int, default=10, help="hold out games with game mod MOD = MOD - 1"
    )
    args = ap.parse_args()
    games, seg, visits, logit, feats = read(args.rows.split(","))
    if len(seg) == 0:
        sys.exit("no rows")
    held = (games % args.mod == args.mod - 1)[seg]
    mu = feats[~held].mean(axis=0)
    sd = feats[~held].std(axis=0)
    sd[sd == 0] = 1.0
    fz = (feats - mu) / sd
    train = Data(seg[~held], visits[~held], logit[~held], fz[~held], args.best)
    test = Data(seg[held], visits[held], logit[held], fz[held], args.best)
    print(f"positions: {train.npos} fitted, {test.npos} held out")
    xa_tr = train.logit[:, None]
    xa_te = test.logit[:, None]
    ce, hit, wt = test.metrics(test.logit)
    print(
        f"static priors (a = 1): held-out CE {ce:.4f}, top-1 {hit:.3f}, weight {wt:.3f}"
    )
    wa = fit(train, xa_tr, args.iters)
    ce, hit, wt = test.metrics(xa_te @ wa)
    print(
        f"(a) a = {wa[0]:.3f}: held-out CE {ce:.4f}, top-1 {hit:.3f}, weight {wt:.3f}"
    )
    xb_tr = np.c_[train.logit, train.feats]
    xb_te = np.c_[test.logit, test.feats]
    wb = fit(train, xb_tr, args.iters)
    ce, hit, wt = test.metrics(xb_te @ wb)
    print(
        f"(b) a = {wb[0]:.3f} + features: held-out CE {ce:.4f}, top-1 {hit:.3f}, weight {wt:.3f}"
    )
    if args.features_only:
        wc = fit(train, train.feats, args.iters, first=0.0)
        ce, hit, wt = test.metrics(test.feats @ wc)
        print(
            f"(c) the features alone: held-out CE {ce:.4f}, top-1 {hit:.3f}, weight {wt:.3f}"
        )
        print("(c)'s weights in raw units:")
        for name, w, s in zip(NAMES, wc, sd):
            print(f"  {name:13s} {w / s:+.4f}")
    print("(b)'s weights in raw units (added to a * logit):")
    for name, w, s in zip(NAMES, wb[1:], sd):
        print(f"  {name:13s} {w / s:+.4f}")
    const = -np.sum(wb[1:] * mu / sd)
    print(f"  (constant {const:+.4f}, cancels in the softmax)")


if __name__ == "__main__":
    main()
