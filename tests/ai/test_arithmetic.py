"""plain_sum adds left to right, as the core does, on every Python version."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from krosbalance.ai.arithmetic import plain_sum


def test_plain_sum_does_not_compensate_rounding() -> None:
    values = [1e16, 1.0, -1e16]
    assert plain_sum(values) == 0.0 != math.fsum(values)  # 1e16 + 1.0 rounds back to 1e16
    assert plain_sum([]) == 0.0 and plain_sum(iter([0.5, 0.25])) == 0.75


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), max_size=30))
def test_plain_sum_is_the_running_total(values: list[float]) -> None:
    total = 0.0
    for value in values:
        total = total + value
    assert plain_sum(values) == total
