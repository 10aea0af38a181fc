"""PettingZoo environments of Tessera's games (``azul_v0`` and ``qwirkle_v0``, AEC and
parallel), Azul against one of our agents for Gymnasium (``azul_single_v0``, registered as
``tessera/AzulVsAgent-v0``) and Azul games as a Gymnasium vector environment over the batch
engine (``azul_vector``).

Import the module of a game (``from tessera.envs import azul_v0``); PettingZoo and
Gymnasium are needed only here.
"""

__all__ = ["azul_v0", "azul_single_v0", "azul_vector", "qwirkle_v0"]
