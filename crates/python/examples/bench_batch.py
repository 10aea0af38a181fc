"""Steps per second of the batch API: N random 2-player Azul games stepped together, the
random legal actions drawn in Rust (``sample_actions``) or in numpy (``--numpy-policy``);
``--vector`` steps them through the Gymnasium vector environment ``AzulVectorEnv`` instead
(``--no-copy``: its ``copy=False``).

    OPENBLAS_NUM_THREADS=1 python crates/python/examples/bench_batch.py [--n 1024] [--threads 2] [--vector]

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
    ap.add_argument("--vector", action="store_true", help="through AzulVectorEnv (Gymnasium)")
    ap.add_argument("--no-copy", action="store_true", help="AzulVectorEnv(copy=False)")
    args = ap.parse_args()
    if args.vector:
        from tessera.envs.azul_vector import AzulVectorEnv

        env = AzulVectorEnv(args.n, players=args.players, threads=args.threads, copy=not args.no_copy)
        masks = env.reset(seed=0)[1]["action_mask"]

        def step(acts):
            _, _, dones, _, info = env.step(acts)
            return None, info["action_mask"], None, dones, None

        b = env
    else:
        b = AzulBatch(args.n, players=args.players, seed=0, threads=args.threads)
        masks = b.arrays()[1]
        step = b.step
    rng = np.random.default_rng(0)
    calls = max(1, args.steps // args.n)
    for _ in range(20):  # warm up
        masks = step(b.sample_actions())[1]
    games = 0
    start = time.perf_counter()
    for _ in range(calls):
        if args.numpy_policy:
            scores = rng.random(masks.shape, dtype=np.float32) * masks
            acts = scores.argmax(axis=1).astype(np.int64)
        else:
            acts = b.sample_actions()
        _, masks, _, dones, _ = step(acts)
        games += int(dones.sum())
    elapsed = time.perf_counter() - start
    steps = calls * args.n
    print(
        f"n={args.n} threads={args.threads or 'all'} policy={'numpy' if args.numpy_policy else 'rust'} "
        f"api={('vector' + (' copy=False' if args.no_copy else '')) if args.vector else 'batch'}: "
        f"{steps} steps ({games} games) in {elapsed:.2f} s: {steps / elapsed:,.0f} steps/s"
    )


if __name__ == "__main__":
    main()
