"""Azul for one learner against a fixed opponent, as a Gymnasium environment.

    import gymnasium as gym
    import tessera  # registers tessera/AzulVsAgent-v0
    env = gym.make("tessera/AzulVsAgent-v0", opponent="level:5")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The learner plays seat ``seat`` (0 by default; None: drawn at every reset) of a ``players``
game (2-4); every other seat is played by our agent ``opponent`` (any spec of ``tessera
agents azul``: ``level:5``, ``strong:time=100ms``, ...), inside ``reset`` and ``step``, each
move with the spec's own budget (``tessera.Agent.act``). The observation is the learner's
float32 vector (docs/python.md's table); ``info["action_mask"]`` (int8, also
``env.action_masks()``) marks its legal ids. The reward is 0 until the end, then +1 if the
learner won alone, 0 if it shared the win (a draw), -1 otherwise.

Seeding: ``reset(seed=s)`` draws the deal, the opponent's own random choices and (with
``seat=None``) the learner's seat from ``s``, so the same seed and actions give the same
episode (the opponent must have a node, depth or no budget for this: a ``time=`` budget
makes its moves depend on the machine's speed).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .. import Agent, AzulGame
from .._tessera import _check_seed
from ..render import azul_rgb
from .azul_v0 import _check_players, render_azul

ILLEGAL_POLICIES = ("raise", "lose")


class AzulVsAgentEnv(gym.Env):
    """See the module documentation.

    Args:
        opponent: the spec of the agent playing every other seat.
        players: 2 to 4.
        seat: the learner's seat (0 to players - 1), or None for a seat drawn at each reset.
        illegal_action: ``"raise"`` (ValueError naming the action and the legal ones, the
            state unchanged) or ``"lose"`` (the episode ends at once with
            ``illegal_reward``, ``info["illegal_action"]`` holding the id).
        illegal_reward: the reward of an illegal action under ``"lose"``.
        render_mode: ``"ansi"`` (text naming the agent to move), ``"rgb_array"`` or None.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        opponent: str = "level:5",
        players: int = 2,
        seat: int | None = 0,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ):
        players = _check_players(players)
        if seat is not None and (
            not isinstance(seat, (int, np.integer))
            or isinstance(seat, bool)
            or not 0 <= seat < players
        ):
            raise ValueError(
                f"seat {seat!r}: expected a seat from 0 to {players - 1}, or None for a random one"
            )
        if illegal_action not in ILLEGAL_POLICIES:
            raise ValueError(
                f"illegal_action {illegal_action!r}: expected one of {ILLEGAL_POLICIES}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected 'ansi', 'rgb_array' or None")
        if not isinstance(opponent, str):
            raise TypeError(f"opponent {opponent!r}: expected an agent spec such as 'level:5'")
        # A bad spec is a ValueError now (the registry's reason), not at the first reset.
        self._opponent = Agent(opponent, game="azul", seed=0)
        self.opponent = opponent
        self.players = players
        self.fixed_seat = None if seat is None else int(seat)
        self.seat = 0 if seat is None else int(seat)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.game = AzulGame(players, 0)
        self.observation_space = spaces.Box(
            low=0.0, high=np.inf, shape=(self.game.observation_len,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._over = True

    def _opponents_move(self) -> None:
        game, agent, seat = self.game, self._opponent, self.seat
        mover = game.current_player
        while mover is not None and mover != seat:
            mover = game.step(agent.act(game))

    def _info(self) -> dict:
        return {"action_mask": self.game.action_mask(), "seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids as a bool array (sb3-contrib's MaskablePPO asks this)."""
        return self.game.action_mask().astype(bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            seed = _check_seed(seed)
        super().reset(seed=seed)
        deal, agent_seed = (int(x) for x in self.np_random.integers(0, 2**63, size=2))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.players))
        self.game.reset(deal)
        self._opponent = Agent(self.opponent, game="azul", seed=agent_seed)
        # The opponents move first when the deal makes one of them the starting player; a
        # round of Azul cannot end before every seat has moved, so the learner moves next.
        self._opponents_move()
        self._over = False
        return self.game.observation(self.seat), self._info()

    def step(self, action):
        if self._over:
            raise RuntimeError("the episode is over (or was never started): call reset() first")
        game = self.game
        try:
            # Ints and numpy integers; anything else is a TypeError (nothing is truncated).
            game.step(action)
        except ValueError as e:
            if self.illegal_action == "raise":
                raise ValueError(f"the learner (seat {self.seat}): {e}") from None
            self._over = True
            info = self._info()
            info["illegal_action"] = int(action)
            return game.observation(self.seat), self.illegal_reward, True, False, info
        self._opponents_move()
        reward = 0.0
        terminated = game.current_player is None
        if terminated:
            self._over = True
            winners = game.winners()
            reward = (1.0 if len(winners) == 1 else 0.0) if self.seat in winners else -1.0
        return game.observation(self.seat), reward, terminated, False, self._info()

    def render(self):
        if self.render_mode == "ansi":
            return render_azul(self.game.notation(), self.game.round)
        if self.render_mode == "rgb_array":
            return azul_rgb(self.game)
        return None
