"""Tessera from Python: exact Azul and Qwirkle engines with fixed action ids and numpy
observations (``AzulGame``, ``QwirkleGame``), and PettingZoo environments in
``tessera.envs`` (``azul_v0``, ``qwirkle_v0``). See docs/python.md."""

from ._tessera import Agent, AzulGame, QwirkleGame, __version__

__all__ = ["Agent", "AzulGame", "QwirkleGame", "__version__"]
