"""The Duel Pack study's headline quantity for ``[target]``: each figure's duel win rate half-width,
in points, from the report's own table (``figure_win_rates``)."""

from __future__ import annotations

import pytest

from krosbalance.studies.duel import target
from krosbalance.studies.duel.tables import duel_frame, figure_win_rates
from tests.studies.duel.test_duel import round_robin


def test_half_widths_are_the_win_rate_tables_intervals_in_points() -> None:
    matches = round_robin()
    widths = target.half_widths(matches)
    rates = figure_win_rates(duel_frame(matches))
    assert set(widths) == set(rates["character"]) and len(widths) >= 2
    for name, low, high in zip(rates["character"], rates["ci_low"], rates["ci_high"], strict=True):
        assert widths[name] == pytest.approx(100 * (high - low) / 2)
    assert target.half_widths(matches.iloc[:0]) == {}
    assert target.problem(object()) == "" and target.DEFAULT_HALF_WIDTH == 4.0
