"""Tessera from Python: exact Azul and Qwirkle engines with fixed action ids and numpy
observations (``AzulGame``, ``QwirkleGame``), Match the Tiles (``MatchTiles``), our agents
(``Agent``), PettingZoo environments in ``tessera.envs`` (``azul_v0``, ``qwirkle_v0``) and
the Gymnasium environment ``tessera/MatchTiles-v0``. See docs/python.md."""

from ._tessera import Agent, AzulGame, MatchTiles, QwirkleGame, __version__

__all__ = ["Agent", "AzulGame", "MatchTiles", "QwirkleGame", "__version__"]

try:
    import gymnasium as _gym
except ImportError:  # the environments are optional
    _gym = None

if _gym is not None and "tessera/MatchTiles-v0" not in _gym.registry:
    _gym.register(
        id="tessera/MatchTiles-v0",
        entry_point="tessera.envs.match_tiles:MatchTilesEnv",
    )
