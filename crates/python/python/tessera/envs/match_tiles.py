"""Match the Tiles as a Gymnasium environment: ``gymnasium.make("tessera/MatchTiles-v0", ...)``.

Exactly one level source: ``level`` (a built-in level 1-12, the default 1), ``level_file``
(a file in the level format, with ``level_index``) or ``generate`` (a dict ``side``,
``colours``, ``optimal``: a new level from the seeded generator at every ``reset``, drawn
from the reset's seed). Actions 0-3 slide every piece L, R, U, D. The observation is
float32 planes ``(17, height, width)``: obstacles, pieces of colour 0-7, targets of colour
0-7. The reward is 1 on the move that solves the level, 0 otherwise; the episode terminates
when solved and is truncated after ``max_steps`` moves.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .. import MatchTiles
from .._tessera import _check_seed
from ..render import tiles_rgb

PLANES = 17


class MatchTilesEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        level: int | None = None,
        level_file: str | None = None,
        level_index: int = 0,
        generate: dict | None = None,
        max_steps: int = 200,
        render_mode: str | None = None,
    ):
        sources = [x is not None for x in (level, level_file, generate)]
        if sum(sources) > 1:
            raise ValueError("give one level source: level, level_file or generate")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r}: expected 'ansi', 'rgb_array' or None"
            )
        if not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps {max_steps!r}: expected a positive integer")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self._generate = None
        if generate is not None:
            unknown = set(generate) - {"side", "colours", "optimal"}
            if unknown or len(generate) != 3:
                raise ValueError(
                    f"generate {generate!r}: expected the keys side, colours and optimal"
                )
            self._generate = dict(generate)
            self.puzzle = MatchTiles.generate(**self._generate, seed=0)
        elif level_file is not None:
            with open(level_file, encoding="utf-8") as f:
                self.puzzle = MatchTiles.from_text(f.read(), level_index)
        else:
            self.puzzle = MatchTiles.builtin(1 if level is None else level)
        shape = (PLANES, self.puzzle.height, self.puzzle.width)
        self.observation_space = spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32)
        self.action_space = spaces.Discrete(4)

    def _obs(self):
        return self.puzzle.observation().reshape(self.observation_space.shape)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            seed = _check_seed(seed)
        super().reset(seed=seed)
        if self._generate is not None:
            level_seed = int(self.np_random.integers(0, 2**63))
            self.puzzle = MatchTiles.generate(**self._generate, seed=level_seed)
        else:
            self.puzzle.reset()
        return self._obs(), {"moves": 0}

    def step(self, action):
        # Ints and numpy integers; a float or a bool is a TypeError, never truncated.
        moved = self.puzzle.step(action)
        solved = self.puzzle.is_solved
        truncated = not solved and self.puzzle.moves >= self.max_steps
        info = {"moves": self.puzzle.moves, "moved": moved}
        return self._obs(), 1.0 if solved else 0.0, solved, truncated, info

    def render(self):
        if self.render_mode == "ansi":
            return self.puzzle.render()
        if self.render_mode == "rgb_array":
            return tiles_rgb(self.puzzle)
        return None
