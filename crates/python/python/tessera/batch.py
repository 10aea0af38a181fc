"""Many Azul games stepped in one call, for learning throughput (docs/python.md).

    import numpy as np
    from tessera.batch import AzulBatch
    b = AzulBatch(1024, players=2, seed=0)
    obs, masks, rewards, dones, to_move = b.arrays()
    for _ in range(1000):
        obs, masks, rewards, dones, to_move = b.step(b.sample_actions())

``QwirkleBatch`` is the same for Qwirkle (the same engine), one step id per game (a
placement is built tile by tile, as in ``QwirkleGame``). Game ``i``'s ``e``-th game starts
from seed ``seed + i + e * n``, or ``seeds[i] + e * n`` when ``seeds`` (one per game) is
given.

``step`` takes a 1-D int64 array of action ids (one per game), releases the GIL and steps
the games on every core, restarts finished games, and writes the outputs into the batch's
own preallocated arrays (the same objects every call: copy what you keep).
"""

from ._tessera import MAX_BATCH, MAX_QWIRKLE_BATCH, AzulBatch, QwirkleBatch

#: The most games one ``AzulBatch`` holds (2**20); a larger ``n`` is a ValueError raised
#: before anything is allocated.
MAX_GAMES = MAX_BATCH

#: The most games one ``QwirkleBatch`` holds (2**14: about 100 KB a game).
MAX_QWIRKLE_GAMES = MAX_QWIRKLE_BATCH

__all__ = ["AzulBatch", "MAX_GAMES", "MAX_QWIRKLE_GAMES", "QwirkleBatch"]
