"""The challenges study's headline quantity for ``[target]``: each challenge's shift of the first
player's win rate, half-width in points, from the report's own table (``verdicts``)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from krosbalance.studies.challenges import target
from krosbalance.studies.challenges.tables import blast_matches, verdicts
from tests.studies.challenges.test_tables import table


def test_half_widths_are_the_verdict_tables_intervals_in_points() -> None:
    matches = table(60, first_wins_iop=0.7)
    widths = target.half_widths(matches)
    v = verdicts(blast_matches(matches))
    assert set(widths) == set(v["arm"]) and len(widths) == 1
    for arm, low, high in zip(v["arm"], v["first_lo"], v["first_hi"], strict=True):
        assert widths[arm] == pytest.approx(100 * (high - low) / 2)
    assert target.half_widths(matches.iloc[:0]) == {}


def test_a_tier_sweep_cannot_be_sized() -> None:
    assert "neutral threshold" in target.problem(SimpleNamespace(sweep=json.dumps({"kind": "challenge"})))
    assert target.problem(SimpleNamespace(sweep="")) == ""
