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

`tessera train azul-board-net` fits the same model on the same split with the same settings
in Rust (it fitted `augur:weights=v9`'s networks, `augur-net3.json` and `augur-net4-3p.json`);
this script is kept as an independent implementation to check it against: on the same files
the two give the same held-out log loss per stage to within about 0.002 (docs/players.md,
"v9").
"""

import argparse
import json
import sys

import numpy as np
from logistic_fit import fit_logistic, log_loss, sigmoid


def seats_of_pairs(n):
    """Seats (p, q) of each pair index of `tessera train`'s rows at `n` players."""
    return [(p, q) for p in range(n) for q in range(p + 1, n)]


def load(rows_file, obs_file):
    """The rows (m x 22) of one slice, its observations (one line per position and seat,
    the header columns dropped: P*n x L) and, per row, the lines of its pair's two seats;
    checked to describe the same positions."""
    rows = np.fromfile(rows_file, dtype=np.float64, sep=" ").reshape(-1, 22)
    obs = np.fromfile(obs_file, dtype=np.float32, sep=" ")
    # One observation line per seat: 5 header numbers and 68n + 22 observation numbers.
    n = next((k for k in (2, 3, 4) if len(obs) % (68 * k + 27) == 0 and len(obs) // (68 * k + 27) % k == 0), 0)
    if not n:
        raise SystemExit(f"{obs_file}: not observation lines of 2, 3 or 4 players")
    obs = obs.reshape(-1, n, 68 * n + 27)
    for seat in range(n):
        same = (obs[:, seat, 0] == obs[:, 0, 0]) & (obs[:, seat, 1] == obs[:, 0, 1])
        if not (same.all() and (obs[:, seat, 2] == seat).all()):
            raise SystemExit(f"{obs_file}: not one line per seat of each position, seats in order")
    key = obs[:, 0, 0].astype(np.int64) * 1_000_000 + obs[:, 0, 1].astype(np.int64)
    if (np.diff(key) <= 0).any():
        raise SystemExit(f"{obs_file}: positions not in game and ply order")
    row_key = rows[:, 0].astype(np.int64) * 1_000_000 + rows[:, 1].astype(np.int64)
    pos = np.minimum(np.searchsorted(key, row_key), len(key) - 1)
    if not (key[pos] == row_key).all():
        raise SystemExit(f"{obs_file} and {rows_file} describe different positions")
    pairs = np.array(seats_of_pairs(n))
    pair = rows[:, 2].astype(np.int64)
    if pair.max() >= len(pairs):
        raise SystemExit(f"{rows_file}: pair index beyond {n} players' pairs")
    sp, sq = obs[pos, pairs[pair, 0], 4], obs[pos, pairs[pair, 1], 4]
    if not np.allclose(sp / (sp + sq), rows[:, 4], atol=1e-4):
        raise SystemExit(f"{obs_file}: the seats' shares differ from the rows' labels")
    ip, iq = pos * n + pairs[pair, 0], pos * n + pairs[pair, 1]
    return rows, np.ascontiguousarray(obs[:, :, 5:].reshape(-1, 68 * n + 22)), ip, iq, n


def fit_network(x, ip, iq, y, obs, checks, w, hidden, epochs, seed, decay, lr):
    """Log loss on each of `checks` (a list of `(x, ip, iq, y)`) after each epoch, for
    `sigmoid(x . w + V(obs[ip]) - V(obs[iq]))` with the logistic weights `w` trained on
    too; and the network at the best epoch on `checks[0]`, exported."""
    rng = np.random.default_rng(seed)
    seen = np.unique(np.concatenate([ip, iq]))
    flat = obs[seen]
    mu, sd = flat.mean(0), flat.std(0) + 1e-3
    # Standardise only the lines this stage uses; indices remapped into them.
    used = np.unique(np.concatenate([seen] + [np.concatenate([a, b]) for _, a, b, _ in checks]))
    o = (obs[used] - mu) / sd
    remap = lambda i: np.searchsorted(used, i)  # noqa: E731
    ip, iq = remap(ip), remap(iq)
    checks = [(cx, remap(a), remap(b), cy) for cx, a, b, cy in checks]
    d = o.shape[1]
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

    def predict(xx, a, b):
        _, h0 = value(o[a])
        _, h1 = value(o[b])
        return sigmoid(xx @ params[3] + (h0 - h1) @ params[2])

    for _ in range(epochs):
        order = rng.permutation(len(y))
        for s in range(0, len(y), 512):
            j = order[s : s + 512]
            xb, yb = x[j], y[j]
            ob0, ob1 = o[ip[j]], o[iq[j]]
            pre0, h0 = value(ob0)
            pre1, h1 = value(ob1)
            dz = (sigmoid(xb @ params[3] + (h0 - h1) @ params[2]) - yb) / len(j)
            dh0 = np.outer(dz, params[2]) * (pre0 > 0)
            dh1 = -np.outer(dz, params[2]) * (pre1 > 0)
            grads = [
                ob0.T @ dh0 + ob1.T @ dh1 + decay * params[0],
                dh0.sum(0) + dh1.sum(0),
                (h0 - h1).T @ dz,
                xb.T @ dz + 1e-4 * params[3],
            ]
            t += 1
            for i, (q, g) in enumerate(zip(params, grads)):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                q -= (lr * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)).astype(q.dtype)
        losses.append([log_loss(predict(cx, a, b), cy) for cx, a, b, cy in checks])
        if losses[-1][0] < best[0]:
            best = (losses[-1][0], [q.copy() for q in params])
    return losses, export(best[1], mu, sd, o[checks[-1][1]])


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
        z = held_obs[i].astype(np.float64)  # standardised
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
    ap.add_argument("rows", help="comma-separated row files (one table size, 17 features)")
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
    n = parts[0][4]
    if any(p[4] != n for p in parts):
        raise SystemExit("observation files of different table sizes")
    rows = np.concatenate([p[0] for p in parts])
    offsets = np.cumsum([0] + [len(p[1]) for p in parts])
    ip = np.concatenate([p[2] + k for p, k in zip(parts, offsets)])
    iq = np.concatenate([p[3] + k for p, k in zip(parts, offsets)])
    obs = np.concatenate([p[1] for p in parts])
    del parts
    if args.boards_only:
        # The table: 2n + 1 factories of 5, centre 6, bag and lid 10.
        obs = np.ascontiguousarray(obs[:, 5 * (2 * n + 1) + 16 :])
    game, stage, label, x = rows[:, 0].astype(np.int64), rows[:, 3].astype(int), rows[:, 4], rows[:, 5:]
    held, check = game % 10 == 9, game % 10 == 8
    nets = []
    print(
        f"{len(rows)} rows, {n} players, {obs.shape[1]} numbers an observation, hidden {args.hidden}, "
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
            x[train], ip[train], iq[train], label[train], obs,
            [(x[val], ip[val], iq[val], label[val]), (x[test], ip[test], iq[test], label[test])],
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
            "players": n,
            "inputs": obs.shape[1],
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
