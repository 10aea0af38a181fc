"""Azul (2-4 players) as a PettingZoo AEC environment.

    from tessera.envs import azul_v0
    env = azul_v0.env(players=3, render_mode="ansi")

Action ids: ``source * 30 + colour * 6 + destination`` (source 0 = centre, 1-9 = factory;
colour B Y R K W = 0-4; destination 0-4 = pattern line 1-5, 5 = floor); observations are
float32 vectors (docs/python.md has both tables). The deals happen inside ``step``, from the
seed given to ``reset``.
"""

from __future__ import annotations

from .. import AzulGame
from ..render import azul_rgb
from ._base import TesseraAECEnv, TurnBasedParallelEnv, wrap

COLOURS = "BYRKW"


def _check_players(players) -> int:
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"Azul is for 2 to 4 players, not {players!r}")
    return players


class raw_env(TesseraAECEnv):
    """The unwrapped environment; ``env()`` adds PettingZoo's standard wrappers."""

    RENDER_MODES = ("ansi", "human", "rgb_array")
    metadata = dict(TesseraAECEnv.metadata, render_modes=list(RENDER_MODES))

    def __init__(self, players: int = 2, render_mode: str | None = None, **kwargs):
        game = AzulGame(_check_players(players), 0)
        super().__init__(game, "tessera_azul_v0", render_mode=render_mode, **kwargs)

    def render_text(self) -> str:
        return render_azul(self.game.notation(), self.game.round)

    def render_rgb(self):
        """The table as an ``H x W x 3`` uint8 image (``tessera.render.azul_rgb``)."""
        return azul_rgb(self.game)


def env(players: int = 2, render_mode: str | None = None, **kwargs):
    """Azul wrapped like PettingZoo's classic games (order enforcing, bounds checked)."""
    e = raw_env(players=players, render_mode=render_mode, **kwargs)
    return wrap(e)


def parallel_env(players: int = 2, render_mode: str | None = None, max_cycles=None, **kwargs):
    """A turn-based parallel view: every step takes an action per agent and plays the one of
    the agent to move (the others' masks are all zero)."""
    return TurnBasedParallelEnv(
        raw_env(players=players, render_mode=render_mode, **kwargs), max_cycles=max_cycles
    )


def render_azul(notation: str, round_: int) -> str:
    """A readable table from a state in notation."""
    f = notation.split()
    players, phase, mover = int(f[0]), f[2], int(f[4])
    lines = [f"Azul, {players} players, round {round_}, {phase}"]
    if phase == "play":
        # The notation numbers seats from 1; the agents are player_0, player_1, ...
        lines[0] += f", player_{mover - 1} to move"
    lines.append("factories: " + "  ".join(f"{i + 1}:{t}" for i, t in enumerate(f[5].split("/"))))
    lines.append(f"centre: {f[6]}   bag: {f[7]}   lid: {f[8]}")
    for p, board in enumerate(f[9 : 9 + players]):
        score, pattern, wall, floor = board.split(":")
        lines.append(f"player_{p} score {score}  floor {floor}")
        for row, (pl, w) in enumerate(zip(pattern.split(","), wall.split("/"))):
            cells = "." * (row + 1) if pl == "-" else (pl[0] * int(pl[1:])).rjust(row + 1, ".")
            lines.append(f"  {cells.rjust(5)} | {w}")
    return "\n".join(lines)
