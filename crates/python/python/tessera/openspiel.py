"""Azul (2-4 players) as an OpenSpiel Python game.

    import pyspiel
    import tessera.openspiel  # registers the game
    game = pyspiel.load_game("python_tessera_azul", {"players": 3, "seed": 7})

Action ids are the package's (``source * 30 + colour * 6 + destination``, docs/python.md);
the observation tensor is ``AzulGame.observation`` (the observer's board first).

Chance is *sampled* (``ChanceMode.SAMPLED_STOCHASTIC``), not explicit chance nodes: a deal
fills up to nine factories with four tiles each from a bag of up to 100, so one deal has
millions of outcomes, far beyond a chance node OpenSpiel's tools can enumerate. The deal
happens inside ``apply_action`` (as in the PettingZoo environments), drawn from the state's
own deal stream: each ``new_initial_state()`` takes a fresh seed from the game's generator
(seeded by the game's ``seed`` parameter), so a run of games is reproducible from ``seed``.
OpenSpiel's contract for sampled chance (checked by ``pyspiel.random_sim_test``) is that a
``clone()`` given the same actions reaches the same state, so the deal stream is copied with
the state: a search that clones states (MCTS) plays its simulations against the deals the
real game will see. Search that must not see them can reseed its copies
(``state.game_handle.reseed_chance(s)``); OpenSpiel's own bots do not.

The rules set no bound on the length of an Azul game (players may keep flooring tiles);
``max_game_length`` is 2000 actions, far above any game seen (random 4-player games take
about 100).

Qwirkle is not registered: its hidden hands and tile-by-tile placements need an
information-state design that is not written yet.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from . import AzulGame

SHORT_NAME = "python_tessera_azul"
MAX_GAME_LENGTH = 2000

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Tessera Azul (Rust engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "seed": 0},
)


class _Chance:
    """The game's generator of game seeds (one per ``new_initial_state()``)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def next_seed(self) -> int:
        return int(self.rng.integers(0, 2**63 - 1))


class AzulSpielGame(pyspiel.Game):
    """Azul for OpenSpiel; parameters ``players`` (2-4) and ``seed`` (deals)."""

    def __init__(self, params=None):
        params = dict(params or {})
        players = params.get("players", 2)
        seed = params.get("seed", 0)
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"Azul is for 2 to 4 players, not {players!r}")
        if not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed {seed!r}: expected a non-negative integer")
        probe = AzulGame(players, 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, {"players": players, "seed": seed})
        self._players = players
        self._obs_len = probe.observation_len
        self._chance = _Chance(seed)

    def new_initial_state(self):
        return AzulSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return AzulObserver(self._obs_len, params)


class AzulSpielState(pyspiel.State):
    """A state: a ``tessera.AzulGame`` handle (copied by ``clone()``)."""

    def __init__(self, game: AzulSpielGame):
        super().__init__(game)
        self._game = AzulGame(game._players, game._chance.next_seed())

    @property
    def game_handle(self) -> AzulGame:
        """The underlying ``tessera.AzulGame`` (for ``tessera.Agent.act``)."""
        return self._game

    def current_player(self):
        p = self._game.current_player
        return pyspiel.PlayerId.TERMINAL if p is None else p

    def _legal_actions(self, player):
        return self._game.legal_actions()

    def _apply_action(self, action):
        self._game.step(int(action))

    def _action_to_string(self, player, action):
        return self._game.action_to_string(int(action))

    def is_terminal(self):
        return self._game.is_terminal

    def returns(self):
        return list(self._game.returns())

    def __str__(self):
        return self._game.notation()


class AzulObserver:
    """The observation tensor (``AzulGame.observation``) and string (the notation)."""

    def __init__(self, length: int, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.tensor = np.zeros(length, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        state._game.observation_into(player, self.tensor)

    def string_from(self, state, player):
        return state._game.notation()


if SHORT_NAME not in {g.short_name for g in pyspiel.registered_games()}:
    pyspiel.register_game(_GAME_TYPE, AzulSpielGame)
