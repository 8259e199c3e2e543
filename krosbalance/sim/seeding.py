"""Per-deal seeds derived in the parent from one master seed.

Every deal (one shuffle of fate for one pairing, played once or twice with sides swapped) gets the
seed of child ``d`` of ``SeedSequence(master_seed)``, where ``d`` is the deal's global index in the
expanded experiment. ``SeedSequence(master, spawn_key=(d,))`` is exactly what
``SeedSequence(master).spawn(n)[d]`` returns, so seeds can be computed for any deal without spawning all
of them, and they depend only on ``(master_seed, d)`` — never on worker, batch or job count.

The int handed to ``play_match`` is the child's first 64-bit state word shifted right by one bit, so it
is a non-negative int64 (it fits the Parquet ``seed`` column) with 63 bits of entropy.
"""

from __future__ import annotations

import numpy as np


def deal_seed(master_seed: int, deal_index: int) -> int:
    """The int seed of deal ``deal_index`` (equal to the ``deal_index``-th child of ``spawn``)."""
    child = np.random.SeedSequence(master_seed, spawn_key=(deal_index,))
    return int(child.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def deal_seeds(master_seed: int, n_deals: int) -> list[int]:
    """Seeds of deals ``0 .. n_deals - 1``, via ``SeedSequence(master_seed).spawn(n_deals)``."""
    children = np.random.SeedSequence(master_seed).spawn(n_deals)
    return [int(c.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)) for c in children]
