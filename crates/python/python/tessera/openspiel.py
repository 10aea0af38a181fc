"""Azul and Qwirkle (2-4 players) as OpenSpiel Python games.

    import pyspiel
    import tessera.openspiel  # registers both games
    azul = pyspiel.load_game("python_tessera_azul", {"players": 3, "seed": 7})
    qwirkle = pyspiel.load_game("python_tessera_qwirkle", {"players": 2, "seed": 7})

Action ids are the package's (docs/python.md): Azul ``source * 30 + colour * 6 +
destination``; Qwirkle the step ids of ``QwirkleGame`` and ``tessera.envs.qwirkle_v0`` (a
placement is several steps, one tile each, then possibly END).

Chance lives in the state, not in chance nodes: an Azul deal fills up to nine factories with
four tiles each from a bag of up to 100, a Qwirkle draw takes up to six tiles from a bag of
up to 108, far beyond a chance node OpenSpiel's tools can enumerate. Chance happens inside
``apply_action`` (as in the PettingZoo environments), drawn from the state's own chance
stream, which is part of the state: ``clone()`` copies it, ``serialize()`` and ``pickle``
carry its position. The same state and actions therefore always give the same next state,
and the games are declared ``ChanceMode.DETERMINISTIC`` to OpenSpiel. (They were
``SAMPLED_STOCHASTIC`` until issue 31: OpenSpiel keeps a sampled-stochastic game's generator
in the game and serializes it with ``Game::GetRNGState``, which its wrapper of Python games
does not forward to Python in open-spiel 2.0.2, so such a game could be neither serialized
nor pickled and ``random_sim_test(serialize=True)`` failed with "GetRNGState
unimplemented".) Each game started takes a fresh seed from the
game's generator (seeded by the ``seed`` parameter) when it is first used or cloned, so a
run of games is reproducible from ``seed``, whatever bots play them: the clones a search
makes do not take seeds (OpenSpiel builds a clone from ``new_initial_state()`` and then
copies the state's fields into it). ``pyspiel.random_sim_test`` checks that a ``clone()``
given the same actions reaches the same state, and with ``serialize=True`` that a state
serialized and read back is the same.

Azul is a perfect-information game here (the bag's order is not part of the state; a search
that clones states plays its simulations against the deals the real game will see, which
code that must not can avoid with ``state.game_handle.reseed_chance(s)``). Its rules set no
bound on its length (players may keep flooring tiles); ``max_game_length`` is 2000 actions,
far above any game seen (random 4-player games take about 100).

Qwirkle is an imperfect-information game: hands and the bag are hidden. Observations and
information states hold only what the observer's seat may see (its own hand, the board,
scores, hand sizes, the bag's size; the mover's pending tiles only in the mover's own), see
``QwirkleObserver``. ``resample_from_infostate`` draws a state of the player's information
set (``QwirkleGame.determinize``), which OpenSpiel's Python IS-MCTS
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``) calls. The C++ ``pyspiel.ISMCTSBot``
cannot play it: OpenSpiel's C++ wrapper of Python states does not forward
``ResampleFromInfostate`` to Python (open-spiel 2.0.2) and the interpreter crashes (it does the same on OpenSpiel's own Python
``kuhn_poker``). ``MCTSBot`` would search clones of the true state (every hand visible): do
not use it on Qwirkle. Qwirkle's rules allow trading forever while the bag holds tiles, so
its length has no bound either; ``max_game_length`` is 3000 steps, far above any game seen
(random games of 2-4 players took 130 to 216 steps, docs/python.md).
"""

from __future__ import annotations

import copy
import json
from typing import Optional

import numpy as np
import pyspiel

from . import AzulGame, QwirkleGame
from ._tessera import _check_seed

SHORT_NAME = "python_tessera_azul"
MAX_GAME_LENGTH = 2000
QWIRKLE_SHORT_NAME = "python_tessera_qwirkle"
QWIRKLE_MAX_GAME_LENGTH = 3000


def _game_type(short_name: str, long_name: str, hidden_hands: bool) -> pyspiel.GameType:
    """The facts of a Tessera game for OpenSpiel: sequential, chance inside the state (module
    docs: declared deterministic), constant-sum
    terminal rewards for 2-4 players; with hidden hands it is imperfect information and
    provides information-state strings."""
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=info.IMPERFECT_INFORMATION if hidden_hands else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=hidden_hands,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2, "seed": 0},
    )


_GAME_TYPE = _game_type(SHORT_NAME, "Tessera Azul (Rust engine)", hidden_hands=False)
_QWIRKLE_TYPE = _game_type(QWIRKLE_SHORT_NAME, "Tessera Qwirkle (Rust engine)", hidden_hands=True)


def _check_params(name: str, params) -> tuple[int, int]:
    params = dict(params or {})
    players = params.get("players", 2)
    seed = params.get("seed", 0)
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"{name} is for 2 to 4 players, not {players!r}")
    return players, _check_seed(seed)


