"""Many Azul games stepped in one call, for learning throughput (docs/python.md).

    import numpy as np
    from tessera.batch import AzulBatch
    b = AzulBatch(1024, players=2, seed=0)
    obs, masks, rewards, dones, to_move = b.arrays()
    for _ in range(1000):
        obs, masks, rewards, dones, to_move = b.step(b.sample_actions())

``step`` takes a 1-D int64 array of action ids (one per game), releases the GIL and steps
the games on every core, restarts finished games, and writes the outputs into the batch's
own preallocated arrays (the same objects every call: copy what you keep).
"""

from ._tessera import AzulBatch

__all__ = ["AzulBatch"]
