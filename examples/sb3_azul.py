"""Train Stable-Baselines3's MaskablePPO (sb3-contrib) on Azul against one of our agents.

The environment is ``tessera/AzulVsAgent-v0`` (``tessera.envs.azul_single_v0``): two-player
Azul, the learner at a seat drawn at every reset, every other move played by the opponent
(default ``level:1``, our weakest level) inside ``step``. MaskablePPO reads the legal ids
from ``env.action_masks()``, so the policy never picks an illegal move. The reward is +1
for a win, 0 for a shared win, -1 for a loss, at the end of the game.

The script evaluates the untrained policy and a uniformly random legal player, trains for
``--minutes`` of wall time (or ``--steps`` environment steps, whichever comes first), and
evaluates the trained policy, each over the same ``--eval`` seeded games (the same deals
and seats). A game scores 1 for a win, 1/2 for a shared win, 0 for a loss; the score rate
is printed with its 95% Wilson interval. Needs torch, stable-baselines3 and sb3-contrib (a
CPU run; see docs/python.md for the install and the figures of one run):

    taskset -c 1 /work/venv-sb3/bin/python examples/sb3_azul.py --minutes 12 --eval 400
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import tessera  # noqa: F401  (registers tessera/AzulVsAgent-v0)

EVAL_SEED = 1_000_000


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of ``successes`` (draws counted half) out of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def evaluate(opponent: str, games: int, choose) -> dict:
    """Plays ``games`` seeded games (seed EVAL_SEED + i: deal, opponent's choices, seat)
    with ``choose(obs, mask) -> action id``; returns wins, draws, losses, score and interval."""
    env = gym.make("tessera/AzulVsAgent-v0", opponent=opponent, seat=None)
    wins = draws = losses = 0
    for i in range(games):
        obs, info = env.reset(seed=EVAL_SEED + i)
        while True:
            obs, reward, terminated, truncated, info = env.step(
                choose(obs, info["action_mask"].astype(bool))
            )
            if terminated or truncated:
                break
        if reward > 0:
            wins += 1
        elif reward == 0:
            draws += 1
        else:
            losses += 1
    score = wins + draws / 2
    lo, hi = wilson(score, games)
    return {"games": games, "wins": wins, "draws": draws, "losses": losses,
            "score": score / games, "ci": (lo, hi)}


def policy_chooser(model: MaskablePPO):
    def choose(obs, mask):
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    return choose


def random_chooser(seed: int):
    rng = np.random.default_rng(seed)

    def choose(obs, mask):
        return int(rng.choice(np.flatnonzero(mask)))

    return choose


class WallClock(BaseCallback):
    """Stops training after ``seconds`` of wall time."""

    def __init__(self, seconds: float):
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def show(label: str, r: dict) -> None:
    lo, hi = r["ci"]
    print(f"{label}: score {r['score']:.3f} (95% Wilson {lo:.3f}-{hi:.3f}) over {r['games']} "
          f"games: {r['wins']} won, {r['draws']} shared, {r['losses']} lost", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponent", default="level:1", help="our agent at the other seat")
    ap.add_argument("--minutes", type=float, default=12.0, help="training wall-time budget")
    ap.add_argument("--steps", type=int, default=10_000_000, help="most training steps")
    ap.add_argument("--eval", type=int, default=400, help="evaluation games (>= 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", default=None, help="save the trained model to this .zip")
    a = ap.parse_args()
    torch.set_num_threads(1)

    env = gym.make("tessera/AzulVsAgent-v0", opponent=a.opponent, seat=None)
    model = MaskablePPO(
        "MlpPolicy", env, seed=a.seed, n_steps=2048, batch_size=256, n_epochs=4,
        learning_rate=3e-4, gamma=0.99, ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]}, device="cpu", verbose=0,
    )
    print(f"opponent {a.opponent}; observation {env.observation_space.shape[0]} floats, "
          f"{env.action_space.n} action ids", flush=True)
    show("uniform random legal move", evaluate(a.opponent, a.eval, random_chooser(a.seed)))
    show("untrained MaskablePPO", evaluate(a.opponent, a.eval, policy_chooser(model)))

    start = time.monotonic()
    model.learn(total_timesteps=a.steps, callback=WallClock(a.minutes * 60))
    took = time.monotonic() - start
    print(f"trained {model.num_timesteps} steps in {took / 60:.1f} min "
          f"({model.num_timesteps / took:.0f} steps/s)", flush=True)
    show("trained MaskablePPO", evaluate(a.opponent, a.eval, policy_chooser(model)))
    if a.save:
        model.save(a.save)


if __name__ == "__main__":
    main()
