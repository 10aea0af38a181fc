"""PettingZoo environments of Tessera's games: ``azul_v0`` and ``qwirkle_v0``.

Import the module of a game (``from tessera.envs import azul_v0``); PettingZoo and
Gymnasium are needed only here.
"""

__all__ = ["azul_v0", "qwirkle_v0"]
