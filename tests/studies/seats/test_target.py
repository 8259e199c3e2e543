"""The seats study's headline quantity for ``[target]``: each character's strength at the table,
half-width in log-odds, from the report's own conditional logit (``character_strength``)."""

from __future__ import annotations

import pytest

from krosbalance.studies.seats import target
from krosbalance.studies.seats.tables import character_strength, seat_table
from tests.studies.seats.test_seats import POOL, _star, seat_world


def test_half_widths_are_the_conditional_logits_intervals() -> None:
    matches = seat_world(60, _star(0.6), pool=(*POOL, "star"), seed=6)
    widths = target.half_widths(matches)
    strength = character_strength(seat_table(matches))
    chars = strength[strength["kind"] == "character"]
    assert len(widths) == len(chars) >= 2
    for term, arm, low, high in zip(
        chars["term"], chars["arm"], chars["ci_low"], chars["ci_high"], strict=True
    ):
        assert widths[f"{term} · {arm}"] == pytest.approx((high - low) / 2)
    assert target.half_widths(matches.iloc[:0]) == {}
    assert target.problem(object()) == ""
