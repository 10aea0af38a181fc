"""Steps per second of random 2-player Azul games through the PettingZoo AEC API (with the
standard wrappers), the agent choosing uniformly among the masked actions.

    OPENBLAS_NUM_THREADS=1 taskset -c 1 python crates/python/examples/bench_aec.py [--steps 200000] [--raw] [--tictactoe]

Prints wall-clock steps per second and steps per CPU second (on a shared machine the second
is the steadier). Not a test: run it by hand.
"""

import argparse
import time

import numpy as np

from tessera.envs import azul_v0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--raw", action="store_true", help="the unwrapped env")
    ap.add_argument(
        "--tictactoe",
        action="store_true",
        help="PettingZoo's own tic-tac-toe (tictactoe_v3.env()) through the same loop, for comparison",
    )
    args = ap.parse_args()
    if args.tictactoe:
        from pettingzoo.classic import tictactoe_v3

        env = (tictactoe_v3.raw_env if args.raw else tictactoe_v3.env)()
    else:
        env = (azul_v0.raw_env if args.raw else azul_v0.env)(players=args.players)
    rng = np.random.default_rng(0)
    steps, games, seed = 0, 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    while steps < args.steps:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        games += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"{steps} steps, {games} games in {elapsed:.2f} s: {steps / elapsed:,.0f} steps/s "
        f"(CPU time {cpu:.2f} s: {steps / cpu:,.0f} steps per CPU second)"
    )


if __name__ == "__main__":
    main()