class _Chance:
    """The game's generator of game seeds (one per game started)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def next_seed(self) -> int:
        return int(self.rng.integers(0, 2**63 - 1))


class _Slot:
    """A state's game handle, made on first use from the next seed of the game's generator.

    OpenSpiel clones a Python state by calling ``new_initial_state()`` and deep-copying the
    original's fields into the result; the slot makes that cheap and seed-neutral: a fresh
    state takes no seed until it is used, and a slot being copied fills itself first, so
    the copy and the original play the same game."""

    def __init__(self, make, chance: Optional[_Chance]):
        self._make = make
        self._chance = chance
        self._handle = None

    @classmethod
    def holding(cls, handle) -> "_Slot":
        s = cls(None, None)
        s._handle = handle
        return s

    @property
    def handle(self):
        if self._handle is None:
            assert self._make is not None and self._chance is not None
            self._handle = self._make(self._chance.next_seed())
            self._make = self._chance = None
        return self._handle

    def __deepcopy__(self, memo):
        return _Slot.holding(self.handle.copy())

    def __reduce__(self):
        # Pickled (``state.serialize()``, ``pickle``) as the handle it holds, made first if
        # needed: the handle pickles its state and its chance stream's position.
        return (_Slot.holding, (self.handle,))


def _init_game(game, name, handle_cls, game_type, max_length, params):
    """The common set-up of a Tessera game for OpenSpiel: checked parameters, the game's
    facts from a probe handle, and the generator of the games' chance seeds."""
    players, seed = _check_params(name, params)
    probe = handle_cls(players, 0)
    info = pyspiel.GameInfo(
        num_distinct_actions=probe.num_actions,
        max_chance_outcomes=0,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=max_length,
    )
    pyspiel.Game.__init__(game, game_type, info, {"players": players, "seed": seed})
    game._players = players
    game._obs_len = probe.observation_len
    game._chance = _Chance(seed)


class AzulSpielGame(pyspiel.Game):
    """Azul for OpenSpiel; parameters ``players`` (2-4) and ``seed`` (deals)."""

    def __init__(self, params=None):
        _init_game(self, "Azul", AzulGame, _GAME_TYPE, MAX_GAME_LENGTH, params)

    def new_initial_state(self):
        return AzulSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return AzulObserver(self._obs_len, params)


class AzulSpielState(pyspiel.State):
    """A state: a ``tessera.AzulGame`` handle (copied by ``clone()``)."""

    def __init__(self, game: AzulSpielGame):
        super().__init__(game)
        players = game._players
        self._slot = _Slot(lambda seed: AzulGame(players, seed), game._chance)

    @property
    def game_handle(self) -> AzulGame:
        """The underlying ``tessera.AzulGame`` (for ``tessera.Agent.act``)."""
        return self._slot.handle

    def current_player(self):
        p = self.game_handle.current_player
        return pyspiel.PlayerId.TERMINAL if p is None else p

    def _legal_actions(self, player):
        return self.game_handle.legal_actions()

    def _apply_action(self, action):
        self.game_handle.step(int(action))

    def _action_to_string(self, player, action):
        return self.game_handle.action_to_string(int(action))

    def is_terminal(self):
        return self.game_handle.is_terminal

    def returns(self):
        return list(self.game_handle.returns())

    def __str__(self):
        return self.game_handle.notation()


