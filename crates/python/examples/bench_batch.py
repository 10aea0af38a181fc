"""Steps per second of the batch API: N random 2-player Azul games stepped together, the
random legal actions drawn in Rust (``sample_actions``) or in numpy (``--numpy-policy``).

    OPENBLAS_NUM_THREADS=1 python crates/python/examples/bench_batch.py [--n 1024] [--threads 2]

A step is one action in one game (so one call steps N). Not a test: run it by hand.
"""

import argparse
import time

import numpy as np

from tessera.batch import AzulBatch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1024, help="games in the batch")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--threads", type=int, default=None, help="default: every core")
    ap.add_argument("--steps", type=int, default=2_000_000, help="total steps to time")
    ap.add_argument("--numpy-policy", action="store_true", help="pick actions from the masks in numpy")
    args = ap.parse_args()
    b = AzulBatch(args.n, players=args.players, seed=0, threads=args.threads)
    rng = np.random.default_rng(0)
    calls = max(1, args.steps // args.n)
    masks = b.arrays()[1]
    for _ in range(20):  # warm up
        b.step(b.sample_actions())
    games = 0
    start = time.perf_counter()
    for _ in range(calls):
        if args.numpy_policy:
            scores = rng.random(masks.shape, dtype=np.float32) * masks
            acts = scores.argmax(axis=1).astype(np.int64)
        else:
            acts = b.sample_actions()
        _, masks, _, dones, _ = b.step(acts)
        games += int(dones.sum())
    elapsed = time.perf_counter() - start
    steps = calls * args.n
    print(
        f"n={args.n} threads={args.threads or 'all'} policy={'numpy' if args.numpy_policy else 'rust'}: "
        f"{steps} steps ({games} games) in {elapsed:.2f} s: {steps / elapsed:,.0f} steps/s"
    )


if __name__ == "__main__":
    main()
