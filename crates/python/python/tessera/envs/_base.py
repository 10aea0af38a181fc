"""The AEC environment shared by Tessera's turn-based games, and a turn-based parallel view.

A game handle (``tessera.AzulGame`` or ``tessera.QwirkleGame``) does the work: it applies an
action id and resolves chance (deals, draws) in the same call, from the seed given to
``reset``. This module only keeps PettingZoo's bookkeeping (agents, rewards, terminations).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from .._tessera import _check_seed

ILLEGAL_POLICIES = ("terminate", "raise", "random")
REWARDS = ("outcome", "score")


class _Actions(spaces.Discrete):
    """``Discrete(n)`` with a fast path in ``contains`` for a plain in-range ``int`` (the
    standard ``AssertOutOfBoundsWrapper`` calls it at every step); anything else goes to
    ``Discrete.contains`` unchanged."""

    def contains(self, x) -> bool:
        if type(x) is int:
            return 0 <= x < self._n
        return super().contains(x)

    def __init__(self, n: int):
        super().__init__(n)
        self._n = int(n)


def check_action_type(action) -> None:
    """TypeError unless ``action`` is an integer (a Python int or a numpy integer; None is
    let through for PettingZoo's dead steps): a float or a bool is never truncated."""
    if action is None or (
        isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
    ):
        return
    raise TypeError(
        f"action {action!r}: expected an integer action id, not {type(action).__name__}"
    )


class _Bounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's bounds check, after a type check: a non-integer action is a TypeError
    (the plain wrapper would raise AssertionError for a float and pass a bool on). The check
    is ``AssertOutOfBoundsWrapper.step``'s own, then the env's step: no more Python calls
    per step than the plain wrapper makes."""

    def step(self, action) -> None:
        if type(action) is not int:
            check_action_type(action)
        agent = self.agent_selection
        assert (
            action is None and (self.terminations[agent] or self.truncations[agent])
        ) or self.action_space(agent).contains(action), "action is not in action space"
        self.env.step(action)


class _Order(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order check; pickles as the raw environment and the check's flags, and
    is rebuilt around it by ``wrap`` (so that the wrappers share the bookkeeping again)."""

    def __reduce__(self):
        flags = {k: v for k, v in self.__dict__.items() if k.startswith("_has_")}
        return (_rewrap, (self.unwrapped, flags))


def _rewrap(raw: "TesseraAECEnv", flags: dict):
    outer = wrap(raw)
    outer.__dict__.update(flags)
    return outer


def wrap(raw: TesseraAECEnv):
    """PettingZoo's standard wrappers for a classic game (``AssertOutOfBoundsWrapper`` then
    ``OrderEnforcingWrapper``), sharing the raw environment's bookkeeping with them."""
    inner = _Bounds(raw)
    outer = _Order(inner)
    raw.share_with(inner, outer)
    # ``AssertOutOfBoundsWrapper`` checks only ``step``; its ``observe`` and ``action_space``
    # are ``BaseWrapper``'s, which only call the same method of the env inside. Where that is
    # so, the wrapper holds the env's bound method itself: a Python call less per use.
    for name in ("observe", "action_space"):
        if getattr(type(inner), name) is getattr(wrappers.BaseWrapper, name):
            inner.__dict__[name] = getattr(raw, name)
    return outer


def _entropy_seed() -> int:
    # A SeedSequence made without entropy draws an int from the OS.
    return int(cast(int, np.random.SeedSequence().entropy) % (2**63))


class TesseraAECEnv(AECEnv):
    """A Tessera game as a PettingZoo AEC environment.

    Args:
        game: a handle (``AzulGame(players)`` or ``QwirkleGame(players)``).
        render_mode: ``"ansi"`` (``render()`` returns text), ``"human"`` (prints it),
            ``"rgb_array"`` (an ``H x W x 3`` uint8 image, ``tessera.render``) or None.
        max_cycles: truncate the game once ``max_cycles * players`` actions were played (None:
            play to the end).
        illegal_action: what an action outside the mask does: ``"terminate"`` (PettingZoo's
            convention: the game ends, the offender gets ``illegal_reward``, the others 0),
            ``"raise"`` (ValueError naming the action and the legal ones, state unchanged) or
            ``"random"`` (a uniformly random legal action is played instead, drawn from the
            env's seeded generator, and the offender gets ``illegal_reward``).
        illegal_reward: the offender's reward for an illegal action.
        reward: ``"outcome"`` (at the end 1 for a sole win, 1/k for a win shared by k, 0
            otherwise) or ``"score"`` (each step, the change of every seat's score).
    """

    RENDER_MODES: tuple[str, ...] = ("ansi", "human")
    metadata = {"render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self,
        game,
        name: str,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        reward: str = "outcome",
        obs_low: float = 0.0,
    ):
        super().__init__()
        modes = list(self.RENDER_MODES)
        if render_mode is not None and render_mode not in modes:
            raise ValueError(
                f"render_mode {render_mode!r}: expected one of {modes} or None"
            )
        if illegal_action not in ILLEGAL_POLICIES:
            raise ValueError(
                f"illegal_action {illegal_action!r}: expected one of {ILLEGAL_POLICIES}"
            )
        if reward not in REWARDS:
            raise ValueError(f"reward {reward!r}: expected one of {REWARDS}")
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise ValueError(f"max_cycles {max_cycles!r}: expected a positive integer or None")
        self.metadata = dict(self.metadata, name=name, render_modes=modes)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.reward_kind = reward
        self.game = game
        n = game.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        na, olen = game.num_actions, game.observation_len
        self._action_spaces = {a: _Actions(na) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=obs_low, high=np.inf, shape=(olen,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(na,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._rng: np.random.Generator | None = None
        self._seed = 0
        self._started = False
        self._view_dicts = ()
        self._agent_selection = None

    # PettingZoo's standard wrappers reach every attribute of the environment through a
    # Python-level ``__getattr__`` chain (two wrappers: about ten forwarded lookups a step,
    # more than the game's own step costs). ``share_with`` lets the wrappers hold the live
    # bookkeeping in their own instance dicts instead, so a lookup is a plain dict hit; the
    # wrappers' checks (order of calls, bounds) still run. The dicts and the agent list are
    # shared objects (mutated in place here and in PettingZoo's ``_was_dead_step``); the
    # agent to move, a string, is re-published by its setter. Nothing is published before
    # ``reset``, so ``OrderEnforcingWrapper`` still refuses these attributes before it.
    _view_dicts: tuple = ()
    _agent_selection: Any = None
    _rewarded = False
    _SHARED = ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos")

    def share_with(self, *wrappers_) -> None:
        """Publish the live bookkeeping (agents, rewards, terminations, truncations, infos,
        cumulative rewards, the agent to move) into these wrappers after every reset."""
        self._view_dicts = tuple(w.__dict__ for w in wrappers_)
        if self._started:
            self._publish()

    def _publish(self) -> None:
        for d in self._view_dicts:
            for name in self._SHARED:
                d[name] = self.__dict__[name]
            d["agent_selection"] = self._agent_selection

    @property
    def agent_selection(self):
        return self._agent_selection

    @agent_selection.setter
    def agent_selection(self, agent) -> None:
        self._select(agent)

    def _select(self, agent) -> None:
        """Sets the agent to move here and in the wrappers (the step calls it directly,
        without the property)."""
        self._agent_selection = agent
        for d in self._view_dicts:
            d["agent_selection"] = agent

    def __getstate__(self):
        # The wrappers' dicts are not part of the environment: ``_Order`` pickles the raw
        # environment and ``wrap`` links the wrappers again when it is unpickled.
        state = dict(self.__dict__)
        state["_view_dicts"] = ()
        return state

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Starts a game from ``seed`` (an integer 0 to 2**64 - 1; None: a fresh one)."""
        seed = _entropy_seed() if seed is None else _check_seed(seed)
        self.game.reset(seed)
        # The generator of the "random" illegal-action policy, made when first needed.
        self._rng = None
        self._seed = seed
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._actions = 0
        self._scores = list(self.game.scores())
        self._skip_agent_selection = None
        self._rewarded = False
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._started = True
        self._publish()

    def observe(self, agent):
        # One call: the observation and the mask (all zeros unless ``agent`` is to move).
        return self.game.observe(self._index[agent])

    def step(self, action):
        agent = self._agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        # Most steps give no reward: the dict is zeroed and accumulated only after a step
        # that set one (adding zeros changes nothing).
        if self._rewarded:
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        game = self.game
        try:
            # The handle takes ints and numpy integers and refuses the rest (TypeError).
            mover = game.step(action)
        except ValueError:
            if self.illegal_action == "raise":
                raise
            self.infos[agent] = dict(self.infos[agent], illegal_action=int(action))
            self.rewards[agent] = self.illegal_reward
            self._rewarded = True
            if self.illegal_action == "terminate":
                for a in self.agents:
                    self.terminations[a] = True
                self._next_selection(agent)
                self._accumulate_rewards()
                return
            legal = self.game.legal_actions()
            if self._rng is None:
                self._rng = np.random.default_rng(self._seed)
            mover = self.game.step(int(legal[self._rng.integers(len(legal))]))
        self._actions += 1
        if self.reward_kind == "score":
            self._rewarded = True
            scores = list(game.scores())
            for a in self.agents:
                i = self._index[a]
                self.rewards[a] += float(scores[i] - self._scores[i])
            self._scores = scores
        if mover is None:
            self._rewarded = True
            if self.reward_kind == "outcome":
                returns = game.returns()
                for a in self.agents:
                    self.rewards[a] += float(returns[self._index[a]])
            for a in self.agents:
                self.terminations[a] = True
        elif self.max_cycles is not None and self._actions >= self.max_cycles * len(
            self.possible_agents
        ):
            for a in self.agents:
                self.truncations[a] = True
        else:
            # The game goes on: the hot path.
            self._select(self.possible_agents[mover])
            if self._rewarded:
                self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()
            return
        self._next_selection(agent)
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _next_selection(self, agent):
        mover = self.game.current_player
        if mover is not None and not self.terminations[agent] and not self.truncations[agent]:
            self.agent_selection = self.possible_agents[mover]
        else:
            # The game has ended: hand the turn round so every agent takes its dead step.
            i = self.agents.index(agent)
            self.agent_selection = self.agents[(i + 1) % len(self.agents)]

    def render(self):
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self.render_rgb()
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_text(self) -> str:
        return self.game.notation()

    def render_rgb(self):
        raise NotImplementedError("this game has no rgb_array rendering")

    def close(self):
        pass


class TurnBasedParallelEnv(ParallelEnv):
    """A parallel view of a turn-based game: each ``step`` takes one action per live agent
    but only the action of the agent to move is played (the others' masks are all zero and
    their actions are ignored); ``max_cycles`` counts these steps."""

    def __init__(self, aec: TesseraAECEnv, max_cycles: int | None = None):
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise ValueError(f"max_cycles {max_cycles!r}: expected a positive integer or None")
        self.aec = aec
        self.max_cycles = max_cycles
        self.metadata = dict(aec.metadata, is_parallelizable=True)
        self.possible_agents = aec.possible_agents[:]
        self.render_mode = aec.render_mode
        self.agents: list[str] = []

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        self._steps = 0
        obs = {a: self.aec.observe(a) for a in self.agents}
        return obs, {a: {} for a in self.agents}

    def step(self, actions: dict):
        mover = self.aec.agent_selection
        if mover not in actions:
            raise ValueError(f"no action for {mover}, the agent to move")
        self.aec.step(actions[mover])
        self._steps += 1
        rewards = {a: float(self.aec.rewards[a]) for a in self.agents}
        terms = {a: bool(self.aec.terminations[a]) for a in self.agents}
        truncs = {a: bool(self.aec.truncations[a]) for a in self.agents}
        if self.max_cycles is not None and self._steps >= self.max_cycles:
            truncs = {a: not terms[a] for a in self.agents}
        infos = {a: dict(self.aec.infos[a]) for a in self.agents}
        obs = {a: self.aec.observe(a) for a in self.agents}
        self.agents = [a for a in self.agents if not (terms[a] or truncs[a])]
        return obs, rewards, terms, truncs, infos

    def render(self):
        return self.aec.render()

    def close(self):
        self.aec.close()