class AzulObserver:
    """The observation tensor (``AzulGame.observation``) and string (the notation)."""

    def __init__(self, length: int, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.tensor = np.zeros(length, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        state.game_handle.observation_into(player, self.tensor)

    def string_from(self, state, player):
        return state.game_handle.notation()


class QwirkleSpielGame(pyspiel.Game):
    """Qwirkle for OpenSpiel; parameters ``players`` (2-4) and ``seed`` (deals and draws)."""

    def __init__(self, params=None):
        _init_game(self, "Qwirkle", QwirkleGame, _QWIRKLE_TYPE, QWIRKLE_MAX_GAME_LENGTH, params)

    def new_initial_state(self):
        return QwirkleSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return QwirkleObserver(self._obs_len, iig_obs_type, params)


def _hand(handle: QwirkleGame, seat: int) -> str:
    return " ".join(json.loads(handle.view_json(seat))["hand"]) or "-"


class _QwirkleRecord:
    """What the players have seen so far, beside the handle: every seat's first hand and
    the log of whole moves ``(seat, public text, full text, the mover's hand after)``.
    Immutable entries; copied with the state."""

    def __init__(self, handle: QwirkleGame):
        self.first_hands = [_hand(handle, p) for p in range(handle.players)]
        self.log: list[tuple[int, str, str, str]] = []

    def known_to(self, seat: int) -> "_QwirkleRecord":
        """A copy holding only what ``seat`` knows: the other seats' deals, traded tiles and
        hands are ``?`` (a resampled state must not carry them, whoever's information
        state is asked of it)."""
        r = copy.copy(self)
        r.first_hands = [h if p == seat else "?" for p, h in enumerate(self.first_hands)]
        r.log = [e if e[0] == seat else (e[0], e[1], e[1], "?") for e in self.log]
        return r


class QwirkleSpielState(pyspiel.State):
    """A state: a ``tessera.QwirkleGame`` handle and the players' record (both copied by
    ``clone()``). ``str(state)`` is the full state with every hand (the referee's view, as
    OpenSpiel's ``ToString``); players see ``observation_string`` and
    ``information_state_string``."""

    def __init__(self, game: QwirkleSpielGame):
        super().__init__(game)
        players = game._players
        self._slot = _Slot(lambda seed: QwirkleGame(players, seed), game._chance)
        self._record_: Optional[_QwirkleRecord] = None

    @property
    def game_handle(self) -> QwirkleGame:
        """The underlying ``tessera.QwirkleGame`` (every hand in it: for a referee, or for
        ``tessera.Agent.act``, which determinizes it itself)."""
        return self._slot.handle

    @property
    def _record(self) -> _QwirkleRecord:
        if self._record_ is None:
            self._record_ = _QwirkleRecord(self.game_handle)
        return self._record_

    def current_player(self):
        p = self.game_handle.current_player
        return pyspiel.PlayerId.TERMINAL if p is None else p

    def _legal_actions(self, player):
        return self.game_handle.legal_actions()

    def _apply_action(self, action):
        g = self.game_handle
        record = self._record
        g.step(int(action))
        if not g.pending():
            # The step completed a move (a placement, a trade or a pass) and drew tiles.
            last = g.last_move()
            assert last is not None, "a move was just completed"
            seat, public, full = last
            record.log.append((seat, public, full, _hand(g, seat)))

    def _action_to_string(self, player, action):
        return self.game_handle.describe(int(action))

    def is_terminal(self):
        return self.game_handle.is_terminal

    def returns(self):
        return list(self.game_handle.returns())

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state of ``player_id``'s information set: the tiles the player has not seen
        (other hands, the bag) dealt again at random among the other hands and the bag
        (``QwirkleGame.determinize``, the engine's determinization: uniform, so it ignores
        what the order of past draws and the opponents' choices hint), from a seed taken
        from ``probability_sampler`` (a callable returning a float in [0, 1), such as
        ``pyspiel.UniformProbabilitySampler``); later draws from that seed too. Another
        seat's pending tiles are dropped (the player never saw them), and so is what the
        other seats alone know of the past (their deals, traded tiles and hands: ``?`` in
        their information states)."""
        seed = int(float(probability_sampler()) * 2**53)
        other = QwirkleSpielState(self.get_game())
        other._slot = _Slot.holding(self.game_handle.determinize(int(player_id), seed))
        other._record_ = self._record.known_to(int(player_id))
        return other

    def __str__(self):
        return self.game_handle.notation()


class QwirkleObserver:
    """What one seat sees of a Qwirkle state.

    Tensor: ``QwirkleGame.observation(seat)`` (docs/python.md; board planes, own hand,
    scores, hand sizes, bag size; the pending tiles only for the mover). String: the same
    facts in words (``seat 0 hand R1 O3 | scores 0,0 | hands 6,6 | bag 96 | first 2 |
    to move 0 | board -``, ``| pending R1@0,0`` for the mover). With perfect recall (the
    information state) the string adds the seat's first hand and every whole move since,
    others' trades as ``trade N`` only, its own moves with the tiles and its hand after;
    there is no information-state tensor (a fixed-size tensor of a whole history does not
    fit). Only observers of a single player's private information are offered."""

    def __init__(self, length: int, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                "Qwirkle observers show one player's own hand and the public table: "
                f"private_info SINGLE_PLAYER with public_info, not {iig_obs_type}"
            )
        self.perfect_recall = iig_obs_type.perfect_recall
        if self.perfect_recall:
            self.tensor = None
            self.dict = {}
        else:
            self.tensor = np.zeros(length, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.tensor is not None:
            self.tensor[:] = state.game_handle.observation(player)

    def string_from(self, state, player):
        g = state.game_handle
        view = json.loads(g.view_json(player))
        board = next(kv for kv in g.notation().split() if kv.startswith("board="))[6:]
        mover = g.current_player
        parts = [
            f"seat {player} hand {' '.join(view['hand']) or '-'}",
            f"scores {','.join(map(str, view['scores']))}",
            f"hands {','.join(map(str, view['hand_sizes']))}",
            f"bag {view['bag_size']}",
            f"first {view['first_move_size'] or '-'}",
            "over" if mover is None else f"to move {mover}",
            f"board {board}",
        ]
        if mover == player and g.pending():
            parts.append("pending " + " ".join(cell for _, cell in g.pending()))
        text = " | ".join(parts)
        if not self.perfect_recall:
            return text
        record = state._record
        lines = [text, f"dealt {record.first_hands[player]}"]
        for seat, public, full, hand in record.log:
            if seat == player:
                lines.append(f"{seat}: {full} -> {hand}")
            else:
                lines.append(f"{seat}: {public}")
        return "\n".join(lines)


for _type, _cls in ((_GAME_TYPE, AzulSpielGame), (_QWIRKLE_TYPE, QwirkleSpielGame)):
    if _type.short_name not in {g.short_name for g in pyspiel.registered_games()}:
        pyspiel.register_game(_type, _cls)
