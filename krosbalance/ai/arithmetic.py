"""Float arithmetic the AIs share with the native core, written so both give the same bits.

Python 3.12 made ``sum()`` of floats compensated (Neumaier), while the core adds left to right as
Rust's ``Iterator::sum`` does; under 3.12 a search's mean or a value's total could then differ from
the core's in the last bit and turn a tie the other way. Every float total a decision reads goes
through :func:`plain_sum`, which adds in order on every Python version (3.11's ``sum()`` did the same).
"""

from __future__ import annotations

from collections.abc import Iterable


def plain_sum(values: Iterable[float]) -> float:
    """The left-to-right float total of ``values`` (0.0 when empty), without compensation."""
    total = 0.0
    for value in values:
        total += value
    return total
