"""Trains a small Azul policy against the random player, with numpy only.

The policy is linear: logits = observation @ W + b over the 180 action ids of 2-player Azul,
masked to the legal ones, trained by REINFORCE (return 1 for a win, 1/2 for a shared win, 0
for a loss, minus a running baseline). Games come from the batch API
(``tessera.batch.AzulBatch``): seat 0 is the learner, seat 1 plays uniformly random legal
moves (``sample_actions``). It prints the learner's win rate over each block of finished
games, which rises as it learns.

    python examples/train_policy.py [--updates 40] [--games 256] [--seed 1]

Needs the package installed (docs/python.md). Not part of the test run (it takes a minute
or two).
"""

import argparse
import time

import numpy as np

from tessera.batch import AzulBatch


def masked_softmax(logits, masks):
    logits = np.where(masks > 0, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--updates", type=int, default=40, help="policy updates")
    ap.add_argument("--games", type=int, default=256, help="games played side by side")
    ap.add_argument("--steps", type=int, default=150, help="batch steps per update")
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    batch = AzulBatch(args.games, players=2, seed=args.seed)
    obs, masks, rewards, dones, to_move = batch.arrays()
    n_obs, n_act = batch.observation_len, batch.num_actions
    # Observations are counts (tiles, scores): divided by 10 to keep the logits small.
    scale = 10.0
    W = np.zeros((n_obs, n_act), np.float64)
    b = np.zeros(n_act, np.float64)
    baseline = 0.5
    episode = np.zeros(args.games, np.int64)
    # The learner's decisions not yet scored: (game, episode, features, mask, action).
    pending = []
    start = time.perf_counter()
    print("update  games  learner win rate vs random (this block)")
    for update in range(1, args.updates + 1):
        finished = {}
        wins = []
        for _ in range(args.steps):
            actions = batch.sample_actions().copy()  # random moves for seat 1 (and a default)
            rows = np.flatnonzero(to_move == 0)
            if len(rows):
                x = obs[rows] / scale
                p = masked_softmax(x @ W + b, masks[rows])
                cum = p.cumsum(axis=1)
                u = rng.random((len(rows), 1))
                chosen = (cum < u).sum(axis=1).clip(0, n_act - 1)
                # Guard against rounding: keep the choice legal.
                bad = masks[rows, chosen] == 0
                chosen[bad] = actions[rows[bad]]
                actions[rows] = chosen
                pending.append((rows, episode[rows].copy(), x, masks[rows].copy(), chosen))
            obs, masks, rewards, dones, to_move = batch.step(actions)
            for g in np.flatnonzero(dones):
                finished[(g, episode[g])] = float(rewards[g, 0])
                wins.append(float(rewards[g, 0]))
                episode[g] += 1
        # REINFORCE on every decision whose game has ended.
        gW = np.zeros_like(W)
        gb = np.zeros_like(b)
        count = 0
        keep = []
        for rows, eps, x, m, a in pending:
            ret = np.array([finished.get((g, e), np.nan) for g, e in zip(rows, eps)])
            done = ~np.isnan(ret)
            if not done.all():
                keep.append((rows[~done], eps[~done], x[~done], m[~done], a[~done]))
            if not done.any():
                continue
            x, m, a, ret = x[done], m[done], a[done], ret[done]
            p = masked_softmax(x @ W + b, m)
            grad = -p
            grad[np.arange(len(a)), a] += 1.0
            adv = (ret - baseline)[:, None]
            gW += x.T @ (adv * grad)
            gb += (adv * grad).sum(axis=0)
            count += len(a)
        pending = keep
        if count:
            W += args.lr * gW / count * 100
            b += args.lr * gb / count * 100
        if wins:
            baseline = 0.9 * baseline + 0.1 * float(np.mean(wins))
            print(f"{update:6d}  {len(wins):5d}  {np.mean(wins):6.1%}")
    print(f"done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
