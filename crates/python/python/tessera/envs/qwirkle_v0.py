"""Qwirkle (2-4 players) as a PettingZoo AEC environment, placements built tile by tile.

    from tessera.envs import qwirkle_v0
    env = qwirkle_v0.env(players=2)          # or qwirkle_v0.parallel_env(players=2)

An agent's turn is one or more steps: put a hand tile on a cell of a 31 x 31 window (id
``slot * 961 + cell``), trade (ids 5766-5828), pass (5829) or end the pending placement
(5830); a placement is played as soon as nothing can extend it. Draws happen inside
``step``. The observation (float32, docs/python.md) is built from the seat's own view: the
other hands never appear in it.
"""

from __future__ import annotations

import numpy as np
from .. import QwirkleGame
from .._tessera import QWIRKLE_WINDOW
from ..render import qwirkle_rgb
from ._base import TesseraAECEnv, TurnBasedParallelEnv, wrap

PLANES = 24


def _check_players(players) -> int:
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"Qwirkle is for 2 to 4 players, not {players!r}")
    return players


class raw_env(TesseraAECEnv):
    """The unwrapped environment; ``env()`` adds PettingZoo's standard wrappers."""

    RENDER_MODES = ("ansi", "human", "rgb_array")
    metadata = dict(TesseraAECEnv.metadata, render_modes=list(RENDER_MODES))

    def __init__(self, players: int = 2, render_mode: str | None = None, **kwargs):
        game = QwirkleGame(_check_players(players), 0)
        super().__init__(
            game, "tessera_qwirkle_v0", render_mode=render_mode, obs_low=-np.inf, **kwargs
        )

    def render_text(self) -> str:
        return render_qwirkle(self.game)

    def render_rgb(self):
        """What the agent to move sees, as an ``H x W x 3`` uint8 image
        (``tessera.render.qwirkle_rgb``): never another seat's hand."""
        return qwirkle_rgb(self.game)


def env(players: int = 2, render_mode: str | None = None, **kwargs):
    """Qwirkle wrapped like PettingZoo's classic games (order enforcing, bounds checked)."""
    e = raw_env(players=players, render_mode=render_mode, **kwargs)
    return wrap(e)


def parallel_env(players: int = 2, render_mode: str | None = None, max_cycles=None, **kwargs):
    """A turn-based parallel view: every step takes an action per live agent and plays the one
    of the agent to move (the others' masks are all zero). A turn of several tile steps is as
    many parallel steps with the same agent to move; ``max_cycles`` counts these steps."""
    return TurnBasedParallelEnv(
        raw_env(players=players, render_mode=render_mode, **kwargs), max_cycles=max_cycles
    )


def split_observation(observation: np.ndarray):
    """Splits an observation vector into its planes ``[24, 31, 31]`` and its features."""
    w = QWIRKLE_WINDOW
    n = PLANES * w * w
    return observation[:n].reshape(PLANES, w, w), observation[n:]


def render_qwirkle(game) -> str:
    """The board, scores and hand sizes (no hand: this is what everyone sees)."""
    f = dict(kv.split("=", 1) for kv in game.notation().split())
    cells = {}
    if f["board"] != "-":
        for item in f["board"].split(";"):
            tile, xy = item.split("@")
            x, y = map(int, xy.split(","))
            cells[(x, y)] = tile
    hands = f["hands"].split("/")
    sizes = [0 if h == "-" else len(h) // 2 for h in hands]
    mover = game.current_player
    head = f"Qwirkle, scores {f['scores']}, hand sizes {','.join(map(str, sizes))}"
    head += f", player_{mover} to move" if mover is not None else ", over"
    lines = [head]
    if cells:
        xs = [x for x, _ in cells]
        ys = [y for _, y in cells]
        for y in range(min(ys), max(ys) + 1):
            lines.append(
                " ".join(cells.get((x, y), "..") for x in range(min(xs), max(xs) + 1))
            )
    return "\n".join(lines)
