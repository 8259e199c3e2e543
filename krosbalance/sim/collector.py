"""The garbage collector's pace during bulk play.

A match allocates hundreds of thousands of short-lived objects (plans, steps, tuples) and almost
no reference cycles, so CPython's default first-generation threshold (700 allocations) starts a
collection every few hundred microseconds that finds nearly nothing: about 3% of a heuristic
match's time (measured with ``make bench``). :func:`bulk_collection` raises that threshold while a
batch is played and puts the caller's settings back afterwards; the cycles a match does leave are
still collected, only less often. Nothing a match decides depends on it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["BULK_THRESHOLD", "bulk_collection"]

#: first-generation allocations between two collections during bulk play (CPython's default: 700)
BULK_THRESHOLD = 50_000


@contextmanager
def bulk_collection(threshold: int = BULK_THRESHOLD) -> Iterator[None]:
    """Collect the first generation every ``threshold`` allocations inside the block (never more
    often than the caller's own setting), restoring the caller's thresholds on the way out."""
    saved = gc.get_threshold()
    gc.set_threshold(max(threshold, saved[0]), *saved[1:])
    try:
        yield
    finally:
        gc.set_threshold(*saved)
